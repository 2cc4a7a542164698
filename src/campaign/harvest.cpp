// Reading a target's run directory back (verified, not claimed) and filing what it proves.
#include "src/campaign/harvest.hpp"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/native.hpp"
#include "generated/tdisc_version.hpp"
#include "verifier/narrow.hpp"
#include "verifier/verify.hpp"

namespace tdisc::campaign {

namespace fs = std::filesystem;

std::optional<VerifiedBest> verified_best(const std::string& run_dir, Ring ring, int below) {
  std::map<int, std::string> files;  // rank → path, lowest first
  static const std::regex name(R"(best-r([0-9]{1,7})\.json)");
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(run_dir, ec)) {
    std::smatch m;
    const std::string file = e.path().filename().string();
    if (std::regex_match(file, m, name) && std::stoi(m[1]) < below) files[std::stoi(m[1])] = e.path().string();
  }
  for (const auto& [rank, path] : files) {
    try {
      Scheme s = read_native(path);
      if (s.rank() != rank || !verify(s, ring).valid) continue;
      return VerifiedBest{rank, path, std::move(s)};
    } catch (const std::exception&) {  // torn or foreign: not proof of anything
    }
  }
  return std::nullopt;
}

double checkpoint_seconds(const std::string& run_dir) {
  try {
    auto j = nlohmann::json::parse(read_text_file(run_dir + "/checkpoint.json", InputKind::run_file), nullptr, false);
    if (j.is_object() && j.contains("elapsed") && j["elapsed"].is_number()) return j["elapsed"].get<double>();
  } catch (const std::exception&) {
  }
  return 0;
}

void rewrite_index(const std::string& catalog, const std::string& sota, const std::string& rings) {
  const std::string text = index_markdown(read_catalogue(catalog), read_best_known(sota), 5, read_known_table(rings));
  write_file_atomic(catalog + "/INDEX.md", text);
}

FiledScheme file_improvement(const Filing& f, const FilingNote& note, Scheme s) {
  const Verdict v = verify(s, s.ring);
  if (!v.valid) throw InputError(note.run_dir, 0, "a best file does not verify over " + std::string(ring_name(s.ring)) + ": " + v.why_not);
  s.ring = narrowed_ring(s);
  Provenance& p = s.provenance;
  p.source = "tdisc campaign " + f.targets_file + ", target " + note.target + ", run directory " + note.run_dir;
  p.extra["campaign"] = f.campaign_dir;
  p.extra["campaign_seed"] = std::to_string(f.campaign_seed);
  p.extra["target"] = note.target;
  p.extra["commit"] = TDISC_GIT;
  p.extra["command"] = f.command;
  p.extra["licence"] = "CC0-1.0 (found by tdisc; mathematics)";
  if (!note.start.empty()) p.extra["start"] = note.start;
  p.seed = note.seed;
  fs::create_directories(f.catalog);
  std::vector<CatalogueEntry> have = read_catalogue(f.catalog);
  FiledScheme filed = file_in_catalogue(f.catalog, s, true, have);
  if (filed.what == Filed::Added) rewrite_index(f.catalog, f.sota, f.rings);
  return filed;
}

}  // namespace tdisc::campaign
