// Reading a run directory for its report. events.jsonl may hold millions of lines (progress samples
// of a ten-hour hunt), so each line is parsed with simdjson's on-demand parser in one pass;
// only the rare non-sample events are turned into nlohmann::json. A torn last line (a killed run)
// is counted, not fatal.
#include "src/report/run_data.hpp"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <vector>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"

namespace tdisc::report {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr size_t kKeptPerType = 200000;  // events of one LLM kind kept for the page
constexpr size_t kMaxEventLine = size_t{1} << 20;  // an event is a few hundred bytes; longer is no event
constexpr std::streamsize kMaxSkippedLine = std::streamsize{64} << 20;

json read_json_file(const std::string& path) {
  if (!fs::exists(path)) return json();
  return parse_json_input(read_text_file(path, InputKind::results), path, "a tdisc run file");
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
  JsonParsed parsed = try_parse_json_input(line, JsonSource{"events.jsonl", "an event"});
  if (!parsed.value || !parsed.value->is_object()) return;
  const json& e = *parsed.value;
  if (event == "improved")
    r.improvements.push_back({e.value("elapsed", 0.0), e.value("rank", 0), e.value("ring", ""), e.value("method", ""), e.value("file", "")});
  else if (event == "started" && r.started.is_null()) r.started = e;
  else if (event == "finished") r.finished = e;
  else if (event == "llm_call" && r.llm_calls.size() < kKeptPerType) r.llm_calls.push_back(e);
  else if (event == "llm_program" && r.llm_programs.size() < kKeptPerType) r.llm_programs.push_back(e);
}

// The next line of in, without its newline, into line; false at the end. A line longer than
// kMaxEventLine is skipped (read, not kept) and comes back empty, so a log that is one endless line
// costs a buffer, not its size in memory.
bool next_line(std::istream& in, std::vector<char>& buf, std::string& line) {
  in.getline(buf.data(), static_cast<std::streamsize>(buf.size()));
  const auto got = static_cast<size_t>(in.gcount());
  if (in.fail() && !in.eof() && got == buf.size() - 1) {  // filled the buffer before a newline
    in.clear();
    in.ignore(kMaxSkippedLine, '\n');
    // No newline in 64 MiB: this is no event log (a sparse or binary file); the rest is not read.
    if (in.gcount() == kMaxSkippedLine && in.peek() != std::char_traits<char>::eof()) in.setstate(std::ios::eofbit);
    line.clear();
    return true;
  }
  if (got == 0 && (in.eof() || in.fail())) return false;
  line.assign(buf.data(), in.eof() ? got : got - 1);
  return true;
}

void read_events(RunData& r, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path, 0, "cannot read the event log");
  simdjson::ondemand::parser parser;
  std::string line, buf;
  std::vector<char> raw(kMaxEventLine + 1);
  Sample s;
  while (next_line(in, raw, line)) {
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
    int rank = 0;  // a rank past int (best-r99999999999.json) is no file of ours: skipped, never std::stoi's throw
    const std::string digits = std::regex_match(file, m, name) ? m[1].str() : std::string();
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
    if (!digits.empty() && ec == std::errc() && end == digits.data() + digits.size()) found.emplace_back(rank, file);
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
