// tdisc catalog derive sweep IN… : the constructions "project" (delete indices, greedy choice of
// which: decomposition/projection.hpp) and "extend" (direct sum with a classical slice of one index)
// applied to every input scheme, each result compared with the best known rank over the input's
// ring and over Q (rings.tsv). Rows that beat a known value are printed; with --out DIR each is
// built, verified exactly and written as DIR/<format>-r<R>-<ring>.json with provenance "derived
// from". Of the permutations of one result only the first is kept.
#include <filesystem>
#include <iostream>
#include <set>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/native.hpp"
#include "decomposition/projection.hpp"
#include "src/catalog/best_known.hpp"
#include "src/catalog/catalogue.hpp"
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/options.hpp"
#include "verifier/verify.hpp"

namespace tdisc::cli {

namespace {

struct Candidate {
  Format to;
  std::string move;  // "project" or "extend n|m|p"
  int rank = 0;
  ProjectionChoice choice;  // for project
  Axis axis = Axis::N;      // for extend
};

std::string kept_text(const std::vector<int>& keep, int d) {
  std::string t;
  std::set<int> k(keep.begin(), keep.end());
  for (int x = 0; x < d; ++x)
    if (!k.count(x)) t += (t.empty() ? "" : ",") + std::to_string(x + 1);
  return t.empty() ? "-" : t;
}

std::string describe(const Candidate& c, const Format& from) {
  if (c.move != "project") return c.move + " (direct sum with the classical slice of one index)";
  return "project, deleting i {" + kept_text(c.choice.keep_i, from.n) + "} j {" + kept_text(c.choice.keep_j, from.m) +
         "} k {" + kept_text(c.choice.keep_k, from.p) + "} (1-based; vanished terms dropped)";
}

std::vector<Candidate> candidates(const Scheme& s, int depth, int max_dim) {
  const Format& f = s.format;
  std::vector<Candidate> out;
  for (int n = std::max(1, f.n - depth); n <= f.n; ++n)
    for (int m = std::max(1, f.m - depth); m <= f.m; ++m)
      for (int p = std::max(1, f.p - depth); p <= f.p; ++p) {
        const int gone = (f.n - n) + (f.m - m) + (f.p - p);
        if (gone == 0 || gone > depth || std::min({n, m, p}) < 2) continue;
        Candidate c;
        c.to = {n, m, p};
        c.move = "project";
        c.choice = best_projection(s, c.to);
        c.rank = c.choice.rank;
        out.push_back(c);
      }
  const Axis axes[3] = {Axis::N, Axis::M, Axis::P};
  const char* names[3] = {"extend n", "extend m", "extend p"};
  for (int a = 0; a < 3; ++a) {
    Format to = f;
    int slice = 0;
    if (a == 0) to.n += 1, slice = f.m * f.p;
    if (a == 1) to.m += 1, slice = f.n * f.p;
    if (a == 2) to.p += 1, slice = f.n * f.m;
    if (std::max({to.n, to.m, to.p}) > max_dim) continue;
    Candidate c;
    c.to = to, c.move = names[a], c.rank = s.rank() + slice, c.axis = axes[a];
    out.push_back(c);
  }
  return out;
}

Scheme build(const Scheme& s, const Candidate& c) {
  if (c.move == "project") return restrict_scheme(s, c.choice.keep_i, c.choice.keep_j, c.choice.keep_k);
  Format slice = s.format;
  if (c.axis == Axis::N) slice.n = 1;
  if (c.axis == Axis::M) slice.m = 1;
  if (c.axis == Axis::P) slice.p = 1;
  return join(s, classical_scheme(slice), c.axis);
}

std::string known_text(const std::optional<KnownRank>& k) { return k ? std::to_string(k->rank) : std::string("?"); }

}  // namespace

int catalog_sweep(const std::vector<std::string>& inputs, const Settings& o) {
  if (inputs.empty()) throw UsageError("catalog derive sweep: no input scheme given");
  const int depth = o.has("depth") ? static_cast<int>(o.integer("depth")) : 2;
  const int max_dim = 16;
  const KnownTable known = read_known_table(catalogue_files(o).rings);
  const bool write = o.has("out");
  if (write) std::filesystem::create_directories(o.text("out"));
  int wins = 0;
  std::set<std::pair<Format, int>> seen;  // (sorted format, rank): a permutation of a result adds nothing
  std::cout << "| format | derived rank | ring | best known (ring) | best known Q | from | construction |\n"
               "|---|---|---|---|---|---|---|\n";
  for (const std::string& path : inputs) {
    const Scheme s = read_native(path);
    for (const Candidate& c : candidates(s, depth, max_dim)) {
      auto ring_known = known_rank(known, c.to, s.ring), q_known = known_rank(known, c.to, Ring::Q);
      const bool beats = (ring_known && c.rank < ring_known->rank) || (q_known && c.rank < q_known->rank);
      if (!beats || !seen.insert({sorted_format(c.to), c.rank}).second) continue;
      ++wins;
      std::string where;
      if (write) {
        Scheme d = build(s, c);
        d.provenance.source = "derived from " + path + " (" + s.format.str() + ":" + std::to_string(s.rank()) + ", " +
                              s.provenance.source + ") by " + describe(c, s.format);
        d.provenance.extra["construction"] = describe(c, s.format);
        if (d.rank() != c.rank) throw ContractError("sweep: built rank " + std::to_string(d.rank()) + " != " + std::to_string(c.rank));
        Verdict v = verify(d, d.ring);
        if (!v.valid) throw ContractError("sweep: " + c.move + " produced an invalid scheme: " + v.why_not);
        where = o.text("out") + "/" + d.format.str() + "-r" + std::to_string(d.rank()) + "-" + std::string(ring_name(d.ring)) + ".json";
        write_native(where, d);
      }
      std::cout << "| " << c.to.str() << " | " << c.rank << (write ? " (verified)" : "") << " | " << ring_name(s.ring) << " | "
                << known_text(ring_known) << " | " << known_text(q_known) << " | " << s.format.str() << ":" << s.rank()
                << " | " << describe(c, s.format) << (where.empty() ? "" : " → " + where) << " |\n";
    }
  }
  std::cerr << wins << " derived scheme(s) below a best known rank\n";
  return kOk;
}

}  // namespace tdisc::cli
