// Parsing the targets file of a campaign: "FORMAT RING [reach=R|beat=B] [time=T] [from=FILE|catalogue]
// [engine=E] [symmetry=S] [recipes=FILE] [params=JSON…]", one target a line; every line checked before anything runs.
#include "src/campaign/targets.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "base/error.hpp"
#include "base/gzip.hpp"
#include "base/io.hpp"
#include "base/params/table.hpp"
#include "src/catalog/catalogue.hpp"

namespace tdisc::campaign {

namespace fs = std::filesystem;

std::string CampaignTarget::name(int index) const {
  return "t" + std::to_string(index + 1) + "-" + format.str() + "-" + std::string(ring_name(ring)) + "-r" + std::to_string(reach);
}

std::string CampaignTarget::key() const { return format.str() + " " + std::string(ring_name(ring)) + " r" + std::to_string(reach); }

namespace {

// One line being parsed: where it is, for every message.
struct LineContext {
  const std::string& path;
  int line;
  [[noreturn]] void fail(const std::string& what) const { throw InputError(path, line, what); }
};

int rank_value(const LineContext& at, const std::string& key, const std::string& text) {
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || v < 1 || v > 1000000)
    at.fail(key + "=" + text + ": not a rank (a whole number from 1 to 1000000)");
  return static_cast<int>(v);
}

void set_once(const LineContext& at, std::set<std::string>& seen, const std::string& key) {
  if (!seen.insert(key).second) at.fail(key + "= given twice");
}

// from=: a native file (relative to the targets file's folder) or the best catalogued scheme of
// exactly this format usable over the target's ring.
struct StartLookup {
  const TargetSources& sources;
  std::optional<std::vector<CatalogueEntry>> catalogue;

  std::string catalogued(const LineContext& at, const CampaignTarget& t) {
    if (!catalogue) catalogue = read_catalogue(sources.start_catalogue);
    CatalogueQuery q;
    q.format = t.format;
    q.permutations = false;  // tdisc search --from takes the target's own format only
    q.ring = t.ring;
    auto e = best(*catalogue, q);
    if (!e)
      at.fail("from=catalogue: " + sources.start_catalogue + " has no " + t.format.str() + " scheme usable over " +
              std::string(ring_name(t.ring)));
    return e->path;
  }
};

void read_pair(const LineContext& at, CampaignTarget& t, std::set<std::string>& seen, const std::string& key,
               const std::string& value) {
  set_once(at, seen, key);
  if (key == "reach") {
    t.reach = rank_value(at, key, value);
  } else if (key == "beat") {
    t.beat = rank_value(at, key, value);
  } else if (key == "time") {
    auto s = params::duration_seconds(value);
    if (!s || *s <= 0 || *s > 30 * 86400.0) at.fail("time=" + value + ": not a duration from 1s to 30d (e.g. 90s, 10m, 2h)");
    t.share = *s;
  } else if (key == "from") {
    if (value.empty()) at.fail("from= names no file (a native scheme, or catalogue)");
    t.from_text = value;
  } else if (key == "engine") {
    if (value != "auto" && value != "flip" && value != "numeric") at.fail("engine=" + value + ": not one of auto, flip, numeric");
    t.engine = value;
  } else if (key == "symmetry") {
    if (value != "auto" && value != "none" && value != "z3" && value != "s3") at.fail("symmetry=" + value + ": not one of auto, none, z3, s3");
    t.symmetry = value;
  } else if (key == "recipes") {
    if (value.empty()) at.fail("recipes= names no file (a recipe table, docs/recipes.md)");
    t.recipes = value;
  } else {
    at.fail("unknown key \"" + key + "\" (reach, beat, time, from, engine, symmetry, recipes, params)");
  }
}

nlohmann::json params_value(const LineContext& at, const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) at.fail("params=" + text + ": not a JSON object (params= takes the rest of the line)");
  return j;
}

// The words of a line before a '#' word, and what follows "params=" (the rest of the line) apart.
std::vector<std::string> words_of(const std::string& line, std::string& params_text, bool& has_params) {
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string w;
  while (in >> w) {
    if (w[0] == '#') break;
    if (w.rfind("params=", 0) == 0) {
      size_t at = line.find("params=");
      params_text = line.substr(at + 7);
      while (!params_text.empty() && std::isspace(static_cast<unsigned char>(params_text.back()))) params_text.pop_back();
      has_params = true;
      break;
    }
    words.push_back(w);
  }
  return words;
}

// The "rank" a native file declares in its header (its first 4 KiB), 0 when none is found there.
int declared_rank(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (is_gzip(head)) {  // a compressed start (the catalogue's large files): its text, as every reader sees it
    try {
      head = read_text_file(path).substr(0, 4096);
    } catch (const std::exception&) {
      return 0;  // the search itself will name what is wrong with the file
    }
  }
  std::smatch m;
  static const std::regex rank("\"rank\"\\s*:\\s*([0-9]{1,7})");
  return std::regex_search(head, m, rank) ? std::stoi(m[1]) : 0;
}

