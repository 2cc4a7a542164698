// Reading a run directory for its report. events.jsonl may hold millions of lines (progress samples
// of a ten-hour hunt), so each line is parsed with simdjson's on-demand parser in one pass;
// only the rare non-sample events are turned into nlohmann::json. A torn last line (a killed run)
// is counted, not fatal.
#include "src/report/run_data.hpp"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include "decomposition/error.hpp"
#include "decomposition/io.hpp"

namespace tdisc::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr size_t kKeptPerType = 200000;  // events of one LLM kind kept for the page

json read_json_file(const std::string& path) {
  if (!fs::exists(path)) return json();
  json j = json::parse(read_text_file(path), nullptr, false);
  if (j.is_discarded()) throw InputError(path, 0, "not valid JSON");
  return j;
}

// One pass over a progress sample: every numeric field but "elapsed" becomes a column value; a
// "lane" or "mpi_rank" field tags the keys.
struct Sample {
  std::string event, tag;
  double t = -1;
  std::vector<std::pair<std::string, double>> values;
};

bool read_sample(simdjson::ondemand::parser& parser, std::string& buf, size_t len, Sample& s) {
  auto doc = parser.iterate(buf.data(), len, buf.capacity());
  simdjson::ondemand::object obj;
  if (doc.get_object().get(obj)) return false;
  s = Sample{};
  for (auto field : obj) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return false;
    auto value = field.value();
    simdjson::ondemand::json_type type;
    if (value.type().get(type)) return false;
    if (type == simdjson::ondemand::json_type::string) {
      std::string_view text;
      if (value.get_string().get(text)) return false;
      if (key == "event") s.event = text;
      else if (key == "lane") s.tag = "lane " + std::string(text);
    } else if (type == simdjson::ondemand::json_type::number) {
      double x;
      if (value.get_double().get(x)) return false;
      if (key == "elapsed") s.t = x;
      else if (key == "lane" || key == "mpi_rank") s.tag = std::string(key == "lane" ? "lane " : "rank ") + std::to_string(static_cast<long>(x));
      else s.values.emplace_back(std::string(key), x);
    }
  }
  return true;
}

void add_event(RunData& r, const std::string& event, const std::string& line) {
  if (event != "improved" && event != "started" && event != "finished" && event != "llm_call" && event != "llm_program")
    return;
  json e = json::parse(line, nullptr, false);
  if (e.is_discarded()) return;
  if (event == "improved")
    r.improvements.push_back({e.value("elapsed", 0.0), e.value("rank", 0), e.value("ring", ""), e.value("method", ""), e.value("file", "")});
  else if (event == "started" && r.started.is_null()) r.started = e;
  else if (event == "finished") r.finished = e;
  else if (event == "llm_call" && r.llm_calls.size() < kKeptPerType) r.llm_calls.push_back(e);
  else if (event == "llm_program" && r.llm_programs.size() < kKeptPerType) r.llm_programs.push_back(e);
}

void read_events(RunData& r, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IoError(path, 0, "cannot read the event log");
  simdjson::ondemand::parser parser;
  std::string line, buf;
  Sample s;
  while (std::getline(in, line)) {
    ++r.lines;
    buf.assign(line);
    buf.reserve(line.size() + simdjson::SIMDJSON_PADDING);
    if (line.empty() || !read_sample(parser, buf, line.size(), s) || s.event.empty()) {
      ++r.unreadable;
      continue;
    }
    ++r.event_counts[s.event];
    if (s.event == "progress") {
      for (auto& [key, value] : s.values) {
        Column& c = r.columns[s.tag.empty() ? key : key + "@" + s.tag];
        c.t.push_back(s.t);
        c.v.push_back(value);
      }
    } else {
      add_event(r, s.event, line);
    }
  }
}

std::vector<std::string> best_files(const std::string& dir) {
  std::vector<std::pair<int, std::string>> found;
  static const std::regex name("best-r([0-9]+)\\.json");
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::smatch m;
    std::string file = entry.path().filename().string();
    if (std::regex_match(file, m, name)) found.emplace_back(std::stoi(m[1]), file);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(f.second);
  return out;
}

}  // namespace

RunData load_run(const std::string& dir) {
  RunData r;
  r.dir = dir;
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "not a run directory (no such directory)");
  std::string events = (fs::path(dir) / "events.jsonl").string();
  if (!fs::exists(events)) throw InputError(dir, 0, "not a run directory (no events.jsonl)");
  r.run = read_json_file((fs::path(dir) / "run.json").string());
  r.checkpoint = read_json_file((fs::path(dir) / "checkpoint.json").string());
  read_events(r, events);
  r.best_files = best_files(dir);
  return r;
}

}  // namespace tdisc::report
