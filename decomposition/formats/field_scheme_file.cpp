// Reader and writer of tdisc-field-scheme v1.
#include "decomposition/formats/field_scheme_file.hpp"

#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/json_reader.hpp"
#include "decomposition/native.hpp"

namespace tdisc {

using nlohmann::json;

namespace {

struct FieldSchemeReader : JsonTextReader {
  int positive_int(const json& j, const char* key, int max) const {
    if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<long>() <= 0 || j[key].get<long>() > max)
      fail(key_line(key), std::string("field \"") + key + "\" must be an integer in 1.." + std::to_string(max));
    return j[key].get<int>();
  }

  std::vector<FieldElement> factor(const json& j, const char* key, int rank, int width, const NumberField& k) const {
    if (!j.contains(key) || !j[key].is_array()) fail(key_line(key), std::string("missing array \"") + key + "\"");
    const json& rows = j[key];
    if (static_cast<int>(rows.size()) != rank)
      fail(key_line(key), std::string("\"") + key + "\" has " + std::to_string(rows.size()) + " terms but rank is " +
                              std::to_string(rank));
    std::vector<FieldElement> out;
    out.reserve(static_cast<size_t>(rank) * width);
    for (int r = 0; r < rank; ++r) {
      const json& row = rows[static_cast<size_t>(r)];
      const int line = json_array_element_line(text, key, static_cast<size_t>(r));
      if (!row.is_array() || static_cast<int>(row.size()) != width)
        fail(line, std::string("term ") + std::to_string(r + 1) + " of \"" + key + "\" must have " +
                       std::to_string(width) + " coefficients");
      for (int c = 0; c < width; ++c) {
        const json& v = row[static_cast<size_t>(c)];
        auto e = v.is_string() ? k.parse_element(v.get<std::string>()) : std::nullopt;
        if (!e)
          fail(line, std::string("term ") + std::to_string(r + 1) + " of \"" + key + "\", entry " + std::to_string(c) +
                         ": not an element of " + k.name() + " (a polynomial in z and r): " + json_excerpt(v));
        out.push_back(std::move(*e));
      }
    }
    return out;
  }
};

void append_factor(std::string& out, const char* key, const std::vector<FieldElement>& f, int width,
                   const NumberField& k, bool last) {
  out += std::string("  \"") + key + "\": [\n";
  const size_t rank = f.size() / static_cast<size_t>(width);
  for (size_t r = 0; r < rank; ++r) {
    out += "    [";
    for (int c = 0; c < width; ++c) out += (c ? ",\"" : "\"") + k.element_text(f[r * width + c]) + "\"";
    out += r + 1 < rank ? "],\n" : "]\n";
  }
  out += last ? "  ]\n" : "  ],\n";
}

}  // namespace

bool looks_like_field_scheme(const std::string& text) {
  const size_t at = text.find("\"format\"");
  return at != std::string::npos && text.find("\"tdisc-field-scheme\"", at) != std::string::npos &&
         text.find("\"tdisc-field-scheme\"", at) < at + 64;
}

FieldScheme parse_field_scheme(const std::string& text, const std::string& path) {
  FieldSchemeReader rd{{text, path}};
  json j = parse_json_input(text, path, "a tdisc-field-scheme file");
  if (!j.is_object() || rd.text_field(j, "format") != "tdisc-field-scheme")
    rd.fail(rd.key_line("format"), "not a tdisc-field-scheme file (\"format\" must be \"tdisc-field-scheme\")");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<long>() != 1)
    rd.fail(rd.key_line("version"), "unsupported tdisc-field-scheme version; this tdisc reads version 1");
  if (rd.text_field(j, "orientation", "trace") != "trace")
    rd.fail(rd.key_line("orientation"), "orientation is not supported (only \"trace\")");
  FieldScheme s;
  s.format = {rd.positive_int(j, "n", 64), rd.positive_int(j, "m", 64), rd.positive_int(j, "p", 64)};
  const int rank = rd.positive_int(j, "rank", 1 << 20);
  try {
    s.field = NumberField::parse_spec(rd.text_field(j, "field"));
  } catch (const InputError& e) {
    rd.fail(rd.key_line("field"), e.what());
  }
  s.u = rd.factor(j, "u", rank, s.format.a_size(), s.field);
  s.v = rd.factor(j, "v", rank, s.format.b_size(), s.field);
  s.w = rd.factor(j, "w", rank, s.format.c_size(), s.field);
  if (j.contains("provenance")) s.provenance = provenance_from_json(j["provenance"]);
  return s;
}

FieldScheme read_field_scheme(const std::string& path) { return parse_field_scheme(read_text_file(path), path); }

std::string field_scheme_text(const FieldScheme& s) {
  std::string out = "{\n  \"format\": \"tdisc-field-scheme\",\n  \"version\": 1,\n";
  out += "  \"n\": " + std::to_string(s.format.n) + ", \"m\": " + std::to_string(s.format.m) +
         ", \"p\": " + std::to_string(s.format.p) + ",\n";
  out += "  \"rank\": " + std::to_string(s.rank()) + ",\n";
  out += "  \"field\": " + json(s.field.spec()).dump() + ",\n  \"field_name\": " + json(s.field.name()).dump() + ",\n";
  out += "  \"orientation\": \"trace\",\n";
  out += "  \"provenance\": " + provenance_json(s.provenance).dump() + ",\n";
  append_factor(out, "u", s.u, s.format.a_size(), s.field, false);
  append_factor(out, "v", s.v, s.format.b_size(), s.field, false);
  append_factor(out, "w", s.w, s.format.c_size(), s.field, true);
  out += "}\n";
  return out;
}

void write_field_scheme(const std::string& path, const FieldScheme& s) { write_file_atomic(path, field_scheme_text(s)); }

}  // namespace tdisc
