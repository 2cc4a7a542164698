// run.json read back and validated for --resume; see request_file.hpp.
#include "src/search/run/request_file.hpp"

#include <filesystem>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"

namespace tdisc::search {

namespace fs = std::filesystem;

RunRequest read_run_request(const std::string& dir) {
  const std::string path = dir + "/run.json";
  if (!fs::exists(path)) throw UsageError("--resume: " + dir + " has no run.json (not a tdisc run directory)");
  nlohmann::json j = parse_json_input(read_text_file(path, InputKind::run_file), path, "a tdisc run file");
  auto refuse = [&](const std::string& why) { throw InputError(path, 0, "not a tdisc run file: " + why); };
  if (!j.is_object() || !j.contains("format") || j["format"] != "tdisc-run") refuse("\"format\" is not \"tdisc-run\"");
  if (!j.contains("target") || !j["target"].is_object()) refuse("no \"target\" object");
  const nlohmann::json& t = j["target"];
  auto text = [&](const nlohmann::json& o, const char* key) {
    if (!o.contains(key) || !o[key].is_string()) refuse(std::string("\"") + key + "\" is not a string");
    return o[key].get<std::string>();
  };
  RunRequest r;
  auto format = parse_format(text(t, "size"));
  auto ring = parse_ring(text(t, "ring"));
  if (!format || !ring) refuse("unreadable target size or ring");
  if (!t.contains("rank") || !t["rank"].is_number_integer() || t["rank"].get<long>() < 1 || t["rank"].get<long>() > 1000000)
    refuse("the target rank is not a positive integer");
  r.target = {*format, t["rank"].get<int>(), *ring};
  r.engine = text(j, "engine");
  if (j.contains("threads") && j["threads"].is_number_integer() && j["threads"].get<long>() >= 1 && j["threads"].get<long>() <= 1024)
    r.threads = j["threads"].get<int>();
  if (j.contains("seed") && !j["seed"].is_number_unsigned() && !j["seed"].is_number_integer()) refuse("\"seed\" is not an integer");
  r.seed = j.contains("seed") ? j["seed"].get<unsigned long long>() : 0;
  if (j.contains("params")) {
    if (!j["params"].is_object()) refuse("\"params\" is not an object");
    r.params = j["params"];
  }
  return r;
}

}  // namespace tdisc::search
