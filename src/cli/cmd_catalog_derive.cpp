// tdisc catalog derive OP …: the exact constructions of decomposition/constructions.hpp on native
// files. Every result is verified exactly before it is written.
#include <iostream>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/native.hpp"
#include "decomposition/projection.hpp"
#include "src/catalog/catalogue.hpp"
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "verifier/verify.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Table kDeriveOptions{
    "catalog derive",
    "tdisc catalog derive OP ARGS… --out FILE [--to NxMxP] [--axis n|m|p] [--seed S] [--name NAME]\n"
    "       tdisc catalog derive sweep IN… [--depth D] [--rings FILE] [--out DIR]",
    "Builds a scheme by an exact construction and verifies it before writing:\n"
    "  classical NxMxP          the classical algorithm (rank nmp)\n"
    "  rotate IN                ⟨n,m,p⟩ → ⟨m,p,n⟩, (U,V,W) → (V,W,U)\n"
    "  transpose IN             ⟨n,m,p⟩ → ⟨p,m,n⟩, (U,V,W) → (Vᵀ,Uᵀ,Wᵀ)\n"
    "  permute IN --to F        any permutation F of IN's format\n"
    "  kron A B                 Kronecker product ⟨nn',mm',pp'; RR'⟩\n"
    "  join A B --axis n|m|p    direct sum along the axis, ranks add\n"
    "  restrict IN --to F       restriction to the leading sub-format F, zero terms dropped\n"
    "  project IN --to F        restriction to F deleting the indices that make the most terms vanish\n"
    "                           (greedy, one index at a time)\n"
    "  sweep IN…                project (deleting up to --depth indices, default 2) and extend (direct\n"
    "                           sum with a classical slice) every IN; prints the results below the best\n"
    "                           known rank over IN's ring or over Q (--rings); --out DIR writes each,\n"
    "                           verified, as DIR/<format>-r<R>-<ring>.json\n"
    "  degroote IN --seed S     de Groote action (P U Q⁻¹, Q V S⁻¹, S W P⁻¹), P,Q,S random unimodular",
    {with_metavar(text("out,o", nullptr, "native file to write (required)"), "FILE"),
     with_metavar(text("to", nullptr, "target format for permute and restrict"), "NxMxP"),
     with_metavar(text("axis", nullptr, "n, m or p, for join"), "A"),
     seed("seed", 1, "seed of the random unimodular matrices for degroote (S, S+1, S+2 modulo 2^64)"),
     with_metavar(text("name", nullptr, "a name stored in the provenance"), "NAME"),
     integer("depth", 2, 1, 16, "sweep: most indices a projection deletes"),
     known_rings_param()},
    "ARGS", ""};

Format format_option(const std::string& name, const std::string& text) {
  auto f = parse_format(text);
  if (!f) throw UsageError("--" + name + ": \"" + text + "\" is not a format like 2x3x4");
  return *f;
}

void need_args(const std::vector<std::string>& pos, size_t count, const std::string& op) {
  if (pos.size() != count + 1)
    throw UsageError("catalog derive " + op + ": expects " + std::to_string(count) + " argument(s) (see --help)");
}

Scheme degroote_of(const Scheme& s, std::uint64_t seed) {
  const Format& f = s.format;
  Scheme out = de_groote(s, random_unimodular(f.n, seed), random_unimodular(f.m, seed + 1),
                         random_unimodular(f.p, seed + 2));
  out.provenance.seed = seed;
  return out;
}

Scheme derived_pair(const std::string& op, const std::vector<std::string>& pos, const Settings& o) {
  need_args(pos, 2, op);
  Scheme a = read_native(pos[1]), b = read_native(pos[2]);
  if (op == "kron") return kronecker(a, b);
  auto axis = parse_axis(o.text("axis"));
  if (!axis) throw UsageError("catalog derive join: --axis n|m|p is required");
  if (!joinable(a.format, b.format, *axis))
    throw InputError(pos[2], 0, a.format.str() + " and " + b.format.str() + " cannot be joined along " + o.text("axis"));
  return join(a, b, *axis);
}

Scheme derived_reshaped(const std::string& op, const Scheme& s, const Settings& o) {
  if (!o.has("to")) throw UsageError("catalog derive " + op + ": --to NxMxP is required");
  Format to = format_option("to", o.text("to"));
  const Format& f = s.format;
  if (op == "project") {
    if (to.n > f.n || to.m > f.m || to.p > f.p) throw UsageError("--to " + to.str() + " is not inside " + f.str());
    ProjectionChoice c = best_projection(s, to);
    return restrict_scheme(s, c.keep_i, c.keep_j, c.keep_k);
  }
  if (op == "permute") {
    if (sorted_format(to) != sorted_format(f)) throw UsageError("--to " + to.str() + " is not a permutation of " + f.str());
    return permute_to(s, to);
  }
  if (to.n > f.n || to.m > f.m || to.p > f.p) throw UsageError("--to " + to.str() + " is not inside " + f.str());
  return restrict_to(s, to);
}

Scheme derived(const std::string& op, const std::vector<std::string>& pos, const Settings& o) {
  if (op == "classical") {
    need_args(pos, 1, op);
    return classical_scheme(format_option("size", pos[1]));
  }
  if (op == "kron" || op == "join") return derived_pair(op, pos, o);
  if (op != "rotate" && op != "transpose" && op != "degroote" && op != "permute" && op != "restrict" && op != "project")
    throw UsageError("catalog derive: unknown construction \"" + op + "\" (see --help)");
  need_args(pos, 1, op);
  Scheme s = read_native(pos[1]);
  if (op == "rotate") return rotate(s);
  if (op == "transpose") return transpose(s);
  if (op == "degroote") return degroote_of(s, static_cast<std::uint64_t>(o.seed("seed")));
  return derived_reshaped(op, s, o);
}

}  // namespace

const params::Table& catalog_derive_table() { return kDeriveOptions; }

int catalog_derive(const Args& args) {
  Settings o = parse_options(kDeriveOptions, args);
  if (o.help) return std::cout << params::help_text(kDeriveOptions), kOk;
  const auto& pos = o.positional();
  if (pos.empty()) throw UsageError("catalog derive: no construction given (see --help)");
  if (pos[0] == "sweep") return catalog_sweep(std::vector<std::string>(pos.begin() + 1, pos.end()), o);
  if (!o.has("out")) throw UsageError("catalog derive: --out FILE is required");
  Scheme s = derived(pos[0], pos, o);
  if (o.has("name")) s.provenance.extra["name"] = o.text("name");
  Verdict v = verify(s, s.ring);
  if (!v.valid)  // a bug in a construction, never the user's input
    throw ContractError("derive " + pos[0] + " produced an invalid scheme: " + v.why_not);
  write_native(o.text("out"), s);
  std::cout << "wrote " << o.text("out") << " (" << s.format.str() << " rank " << s.rank() << " over "
            << ring_name(s.ring) << (s.provenance.seed ? ", seed " + std::to_string(*s.provenance.seed) : "")
            << ")\n";
  return kOk;
}

}  // namespace tdisc::cli
