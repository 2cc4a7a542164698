// The setup message as JSON text (see setup.hpp); the target as size/rank/ring names and a start
// scheme as a native file, exactly as run.json and the run directory hold them.
#include "src/search/mpi/setup.hpp"

#include "base/error.hpp"
#include "decomposition/native.hpp"

namespace tdisc::search::mpi {

std::string setup_text(const Setup& s) {
  if (s.cancelled) return nlohmann::json{{"cancelled", *s.cancelled}}.dump();
  const EngineConfig& c = s.config;
  nlohmann::json j = {
      {"engine", s.engine},
      {"target", {{"size", c.target.format.str()}, {"rank", c.target.rank}, {"ring", std::string(ring_name(c.target.ring))}}},
      {"threads", c.threads}, {"seed", c.seed}, {"seconds", c.seconds}, {"params", c.params},
      {"catalogue_dir", c.catalogue_dir}, {"lane_recipes", lane_recipes_json(c.lane_recipes)},
      {"start", c.start ? nlohmann::json(native_text(*c.start)) : nlohmann::json()},
      {"state", c.resume ? *c.resume : nlohmann::json()},
      {"settings", {{"exchange", s.settings.exchange_seconds}, {"timeout", s.settings.timeout_seconds},
                    {"report", s.settings.report_seconds}, {"checkpoint", s.settings.checkpoint_seconds}, {"migrants", s.settings.migrants}}}};
  return j.dump();
}

Setup parse_setup(const std::string& text) {
  Setup s;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (j.contains("cancelled")) {
      s.cancelled = j.at("cancelled").get<int>();
      return s;
    }
    s.engine = j.at("engine").get<std::string>();
    const auto& t = j.at("target");
    auto format = parse_format(t.at("size").get<std::string>());
    auto ring = parse_ring(t.at("ring").get<std::string>());
    if (!format || !ring) throw InputError("mpi setup", 0, "bad target " + t.dump());
    EngineConfig& c = s.config;
    c.target = {*format, t.at("rank").get<int>(), *ring};
    c.threads = j.at("threads").get<int>();
    c.seed = j.at("seed").get<unsigned long long>();
    c.seconds = j.at("seconds").get<double>();
    c.params = j.at("params");
    c.catalogue_dir = j.value("catalogue_dir", std::string());
    c.lane_recipes = lane_recipes_from_json(j.value("lane_recipes", nlohmann::json()), "mpi setup");
    if (!j.at("start").is_null()) c.start = parse_native(j.at("start").get<std::string>(), "mpi setup");
    if (!j.at("state").is_null()) c.resume = j.at("state");
    const auto& m = j.at("settings");
    s.settings = {m.at("exchange").get<double>(), m.at("timeout").get<double>(), m.at("report").get<double>(),
                  m.at("checkpoint").get<double>(), m.at("migrants").get<int>()};
  } catch (const nlohmann::json::exception& e) {
    throw InputError("mpi setup", 0, std::string("malformed message: ") + e.what());
  }
  return s;
}

}  // namespace tdisc::search::mpi
