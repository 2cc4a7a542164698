// The GPU benchmark as a page (tdisc bench … --report): speed-up over cuBLAS against n for each
// scheme, leaf mode and dtype, the error ratio against cuBLAS's, the crossover size and fast_p, from
// the harness's JSON (codegen/bench.cpp). Only square shapes go on the curves; every row is tabled.
#include <algorithm>
#include <map>

#include "src/report/html.hpp"
#include "src/report/pages.hpp"
#include "src/report/plot.hpp"

namespace tdisc::report {

using nlohmann::json;

namespace {

std::map<std::string, Series> square_curves(const json& result, const char* value, const std::string& dtype) {
  std::map<std::string, Series> curves;
  for (const auto& row : result.value("rows", json::array())) {
    long m = row.value("M", 0L), n = row.value("N", 0L), k = row.value("K", 0L);
    if (m != n || n != k || !row.value("correct", true) || !row.contains(value)) continue;
    std::string name = row.value("variant", "?") + " " + row.value("leaf", "") + " " + dtype;
    Series& s = curves[name];
    s.name = name;
    s.x.push_back(static_cast<double>(n));
    s.y.push_back(row[value].get<double>());
  }
  for (auto& [name, s] : curves) {  // ascending n
    std::vector<size_t> order(s.x.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.x[a] < s.x[b]; });
    Series sorted{s.name};
    for (size_t i : order) sorted.x.push_back(s.x[i]), sorted.y.push_back(s.y[i]);
    s = sorted;
  }
  return curves;
}

std::string rows_table(const json& result, const std::string& dtype) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : result.value("rows", json::array()))
    rows.push_back({escape(r.value("variant", "")), escape(r.value("leaf", "")), escape(dtype),
                    std::to_string(r.value("M", 0L)) + "×" + std::to_string(r.value("N", 0L)) + "×" + std::to_string(r.value("K", 0L)),
                    number(r.value("cublas_ms", 0.0)), number(r.value("ours_ms", 0.0)),
                    "<span class=\"" + std::string(r.value("speedup", 0.0) > 1 ? "ok" : "bad") + "\">" + number(r.value("speedup", 0.0), 4) + "×</span>",
                    number(r.value("err_ratio", 0.0), 3), r.value("correct", false) ? "yes" : "<span class=\"bad\">no</span>"});
  return table("", {"variant", "leaf", "dtype", "M×N×K", "cuBLAS ms", "ours ms", "speed-up", "error ratio", "correct"}, rows);
}

std::string fast_p_table(const json& result, const std::string& dtype) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : result.value("fast_p", json::array()))
    rows.push_back({escape(f.value("variant", "")), escape(f.value("leaf", "")), escape(dtype), std::to_string(f.value("shapes", 0)),
                    number(f.value("fast_1.0", 0.0), 3), number(f.value("fast_1.1", 0.0), 3), number(f.value("fast_1.2", 0.0), 3),
                    f.contains("crossover_n") && !f["crossover_n"].is_null() ? std::to_string(f["crossover_n"].get<long>()) : "none"});
  return table("", {"variant", "leaf", "dtype", "shapes", "fast_1.0", "fast_1.1", "fast_1.2", "crossover n"}, rows);
}

}  // namespace

std::string bench_page(const std::vector<json>& results, const std::vector<std::string>& sources) {
  PlotSpec speed{"plot-speedup", "Speed-up over cuBLAS (square n×n×n)", "n", "speed-up (×)"};
  PlotSpec error{"plot-error", "Error relative to cuBLAS's (square)", "n", "error ratio"};
  speed.x_from_zero = error.x_from_zero = false;  // n axes: from the smallest size measured
  std::string tables, devices;
  for (size_t i = 0; i < results.size(); ++i) {
    const json& r = results[i];
    std::string dtype = r.value("dtype", "?");
    for (auto& [name, s] : square_curves(r, "speedup", dtype)) speed.series.push_back(s);
    for (auto& [name, s] : square_curves(r, "err_ratio", dtype)) error.series.push_back(s);
    tables += "<h3>" + escape(sources[i]) + "</h3>" + fast_p_table(r, dtype) + rows_table(r, dtype);
    devices += "<p>" + escape(sources[i]) + ": " + escape(r.value("device", "?")) + ", baseline " + escape(r.value("baseline", "?")) +
               ", " + std::to_string(r.value("reps", 0)) + " timed repetitions, seed " + std::to_string(r.value("seed", 0L)) + "</p>";
  }
  if (!speed.series.empty()) {  // the break-even line
    Series one{"1× (cuBLAS)"};
    one.colour = "#adb5bd";
    double lo = 1e300, hi = 0;
    for (const auto& s : speed.series)
      for (double x : s.x) lo = std::min(lo, x), hi = std::max(hi, x);
    one.x = {lo, hi}, one.y = {1, 1};
    speed.series.push_back(one);
  }
  std::string body = section("device", "Measurement", devices) + section("speedup", "Speed-up", svg_plot(speed)) +
                     section("error", "Accuracy", svg_plot(error)) + section("tables", "Crossover, fast_p and every row", tables);
  return page("tdisc GPU benchmark", std::to_string(results.size()) + " result file(s)", body);
}

}  // namespace tdisc::report
