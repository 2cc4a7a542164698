// The fuzz contract: a reader either returns a scheme or throws InputError ("FILE:LINE: what");
// it never crashes, hangs or throws anything else. See fuzz_one.hpp and docs/reliability.md.
#include "tests/fuzz/targets/fuzz_one.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>

#include "decomposition/error.hpp"
#include "decomposition/formats/formats.hpp"
#include "decomposition/formats/imported.hpp"
#include "decomposition/formats/readers.hpp"
#include "decomposition/native.hpp"
#include "verifier/verify.hpp"

namespace tdisc::fuzz {

namespace {

[[noreturn]] void finding(const std::string& format, const std::string& what) {
  std::fprintf(stderr, "fuzz finding (%s): %s\n", format.c_str(), what.c_str());
  std::abort();
}

// A file name without dimension, rank or ring hints, so the reader works from the content alone;
// flip-cpd files state no dimensions, so its name gives ⟨3,3,3⟩ (the seed's format).
std::string label(const std::string& format) {
  if (format == "flip-cpd") return "gg-333-rank23-fuzz.txt";
  if (format == "alphatensor-npz") return "fuzz.npz";
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

}  // namespace

void run_one(const std::string& format, const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
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
