// tdisc descend SCHEME [-o OUT.json] [--seed S] [--tries N]: a rational scheme equivalent to a
// scheme over Q(i), by Galois descent (decomposition/descent.hpp), verified exactly before it is
// written; or the proof that none exists.
#include <iostream>

#include "decomposition/descent.hpp"
#include "decomposition/native.hpp"
#include "decomposition/sandwich_simplify.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/isotropy_text.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "verifier/verify.hpp"
#include "generated/tdisc_version.hpp"

namespace tdisc::cli {

const Table& descend_table() {
  using namespace params;
  static const Table t{
      "descend",
      "tdisc descend SCHEME [-o OUT.json] [--seed S] [--tries N] [--simplify N]",
      "Finds a rational scheme equivalent to a scheme over Q(i) (Galois descent, the isotropy route of\n"
      "Dumas, Pernet and Sedoglavic): the sandwich g carrying each term onto its complex conjugate, scaled\n"
      "so that g·σ(g) = 1, and h = Z + σ(Z)·g (Hilbert 90) with Z drawn from the seed; h·SCHEME is then\n"
      "rational term by term. Tries Z --tries times and keeps the sparsest result, then tries --simplify\n"
      "rational sandwiches that send rank-one factors to unit vectors and keeps the sparsest. Exits 0 with\n"
      "the rational scheme (verified over Q before it is written), 3 when no rational scheme is\n"
      "equivalent (a proof: no such g, or g·σ(g) a scalar that is not a sum of two squares).",
      {with_metavar(text("out,o", nullptr, "write the rational scheme here (native, atomically)"), "FILE"),
       seed("seed", 1, "seed of the random matrices Z"),
       integer("tries", 64, 1, 100000, "how many Z to try; the sparsest result is kept"),
       integer("simplify", 256, 0, 100000, "how many rational sandwiches to try on the result (0: none)")},
      "SCHEME",
      "TDISC_DESCEND_"};
  return t;
}

namespace {

void print_result(const std::string& path, const Scheme& s, const Descent& d, std::uint64_t seed) {
  std::cout << path << ": " << s.format.str() << " rank " << s.rank() << " over " << ring_name(coefficient_ring(s))
            << " → rational over " << ring_name(d.rational->ring) << " (seed " << seed << ", " << d.attempts
            << " Z tried)\n";
  std::cout << "  cocycle g (S_r → conj(S_r), g·conj(g) = 1):" << isotropy_line(d.cocycle) << "\n";
  std::cout << "  h (h·S rational):" << isotropy_line(d.h) << "\n";
}

}  // namespace

int cmd_descend(const Args& args) {
  const Table& table = descend_table();
  Settings o = parse_options(table, args);
  if (o.help) return std::cout << params::help_text(table), kOk;
  if (o.positional().size() != 1) throw UsageError("descend: give exactly one SCHEME (see 'tdisc descend --help')");
  const std::string path = o.positional()[0];
  const Scheme s = read_native(path);
  const auto seed = static_cast<std::uint64_t>(o.seed("seed"));
  const Descent d = on_file(path, [&] { return descend_to_rationals(s, seed, static_cast<int>(o.integer("tries"))); });
  if (!d.rational) {
    std::cout << path << ": " << (d.proved_none ? "no rational equivalent: " : "none found: ") << d.why_not << "\n";
    return d.proved_none ? kNoTarget : kInvalid;
  }
  if (coefficient_ring(s) != Ring::QI) {
    std::cout << path << ": already rational (over " << ring_name(coefficient_ring(s)) << ")\n";
  } else {
    print_result(path, s, d, seed);
  }
  const Sparsity before = sparsity(*d.rational);
  const Simplified simple = simplify_by_sandwich(*d.rational, seed, static_cast<int>(o.integer("simplify")));
  Scheme out = simple.scheme;
  const Sparsity after = sparsity(out);
  std::cout << "  simplified by a rational sandwich (" << simple.tried << " tried): " << before.nonzeros
            << " → " << after.nonzeros << " non-zero coefficients, " << before.bits << " → " << after.bits << " bits\n";
  const Verdict v = verify(out, Ring::Q);
  if (!v.valid) throw ContractError("descend produced an invalid scheme: " + v.why_not);
  std::cout << "  verified over Q: " << v.equations << " Brent equations hold\n";
  if (!o.has("out")) return kOk;
  out.provenance.tool = TDISC_TOOL;
  out.provenance.method = "descend (Galois descent from Q(i) by an isotropy)";
  out.provenance.created = utc_now();
  out.provenance.seed = seed;
  out.provenance.parent = "sha256:" + scheme_sha256(s);
  out.provenance.source = path;
  write_native(o.text("out"), out);
  std::cout << "wrote " << o.text("out") << "\n";
  return kOk;
}

}  // namespace tdisc::cli
