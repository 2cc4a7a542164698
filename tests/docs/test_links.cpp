// The docs a newcomer reads must match the tree: every guide docs/*.md is linked from README.md,
// every dated note docs/notes/*.md from docs/PERFORMANCE.md, the README's layout table names only
// folders that exist and misses none of the top-level source folders (nor any folder of src/), and
// no doc points outside the repository at ../shared (the fixtures moved into tests/data/).
// The rules are pure functions over text and listings, tested on small inputs first, then applied
// to this repository.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support.hpp"

namespace fs = std::filesystem;

namespace {

// Targets of Markdown links "[text](target)", without a "#anchor".
std::set<std::string> link_targets(const std::string& text) {
  std::set<std::string> out;
  static const std::regex link(R"(\]\(([^)#\s]*)(#[^)]*)?\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it)
    out.insert((*it)[1].str());
  return out;
}

// The names (relative to the linking document, e.g. "docs/mpi.md") that no link of TEXT targets.
std::vector<std::string> unlinked(const std::string& text, const std::vector<std::string>& names) {
  const std::set<std::string> targets = link_targets(text);
  std::vector<std::string> out;
  for (const std::string& n : names)
    if (!targets.count(n)) out.push_back(n);
  return out;
}

// The folder of each row of the README's layout table: the first `code` span of the first cell,
// in the table that follows the header "| folder | what |".
std::vector<std::string> layout_rows(const std::string& readme) {
  std::istringstream in(readme);
  std::vector<std::string> rows;
  std::string line;
  bool inside = false;
  static const std::regex first_cell(R"(^\|\s*`([^`]+)`)");
  while (std::getline(in, line)) {
    if (line.rfind("| folder | what |", 0) == 0) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.rfind("|", 0) != 0) break;
    std::smatch m;
    if (std::regex_search(line, m, first_cell)) rows.push_back(m[1].str());
  }
  return rows;
}

std::string with_slash(std::string s) {
  if (s.empty() || s.back() != '/') s += '/';
  return s;
}

// Problems of the layout table: rows naming a folder that EXISTS says is missing, and required
// folders that no row names (a row names F when it is F or a folder inside F).
template <class Exists>
std::vector<std::string> layout_problems(const std::vector<std::string>& rows, const std::vector<std::string>& required,
                                         Exists exists) {
  std::vector<std::string> out;
  for (const std::string& r : rows)
    if (!exists(r)) out.push_back("the layout table names " + r + ", which does not exist");
  for (const std::string& f : required) {
    const std::string prefix = with_slash(f);
    const bool covered = std::any_of(rows.begin(), rows.end(), [&](const std::string& r) { return with_slash(r).rfind(prefix, 0) == 0; });
    if (!covered) out.push_back("the layout table has no row for " + prefix);
  }
  return out;
}

// Root-anchored folder patterns of a .gitignore ("/build/", "/build-*/") as regexes.
std::vector<std::regex> ignored_roots(const std::string& gitignore) {
  std::istringstream in(gitignore);
  std::vector<std::regex> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 3 || line.front() != '/' || line.back() != '/') continue;
    std::string re;
    for (char c : line.substr(1, line.size() - 2)) {
      if (c == '*') {
        re += ".*";
        continue;
      }
      if (std::strchr(".^$|()[]{}+?\\", c)) re += '\\';
      re += c;
    }
    out.emplace_back(re);
  }
  return out;
}

