// Reader and writer of the tdisc-ansatz v1 file (ansatz_file.hpp). The reader trusts nothing it can
// recompute: the group comes from the generators, and each orbit is checked against it exactly.
#include "decomposition/formats/ansatz_file.hpp"

#include <map>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/exact_solve.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/json_reader.hpp"
#include "decomposition/scheme_limits.hpp"

namespace tdisc {

using nlohmann::json;

namespace {

constexpr int kMaxSide = 16;         // n, m, p: action matrices are (nm+mp+pn)² exact entries
constexpr int kMaxGenerators = 32;
constexpr int kMaxOrder = 4096;      // as generate_group's default
constexpr size_t kMaxWord = 256;

struct AnsatzReader : JsonTextReader {
  int item_line(const char* key, size_t index) const { return json_array_element_line(text, key, index); }

  int side(const json& j, const char* key) const {
    if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<long>() < 1 || j[key].get<long>() > kMaxSide)
      fail(key_line(key), std::string("field \"") + key + "\" must be an integer in 1.." + std::to_string(kMaxSide));
    return j[key].get<int>();
  }

  const json& array(const json& j, const char* key, int line) const {
    if (!j.contains(key) || !j[key].is_array()) fail(line, std::string("missing array \"") + key + "\"");
    return j[key];
  }

  Coeff coefficient(const json& v, int line, const std::string& where) const {
    std::optional<Coeff> x;
    if (v.is_string()) x = Coeff::parse(v.get<std::string>());
    else if (v.is_number_integer()) x = Coeff(v.get<long>());
    if (!x) fail(line, where + ": not a coefficient: " + json_excerpt(v));
    return *x;
  }

  // A square matrix of side d, or empty (the identity) when absent or null.
  CoeffMatrix matrix(const json& g, const char* key, int d, int line, const std::string& where) const {
    if (!g.contains(key) || g[key].is_null()) return {};
    const json& rows = g[key];
    if (!rows.is_array() || static_cast<int>(rows.size()) != d)
      fail(line, where + ": \"" + key + "\" must be " + std::to_string(d) + " rows");
    CoeffMatrix m(d, d);
    for (int r = 0; r < d; ++r) {
      const json& row = rows[static_cast<size_t>(r)];
      if (!row.is_array() || static_cast<int>(row.size()) != d)
        fail(line, where + ": row " + std::to_string(r + 1) + " of \"" + key + "\" must have " + std::to_string(d) + " entries");
      for (int c = 0; c < d; ++c) m(r, c) = coefficient(row[static_cast<size_t>(c)], line, where + " " + key);
    }
    if (!inverse(m)) fail(line, where + ": \"" + key + "\" is singular");
    return m;
  }

  Isotropy generator(const json& g, Format f, int line, const std::string& where) const {
    if (!g.is_object()) fail(line, where + " must be an object");
    Isotropy x;
    if (g.contains("transposed")) {
      if (!g["transposed"].is_boolean()) fail(line, where + ": \"transposed\" must be true or false");
      x.transposed = g["transposed"].get<bool>();
    }
    if (g.contains("shift")) {
      if (!g["shift"].is_number_integer() || g["shift"].get<long>() < 0 || g["shift"].get<long>() > 2)
        fail(line, where + ": \"shift\" must be 0, 1 or 2");
      x.shift = g["shift"].get<int>();
    }
    if (x.shift != 0 && !(f.n == f.m && f.m == f.p)) fail(line, where + ": the cyclic shift needs a square format");
    if (x.transposed && f.n != f.p) fail(line, where + ": the transpose needs n = p");
    x.P = matrix(g, "P", f.n, line, where);
    x.Q = matrix(g, "Q", f.m, line, where);
    x.S = matrix(g, "S", f.p, line, where);
    return x;
  }

