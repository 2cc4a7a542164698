// The report pieces without a browser: M4 thinning keeps every extreme, plots carry their series,
// a run directory is read back into the numbers its page shows, and the pages hold them.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "src/report/downsample.hpp"
#include "src/report/html.hpp"
#include "src/report/pages.hpp"
#include "src/report/plot.hpp"
#include "tests/support.hpp"

using namespace tdisc;
using namespace tdisc::report;
using nlohmann::json;

namespace {

// A run directory written the way the orchestrator writes one.
std::string synthetic_run(const std::string& tag, int samples) {
  std::string dir = test::temp_dir(tag);
  std::ofstream ev(dir + "/events.jsonl");
  ev << json{{"event", "started"}, {"engine", "flip"}, {"seed", 42}, {"threads", 2}, {"budget_seconds", 60.0},
             {"target", {{"format", "3x3x3"}, {"rank", 23}, {"ring", "ZT"}}}}.dump() << "\n";
  for (int i = 0; i < samples; ++i) {
    double t = 0.01 * i;
    ev << json{{"event", "progress"}, {"elapsed", t}, {"rate", 1e6 + (i % 7) * 1e4}, {"rank", 27 - i * 4 / samples},
               {"residual", 1.0 / (1 + i)}}.dump() << "\n";
  }
  ev << json{{"event", "improved"}, {"elapsed", 0.5}, {"rank", 24}, {"ring", "ZT"}, {"method", "flip"}, {"file", dir + "/best-r24.json"}}.dump() << "\n";
  ev << json{{"event", "improved"}, {"elapsed", 0.9}, {"rank", 23}, {"ring", "ZT"}, {"method", "flip"}, {"file", dir + "/best-r23.json"}}.dump() << "\n";
  ev << "{\"event\":\"progress\",\"elap";  // a torn last line (a killed run)
  ev.close();
  std::ofstream(dir + "/run.json") << json{{"format", "tdisc-run"}, {"seed", 42}, {"tool", "tdisc test"}}.dump();
  std::ofstream(dir + "/best-r23.json") << "{}";
  std::ofstream(dir + "/best-r24.json") << "{}";
  return dir;
}

}  // namespace

TEST_CASE("M4 thinning keeps the extremes of every column and bounds the size", "[fast][report]") {
  Series s("noise");
  for (int i = 0; i < 100000; ++i) s.x.push_back(i), s.y.push_back((i * 7919) % 1000);
  s.y[54321] = -5000;  // a spike must survive
  s.y[777] = 9999;
  Series d = downsample(s, 500);
  CHECK(d.x.size() <= 4 * 500);
  CHECK(d.x.size() >= 500);
  CHECK(*std::min_element(d.y.begin(), d.y.end()) == -5000);
  CHECK(*std::max_element(d.y.begin(), d.y.end()) == 9999);
  CHECK(std::is_sorted(d.x.begin(), d.x.end()));
  CHECK(d.x.front() == 0);
  CHECK(d.x.back() == 99999);
  Series small("small");
  small.x = {1, 2, 3}, small.y = {3, 2, 1};
  CHECK(downsample(small, 500).x.size() == 3);  // short series are untouched
}

TEST_CASE("a plot names its series and points; an empty one says so", "[fast][report]") {
  PlotSpec p("plot-x", "Title <&>", "t", "y");
  Series a("first");
  a.x = {0, 1, 2}, a.y = {5, 4, 3};
  p.series.push_back(a);
  p.markers.push_back({1, 4, "a \"marker\"", "best-r4.json"});
  std::string svg = svg_plot(p);
  CHECK(svg.find("id=\"plot-x\"") != std::string::npos);
  CHECK(svg.find("data-name=\"first\" data-points=\"3\"") != std::string::npos);
  CHECK(svg.find("Title &lt;&amp;&gt;") != std::string::npos);
  CHECK(svg.find("href=\"best-r4.json\"") != std::string::npos);
  PlotSpec empty("plot-y", "Nothing", "t", "y");
  CHECK(svg_plot(empty).find("no data") != std::string::npos);
}

TEST_CASE("a run directory is read into the series and numbers its page shows", "[fast][report]") {
  std::string dir = synthetic_run("report-run", 3000);
  RunData r = load_run(dir);
  CHECK(r.lines == 3000 + 4);
  CHECK(r.unreadable == 1);
  REQUIRE(r.columns.count("rate"));
  CHECK(r.columns.at("rate").v.size() == 3000);
  REQUIRE(r.improvements.size() == 2);
  CHECK(r.improvements.back().rank == 23);
  CHECK(r.best_files == std::vector<std::string>{"best-r23.json", "best-r24.json"});
  std::string html = run_page(r, "");
  CHECK(html.find("<span id=\"best-rank\">23</span>") != std::string::npos);
  CHECK(html.find("<span id=\"seed\">42</span>") != std::string::npos);
  CHECK(html.find("href=\"best-r23.json\"") != std::string::npos);
  CHECK(html.find("id=\"plot-residual\"") != std::string::npos);
  CHECK(html.find("Content-Security-Policy") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a directory without events.jsonl is refused with its name", "[fast][report]") {
  std::string dir = test::temp_dir("report-empty");
  CHECK_THROWS_WITH(load_run(dir), Catch::Contains("no events.jsonl"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("tdisc report writes the page and says where; bad input exits 2", "[fast][report][cli]") {
  std::string dir = synthetic_run("report-cli", 100);
  auto r = test::run_tdisc("report " + dir + " -o " + dir + "/page.html");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.rfind("wrote " + dir + "/page.html", 0) == 0);
  CHECK(std::filesystem::file_size(dir + "/page.html") > 1000);
  auto bad = test::run_tdisc("report " + dir + "/nope");
  CHECK(bad.code == 2);
  CHECK(bad.err.find("tdisc: " + dir + "/nope: not a run directory") == 0);
  std::filesystem::remove_all(dir);
}
