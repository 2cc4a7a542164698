// Perminov's JSON (dronperminov/FastMatrixMultiplication schemes/results/): {"n":[n,m,p], "m":R,
// "z2":bool, "u","v","w": R rows (w = Cᵀ, trace form), "multiplications"/"elements": the same
// scheme as text. Files with only the text form are read from it; with both, they must agree.
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/formats/expr.hpp"
#include "decomposition/formats/hints.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/scheme_limits.hpp"

namespace tdisc::fmt {

using nlohmann::json;

namespace {

int key_line(const std::string& text, const char* key) {
  size_t at = text.find(std::string("\"") + key + "\"");
  return at == std::string::npos ? 0 : line_of_offset(text, at);
}

std::optional<Coeff> json_coeff(const json& x) {
  if (x.is_string()) return Coeff::parse(x.get<std::string>());
  if (x.is_number_integer()) return json_integer_coeff(x);
  if (x.is_number_float()) {
    auto c = Coeff::from_double(x.get<double>());
    if (c && c->denominator() <= 1024) return c;  // exact small dyadic, as written by a float printer
  }
  return std::nullopt;
}

CoeffMatrix factor(const std::string& path, const std::string& text, const json& j, const char* key, int width) {
  const json& rows = j[key];
  if (!rows.is_array()) throw InputError(path, key_line(text, key), std::string("\"") + key + "\" must be an array of terms");
  CoeffMatrix m(static_cast<Eigen::Index>(rows.size()), width);
  if (rows.empty()) throw InputError(path, key_line(text, key), std::string("\"") + key + "\" holds no terms");
  check_scheme_size(path, key_line(text, key), Format{1, 1, 1}, static_cast<long>(rows.size()) * width);
  for (size_t r = 0; r < rows.size(); ++r) {
    // The line is found only for a message: finding it for every term made reading quadratic.
    auto line = [&] { return json_array_element_line(text, key, r); };
    if (!rows[r].is_array() || static_cast<int>(rows[r].size()) != width)
      throw InputError(path, line(), std::string("term ") + std::to_string(r + 1) + " of \"" + key + "\" must have " +
                                       std::to_string(width) + " coefficients (wrong dimensions?)");
    for (int c = 0; c < width; ++c) {
      auto x = json_coeff(rows[r][static_cast<size_t>(c)]);
      if (!x) throw InputError(path, line(), std::string("not an exact coefficient: ") + json_excerpt(rows[r][static_cast<size_t>(c)]));
      m(static_cast<Eigen::Index>(r), c) = *x;
    }
  }
  return m;
}

// The text form: "mK = (…) * (…)" and "cIK = …" lines.
ProductLines text_form(const std::string& path, const std::string& text, const json& j) {
  ProductLines pl;
  const json& mults = j["multiplications"];
  const json& elems = j.contains("elements") ? j["elements"] : json::array();
  if (!mults.is_array() || !elems.is_array())
    throw InputError(path, key_line(text, "multiplications"), "\"multiplications\" and \"elements\" must be arrays of text");
  const std::vector<int> mult_lines = json_array_element_lines(text, "multiplications");
  const std::vector<int> elem_lines = json_array_element_lines(text, "elements");
  auto line_at = [](const std::vector<int>& lines, size_t r) { return r < lines.size() ? lines[r] : 0; };
  for (size_t r = 0; r < mults.size(); ++r) {
    int line = line_at(mult_lines, r);
    std::string s = mults[r].is_string() ? mults[r].get<std::string>() : "";
    size_t eq = s.find('=');
    if (eq == std::string::npos || s.substr(0, eq).find("m" + std::to_string(r + 1)) == std::string::npos)
      throw InputError(path, line, "expected \"m" + std::to_string(r + 1) + " = (…) * (…)\"");
    pl.products.push_back(s.substr(eq + 1));
    pl.product_lines.push_back(line);
  }
  for (size_t e = 0; e < elems.size(); ++e) {
    int line = line_at(elem_lines, e);
    std::string s = elems[e].is_string() ? elems[e].get<std::string>() : "";
    size_t eq = s.find('=');
    if (eq == std::string::npos) throw InputError(path, line, "expected \"cIK = …\"");
    std::string name = s.substr(0, eq);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    pl.outputs.emplace_back(name, s.substr(eq + 1));
    pl.output_lines.push_back(line);
  }
  return pl;
}

json coeff_json(const Coeff& c) {
  if (c.is_integer()) return c.re().get_num().get_si();
  return c.str();
}

json factor_json(const CoeffMatrix& m) {
  json rows = json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(coeff_json(m(r, c)));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

ImportedScheme read_perminov_json(const std::string& path, const std::string& text, const ImportOptions& opt) {
  json j = parse_json_input(text, path, "a Perminov scheme file");
  if (!j.is_object()) throw InputError(path, 1, "a Perminov scheme file is a JSON object");
  const json& n = j.contains("n") ? j["n"] : json();
  if (!n.is_array() || n.size() != 3 || !n[0].is_number_integer() || !n[1].is_number_integer() || !n[2].is_number_integer())
    throw InputError(path, key_line(text, "n"), "\"n\" must be [n, m, p]");
  auto dim = [&](size_t k) { return n[k].get<long>() >= 1 && n[k].get<long>() <= 64 ? n[k].get<int>() : 0; };
  Format f{dim(0), dim(1), dim(2)};
  if (f.n <= 0 || f.m <= 0 || f.p <= 0)
    throw InputError(path, key_line(text, "n"), "dimensions out of range (1..64): " + n.dump());
  check_dims(path, key_line(text, "n"), f, chosen_dims(name_hints(path), opt));
  ImportedScheme im;
  bool arrays = j.contains("u") && j.contains("v") && j.contains("w");
  bool textual = j.contains("multiplications");
  if (!arrays && !textual) throw InputError(path, 0, "neither \"u\"/\"v\"/\"w\" nor \"multiplications\"/\"elements\" present");
  // Perminov writes entry names without a separator ("b111"); past 9 rows or columns a name can
  // fit two entries, and then the arrays, which hold the same scheme, are read alone.
  const bool ambiguous_names = f.n > 9 || f.m > 9 || f.p > 9;
  if (textual) {
    try {
      im = scheme_from_products(path, text_form(path, text, j), f, false);
    } catch (const InputError&) {
      if (!arrays || !ambiguous_names) throw;
      textual = false;
    }
  }
  if (arrays) {
    Scheme s = Scheme::zeros(f, 0);
    s.u = factor(path, text, j, "u", f.a_size());
    s.v = factor(path, text, j, "v", f.b_size());
    s.w = factor(path, text, j, "w", f.c_size());
    if (s.u.rows() != s.v.rows() || s.v.rows() != s.w.rows())
      throw InputError(path, key_line(text, "v"), "\"u\", \"v\", \"w\" hold different numbers of terms");
    if (textual) {
      if (im.scheme.rank() != s.rank())
        throw InputError(path, key_line(text, "multiplications"), "the text form has " + std::to_string(im.scheme.rank()) +
                                                                      " products but \"u\" has " + std::to_string(s.rank()) + " terms");
      for (int r = 0; r < s.rank(); ++r)
        if (s.u.row(r) != im.scheme.u.row(r) || s.v.row(r) != im.scheme.v.row(r) || s.w.row(r) != im.scheme.w.row(r))
          throw InputError(path, im.line_of_term(r), "term " + std::to_string(r + 1) +
                                                         ": the text form disagrees with the \"u\"/\"v\"/\"w\" arrays");
    }
    im.scheme = s;
    im.term_lines.clear();
    im.term_lines = json_array_element_lines(text, "u");
    im.term_lines.resize(static_cast<size_t>(s.rank()), 0);
  }
  if (j.contains("m") && j["m"].is_number_integer() && j["m"].get<long>() != im.scheme.rank())
    throw InputError(path, key_line(text, "m"), "\"m\" says rank " + j["m"].dump() + " but the file holds " +
                                                    std::to_string(im.scheme.rank()) + " terms");
  if (j.contains("z2") && !j["z2"].is_boolean()) throw InputError(path, key_line(text, "z2"), "\"z2\" must be true or false");
  if (j.contains("z2") && j["z2"].get<bool>()) im.declared = Ring::GF2;
  return im;
}

std::string write_perminov_json(const Scheme& s) {
  require_real(s, "perminov-json");
  require_single_digits(s, "perminov-json");
  const Format& f = s.format;
  auto a = [&](int x) { return entry_name('a', x / f.m, x % f.m, false); };
  auto b = [&](int x) { return entry_name('b', x / f.p, x % f.p, false); };
  auto m = [](int r) { return "m" + std::to_string(r + 1); };
  json mults = json::array(), elems = json::array();
  for (int r = 0; r < s.rank(); ++r)
    mults.push_back("m" + std::to_string(r + 1) + " = (" + linear_text(row_form(s.u, r), a, true, true) + ") * (" +
                    linear_text(row_form(s.v, r), b, true, true) + ")");
  auto outs = output_forms(s);
  for (int t = 0; t < f.n * f.p; ++t)
    elems.push_back(entry_name('c', t / f.p, t % f.p, false) + " = " + linear_text(outs[static_cast<size_t>(t)], m, true, true));
  // Perminov's layout: 4-space indent, one term a line, "[0, 1, \"1/2\"]".
  auto spaced = [](const std::string& t) {
    std::string out;
    bool in_string = false;
    for (char c : t) {
      if (c == '"') in_string = !in_string;
      out += c;
      if (c == ',' && !in_string) out += ' ';
    }
    return out;
  };
  auto rows_text = [&](const json& rows) {
    std::string out = "[\n";
    for (size_t r = 0; r < rows.size(); ++r)
      out += "        " + (rows[r].is_array() ? spaced(rows[r].dump()) : rows[r].dump()) + (r + 1 < rows.size() ? ",\n" : "\n");
    return out + "    ]";
  };
  std::string out = "{\n";
  out += "    \"n\": [" + std::to_string(f.n) + ", " + std::to_string(f.m) + ", " + std::to_string(f.p) + "],\n";
  out += "    \"m\": " + std::to_string(s.rank()) + ",\n";
  out += std::string("    \"z2\": ") + (s.ring == Ring::GF2 ? "true" : "false") + ",\n";
  out += "    \"multiplications\": " + rows_text(mults) + ",\n";
  out += "    \"elements\": " + rows_text(elems) + ",\n";
  out += "    \"u\": " + rows_text(factor_json(s.u)) + ",\n";
  out += "    \"v\": " + rows_text(factor_json(s.v)) + ",\n";
  out += "    \"w\": " + rows_text(factor_json(s.w)) + "\n";
  return out + "}\n";
}

}  // namespace tdisc::fmt