void settle_ranks(const LineContext& at, CampaignTarget& t, const TargetSources& sources) {
  if (t.beat == 0) {
    auto k = known_rank(sources.known, t.format, t.ring);
    if (k) t.beat = k->rank;
    else if (t.reach == 0)
      at.fail("no best known rank of " + t.format.str() + " over " + std::string(ring_name(t.ring)) + " in " + sources.known_path +
              "; give reach= or beat=");
  }
  if (t.reach == 0) t.reach = t.beat - 1;
  if (t.beat == 0) t.beat = t.reach + 1;
  const long long classical = 1LL * t.format.n * t.format.m * t.format.p;
  if (t.reach < 1 || t.reach > classical)
    at.fail("rank " + std::to_string(t.reach) + " to reach is outside 1.." + std::to_string(classical) + " for " + t.format.str());
}

// One target line; nullopt when it is skipped (a missing start with skip_missing), with a note.
std::optional<CampaignTarget> parse_line(const LineContext& at, const std::vector<std::string>& words, const std::string& params_text,
                                         bool has_params, StartLookup& starts, const fs::path& base, std::vector<std::string>& notes) {
  CampaignTarget t;
  t.line = at.line;
  if (words.size() < 2) at.fail("a target needs a format and a ring (e.g. \"5x5x5 GF2 reach=92\")");
  auto f = parse_format(words[0]);
  if (!f) at.fail("\"" + words[0] + "\" is not a format (e.g. 3x3, 2x3x4)");
  t.format = *f;
  auto r = parse_ring(words[1]);
  if (!r) at.fail("\"" + words[1] + "\" is not a ring (ZT, Z, Q, QI, GF2, GF3)");
  t.ring = *r;
  std::set<std::string> seen;
  for (size_t k = 2; k < words.size(); ++k) {
    size_t eq = words[k].find('=');
    if (eq == std::string::npos || eq == 0) at.fail("\"" + words[k] + "\" is not key=value");
    read_pair(at, t, seen, words[k].substr(0, eq), words[k].substr(eq + 1));
  }
  if (has_params) t.params = params_value(at, params_text);
  settle_ranks(at, t, starts.sources);
  if (t.from_text == "catalogue") {
    t.from = starts.catalogued(at, t);
  } else if (!t.from_text.empty()) {
    fs::path p = fs::path(t.from_text).is_absolute() ? fs::path(t.from_text) : base / t.from_text;
    t.from = p.lexically_normal().string();
    if (!fs::is_regular_file(t.from)) {
      if (!starts.sources.skip_missing) at.fail("from=" + t.from_text + ": no such file (" + t.from + ")");
      notes.push_back(at.path + ":" + std::to_string(at.line) + ": skipped " + t.key() + ": its start " + t.from + " is missing");
      return std::nullopt;
    }
  }
  t.start_rank = !t.from.empty() ? declared_rank(t.from) : t.engine == "numeric" ? 0 : t.format.n * t.format.m * t.format.p;
  if (!t.recipes.empty()) {
    fs::path p = fs::path(t.recipes).is_absolute() ? fs::path(t.recipes) : base / t.recipes;
    t.recipes = p.lexically_normal().string();
    if (!fs::is_regular_file(t.recipes)) at.fail("recipes=: no such file (" + t.recipes + ")");
  }
  return t;
}

}  // namespace

TargetList parse_targets(const std::string& text, const std::string& path, const TargetSources& sources) {
  TargetList list;
  StartLookup starts{sources, std::nullopt};
  const fs::path base = fs::path(path).parent_path();
  std::map<std::string, int> lines_of;  // key → line, for duplicates
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string params_text;
    bool has_params = false;
    const std::vector<std::string> words = words_of(line, params_text, has_params);
    if (words.empty() && !has_params) continue;
    const LineContext at{path, number};
    auto t = parse_line(at, words, params_text, has_params, starts, base, list.notes);
    if (!t) continue;
    auto [it, fresh] = lines_of.emplace(t->key(), number);
    if (!fresh) at.fail("the same target (" + t->key() + ") as line " + std::to_string(it->second));
    list.targets.push_back(std::move(*t));
  }
  if (list.targets.empty() && list.notes.empty()) throw InputError(path, 0, "no targets (one a line: FORMAT RING [key=value …])");
  return list;
}

TargetList read_targets(const std::string& path, const TargetSources& sources) {
  return parse_targets(read_text_file(path, InputKind::params), path, sources);
}

}  // namespace tdisc::campaign
