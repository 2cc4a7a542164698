// The best known rank per format and ring (algorithms/best-known/rings.tsv, built by
// scripts/best_known_table.py from Perminov's status.json, the FMM digest and extra.tsv): one line
// "format ring rank source date" per sorted format n ≤ m ≤ p ≤ 16 and ring GF2, GF3, ZT, Z, Q.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "decomposition/format.hpp"
#include "decomposition/ring.hpp"

namespace tdisc {

struct KnownRank {
  int rank = 0;
  std::string source;  // repository@commit and file, or paper
  std::string date;    // of the value (the source's date), as the table states it
};

using KnownTable = std::map<std::pair<Format, Ring>, KnownRank>;

// Reads the TSV; '#' lines are comments. Throws InputError(path, line, …) on a malformed line.
KnownTable read_known_table(const std::string& path);

// The best known rank of f (any permutation) over r; QI uses Q's value. nullopt when the table has none.
std::optional<KnownRank> known_rank(const KnownTable& t, const Format& f, Ring r);

}  // namespace tdisc
