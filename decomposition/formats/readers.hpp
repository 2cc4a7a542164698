// The readers and writers of each format, one file each; formats.cpp dispatches to them by name.
// A reader returns the scheme in trace form with its term lines; ring and provenance are set by
// formats.cpp (finish_import) the same way for all.
#pragma once
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "decomposition/formats/imported.hpp"

namespace tdisc::fmt {

// Every reader: (path for messages and name hints, file content, options).
ImportedScheme read_exp(const std::string& path, const std::string& text, const ImportOptions& opt);
ImportedScheme read_maple(const std::string& path, const std::string& text, const ImportOptions& opt);
ImportedScheme read_fmm_mpl(const std::string& path, const std::string& text, const ImportOptions& opt);
ImportedScheme read_perminov_json(const std::string& path, const std::string& text, const ImportOptions& opt);
ImportedScheme read_fast_matmul(const std::string& path, const std::string& text, const ImportOptions& opt);
ImportedScheme read_flip_cpd(const std::string& path, const std::string& text, const ImportOptions& opt);
ImportedScheme read_alphaevolve_ipynb(const std::string& path, const std::string& text, const ImportOptions& opt);
ImportedScheme read_alphatensor_npz(const std::string& path, const std::string& bytes, const ImportOptions& opt);
ImportedScheme read_qcsr_npz(const std::string& path, const std::string& bytes, const ImportOptions& opt);
// A catalogue entry schemes/<n>.json of an AntoineTilloy/explicit-matmul-schemes checkout: its
// objects are read from the checkout around it (cwschemes.cpp).
ImportedScheme read_cwschemes(const std::string& path, const std::string& text, const ImportOptions& opt);

std::vector<std::string> alphaevolve_keys(const std::string& path, const std::string& text);
std::vector<std::string> alphatensor_keys(const std::string& path, const std::string& bytes);

std::string write_exp(const Scheme& s);
std::string write_maple(const Scheme& s);
std::string write_fmm_mpl(const Scheme& s);
std::string write_perminov_json(const Scheme& s);
std::string write_fast_matmul(const Scheme& s);
std::string write_latex(const Scheme& s);
std::string write_python(const Scheme& s);
std::string write_slp(const Scheme& s);

// Shared by the straight-line text formats (perminov "multiplications"/"elements", flip-cpd, slp):
// products "mK = (A-form)(B-form)" and outputs "cIK = Σ coeff·mK", C orientation.
struct ProductLines {
  std::vector<std::string> products;  // text after "mK =", in order K = 1..R
  std::vector<int> product_lines;     // source line of each
  std::vector<std::pair<std::string, std::string>> outputs;  // ("c12", text after '=')
  std::vector<int> output_lines;
};
// Builds a trace-form scheme of format f. Names: "a12"/"b12"/"c12" (two 1-based digits, c = C[i][k])
// when flat is false; "a5"/"b5"/"c5" (1-based row-major flat index) when flat is true.
ImportedScheme scheme_from_products(const std::string& path, const ProductLines& lines, Format f, bool flat);

// Helpers for writers.
void require_real(const Scheme& s, const std::string& format);     // InputError if complex
void require_single_digits(const Scheme& s, const std::string& format);  // InputError if a dim > 9
// Builds W[k][i] → C[i][k] per product: c_forms[i·p+k] = {r: W_r[k][i]}.
std::vector<std::map<int, Coeff>> output_forms(const Scheme& s);
// The non-zero entries of row r of a factor matrix, column → coefficient.
std::map<int, Coeff> row_form(const CoeffMatrix& m, int r);
// Maple coefficients: "-1/2", "1/2+1/2*I" (I is Maple's imaginary unit). parse: nullopt if malformed.
std::string maple_coeff_text(const Coeff& c);
std::optional<Coeff> parse_maple_coeff(std::string_view text);
// Dimensions found in a file must match the ones the name or --dims state.
void check_dims(const std::string& path, int line, const Format& found, const std::optional<Format>& stated);

}  // namespace tdisc::fmt
