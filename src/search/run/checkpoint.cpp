// The check of a checkpoint.json before a run resumes over it; see checkpoint.hpp.
#include "src/search/run/checkpoint.hpp"

#include <cmath>

#include "base/error.hpp"

namespace tdisc::search {

void check_checkpoint(const nlohmann::json& c, const std::string& path, const std::string& engine) {
  auto refuse = [&](const std::string& why) {
    throw InputError(path, 0, "not a checkpoint of this run (" + why + "); refusing to resume over it. Move it away "
                              "to resume from the verified best files alone");
  };
  if (!c.is_object()) refuse("not a JSON object");
  if (!c.contains("format") || c["format"] != "tdisc-checkpoint") refuse("\"format\" is not \"tdisc-checkpoint\"");
  if (!c.contains("version") || c["version"] != 1) refuse("unsupported \"version\"");
  if (!c.contains("engine") || c["engine"] != engine) refuse("written by another engine than this run's " + engine);
  if (!c.contains("elapsed") || !c["elapsed"].is_number() || !std::isfinite(c["elapsed"].get<double>()) ||
      c["elapsed"].get<double>() < 0)
    refuse("\"elapsed\" is not a non-negative number of seconds");
  if (c.contains("best_rank") && !c["best_rank"].is_number_integer()) refuse("\"best_rank\" is not an integer");
  if (c.contains("best_file") && !c["best_file"].is_string()) refuse("\"best_file\" is not a string");
  if (c.contains("counters") && !c["counters"].is_object()) refuse("\"counters\" is not an object");
}

}  // namespace tdisc::search
