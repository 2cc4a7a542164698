// The event vocabulary (src/search/events.hpp) against what the search writes and the report reads:
// every event name in src/ is written through the vocabulary, every event a real run writes is
// listed with its fields, the report reads such a run by the vocabulary, and docs/report.md's
// table of events is the vocabulary's.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "src/report/run_data.hpp"
#include "src/search/events.hpp"
#include "tests/support.hpp"

using namespace tdisc;
namespace events = tdisc::search::events;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> words(std::string_view list) {
  std::istringstream in{std::string(list)};
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Every listed field the event must carry (those without "?") is in e.
void check_fields(const nlohmann::json& e) {
  const std::string name = e.at("event").get<std::string>();
  const events::Kind* k = events::find(name);
  INFO("event " << name << ": " << e.dump());
  REQUIRE(k != nullptr);
  for (const std::string& f : words(k->fields))
    if (f.back() != '?') CHECK(e.contains(f));
}

}  // namespace

TEST_CASE("every event name in src/ is written through the vocabulary", "[fast]") {
  const std::regex literal(R"re(\{"event",\s*")re");
  const std::regex constant(R"re(inline constexpr const char\* (k\w+) = "(\w+)";)re");
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(test::source_path("src"))) {
    const std::string path = entry.path().string(), ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".hpp" && ext != ".cu") continue;
    ++files;
    const std::string text = test::slurp(path);
    INFO(path);
    CHECK(!std::regex_search(text, literal));  // {"event", "name"}: a name the vocabulary may not know
  }
  CHECK(files > 100);
  const std::string header = test::slurp(test::source_path("src/search/events.hpp"));
  int names = 0;
  for (std::sregex_iterator m(header.begin(), header.end(), constant), end; m != end; ++m, ++names) {
    INFO((*m)[1].str());
    CHECK(events::find((*m)[2].str()) != nullptr);  // each name has its row
  }
  CHECK(names == static_cast<int>(std::size(events::kVocabulary)));
}

TEST_CASE("a search writes only events of the vocabulary, with their fields, and the report reads them", "[fast]") {
  const std::string dir = test::temp_dir("events-run");
  auto r = test::run_tdisc("search --size 2x2 --rank 7 --ring GF2 --threads 2 --seed 3 --time 20s -q --out " + dir + "/run");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  std::ifstream in(dir + "/run/events.jsonl");
  std::set<std::string> seen;
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json e = nlohmann::json::parse(line);
    check_fields(e);
    seen.insert(e.at("event").get<std::string>());
  }
  CHECK(seen.count(events::kStarted));
  CHECK(seen.count(events::kImproved));
  CHECK(seen.count(events::kFinished));
  const report::RunData data = report::load_run(dir + "/run");
  CHECK(data.unreadable == 0);
  CHECK(!data.improvements.empty());    // kept: improved
  CHECK(data.started.is_object());      // kept: started
  CHECK(data.finished.is_object());     // kept: finished
  for (const auto& [name, count] : data.event_counts) CHECK(events::find(name) != nullptr);
}

TEST_CASE("docs/report.md lists the events of the vocabulary", "[fast]") {
  const std::string doc = test::slurp(test::source_path("docs/report.md"));
  INFO("docs/report.md's table of events should read:\n" << events::markdown());
  CHECK(doc.find(events::markdown()) != std::string::npos);
}
