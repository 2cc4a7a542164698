// The follower → rank 0 report as JSON text; schemes travel as native files (decomposition/native),
// so rank 0 re-verifies them exactly like any scheme read from disk.
#include "src/search/mpi/report.hpp"

#include <cmath>

#include "base/error.hpp"
#include "decomposition/native.hpp"

namespace tdisc::search::mpi {

namespace {

// JSON has no infinity or NaN (a numeric run's residual is infinite until its first restart ends):
// such counters are left out rather than sent as null.
nlohmann::json finite_only(const std::map<std::string, double>& counters) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : counters)
    if (std::isfinite(v)) j[k] = v;
  return j;
}

}  // namespace

std::string Report::text() const {
  nlohmann::json offers_json = nlohmann::json::array();
  for (const Offer& o : offers) offers_json.push_back({{"scheme", native_text(o.scheme)}, {"method", o.method}});
  nlohmann::json j = {{"offers", offers_json}, {"events", events}, {"added", finite_only(added)}, {"set", finite_only(set)}, {"done", done}};
  if (checkpoint) j["checkpoint"] = *checkpoint;
  return j.dump();
}

Report Report::parse(const std::string& text) {
  Report r;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    for (const auto& o : j.at("offers"))
      r.offers.push_back({parse_native(o.at("scheme").get<std::string>(), "mpi report"), o.at("method").get<std::string>()});
    for (const auto& e : j.at("events")) r.events.push_back(e);
    r.added = j.at("added").get<std::map<std::string, double>>();
    r.set = j.at("set").get<std::map<std::string, double>>();
    r.done = j.at("done").get<bool>();
    if (j.contains("checkpoint")) r.checkpoint = j.at("checkpoint");
  } catch (const nlohmann::json::exception& e) {
    throw InputError("mpi report", 0, std::string("malformed message: ") + e.what());
  }
  return r;
}

void Report::merge(Report later) {
  for (auto& o : later.offers) offers.push_back(std::move(o));
  for (auto& e : later.events) events.push_back(std::move(e));
  for (auto& [k, v] : later.added) added[k] += v;
  for (auto& [k, v] : later.set) set[k] = v;
  if (later.checkpoint) checkpoint = std::move(later.checkpoint);
  done = done || later.done;
}

}  // namespace tdisc::search::mpi
