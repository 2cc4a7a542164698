// What a campaign takes from a target's run directory: the lowest-rank best file that parses and
// verifies exactly over the target's ring (never the checkpoint's word), the seconds its checkpoint
// records; and the filing of a verified improvement into a catalogue, with the campaign's provenance,
// followed by a rewritten INDEX.md.
#pragma once
#include <climits>
#include <optional>
#include <string>

#include "decomposition/scheme.hpp"
#include "src/catalog/catalogue.hpp"

namespace tdisc::campaign {

struct VerifiedBest {
  int rank = INT_MAX;
  std::string file;
  Scheme scheme;
};

// The lowest-rank DIR/best-r<R>.json with R < below that parses and verifies over ring; a file that
// does not (torn by a kill, foreign) is passed over. nullopt when none.
std::optional<VerifiedBest> verified_best(const std::string& run_dir, Ring ring, int below = INT_MAX);
// DIR/checkpoint.json's "elapsed" (0 when there is none or it cannot be read).
double checkpoint_seconds(const std::string& run_dir);

// Where and how improvements are filed.
struct Filing {
  std::string catalog;       // the catalogue directory
  std::string sota, rings;   // fmm_sota.json and rings.tsv, for INDEX.md
  std::string campaign_dir, targets_file, command;
  unsigned long long campaign_seed = 0;
};
struct FilingNote {
  std::string target;        // CampaignTarget::key()
  std::string run_dir;
  std::string start;         // from=, "" for the search's own start
  unsigned long long seed = 0;
};

// Re-verifies s over its ring (exactly; a failure is an InputError and nothing is written), narrows the
// ring, adds the provenance (campaign, target, seeds, commit, command, licence) and files it as
// `tdisc catalog add --if-better` does; INDEX.md is rewritten when a file was added.
FiledScheme file_improvement(const Filing& f, const FilingNote& note, Scheme s);
// DIR/INDEX.md from the catalogue as `tdisc catalog index` writes it.
void rewrite_index(const std::string& catalog, const std::string& sota, const std::string& rings);

}  // namespace tdisc::campaign
