// Reader and writer of the native tdisc-scheme v1 file.
#include "decomposition/native.hpp"

#include <nlohmann/json.hpp>

#include "base/gzip.hpp"
#include "base/error.hpp"
#include "base/io.hpp"
#include "base/limits.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/json_reader.hpp"

namespace tdisc {

using nlohmann::json;

namespace {

struct NativeReader : JsonTextReader {

  int positive_int(const json& j, const char* key, int max) const {
    if (!j.contains(key)) fail(0, std::string("missing field \"") + key + "\"");
    const json& v = j[key];
    if (!v.is_number_integer() || v.get<long>() <= 0 || v.get<long>() > max)
      fail(key_line(key), std::string("field \"") + key + "\" must be an integer in 1.." + std::to_string(max));
    return v.get<int>();
  }

  CoeffMatrix factor(const json& j, const char* key, int rank, int width) const {
    if (!j.contains(key) || !j[key].is_array()) fail(key_line(key), std::string("missing array \"") + key + "\"");
    const json& rows = j[key];
    if (static_cast<int>(rows.size()) != rank)
      fail(key_line(key), std::string("\"") + key + "\" has " + std::to_string(rows.size()) +
                              " terms but rank is " + std::to_string(rank));
    CoeffMatrix m(rank, width);
    for (int r = 0; r < rank; ++r) {
      const json& row = rows[static_cast<size_t>(r)];
      if (!row.is_array() || static_cast<int>(row.size()) != width)
        fail(term_line(key, r), std::string("term ") + std::to_string(r + 1) + " of \"" + key + "\" must have " +
                       std::to_string(width) + " coefficients");
      for (int c = 0; c < width; ++c) m(r, c) = coefficient(row[static_cast<size_t>(c)], key, r, c);
    }
    return m;
  }

  // Found only when reporting an error: the scan is linear in the file, so doing it for every term
  // made reading quadratic (0.3 s for a 6x6x6 rank-161 file).
  int term_line(const char* key, int r) const { return json_array_element_line(text, key, static_cast<size_t>(r)); }

  Coeff coefficient(const json& v, const char* key, int r, int c) const {
    std::optional<Coeff> x;
    if (v.is_string()) x = Coeff::parse(v.get<std::string>());
    else if (v.is_number_integer()) x = json_integer_coeff(v);
    if (!x)
      fail(term_line(key, r), std::string("term ") + std::to_string(r + 1) + " of \"" + key + "\", entry " +
                     std::to_string(c) + ": not a coefficient: " + json_excerpt(v));
    return *x;
  }
};

}  // namespace

json provenance_json(const Provenance& p) {
  json j = json::object();
  auto put = [&](const char* k, const std::string& v) {
    if (!v.empty()) j[k] = v;
  };
  put("tool", p.tool);
  put("method", p.method);
  if (p.seed) j["seed"] = *p.seed;
  put("created", p.created);
  put("parent", p.parent);
  put("source", p.source);
  for (auto& [k, v] : p.extra) j[k] = v;
  return j;
}

Provenance provenance_from_json(const json& j) {
  Provenance p;
  if (!j.is_object()) return p;
  for (auto& [k, v] : j.items()) {
    std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    if (k == "tool") p.tool = s;
    else if (k == "method") p.method = s;
    else if (k == "seed" && v.is_number_unsigned()) p.seed = v.get<unsigned long long>();
    else if (k == "seed" && v.is_number_integer()) p.seed = static_cast<unsigned long long>(v.get<long long>());
    else if (k == "created") p.created = s;
    else if (k == "parent") p.parent = s;
    else if (k == "source") p.source = s;
    else p.extra[k] = s;
  }
  return p;
}

Scheme parse_native(const std::string& text, const std::string& path) {
  NativeReader rd{{text, path}};
  json j = parse_json_input(text, path, "a tdisc-scheme file");
  if (!j.is_object()) rd.fail(1, "a tdisc-scheme file is a JSON object");
  if (rd.text_field(j, "format", "") != "tdisc-scheme")
    rd.fail(rd.key_line("format"), "not a tdisc-scheme file (\"format\" must be \"tdisc-scheme\")");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
    rd.fail(rd.key_line("version"), "unsupported tdisc-scheme version " +
                                        (j.contains("version") ? json_excerpt(j["version"]) : std::string("(missing)")) +
                                        "; this tdisc reads version 1");
  std::string orientation = rd.text_field(j, "orientation", "trace");
  if (orientation != "trace")
    rd.fail(rd.key_line("orientation"), "orientation \"" + excerpt(orientation) + "\" is not supported (only \"trace\")");
  Scheme s;
  s.format = {rd.positive_int(j, "n", 64), rd.positive_int(j, "m", 64), rd.positive_int(j, "p", 64)};
  int rank = rd.positive_int(j, "rank", 1 << 20);
  std::string ring_text = rd.text_field(j, "ring", "Q");
  auto ring = parse_ring(ring_text);
  if (!ring) rd.fail(rd.key_line("ring"), "unknown ring \"" + excerpt(ring_text) + "\" (known: " + ring_list() + ")");
  s.ring = *ring;
  s.u = rd.factor(j, "u", rank, s.format.a_size());
  s.v = rd.factor(j, "v", rank, s.format.b_size());
  s.w = rd.factor(j, "w", rank, s.format.c_size());
  if (j.contains("provenance")) s.provenance = provenance_from_json(j["provenance"]);
  if (!ring_holds(s.ring, s))
    rd.fail(rd.key_line("ring"), "a coefficient does not belong to the declared ring " + ring_text);
  return s;
}

Scheme read_native(const std::string& path) { return parse_native(read_text_file(path), path); }

namespace {

void append_factor(std::string& out, const char* key, const CoeffMatrix& m, bool last) {
  out += std::string("  \"") + key + "\": [\n";
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    out += "    [";
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      if (c) out += ",";
      out += "\"" + m(r, c).str() + "\"";
    }
    out += r + 1 < m.rows() ? "],\n" : "]\n";
  }
  out += last ? "  ]\n" : "  ],\n";
}

}  // namespace

std::string native_text(const Scheme& s) {
  s.check_shape();
  json head = {{"format", "tdisc-scheme"}, {"version", 1},         {"n", s.format.n},
               {"m", s.format.m},          {"p", s.format.p},      {"rank", s.rank()},
               {"ring", std::string(ring_name(s.ring))},           {"orientation", "trace"}};
  std::string out = "{\n";
  for (const char* k : {"format", "version", "n", "m", "p", "rank", "ring", "orientation"})
    out += std::string("  \"") + k + "\": " + head[k].dump() + ",\n";
  out += "  \"provenance\": " + provenance_json(s.provenance).dump() + ",\n";
  append_factor(out, "u", s.u, false);
  append_factor(out, "v", s.v, false);
  append_factor(out, "w", s.w, true);
  out += "}\n";
  return out;
}

void write_native(const std::string& path, const Scheme& s) {
  const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  write_file_atomic(path, gz ? gzip(native_text(s)) : native_text(s));
}

}  // namespace tdisc
