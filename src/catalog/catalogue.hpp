// The catalogue: verified native schemes under algorithms/<n>x<m>x<p>/r<R>-<ring>-<hash8>.json
// (DESIGN §2). Reading, querying and indexing only; verification is the caller's job.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "decomposition/scheme.hpp"
#include "src/catalog/best_known.hpp"

namespace tdisc {

struct CatalogueEntry {
  std::string path;      // DIR/<format>/<file>.json, with DIR as given
  std::string relative;  // <format>/<file>.json
  Format format;
  int rank = 0;
  Ring ring = Ring::Q;   // the ring the file declares (the smallest it is valid over)
  std::string hash8;
  std::string name;      // provenance "name" (e.g. "Strassen"), may be empty
  std::string source;    // provenance source
  std::string licence;   // provenance "licence"
  bool holds_mod2 = false, holds_mod3 = false;  // coefficients exist modulo 2 / 3
};

// Every *.json two levels down (DIR/<format>/<file>.json), parsed with the native reader, sorted by
// (format, rank, ring, path). Throws InputError for a file that does not parse, and for a file whose
// folder or name disagrees with its contents (a misfiled scheme).
std::vector<CatalogueEntry> read_catalogue(const std::string& dir);

// The entry describing scheme s stored at path (relative: "<format>/<file>.json").
CatalogueEntry catalogue_entry(const Scheme& s, const std::string& path, const std::string& relative);

// Native texts longer than this are filed gzip-compressed (FILE.json.gz; every reader inflates them).
inline constexpr size_t kCompressAbove = size_t{1} << 20;
// Where a scheme belongs: DIR/<n>x<m>x<p>/<catalogue_file_name>, with ".gz" past kCompressAbove.
std::string catalogue_path(const std::string& dir, const Scheme& s);

// A catalogued scheme valid over ring r can be used over `over`: the same modular ring, a larger
// characteristic-0 ring, or a prime p whose residues hold every coefficient (the Brent identities,
// true over Z localised at p, reduce mod p).
bool usable_over(const CatalogueEntry& e, Ring over);

// Preference among rings on equal rank, most widely usable first: ZT, Z, Q, QI, GF2, GF3.
int ring_preference(Ring r);

Format sorted_format(Format f);           // dims ascending
bool same_up_to_permutation(Format a, Format b);

struct CatalogueQuery {
  std::optional<Format> format;
  bool permutations = true;   // also schemes for a permutation of the format (rotate/transpose)
  std::optional<Ring> ring;   // usable over this ring
};
std::vector<CatalogueEntry> select(const std::vector<CatalogueEntry>& all, const CatalogueQuery& q);
// The lowest rank among `select`; on ties the exact format, then ring_preference, then the path.
std::optional<CatalogueEntry> best(const std::vector<CatalogueEntry>& all, const CatalogueQuery& q);

// Filing a verified scheme whose ring is the smallest it is valid over — one rule for `tdisc catalog
// add` and `tdisc search --catalog`: nothing is written when its file exists already, nor (with
// if_better) when `have` holds a scheme of lower or equal rank for its format, or a permutation of
// it, usable over its ring. A written scheme joins `have`.
enum class Filed { Added, AlreadyThere, Dominated };
struct FiledScheme {
  Filed what = Filed::Added;
  std::string path;  // where it is (or would have been) written
};
FiledScheme file_in_catalogue(const std::string& dir, const Scheme& s, bool if_better, std::vector<CatalogueEntry>& have);

// fmm_sota.json (https://github.com/sedoglavic/fmm_digest; copy in algorithms/best-known/): best known
// rank per sorted format.
std::map<Format, int> read_best_known(const std::string& path);

// algorithms/INDEX.md: for each sorted format with 2 ≤ n ≤ m ≤ p ≤ max_dim, the best known rank and
// our best rank usable over each ring, then every catalogued file. Deterministic (no dates).
// With `rings` (rings.tsv), each ring's cell is compared with that ring's best known rank (QI with
// Q's), and a ★ cell links the file that beats it; without, with best_known (any ring).
std::string index_markdown(const std::vector<CatalogueEntry>& all, const std::map<Format, int>& best_known,
                           int max_dim = 5, const KnownTable& rings = {});

}  // namespace tdisc