  std::vector<int> word(const json& w, size_t generators, int line, const std::string& where) const {
    if (!w.is_array() || w.size() > kMaxWord)
      fail(line, where + ": a word is an array of at most " + std::to_string(kMaxWord) + " generator indices");
    std::vector<int> out;
    for (const json& x : w) {
      if (!x.is_number_integer() || x.get<long>() < 0 || x.get<long>() >= static_cast<long>(generators))
        fail(line, where + ": " + json_excerpt(x) + " is not a generator index (0.." + std::to_string(generators - 1) + ")");
      out.push_back(x.get<int>());
    }
    return out;
  }
};

int exact_rank(const CoeffMatrix& m) { return solve_exact(m, CoeffMatrix(m.rows(), 0), CoeffMatrix(m.cols(), 0)).rank; }

int element_index(const IsotropyGroup& g, const CoeffMatrix& a) {
  for (int e = 0; e < g.order(); ++e)
    if (same_isotropy(g.elements[static_cast<size_t>(e)], a, g.format)) return e;
  return -1;
}

// The single (α, β, γ) by which `a` scales every column of `basis`, each block; nullopt when none.
std::optional<Coeff> scaling_product(const CoeffMatrix& a, const CoeffMatrix& basis, Format f) {
  const CoeffMatrix y = exact_product(a, basis);
  const Eigen::Index bounds[4] = {0, f.a_size(), f.a_size() + f.b_size(), term_length(f)};
  Coeff product = 1;
  for (int b = 0; b < 3; ++b) {
    std::optional<Coeff> ratio;
    for (Eigen::Index i = bounds[b]; i < bounds[b + 1]; ++i)
      for (Eigen::Index c = 0; c < basis.cols(); ++c) {
        const Coeff& x = basis(i, c);
        if (x.is_zero()) {
          if (!y(i, c).is_zero()) return std::nullopt;
          continue;
        }
        if (!ratio) ratio = y(i, c) / x;
        else if (y(i, c) != *ratio * x) return std::nullopt;
      }
    if (!ratio) return std::nullopt;  // a factor that is zero for every seed
    product *= *ratio;
  }
  return product;
}

}  // namespace

namespace {

struct OrbitChecker {
  const AnsatzReader& rd;
  const IsotropyGroup& group;
  std::map<std::vector<int>, int> by_word;

  OrbitChecker(const AnsatzReader& r, const IsotropyGroup& g) : rd(r), group(g) {
    for (int e = 0; e < g.order(); ++e) by_word.emplace(g.words[static_cast<size_t>(e)], e);
  }

  // The element a word names: the element of the closure with that very word (as tdisc writes them),
  // else the product looked up.
  int element(const std::vector<int>& word, int line, const std::string& where) const {
    if (auto it = by_word.find(word); it != by_word.end()) return it->second;
    const int e = element_index(group, word_action(group, word));
    if (e < 0) rd.fail(line, where + ": a word is not an element of the group");  // cannot happen: a closure
    return e;
  }

  std::vector<int> elements(const json& o, const char* key, int line, const std::string& where) const {
    const json& words = rd.array(o, key, line);
    if (words.empty() || words.size() > static_cast<size_t>(group.order()))
      rd.fail(line, where + ": \"" + key + "\" must hold 1.." + std::to_string(group.order()) + " words");
    std::vector<int> out;
    for (const json& w : words) out.push_back(element(rd.word(w, group.generators.size(), line, where), line, where));
    return out;
  }

  CoeffMatrix basis(const json& o, int line, const std::string& where) const {
    const int len = term_length(group.format);
    const json& rows = rd.array(o, "basis", line);
    if (rows.empty() || static_cast<int>(rows.size()) > len)
      rd.fail(line, where + ": \"basis\" must hold 1.." + std::to_string(len) + " seed directions");
    CoeffMatrix b(len, static_cast<Eigen::Index>(rows.size()));  // (nm+mp+pn) × d
    for (size_t c = 0; c < rows.size(); ++c) {
      if (!rows[c].is_array() || static_cast<int>(rows[c].size()) != len)
        rd.fail(line, where + ": basis row " + std::to_string(c + 1) + " must have " + std::to_string(len) + " coefficients");
      for (int i = 0; i < len; ++i) b(i, static_cast<Eigen::Index>(c)) = rd.coefficient(rows[c][static_cast<size_t>(i)], line, where + " basis");
    }
    return b;
  }

