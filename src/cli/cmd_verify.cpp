// tdisc verify FILE… [--ring R]: proves or refutes each scheme exactly and reports its measures.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/formats/field_scheme_file.hpp"
#include "decomposition/native.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "verifier/field_verify.hpp"
#include "verifier/stats.hpp"
#include "verifier/verify.hpp"

namespace tdisc::cli {

namespace {

}  // namespace

const Table& verify_table() {
  using namespace params;
  static const Table t{
      "verify",
      "tdisc verify FILE… [--ring R] [--json]",
      "Proves or refutes native scheme files over a ring (default: the ring each file declares;\n"
      "with --ring auto, reports the smallest ring over which it is valid). A tdisc-field-scheme file\n"
      "(docs/number-fields.md) is verified over its number field, which the verdict names. Exit 2 if\n"
      "any fails.",
      {ring_option("ring to verify over, or auto [default: the ring each file declares]", true),
       flag("json", "print one JSON object per file instead of text"),
       flag("quiet,q", "print only failures")},
      "FILE",
      "TDISC_VERIFY_"};
  return t;
}

namespace {

struct FileReport {
  std::string path;
  bool valid = false;
  std::string verdict;  // "valid over ZT", "INVALID over Z: Brent equation …"
  SchemeStats stats;
  std::string format;
  bool over_field = false;  // a tdisc-field-scheme: no additions or stability are measured
};

// A scheme over a number field: the verdict names the field; --ring does not apply.
FileReport verify_field_file(const std::string& path, const std::string& text, const std::string& ring_option) {
  if (!ring_option.empty()) throw UsageError("verify: " + path + " is over a number field; --ring does not apply to it");
  const FieldScheme s = parse_field_scheme(text, path);
  FileReport rep{path, false, "", {}, s.format.str(), true};
  rep.stats.rank = s.rank();
  for (const auto& [f, n] : {std::pair{&s.u, &rep.stats.nnz_u}, {&s.v, &rep.stats.nnz_v}, {&s.w, &rep.stats.nnz_w}})
    for (const FieldElement& e : *f) *n += !e.is_zero();
  const FieldVerdict v = verify_over_field(s);
  rep.valid = v.valid;
  rep.verdict = v.valid ? "valid over " + v.field
                        : "INVALID over " + v.field + ": " + std::to_string(v.failing_equations) +
                              " Brent equations fail, first " + v.first_failure;
  return rep;
}

FileReport verify_file(const std::string& path, const std::string& ring_option) {
  const std::string text = read_text_file(path);
  if (looks_like_field_scheme(text)) return verify_field_file(path, text, ring_option);
  Scheme s = parse_native(text, path);
  FileReport rep{path, false, "", scheme_stats(s), s.format.str()};
  if (ring_option == "auto") {
    RingReport rr = classify(s);
    rep.valid = rr.best().has_value();
    rep.verdict = rr.describe();
    return rep;
  }
  const Ring over = ring_option.empty() ? s.ring : *parse_ring(ring_option);  // a choice of the table
  Verdict v = verify(s, over);
  rep.valid = v.valid;
  rep.verdict = v.valid ? "valid over " + std::string(ring_name(over))
                        : "INVALID over " + std::string(ring_name(over)) + ": " + v.why_not;
  return rep;
}

void print_text(const FileReport& r) {
  std::cout << r.path << ": " << r.format << " rank " << r.stats.rank << ", " << r.verdict
            << "; nnz U/V/W " << r.stats.nnz_u << "/" << r.stats.nnz_v << "/" << r.stats.nnz_w;
  if (r.over_field) {
    std::cout << "\n";
    return;
  }
  std::cout << ", additions " << r.stats.additions << ", stability " << std::setprecision(6)
            << r.stats.stability << "\n";
}

void print_json(const FileReport& r) {
  nlohmann::json j = {{"file", r.path},          {"format", r.format},          {"rank", r.stats.rank},
                      {"valid", r.valid},        {"verdict", r.verdict},        {"nnz_u", r.stats.nnz_u},
                      {"nnz_v", r.stats.nnz_v},  {"nnz_w", r.stats.nnz_w},      {"additions", r.stats.additions},
                      {"stability", r.stats.stability}};
  std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";  // a path need not be UTF-8
}

}  // namespace

int cmd_verify(const Args& args) {
  Settings o = parse_options(verify_table(), args);
  if (o.help) {
    std::cout << params::help_text(verify_table());
    return kOk;
  }
  if (o.positional().empty()) throw UsageError("verify: no FILE given (see 'tdisc verify --help')");
  int code = kOk;
  for (const std::string& path : o.positional()) {
    FileReport r = verify_file(path, o.text("ring"));
    if (o.flag("json")) print_json(r);
    else if (!o.flag("quiet") || !r.valid) print_text(r);
    if (!r.valid) {
      if (!o.flag("json")) std::cerr << "tdisc: " << path << ": " << r.verdict << "\n";
      code = kInvalid;
    }
  }
  return code;
}

}  // namespace tdisc::cli
