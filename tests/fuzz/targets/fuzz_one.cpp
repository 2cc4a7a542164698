// The fuzz contract: a reader either returns a scheme or throws InputError ("FILE:LINE: what");
// it never crashes, hangs or throws anything else. See fuzz_one.hpp and docs/reliability.md.
#include "tests/fuzz/targets/fuzz_one.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <vector>
#include <algorithm>

#include "base/error.hpp"
#include "base/utf8.hpp"
#include "decomposition/formats/ansatz_file.hpp"
#include "decomposition/formats/escape.hpp"
#include "decomposition/formats/field_scheme_file.hpp"
#include "decomposition/formats/formats.hpp"
#include "base/gzip.hpp"
#include "decomposition/formats/imported.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"
#include "verifier/field_verify.hpp"
#include "verifier/verify.hpp"

namespace tdisc::fuzz {

void finding(const std::string& format, const std::string& what) {
  std::fprintf(stderr, "fuzz finding (%s): %s\n", format.c_str(), what.c_str());
  std::abort();
}

namespace {

// A file name without dimension, rank or ring hints, so the reader works from the content alone;
// flip-cpd files state no dimensions, so its name gives ⟨3,3,3⟩ (the seed's format).
std::string label(const std::string& format) {
  if (format == "flip-cpd") return "gg-333-rank23-fuzz.txt";
  if (format == "alphatensor-npz" || format == "qcsr-npz") return "fuzz.npz";
  if (format == "alphaevolve-ipynb") return "fuzz.ipynb";
  return "fuzz." + format;
}

// Multi-scheme files: the keys they list (at most three tried), or one import without a key.
std::vector<std::string> keys_of(const std::string& format, const std::string& path, const std::string& bytes) {
  std::vector<std::string> keys;
  try {
    if (format == "alphatensor-npz") keys = fmt::alphatensor_keys(path, bytes);
    if (format == "alphaevolve-ipynb") keys = fmt::alphaevolve_keys(path, bytes);
  } catch (const InputError&) {
  }
  if (keys.size() > 3) keys.resize(3);
  if (keys.empty()) keys.push_back("");
  return keys;
}

bool same(const CoeffMatrix& a, const CoeffMatrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
}

// What a successful import must also survive: verification (small schemes: the fuzzer's time is
// better spent in the readers) and an exact round trip through the native file.
void check_imported(const std::string& format, const Scheme& s) {
  const Format& f = s.format;
  if (static_cast<long>(f.a_size()) * f.b_size() * f.c_size() <= 4096 && s.rank() <= 128) verify(s, s.ring);
  Scheme back = parse_native(native_text(s), "roundtrip.json");
  if (back.format.n != f.n || back.format.m != f.m || back.format.p != f.p || back.ring != s.ring ||
      !same(back.u, s.u) || !same(back.v, s.v) || !same(back.w, s.w))
    finding(format, "the native round trip changed the scheme");
}

int depth_of(const nlohmann::json& v) {  // iterative: the value may be as deep as the limit allows
  int deepest = 0;
  std::vector<std::pair<const nlohmann::json*, int>> stack{{&v, 0}};
  while (!stack.empty()) {
    auto [at, d] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, d);
    if (at->is_structured())
      for (const auto& child : *at) stack.push_back({&child, d + 1});
  }
  return deepest;
}

void run_json_input(const std::string& bytes) {
  for (const bool repair : {false, true}) {
    nlohmann::json v;
    try {
      v = parse_json_input(bytes, JsonSource{"fuzz.json", "fuzz input", kMaxJsonBytes, kMaxNesting, repair});
    } catch (const InputError&) {
      continue;
    } catch (const std::exception& e) {
      finding("json-input", std::string("an exception other than InputError: ") + e.what());
    }
    if (depth_of(v) > kMaxNesting) finding("json-input", "a value nested deeper than the limit was accepted");
    try {
      if (parse_json_input(v.dump(), "again.json", "its own dump") != v) finding("json-input", "dump and parse changed the value");
    } catch (const std::exception& e) {
      finding("json-input", std::string("an accepted value does not parse back: ") + e.what());
    }
  }
}

void run_escape(const std::string& bytes) {
  const std::string outputs[] = {fmt::escape_python(bytes), fmt::escape_latex(bytes), fmt::escape_comment_line(bytes),
                                 fmt::escape_markdown(bytes), fmt::escape_html(bytes)};
  for (const std::string& out : outputs) {
    if (utf8_invalid_at(out) != std::string::npos) finding("escape", "an escaper wrote invalid UTF-8");
    if (out.find('\r') != std::string::npos || out.find("\u2028") != std::string::npos ||
        out.find("\u2029") != std::string::npos)
      finding("escape", "an escaper let a line break through");
  }
  for (size_t k = 0; k < 4; ++k)  // HTML keeps newlines (they are text there)
    if (outputs[k].find('\n') != std::string::npos) finding("escape", "an escaper let a newline through");
  const std::string& py = outputs[0];  // every quote is escaped: preceded by an odd run of backslashes
  for (size_t at = py.find('"'); at != std::string::npos; at = py.find('"', at + 1)) {
    size_t slashes = 0;
    while (slashes < at && py[at - 1 - slashes] == '\\') ++slashes;
    if (slashes % 2 == 0) finding("escape", "escape_python left a quote unescaped");
  }
  if (outputs[1].find("\\input") != std::string::npos)
    finding("escape", "escape_latex let \\input through");
}

// A tdisc-ansatz file (tdisc symmetry writes them; the numeric engine reads them from anywhere): a
// refusal is an InputError; an accepted ansatz must write and read back with the same shape.
void run_ansatz(const std::string& bytes) {
  std::optional<Ansatz> a;
  try {
    a = parse_ansatz(bytes, "fuzz.ansatz.json");
  } catch (const InputError&) {
    return;
  } catch (const std::exception& e) {
    finding("ansatz", std::string("an exception other than InputError: ") + e.what());
  }
  try {
    Ansatz back = parse_ansatz(ansatz_text(*a), "again.ansatz.json");
    if (back.rank() != a->rank() || back.parameters() != a->parameters() || back.group.order() != a->group.order())
      finding("ansatz", "an accepted ansatz changed across its own text");
  } catch (const std::exception& e) {
    finding("ansatz", std::string("an accepted ansatz does not read back: ") + e.what());
  }
}

// A tdisc-field-scheme file (tdisc verify reads them from anywhere): a refusal is an InputError; an
// accepted file reads back from its own text with the same field and coefficients, and a small one
// goes through the verifier over its field without throwing.
void run_field_scheme(const std::string& bytes) {
  std::optional<FieldScheme> s;
  try {
    s = parse_field_scheme(bytes, "fuzz.field.json");
  } catch (const InputError&) {
    return;
  } catch (const std::exception& e) {
    finding("field-scheme", std::string("an exception other than InputError: ") + e.what());
  }
  try {
    FieldScheme back = parse_field_scheme(field_scheme_text(*s), "again.field.json");
    bool same = back.field == s->field && back.u.size() == s->u.size();
    for (size_t k = 0; same && k < s->u.size(); ++k) same = back.u[k].c == s->u[k].c;
    if (!same) finding("field-scheme", "an accepted file changed across its own text");
    const long equations = static_cast<long>(s->format.a_size()) * s->format.b_size() * s->format.c_size();
    if (equations <= 4096 && s->rank() <= 64 && s->field.degree() <= 24) verify_over_field(*s);
  } catch (const std::exception& e) {
    finding("field-scheme", std::string("an accepted file does not read back or verify: ") + e.what());
  }
}

// A gzip member (the objects of Tilloy's checkouts, read by the cwschemes import): a refusal is an
// InputError; what inflates stays within the limit, and inflating it again gives the same bytes.
void run_gzip(const std::string& bytes) {
  std::string once;
  try {
    once = gunzip("fuzz.gz", bytes);
  } catch (const InputError&) {
    return;
  } catch (const std::exception& e) {
    finding("gzip", std::string("an exception other than InputError: ") + e.what());
  }
  try {
    if (gunzip("again.gz", bytes) != once) finding("gzip", "the same member inflated to different bytes");
  } catch (const std::exception& e) {
    finding("gzip", std::string("an accepted member was refused the second time: ") + e.what());
  }
}

}  // namespace

void run_one(const std::string& format, const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (format == "json-input") return run_json_input(bytes);
  if (format == "escape") return run_escape(bytes);
  if (format == "ansatz") return run_ansatz(bytes);
  if (format == "field-scheme") return run_field_scheme(bytes);
  if (format == "gzip") return run_gzip(bytes);
  const std::string path = label(format);
  for (const std::string& key : keys_of(format, path, bytes)) {
    ImportOptions opt;
    opt.key = key;
    std::optional<Scheme> imported;
    try {
      imported = import_from_bytes(format, path, bytes, opt).scheme;
    } catch (const InputError&) {
      continue;  // the expected refusal of bad input
    } catch (const std::exception& e) {
      finding(format, std::string("an exception other than InputError: ") + e.what());
    }
    try {
      check_imported(format, *imported);
    } catch (const std::exception& e) {
      finding(format, std::string("an imported scheme fails verification or the native round trip: ") + e.what());
    }
  }
}

}  // namespace tdisc::fuzz
