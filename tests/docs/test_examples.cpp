// Every README command is a test (CaDiCaL's test/usage): each `console` block of README.md and
// docs/*.md is run with the built binary, and its exit code and first line of output are checked.
// The marking (README "Tests"): in a ```console block, a line "$ tdisc ARGS" is a command, ending in
// "# exit N" when it should exit with N (else 0); the next line, unless it is a command, is the first
// line of the output (stdout and stderr together), "…" matching any text.
#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>

#include "tests/support.hpp"

namespace fs = std::filesystem;

namespace {

struct Example {
  std::string where;                      // FILE:LINE, for the report
  std::string args;                       // after "tdisc ", the comment removed
  int exit_code = 0;
  std::optional<std::string> first_line;  // expected, with "…" wildcards
};

const std::string kPrompt = "$ tdisc ";
const std::string kEllipsis = "…";

// The command part of "$ tdisc ARGS   # comment" and the exit code the comment asks for.
std::pair<std::string, int> command_of(const std::string& line) {
  std::string args = line.substr(kPrompt.size());
  int code = 0;
  const size_t hash = args.find(" #");
  if (hash != std::string::npos) {
    std::smatch m;
    const std::string comment = args.substr(hash);
    if (std::regex_search(comment, m, std::regex(R"(exit (\d+)\s*$)"))) code = std::stoi(m[1]);
    args = args.substr(0, hash);
  }
  while (!args.empty() && args.back() == ' ') args.pop_back();
  return {args, code};
}

std::vector<Example> examples_in(const fs::path& file, const std::string& name) {
  std::ifstream in(file);
  std::vector<Example> out;
  std::string line;
  bool console = false, awaiting = false;  // inside a console block; the next line is an output
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("```", 0) == 0) {
      console = !console && line == "```console";
      awaiting = false;
      continue;
    }
    if (!console) continue;
    if (line.rfind(kPrompt, 0) == 0) {
      auto [args, code] = command_of(line);
      out.push_back({name + ":" + std::to_string(number), args, code, std::nullopt});
      awaiting = true;
    } else if (line.rfind("$ ", 0) == 0) {
      FAIL(name << ":" << number << ": a console block runs only tdisc commands: " << line);
    } else if (awaiting) {
      out.back().first_line = line;
      awaiting = false;
    }
  }
  return out;
}

// "…" matches any text; everything else literally, the whole line.
bool matches(const std::string& pattern, const std::string& text) {
  std::vector<std::string> parts;
  size_t from = 0;
  for (size_t at; (at = pattern.find(kEllipsis, from)) != std::string::npos; from = at + kEllipsis.size())
    parts.push_back(pattern.substr(from, at - from));
  parts.push_back(pattern.substr(from));
  if (parts.size() == 1) return text == pattern;
  if (text.rfind(parts.front(), 0) != 0) return false;
  size_t pos = parts.front().size();
  for (size_t k = 1; k + 1 < parts.size(); ++k) {
    pos = text.find(parts[k], pos);
    if (pos == std::string::npos) return false;
    pos += parts[k].size();
  }
  const std::string& last = parts.back();
  return text.size() >= pos + last.size() && text.compare(text.size() - last.size(), last.size(), last) == 0;
}

std::vector<std::pair<fs::path, std::string>> documents() {
  const fs::path root = tdisc::test::source_path("");
  std::vector<std::pair<fs::path, std::string>> docs = {{root / "README.md", "README.md"}};
  std::vector<fs::path> guides;
  for (const auto& e : fs::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") guides.push_back(e.path());
  std::sort(guides.begin(), guides.end());
  for (const auto& g : guides) docs.push_back({g, "docs/" + g.filename().string()});
  return docs;
}

// A fresh working directory that sees the repository's data as a user at its root would.
std::string workspace(const std::string& tag) {
  const std::string dir = tdisc::test::temp_dir("docs-" + tag);
  for (const char* sub : {"algorithms", "codegen", "tests"})
    fs::create_directory_symlink(tdisc::test::source_path(sub), fs::path(dir) / sub);
  return dir;
}

struct Outcome {
  int code = -1;
  std::string output;
};

Outcome run_in(const std::string& dir, const std::string& args) {
  // No endpoint from the environment: --engine auto would pick the LLM engine.
  const std::string env = "env -u OPENAI_BASE_URL -u OPENAI_MODEL -u OPENAI_API_KEY timeout 300 ";
  const std::string cmd = "cd " + dir + " && " + env + TDISC_BINARY + " " + args + " >.out 2>&1 </dev/null";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, tdisc::test::slurp(dir + "/.out")};
}

}  // namespace

TEST_CASE("the example matcher: literal lines, and … for any text", "[fast][docs]") {
  CHECK(matches("a b", "a b"));
  CHECK_FALSE(matches("a b", "a b c"));
  CHECK(matches("x: …", "x: anything at all"));
  CHECK(matches("… done", "it is done"));
  CHECK(matches("a … c … e", "a b c d e"));
  CHECK_FALSE(matches("a … c", "a b d"));
  CHECK_FALSE(matches("ab…ba", "aba"));
  CHECK(command_of("$ tdisc verify x.json      # exit 2").second == 2);
  CHECK(command_of("$ tdisc verify x.json      # exit 2").first == "verify x.json");
  CHECK(command_of("$ tdisc search --seed 5   # the default").second == 0);
}

TEST_CASE("every console example in README.md and docs/*.md runs as shown", "[fast][docs]") {
  int total = 0;
  for (const auto& [path, name] : documents()) {
    const std::vector<Example> examples = examples_in(path, name);
    if (examples.empty()) continue;
    const std::string dir = workspace(fs::path(name).stem().string());
    for (const Example& e : examples) {
      ++total;
      for (const char* forbidden : {";", "|", "&", ">", "<", "`", "$("})
        if (e.args.find(forbidden) != std::string::npos)
          FAIL(e.where << ": one tdisc command per line: " << e.args);
      const Outcome o = run_in(dir, e.args);
      const std::string first = o.output.substr(0, o.output.find('\n'));
      INFO(e.where << ": tdisc " << e.args << "\n--- output ---\n" << o.output);
      CHECK(o.code == e.exit_code);
      if (e.first_line) CHECK(matches(*e.first_line, first));
    }
    fs::remove_all(dir);
  }
  CHECK(total >= 20);  // the README alone has 9; a parser that finds none must not pass
}
