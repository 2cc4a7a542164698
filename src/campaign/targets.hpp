// The targets file of a campaign: one target a line, "FORMAT RING [key=value …]", '#' comments
// (docs/campaign.md). Parsing only; every line is checked before anything runs, and a bad one is an
// InputError "FILE:LINE: what is wrong".
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "decomposition/format.hpp"
#include "decomposition/ring.hpp"
#include "src/catalog/best_known.hpp"

namespace tdisc::campaign {

struct CampaignTarget {
  int line = 0;            // in the targets file
  Format format;
  Ring ring = Ring::ZT;
  int beat = 0;            // the rank to beat: the best known over ring (rings.tsv) unless beat= says
  int reach = 0;           // the rank the search looks for: reach=, else beat − 1
  std::optional<double> share;  // time=: seconds this target may run over all sessions (none: the campaign's)
  std::string from;        // a native start file (resolved), or "" for the search's own start
  std::string from_text;   // as written: a path, or "catalogue"
  std::string engine;      // engine= (auto, flip, numeric), "" for the plan's choice
  std::string symmetry;    // symmetry= (auto, none, z3, s3), "" for the search's default
  std::string recipes;     // recipes=: the recipe table the search's plan reads (resolved), "" for its default
  nlohmann::json params;   // params= (a JSON object), null when absent
  int start_rank = 0;      // the rank the search starts from: from='s declared rank, the standard n·m·p without
                           // from= (flip walks), 0 when unknown (engine=numeric); for the table, not proof

  std::string name(int index) const;  // "t2-5x5x5-GF2-r92": its run directory under --dir
  std::string key() const;            // "5x5x5 GF2 r92": what must match when a campaign resumes
};

struct TargetSources {
  KnownTable known;            // rings.tsv: the default rank to beat
  std::string known_path;      // for messages
  std::string start_catalogue; // where from=catalogue looks
  bool skip_missing = false;   // a from= file that does not exist: skip the target (with a note), not refuse
};

struct TargetList {
  std::vector<CampaignTarget> targets;
  std::vector<std::string> notes;  // "FILE:LINE: skipped: …"
};

// Throws InputError(path, line, …) for the first bad line; IoError when the file cannot be read.
TargetList read_targets(const std::string& path, const TargetSources& sources);
TargetList parse_targets(const std::string& text, const std::string& path, const TargetSources& sources);

}  // namespace tdisc::campaign
