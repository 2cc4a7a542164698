// AlphaEvolve's notebook (google-deepmind/alphaevolve_results mathematical_results.ipynb): code cells
// assign decomposition_<nmp> = (np.array([[…]]), np.array(…), np.array(…)) with shapes (nm,R),
// (mp,R), (pn,R) — columns are terms, trace form; values like "-0.", "0.5+0.5j", "-0.5-0.j".
#include <cctype>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "base/limits.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/json_input.hpp"

namespace tdisc::fmt {

using nlohmann::json;

namespace {

struct Assignment {
  std::string key;     // "444"
  std::shared_ptr<const std::string> source;  // the cell's source text (shared: a cell may hold many)
  size_t at = 0;       // offset of "decomposition_444 =" in source
  int file_line = 0;   // line of the assignment in the .ipynb file
};

// Every "decomposition_<word> = (" in a cell's source: (offset of the assignment, word). A scan,
// not std::regex: libstdc++'s regex recurses once per character of \w+, so a long name overflowed
// the stack (found by fuzzing).
std::vector<std::pair<size_t, std::string>> assignments_in(const std::string& src) {
  static const std::string prefix = "decomposition_";
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::vector<std::pair<size_t, std::string>> out;
  for (size_t at = src.find(prefix); at != std::string::npos; at = src.find(prefix, at + 1)) {
    if (at > 0 && word_char(src[at - 1])) continue;
    size_t k = at + prefix.size(), start = k;
    while (k < src.size() && word_char(src[k])) ++k;
    if (k == start) continue;
    size_t after = k;
    while (after < src.size() && std::isspace(static_cast<unsigned char>(src[after]))) ++after;
    if (after >= src.size() || src[after] != '=') continue;
    ++after;
    while (after < src.size() && std::isspace(static_cast<unsigned char>(src[after]))) ++after;
    if (after < src.size() && src[after] == '(') out.emplace_back(at, src.substr(start, k - start));
  }
  return out;
}

std::vector<Assignment> assignments(const std::string& path, const std::string& text) {
  json nb = parse_json_input(text, path, "a notebook");
  if (!nb.is_object() || !nb.contains("cells") || !nb["cells"].is_array())
    throw InputError(path, 1, "not a Jupyter notebook (no \"cells\")");
  std::vector<Assignment> out;
  for (const json& cell : nb["cells"]) {
    if (!cell.is_object() || !cell.contains("cell_type") || cell["cell_type"] != "code" || !cell.contains("source")) continue;
    std::string src;
    if (cell["source"].is_array())
      for (const json& l : cell["source"]) src += l.is_string() ? l.get<std::string>() : "";
    else if (cell["source"].is_string())
      src = cell["source"].get<std::string>();
    auto shared = std::make_shared<const std::string>(std::move(src));
    for (auto& [at, key] : assignments_in(*shared)) out.push_back(Assignment{key, shared, at, 0});
  }
  return out;
}

// Reads np.array([[…],…], dtype=…) from the cell text: a rows × cols matrix of complex literals.
struct ArrayReader {
  const std::string& path;
  const Assignment& a;
  size_t pos;