  // The maps times the stabiliser cover the group once, so g·(g_k·h) = g_j·h' for every g: the
  // expansion is permuted by the group, each h' scaling the seed by its own triple.
  void check_cosets(const AnsatzOrbit& o, int line, const std::string& where) const {
    if (o.map_elements.front() != 0) rd.fail(line, where + ": the first map must be the identity (the empty word)");
    if (o.map_elements.size() * o.stabiliser_elements.size() != static_cast<size_t>(group.order()))
      rd.fail(line, where + ": " + std::to_string(o.map_elements.size()) + " maps × " +
                        std::to_string(o.stabiliser_elements.size()) + " stabiliser elements ≠ the group order " +
                        std::to_string(group.order()));
    std::vector<bool> covered(static_cast<size_t>(group.order()), false);
    for (int g : o.map_elements)
      for (int h : o.stabiliser_elements) {
        const int e = element_index(group, exact_product(group.elements[static_cast<size_t>(g)], group.elements[static_cast<size_t>(h)]));
        if (e < 0 || covered[static_cast<size_t>(e)])
          rd.fail(line, where + ": two maps lie in the same coset of the stabiliser");
        covered[static_cast<size_t>(e)] = true;
      }
  }

  void check_basis(const AnsatzOrbit& o, int line, const std::string& where) const {
    if (o.basis.cols() > 0 && static_cast<Eigen::Index>(exact_rank(o.basis)) != o.basis.cols())
      rd.fail(line, where + ": the basis rows are linearly dependent");
    for (int h : o.stabiliser_elements) {
      auto product = scaling_product(group.elements[static_cast<size_t>(h)], o.basis, group.format);
      if (!product || *product != Coeff(1))
        rd.fail(line, where + ": stabiliser element " + std::to_string(h) +
                          " does not fix the basis up to scalars (α, β, γ) with αβγ = 1");
    }
  }

  AnsatzOrbit orbit(const json& o, int line, const std::string& where) const {
    if (!o.is_object()) rd.fail(line, where + " must be an object");
    AnsatzOrbit out;
    out.map_elements = elements(o, "maps", line, where);
    out.stabiliser_elements = elements(o, "stabiliser", line, where);
    if (o.contains("size") && (!o["size"].is_number_integer() || o["size"].get<long>() != static_cast<long>(out.map_elements.size())))
      rd.fail(line, where + ": \"size\" differs from the number of maps");
    out.basis = basis(o, line, where);
    check_cosets(out, line, where);
    check_basis(out, line, where);
    return out;
  }
};

}  // namespace

Ansatz parse_ansatz(const std::string& text, const std::string& path) {
  AnsatzReader rd{{text, path}};
  json j = parse_json_input(text, path, "a tdisc-ansatz file");
  if (!j.is_object()) rd.fail(1, "a tdisc-ansatz file is a JSON object");
  if (rd.text_field(j, "format") != "tdisc-ansatz")
    rd.fail(rd.key_line("format"), "not a tdisc-ansatz file (\"format\" must be \"tdisc-ansatz\")");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
    rd.fail(rd.key_line("version"), "unsupported tdisc-ansatz version " +
                                        (j.contains("version") ? json_excerpt(j["version"]) : std::string("(missing)")) +
                                        "; this tdisc reads version 1");
  const Format f{rd.side(j, "n"), rd.side(j, "m"), rd.side(j, "p")};
  const json& gens = rd.array(j, "generators", rd.key_line("generators"));
  if (gens.size() > static_cast<size_t>(kMaxGenerators))
    rd.fail(rd.key_line("generators"), "at most " + std::to_string(kMaxGenerators) + " generators");
  std::vector<Isotropy> generators;
  for (size_t k = 0; k < gens.size(); ++k)
    generators.push_back(rd.generator(gens[k], f, rd.item_line("generators", k), "generator " + std::to_string(k)));
  Ansatz a{f, rd.text_field(j, "name"), rd.text_field(j, "source"), {}, {}};
  try {
    a.group = generate_group(f, std::move(generators), kMaxOrder);
  } catch (const InputError& e) {
    rd.fail(rd.key_line("generators"), e.what());
  }
  if (!j.contains("order") || !j["order"].is_number_integer() || j["order"].get<long>() != a.group.order())
    rd.fail(rd.key_line("order"), "\"order\" must be the order of the group the generators give, " +
                                      std::to_string(a.group.order()));
  const json& orbits = rd.array(j, "orbits", rd.key_line("orbits"));
  if (orbits.empty() || orbits.size() > static_cast<size_t>(kMaxCoefficients))
    rd.fail(rd.key_line("orbits"), "\"orbits\" must hold at least one orbit");
  OrbitChecker check{rd, a.group};
  for (size_t o = 0; o < orbits.size(); ++o)
    a.orbits.push_back(check.orbit(orbits[o], rd.item_line("orbits", o), "orbit " + std::to_string(o + 1)));
  if (j.contains("rank") && (!j["rank"].is_number_integer() || j["rank"].get<long>() != a.rank()))
    rd.fail(rd.key_line("rank"), "\"rank\" differs from the orbits' total size " + std::to_string(a.rank()));
  return a;
}

