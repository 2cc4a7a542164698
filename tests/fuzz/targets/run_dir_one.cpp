// The run-dir target: the fuzz input is split at NUL bytes into the files of a run directory that a
// kill, a disk or another person may have changed (checkpoint.json, events.jsonl, llm-database.json,
// calls.jsonl, and a best file: its rank's digits, then its text), written beside a fixed run.json of
// the engine the checkpoint names first (flip, numeric or llm) and the classical scheme as
// best-r<classical>.json. Then the directory is read as `tdisc report` reads it (load_run, run_page)
// and as `tdisc search --resume` does (continue_run under the lock, then the orchestrator runs the
// engine for a few milliseconds, which reads its state back). A refusal is an InputError or a
// UsageError, and for the report a JSON type error (the CLI names the directory); anything else, a
// crash, a sanitizer report or a lock left behind is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "decomposition/constructions.hpp"
#include "decomposition/native.hpp"
#include "src/llm/engine.hpp"
#include "src/report/pages.hpp"
#include "src/search/request.hpp"
#include "tests/fuzz/targets/fuzz_one.hpp"

namespace tdisc::fuzz {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* const kTarget = "run-dir";
const char* const kFiles[] = {"checkpoint.json", "events.jsonl", "llm-database.json", "calls.jsonl"};

std::vector<std::string> parts_of(const std::string& bytes) {
  std::vector<std::string> parts(1);
  for (char c : bytes) {
    if (c == '\0' && parts.size() < 6) parts.emplace_back();
    else parts.back() += c;
  }
  return parts;
}

// The engine of the run: the first of "flip", "numeric", "llm" the checkpoint names; flip otherwise.
std::string engine_of(const std::string& checkpoint) {
  size_t best = std::string::npos;
  std::string engine = "flip";
  for (const char* e : {"\"flip\"", "\"numeric\"", "\"llm\""}) {
    const size_t at = checkpoint.find(e);
    if (at < best) best = at, engine = std::string(e + 1, std::strlen(e) - 2);
  }
  return engine;
}

// run.json as tdisc search writes it: 2x2x2 over ZT (rank 7; the llm engine at 6, whose endpoint is
// a closed port and whose budget allows no call) or over Q for the numeric engine.
json run_json(const std::string& engine) {
  json params = json::object();
  if (engine == "llm")
    params = {{"llm", {{"url", "http://127.0.0.1:9/v1"}, {"model", "fuzz"}, {"engines", "flip"}, {"max_calls", 1},
                       {"eval_seconds", 0.5}, {"timeout", 1}, {"retries", 1}, {"run_dir", "elsewhere"}}}};
  return {{"format", "tdisc-run"}, {"version", 1}, {"engine", engine}, {"threads", 1}, {"seed", 1}, {"params", params},
          {"target", {{"size", "2x2x2"}, {"rank", engine == "llm" ? 6 : 7}, {"ring", engine == "numeric" ? "Q" : "ZT"}}}};
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The run directory of this process, removed when it exits.
struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("tdisc-fuzz-run-dir-" + std::to_string(::getpid()));
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// A fresh run directory holding the input's files.
fs::path lay_out(const std::vector<std::string>& parts, const std::string& engine) {
  static const ScratchDir scratch;
  const fs::path& dir = scratch.path;
  fs::remove_all(dir);
  fs::create_directories(dir);
  write(dir / "run.json", run_json(engine).dump(2) + "\n");
  write(dir / "best-r8.json", native_text(classical_scheme(Format{2, 2, 2})));
  for (size_t i = 0; i < 4 && i < parts.size(); ++i) write(dir / kFiles[i], parts[i]);
  if (parts.size() > 5) {
    std::string digits;
    for (char c : parts[4])
      if (c >= '0' && c <= '9' && digits.size() < 24) digits += c;
    write(dir / ("best-r" + digits + ".json"), parts[5]);
  }
  return dir;
}

void report(const fs::path& dir) {
  try {
    (void)report::run_page(report::load_run(dir.string()), "");
  } catch (const InputError&) {
  } catch (const json::exception&) {  // tdisc report names the directory (cmd_report.cpp)
  } catch (const std::exception& e) {
    finding(kTarget, std::string("tdisc report threw: ") + e.what());
  }
}

void resume(const fs::path& dir) {
  std::optional<search::Continuation> c;
  try {
    c = search::continue_run(dir.string());
  } catch (const InputError&) {
    return;
  } catch (const UsageError&) {
    return;
  } catch (const std::exception& e) {
    finding(kTarget, std::string("--resume threw reading the run: ") + e.what());
  }
  if (fs::exists(dir / "lock")) finding(kTarget, "--resume left its lock after checking the run");
  search::SearchRequest r = std::move(c->request);
  r.seconds = 0.005;
  r.sample_seconds = 0;
  auto engine = search::make_engine(r.engine);
  if (!engine) finding(kTarget, "the run's engine is not built");
  try {
    search::Orchestrator o(std::move(r), c->checkpoint);
    (void)o.run(*engine);
  } catch (const InputError&) {  // an engine state of this run's engine that is not one
  } catch (const UsageError&) {
  } catch (const std::exception& e) {
    finding(kTarget, std::string("--resume threw while the engine read its state: ") + e.what());
  }
  if (fs::exists(dir / "lock")) finding(kTarget, "the resumed run left its lock");
}

}  // namespace

void run_dir_one(const uint8_t* data, size_t size) {
  static const bool registered = (llm::register_llm_engine(), true);  // as tdisc's main does
  (void)registered;
  const std::vector<std::string> parts = parts_of(std::string(reinterpret_cast<const char*>(data), size));
  const fs::path dir = lay_out(parts, engine_of(parts[0]));
  report(dir);
  resume(dir);
}

}  // namespace tdisc::fuzz