  int line() const {  // one notebook line per source line (nbformat's pretty printing)
    int in_cell = 0;
    for (size_t k = a.at; k < pos && k < (*a.source).size(); ++k) in_cell += (*a.source)[k] == '\n';
    return a.file_line + in_cell;
  }
  [[noreturn]] void fail(const std::string& what) const { throw InputError(path, line(), what); }
  void skip() {
    while (pos < (*a.source).size() && std::isspace(static_cast<unsigned char>((*a.source)[pos]))) ++pos;
  }
  void expect(const std::string& word) {
    skip();
    if ((*a.source).compare(pos, word.size(), word) != 0) fail("expected '" + word + "' in decomposition_" + excerpt(a.key));
    pos += word.size();
  }
  Coeff value() {
    skip();
    size_t start = pos;
    while (pos < (*a.source).size() && (*a.source)[pos] != ',' && (*a.source)[pos] != ']') ++pos;
    std::string t;
    for (size_t k = start; k < pos; ++k)
      if (!std::isspace(static_cast<unsigned char>((*a.source)[k]))) t += (*a.source)[k] == 'j' ? 'i' : (*a.source)[k];
    if (t.find_first_of("eE") != std::string::npos) fail("'" + excerpt(t) + "' is not an exact coefficient (exponent notation)");
    auto c = Coeff::parse(t);
    if (!c) fail("not a coefficient: '" + excerpt(t) + "'");
    return *c;
  }
  std::vector<std::vector<Coeff>> array() {
    expect("np.array(");
    expect("[");
    std::vector<std::vector<Coeff>> rows;
    for (;;) {
      expect("[");
      std::vector<Coeff> row;
      for (;;) {
        row.push_back(value());
        skip();
        if (pos < (*a.source).size() && (*a.source)[pos] == ',') {
          ++pos;
          continue;
        }
        expect("]");
        break;
      }
      if (!rows.empty() && row.size() != rows[0].size()) fail("ragged array: rows of different lengths");
      rows.push_back(std::move(row));
      skip();
      if (pos < (*a.source).size() && (*a.source)[pos] == ',') {
        ++pos;
        skip();
        if ((*a.source).compare(pos, 1, "[") == 0) continue;
      }
      expect("]");
      break;
    }
    skip();
    // Optional ", dtype=np.float32" up to the closing parenthesis.
    size_t close = (*a.source).find(')', pos);
    if (close == std::string::npos) fail("unterminated np.array( (truncated?)");
    pos = close + 1;
    return rows;
  }
};

std::string notebook_key(const std::string& key) {
  std::string digits;
  for (char c : key)
    if (c != ',' && c != 'x' && c != ' ') digits += c;
  return digits;
}

std::string key_list(const std::vector<Assignment>& as) {
  std::string out;
  for (auto& a : as) out += (out.empty() ? "" : " ") + excerpt(a.key);
  return out;
}

}  // namespace

std::vector<std::string> alphaevolve_keys(const std::string& path, const std::string& text) {
  std::vector<std::string> keys;
  for (auto& a : assignments(path, text)) keys.push_back(a.key);
  return keys;
}

ImportedScheme read_alphaevolve_ipynb(const std::string& path, const std::string& text, const ImportOptions& opt) {
  auto as = assignments(path, text);
  if (as.empty()) throw InputError(path, 0, "no decomposition_<nmp> = (…) assignment in this notebook");
  const Assignment* chosen = nullptr;
  if (opt.key.empty() && as.size() > 1)
    throw InputError(path, 0, "this notebook holds " + std::to_string(as.size()) + " schemes: choose one with --key (" + key_list(as) + ")");
  for (auto& a : as)
    if (opt.key.empty() || a.key == notebook_key(opt.key)) chosen = &a;
  if (!chosen) throw InputError(path, 0, "no scheme with key \"" + opt.key + "\"; keys available: " + key_list(as));
  Assignment a = *chosen;
  // Looked up for the chosen scheme only: a search per assignment was quadratic in the notebook.
  size_t in_file = text.find("decomposition_" + a.key + " = ");
  a.file_line = in_file == std::string::npos ? 0 : line_of_offset(text, in_file);
  if (a.key.size() != 3 || !std::isdigit(static_cast<unsigned char>(a.key[0])) ||
      !std::isdigit(static_cast<unsigned char>(a.key[1])) || !std::isdigit(static_cast<unsigned char>(a.key[2])))
    throw InputError(path, a.file_line, "cannot read the dimensions from the name decomposition_" + excerpt(a.key));
  Format f{a.key[0] - '0', a.key[1] - '0', a.key[2] - '0'};
  if (opt.dims) check_dims(path, a.file_line, f, opt.dims);
  ArrayReader rd{path, a, a.source->find('(', a.at) + 1};
  auto u = rd.array();
  rd.expect(",");
  auto v = rd.array();
  rd.expect(",");
  auto w = rd.array();
  const size_t R = u[0].size();
  auto check = [&](const std::vector<std::vector<Coeff>>& m, int rows, const char* what) {
    if (static_cast<int>(m.size()) != rows || m[0].size() != R)
      throw InputError(path, a.file_line, std::string(what) + " has shape (" + std::to_string(m.size()) + "," +
                                              std::to_string(m[0].size()) + "), expected (" + std::to_string(rows) +
                                              "," + std::to_string(R) + ") for " + f.str() + " — wrong dimensions?");
  };
  check(u, f.a_size(), "the first array (u)");
  check(v, f.b_size(), "the second array (v)");
  check(w, f.c_size(), "the third array (w)");
  ImportedScheme im;
  im.scheme = Scheme::zeros(f, static_cast<int>(R));
  for (size_t r = 0; r < R; ++r) {
    const int t = static_cast<int>(r);
    for (int x = 0; x < f.a_size(); ++x) im.scheme.u(t, x) = u[x][r];
    for (int x = 0; x < f.b_size(); ++x) im.scheme.v(t, x) = v[x][r];
    for (int x = 0; x < f.c_size(); ++x) im.scheme.w(t, x) = w[x][r];
    im.term_lines.push_back(a.file_line);  // a term is a column spread over many lines
  }
  return im;
}

}  // namespace tdisc::fmt