Ansatz read_ansatz(const std::string& path) { return parse_ansatz(read_text_file(path), path); }

namespace {

std::string coefficients(const CoeffMatrix& m, Eigen::Index row) {  // one row as ["a","b",…]
  std::string out = "[";
  for (Eigen::Index c = 0; c < m.cols(); ++c) out += (c ? ",\"" : "\"") + m(row, c).str() + "\"";
  return out + "]";
}

std::string matrix_text(const CoeffMatrix& given, int d) {
  CoeffMatrix m = given;
  if (m.size() == 0) {
    m = CoeffMatrix::Zero(d, d);
    for (int i = 0; i < d; ++i) m(i, i) = 1;
  }
  std::string out = "[";
  for (Eigen::Index r = 0; r < m.rows(); ++r) out += (r ? ", " : "") + coefficients(m, r);
  return out + "]";
}

std::string words_text(const IsotropyGroup& g, const std::vector<int>& elements) {
  std::string out = "[";
  for (size_t k = 0; k < elements.size(); ++k) out += (k ? ", " : "") + json(g.words[static_cast<size_t>(elements[k])]).dump();
  return out + "]";
}

std::string orbit_text(const Ansatz& a, const AnsatzOrbit& o) {
  std::string out = "    {\"size\": " + std::to_string(o.map_elements.size()) +
                    ",\n     \"maps\": " + words_text(a.group, o.map_elements) +
                    ",\n     \"stabiliser\": " + words_text(a.group, o.stabiliser_elements) + ",\n     \"basis\": [\n";
  const CoeffMatrix t = o.basis.transpose();  // d × (nm+mp+pn): one seed direction per row
  for (Eigen::Index r = 0; r < t.rows(); ++r) out += "       " + coefficients(t, r) + (r + 1 < t.rows() ? ",\n" : "\n");
  return out + "     ]}";
}

}  // namespace

std::string ansatz_text(const Ansatz& a) {
  const Format f = a.format;
  std::string out = "{\n";
  out += "  \"format\": \"tdisc-ansatz\", \"version\": 1, \"n\": " + std::to_string(f.n) + ", \"m\": " + std::to_string(f.m) +
         ", \"p\": " + std::to_string(f.p) + ",\n";
  out += "  \"name\": " + json(a.name).dump() + ",\n  \"source\": " + json(a.source).dump() + ",\n";
  out += "  \"order\": " + std::to_string(a.group.order()) + ", \"rank\": " + std::to_string(a.rank()) +
         ", \"parameters\": " + std::to_string(a.parameters()) + ",\n";
  out += "  \"generators\": [\n";
  for (size_t k = 0; k < a.group.generators.size(); ++k) {
    const Isotropy& g = a.group.generators[k];
    out += std::string("    {\"transposed\": ") + (g.transposed ? "true" : "false") + ", \"shift\": " + std::to_string(g.shift) +
           ",\n     \"P\": " + matrix_text(g.P, f.n) + ",\n     \"Q\": " + matrix_text(g.Q, f.m) +
           ",\n     \"S\": " + matrix_text(g.S, f.p) + "}" + (k + 1 < a.group.generators.size() ? ",\n" : "\n");
  }
  out += "  ],\n  \"orbits\": [\n";
  for (size_t o = 0; o < a.orbits.size(); ++o) out += orbit_text(a, a.orbits[o]) + (o + 1 < a.orbits.size() ? ",\n" : "\n");
  return out + "  ]\n}\n";
}

void write_ansatz(const std::string& path, const Ansatz& a) { write_file_atomic(path, ansatz_text(a)); }

}  // namespace tdisc