// Every folder a layout row must cover: each folder at the root (not hidden, not ignored) and each
// folder of src/ (src/ itself is not a layer, its parts are).
std::vector<std::string> required_folders(const fs::path& root) {
  const std::vector<std::regex> ignored = ignored_roots(tdisc::test::slurp((root / ".gitignore").string()));
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(root)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name.front() == '.') continue;
    if (std::any_of(ignored.begin(), ignored.end(), [&](const std::regex& r) { return std::regex_match(name, r); })) continue;
    if (name == "src") {
      for (const auto& s : fs::directory_iterator(e.path()))
        if (s.is_directory()) out.push_back("src/" + s.path().filename().string());
    } else {
      out.push_back(name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The Markdown files of a folder, as "PREFIX/NAME.md", sorted.
std::vector<std::string> markdown_in(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".md") out.push_back(prefix + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("the doc rules: links, layout rows, required folders", "[fast][docs]") {
  const std::string readme = "see [a](docs/a.md#x) and [PERF](docs/PERFORMANCE.md)\n";
  CHECK(unlinked(readme, {"docs/a.md", "docs/b.md", "docs/PERFORMANCE.md"}) == std::vector<std::string>{"docs/b.md"});
  CHECK(link_targets("[x](y.md) [z](w/v.md#anchor)") == std::set<std::string>{"y.md", "w/v.md"});

  const std::string table =
      "intro\n| folder | what |\n|---|---|\n| `src/search/` | engines |\n| `codegen/gemm/` | lib |\n| `gone/` | old |\n\n"
      "| `after/` | not in the table |\n";
  const std::vector<std::string> rows = layout_rows(table);
  CHECK(rows == std::vector<std::string>{"src/search/", "codegen/gemm/", "gone/"});
  const auto exists = [](const std::string& r) { return r != "gone/"; };
  const std::vector<std::string> problems = layout_problems(rows, {"src/search", "codegen", "scripts"}, exists);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == "the layout table names gone/, which does not exist");
  CHECK(problems[1] == "the layout table has no row for scripts/");
  CHECK(layout_problems({"src/searching/"}, {"src/search"}, exists).size() == 1);  // a prefix of a name is not the folder

  const std::vector<std::regex> ignored = ignored_roots("/build/\n/build-*/\n*.o\nruns/\n");
  REQUIRE(ignored.size() == 2);
  CHECK(std::regex_match("build-x", ignored[1]));
  CHECK_FALSE(std::regex_match("bench", ignored[1]));
}

TEST_CASE("README links every guide; PERFORMANCE.md every dated note", "[fast][docs]") {
  const fs::path root = tdisc::test::source_path("");
  const std::vector<std::string> guides = markdown_in(root / "docs", "docs/");
  REQUIRE(guides.size() >= 10);
  for (const std::string& g : unlinked(tdisc::test::slurp((root / "README.md").string()), guides))
    FAIL_CHECK("README.md does not link " << g << " (add it to \"Where to read more\")");
  const std::vector<std::string> notes = markdown_in(root / "docs" / "notes", "notes/");
  REQUIRE(notes.size() >= 10);
  for (const std::string& n : unlinked(tdisc::test::slurp((root / "docs" / "PERFORMANCE.md").string()), notes))
    FAIL_CHECK("docs/PERFORMANCE.md does not link docs/" << n);
}

TEST_CASE("README's layout table matches the folders of the tree", "[fast][docs]") {
  const fs::path root = tdisc::test::source_path("");
  const std::vector<std::string> rows = layout_rows(tdisc::test::slurp((root / "README.md").string()));
  REQUIRE(rows.size() >= 10);
  const std::vector<std::string> required = required_folders(root);
  CHECK(std::count(required.begin(), required.end(), "src/search") == 1);
  const auto exists = [&](const std::string& r) { return fs::is_directory(root / r); };
  for (const std::string& p : layout_problems(rows, required, exists)) FAIL_CHECK("README.md: " << p);
}

TEST_CASE("no doc points at ../shared, outside the repository", "[fast][docs]") {
  const fs::path root = tdisc::test::source_path("");
  std::vector<fs::path> docs = {root / "README.md"};
  for (const auto& e : fs::recursive_directory_iterator(root / "docs"))
    if (e.is_regular_file() && e.path().extension() == ".md") docs.push_back(e.path());
  REQUIRE(docs.size() >= 20);
  for (const fs::path& d : docs) {
    std::ifstream in(d);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number)
      if (line.find("../shared") != std::string::npos)
        FAIL_CHECK(fs::relative(d, root).string() << ":" << number << ": mentions ../shared, which is not in the repository");
  }
}
