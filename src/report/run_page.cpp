// The page of one run: what was searched and how it ended, then rank, throughput, residual and
// lifts over time, the LLM sections where the run used a model, and the run's parameters.
#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>

#include "src/report/html.hpp"
#include "src/report/pages.hpp"
#include "src/report/plot.hpp"

namespace tdisc::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string text_of(const json& j, const char* key, const std::string& fallback = "–") {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return fallback;
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

const json& obj(const json& j) {
  static const json empty = json::object();
  return j.is_object() ? j : empty;
}

int best_rank(const RunData& r) {
  int best = INT_MAX;
  for (const auto& i : r.improvements) best = std::min(best, i.rank);
  return best;
}

double end_time(const RunData& r) {
  double t = r.finished.is_object() ? r.finished.value("elapsed", 0.0) : 0;
  for (const auto& [k, c] : r.columns)
    if (!c.t.empty()) t = std::max(t, c.t.back());
  for (const auto& i : r.improvements) t = std::max(t, i.t);
  return t;
}

std::string summary(const RunData& r) {
  const json target = obj(r.started).value("target", json::object());
  int best = best_rank(r);
  bool reached = r.finished.is_object() && r.finished.value("reached", false);
  std::vector<std::vector<std::string>> rows = {
      {"target", escape(text_of(target, "format") + " rank " + text_of(target, "rank") + " over " + text_of(target, "ring"))},
      {"engine", escape(text_of(r.started, "engine"))},
      {"seed", "<span id=\"seed\">" + escape(text_of(r.started, "seed")) + "</span>"},
      {"threads", escape(text_of(r.started, "threads"))},
      {"budget", escape(obj(r.started).value("budget_seconds", 0.0) > 0 ? seconds_text(obj(r.started).value("budget_seconds", 0.0)) : "until stopped")},
      {"best rank", "<span id=\"best-rank\">" + (best == INT_MAX ? std::string("none") : std::to_string(best)) + "</span>" +
                        (reached ? " <span class=\"ok\">(target reached)</span>" : "")},
      {"elapsed", escape(seconds_text(end_time(r)))},
      {"tool", escape(text_of(r.run, "tool", "not recorded"))},
      {"machine", escape(text_of(r.run, "machine", "not recorded"))},
      {"events", std::to_string(r.lines) + (r.unreadable ? " (" + std::to_string(r.unreadable) + " unreadable)" : "")}};
  return section("summary", "Summary", table("summary-table", {"", ""}, rows));
}

Series column_series(const RunData& r, const std::string& key, const std::string& name) {
  Series s;
  s.name = name;
  if (auto it = r.columns.find(key); it != r.columns.end()) s.x = it->second.t, s.y = it->second.v;
  return s;
}

// Every column whose key is `base` or `base@tag`, one series each.
std::vector<Series> tagged(const RunData& r, const std::string& base, const std::string& name) {
  std::vector<Series> out;
  for (const auto& [key, c] : r.columns)
    if (key == base || key.rfind(base + "@", 0) == 0)
      out.push_back(column_series(r, key, key == base ? name : name + " (" + key.substr(base.size() + 1) + ")"));
  return out;
}

std::string rank_section(const RunData& r, const std::string& link_base) {
  PlotSpec p{"plot-rank", "Rank over time", "elapsed (s)", "rank"};
  p.integer_y = true;
  Series best{"best verified rank"};
  best.step = true;
  best.colour = "#d9480f";
  for (const auto& i : r.improvements) {
    best.x.push_back(i.t), best.y.push_back(i.rank);
    std::string file = fs::path(i.file).filename().string();
    p.markers.push_back({i.t, static_cast<double>(i.rank), "rank " + std::to_string(i.rank) + " at " + seconds_text(i.t) + " by " + i.method,
                         file.empty() ? "" : link_base + file});
  }
  if (!best.x.empty()) best.x.push_back(std::max(end_time(r), best.x.back())), best.y.push_back(best.y.back());
  for (auto& s : tagged(r, "rank", "current rank")) p.series.push_back(s);
  p.series.push_back(best);
  std::vector<std::vector<std::string>> rows;
  for (const auto& i : r.improvements) {
    std::string file = fs::path(i.file).filename().string();
    rows.push_back({std::to_string(i.rank), escape(i.ring), escape(i.method), escape(seconds_text(i.t)),
                    file.empty() ? "" : link(link_base + file, file)});
  }
  return section("rank", "Rank", svg_plot(p) + table("improvements", {"rank", "ring", "method", "at", "verified file"}, rows));
}

// Rates: flips/s (or moves/s) as sampled; restarts/s from the restart counter's increments.
std::string throughput_section(const RunData& r) {
  PlotSpec p{"plot-throughput", "Throughput", "elapsed (s)", "per second"};
  p.series = tagged(r, "rate", "flips or moves /s");
  for (auto s : tagged(r, "restarts", "restarts/s")) {
    Series d{s.name};
    for (size_t i = 1; i < s.x.size(); ++i)
      if (s.x[i] > s.x[i - 1]) d.x.push_back(s.x[i]), d.y.push_back((s.y[i] - s.y[i - 1]) / (s.x[i] - s.x[i - 1]));
    p.series.push_back(d);
  }
  return section("throughput", "Throughput", svg_plot(p));
}

std::string numeric_section(const RunData& r) {
  if (!r.columns.count("residual") && !r.columns.count("exact_fraction")) return "";
  PlotSpec res{"plot-residual", "Best Brent residual", "elapsed (s)", "residual"};
  res.log_y = true;
  res.series = tagged(r, "residual", "residual");
  PlotSpec frac{"plot-rounded", "Fraction of coefficients rounded exactly", "elapsed (s)", "fraction"};
  frac.series = tagged(r, "exact_fraction", "rounded");
  return section("numeric", "Numerical engine", svg_plot(res) + svg_plot(frac));
}

std::string lifts_section(const RunData& r) {
  if (!r.columns.count("lift_attempts")) return "";
  PlotSpec p{"plot-lifts", "Hensel lifts", "elapsed (s)", "count"};
  p.integer_y = true;
  p.series = tagged(r, "lift_attempts", "attempted");
  for (auto& s : tagged(r, "lifts", "succeeded")) p.series.push_back(s);
  double tried = r.columns.at("lift_attempts").v.back();
  double ok = r.columns.count("lifts") ? r.columns.at("lifts").v.back() : 0;
  return section("lifts", "Lifting", svg_plot(p) + "<p id=\"lift-totals\">" + number(ok) + " of " + number(tried) +
                                          " lifts succeeded.</p>\n");
}

std::string parameters_section(const RunData& r) {
  std::string body = "<pre id=\"run-json\">" + escape(r.run.is_null() ? "run.json is missing" : r.run.dump(2)) + "</pre>\n";
  return section("parameters", "Parameters (run.json)", body);
}

}  // namespace

std::string run_page(const RunData& r, const std::string& link_base) {
  std::string body = summary(r) + rank_section(r, link_base) + throughput_section(r) + numeric_section(r) +
                     lifts_section(r) + llm_sections(r) + parameters_section(r);
  const json target = obj(r.started).value("target", json::object());
  return page("tdisc run " + fs::path(r.dir).filename().string(),
              text_of(target, "format") + " rank " + text_of(target, "rank") + " over " + text_of(target, "ring") + ", engine " +
                  text_of(r.started, "engine") + ", seed " + text_of(r.started, "seed"),
              body);
}

}  // namespace tdisc::report
