// The recipe table (recipe_table.hpp): reading and checking it with the line of each row, writing it
// back one row a line, and the match of a target against its rows.
#include "src/search/recipe_table.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "src/search/known_ranks.hpp"

namespace tdisc::search {

namespace {

using nlohmann::json;

const std::set<std::string> kFields = {"id", "size", "rank", "rings", "device", "engine", "walk_ring", "symmetry",
                                       "threads", "ansatz", "params", "why", "evidence"};

// The line of the first occurrence of needle at or after from (0: not found).
int line_after(std::string_view text, const std::string& needle, size_t from) {
  const size_t at = text.find(needle, from);
  return at == std::string_view::npos ? 0 : line_of_offset(text, at);
}

// Where the row with this id starts in the text (its "id" value), for the line of later fields.
size_t row_offset(std::string_view text, const json& row) {
  if (!row.contains("id") || !row["id"].is_string()) return 0;
  const std::string id = "\"" + row["id"].get<std::string>() + "\"";
  const size_t at = text.find(id);
  return at == std::string_view::npos ? 0 : at;
}

struct RowReader {
  std::string_view text;
  const std::string& origin;
  const json& j;
  size_t offset;  // the row's place in text
  int line;

  [[noreturn]] void fail(const std::string& what, const std::string& key = "") const {
    const int at = key.empty() ? line : line_after(text, "\"" + key + "\"", offset);
    throw InputError(origin, at ? at : line, what);
  }
  std::string text_field(const char* key, bool required) const {
    if (!j.contains(key)) {
      if (required) fail(std::string("recipe row lacks \"") + key + "\"");
      return "";
    }
    if (!j[key].is_string()) fail(std::string("\"") + key + "\" must be a string", key);
    return j[key].get<std::string>();
  }
  void known_fields() const {
    for (const auto& [key, value] : j.items())
      if (!kFields.count(key)) fail("unknown recipe field \"" + key + "\" (known: id, size, rank, rings, device, engine, walk_ring, symmetry, threads, ansatz, params, why, evidence)", key);
  }
};

bool rank_word_ok(const std::string& rank) {
  if (rank == "best" || rank == "below-best") return true;
  const std::string digits = rank.rfind("best+", 0) == 0 || rank.rfind("best-", 0) == 0 ? rank.substr(5) : rank;
  return !digits.empty() && digits.size() <= 6 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<Ring> rings_of(const RowReader& r) {
  if (!r.j.contains("rings") || !r.j["rings"].is_array() || r.j["rings"].empty())
    r.fail("\"rings\" must be a non-empty list of rings (ZT, Z, Q, QI, GF2, GF3)", r.j.contains("rings") ? "rings" : "");
  std::vector<Ring> rings;
  for (const json& x : r.j["rings"]) {
    const auto ring = x.is_string() ? parse_ring(x.get<std::string>()) : std::nullopt;
    if (!ring) r.fail("\"rings\": " + x.dump() + " is not a ring (ZT, Z, Q, QI, GF2, GF3)", "rings");
    rings.push_back(*ring);
  }
  return rings;
}

void read_choices(const RowReader& r, RecipeRow& row) {
  row.device = r.text_field("device", false);
  if (row.device.empty()) row.device = "any";
  if (row.device != "any" && row.device != "gpu" && row.device != "cpu") r.fail("\"device\" must be any, gpu or cpu, not \"" + row.device + "\"", "device");
  row.engine = r.text_field("engine", true);
  if (row.engine != "flip" && row.engine != "numeric") r.fail("\"engine\" must be flip or numeric, not \"" + row.engine + "\"", "engine");
  row.walk_ring = r.text_field("walk_ring", false);
  row.symmetry = r.text_field("symmetry", false);
  if ((!row.walk_ring.empty() || !row.symmetry.empty()) && row.engine != "flip")
    r.fail("\"walk_ring\" and \"symmetry\" are flip parameters; this row's engine is " + row.engine, row.walk_ring.empty() ? "symmetry" : "walk_ring");
  if (r.j.contains("threads")) {
    if (!r.j["threads"].is_number_integer() || r.j["threads"].get<long long>() < 1 || r.j["threads"].get<long long>() > 1024)
      r.fail("\"threads\" must be an integer in [1..1024]", "threads");
    row.threads = r.j["threads"].get<int>();
  }
  if (r.j.contains("ansatz")) {
    if (!r.j["ansatz"].is_boolean()) r.fail("\"ansatz\" must be true or false", "ansatz");
    row.ansatz = r.j["ansatz"].get<bool>();
    if (row.ansatz && row.engine != "numeric") r.fail("\"ansatz\": only the numeric engine searches inside an ansatz", "ansatz");
  }
}

// The row's parameters against its engine's table: unknown names, wrong types, out of range.
void check_params(const RowReader& r, const RecipeRow& row) {
  auto engine = make_engine(row.engine);
  if (!engine) r.fail("engine " + row.engine + " is not available in this build", "engine");
  const std::vector<std::string> problems = engine->validate_params(row.engine_params());
  if (problems.empty()) return;
  // "params.foo: unknown …": the line of the parameter's name after the row's start.
  const std::string& first = problems.front();
  std::string key = first.rfind("params.", 0) == 0 ? first.substr(7, first.find(':') - 7) : "";
  std::string msg;
  for (size_t k = 0; k < problems.size(); ++k) msg += (k ? "; " : "") + problems[k];
  r.fail("recipe " + row.id + ": " + msg, key.empty() ? "params" : key);
}

RecipeRow read_row(std::string_view text, const std::string& origin, const json& j, size_t index) {
  if (!j.is_object()) throw InputError(origin, 0, "rows[" + std::to_string(index) + "] must be a JSON object");
  const size_t offset = row_offset(text, j);
  RowReader r{text, origin, j, offset, offset ? line_of_offset(text, offset) : 0};
  r.known_fields();
  RecipeRow row;
  row.line = r.line;
  row.id = r.text_field("id", true);
  const auto f = parse_format(r.text_field("size", true));
  if (!f) r.fail("\"size\" is not a format (e.g. 5x5, 2x4x5)", "size");
  row.format = *f;
  row.rank = r.j.contains("rank") && r.j["rank"].is_number_integer() ? std::to_string(r.j["rank"].get<long long>()) : r.text_field("rank", true);
  if (!rank_word_ok(row.rank)) r.fail("\"rank\" must be a rank (93), best, best+K, best-K or below-best, not \"" + row.rank + "\"", "rank");
  row.rings = rings_of(r);
  read_choices(r, row);
  if (r.j.contains("params")) {
    if (!r.j["params"].is_object()) r.fail("\"params\" must be a JSON object", "params");
    row.params = r.j["params"];
  }
  row.why = r.text_field("why", true);
  if (r.j.contains("evidence")) {
    if (!r.j["evidence"].is_object()) r.fail("\"evidence\" must be a JSON object", "evidence");
    row.evidence = r.j["evidence"];
  }
  check_params(r, row);
  return row;
}

}  // namespace

json RecipeRow::engine_params() const {
  json p = params;
  if (!walk_ring.empty()) p["walk_ring"] = walk_ring;
  if (!symmetry.empty()) p["symmetry"] = symmetry;
  return p;
}

json RecipeRow::to_json() const {
  json rings_json = json::array();
  for (Ring r : rings) rings_json.push_back(std::string(ring_name(r)));
  json j = {{"id", id}, {"size", format.str()}, {"rank", rank}, {"rings", rings_json}, {"device", device}, {"engine", engine}};
  if (!walk_ring.empty()) j["walk_ring"] = walk_ring;
  if (!symmetry.empty()) j["symmetry"] = symmetry;
  if (threads) j["threads"] = *threads;
  if (ansatz) j["ansatz"] = true;
  if (!params.empty()) j["params"] = params;
  j["why"] = why;
  if (!evidence.empty()) j["evidence"] = evidence;
  return j;
}

RecipeTable parse_recipe_table(std::string_view text, const std::string& origin) {
  const json j = parse_json_input(text, JsonSource{origin, "a tdisc recipe table", input_ceiling(InputKind::params)});
  if (!j.is_object() || j.value("format", "") != "tdisc-recipes")
    throw InputError(origin, 1, "not a tdisc recipe table (\"format\": \"tdisc-recipes\" is missing)");
  if (j.value("version", 0) != 1) throw InputError(origin, line_after(text, "\"version\"", 0), "recipe table version " + j.value("version", json()).dump() + " is not 1");
  if (!j.contains("rows") || !j["rows"].is_array()) throw InputError(origin, 1, "\"rows\" must be a list of recipe rows");
  RecipeTable table{origin, {}};
  std::set<std::string> ids;
  for (size_t i = 0; i < j["rows"].size(); ++i) {
    RecipeRow row = read_row(text, origin, j["rows"][i], i);
    if (!ids.insert(row.id).second) throw InputError(origin, row.line, "recipe id \"" + row.id + "\" is used twice");
    table.rows.push_back(std::move(row));
  }
  return table;
}

RecipeTable read_recipe_table(const std::string& path) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return RecipeTable{path, {}};
  return parse_recipe_table(read_text_file(path, InputKind::params), path);
}

std::string recipe_table_text(const RecipeTable& table) {
  std::string out = "{\"format\": \"tdisc-recipes\", \"version\": 1,\n \"about\": \"docs/recipes.md: one row a line; the first row that fits a target runs\",\n \"rows\": [\n";
  for (size_t i = 0; i < table.rows.size(); ++i) out += "  " + table.rows[i].to_json().dump() + (i + 1 < table.rows.size() ? ",\n" : "\n");
  return out + "]}\n";
}

bool recipe_rank_matches(const std::string& rank, const Format& f, int r) {
  if (!rank.empty() && rank[0] >= '0' && rank[0] <= '9') return std::stoi(rank) == r;
  const std::optional<int> best = best_integer_rank(f);
  if (!best) return false;
  if (rank == "best") return r == *best;
  if (rank == "below-best") return r < *best;
  const int k = std::stoi(rank.substr(5));
  return rank[4] == '+' ? r == *best + k : r == *best - k;
}

const RecipeRow* match_recipe(const RecipeTable& table, const Target& target, bool gpu) {
  for (const RecipeRow& row : table.rows) {
    if (row.format != target.format || !recipe_rank_matches(row.rank, target.format, target.rank)) continue;
    if (std::find(row.rings.begin(), row.rings.end(), target.ring) == row.rings.end()) continue;
    if ((row.device == "gpu" && !gpu) || (row.device == "cpu" && gpu)) continue;
    return &row;
  }
  return nullptr;
}

namespace {

int format_distance(const Format& a, const Format& b) {
  std::array<int, 3> x = {a.n, a.m, a.p}, y = {b.n, b.m, b.p};
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return std::abs(x[0] - y[0]) + std::abs(x[1] - y[1]) + std::abs(x[2] - y[2]);
}

bool serves_as_lane(const RecipeRow& row, const Target& target, bool gpu) {
  if (row.engine != "flip" || (row.device == "gpu" && !gpu) || (row.device == "cpu" && gpu)) return false;
  const Format& f = target.format;
  if ((row.symmetry == "z3" || row.symmetry == "s3") && (f.n != f.m || f.m != f.p)) return false;
  if (row.walk_ring != "GF2" && row.walk_ring != "GF3") return true;
  const Ring walk = *parse_ring(row.walk_ring);
  return target.ring == walk || !ring_is_modular(target.ring);
}

}  // namespace

std::vector<const RecipeRow*> portfolio_rows(const RecipeTable& table, const Target& target, bool gpu, size_t most) {
  std::vector<const RecipeRow*> rows;
  for (const RecipeRow& row : table.rows)
    if (serves_as_lane(row, target, gpu)) rows.push_back(&row);
  auto lists_ring = [&](const RecipeRow* r) { return std::find(r->rings.begin(), r->rings.end(), target.ring) != r->rings.end(); };
  std::stable_sort(rows.begin(), rows.end(), [&](const RecipeRow* a, const RecipeRow* b) {
    const int da = format_distance(a->format, target.format), db = format_distance(b->format, target.format);
    return da != db ? da < db : lists_ring(a) > lists_ring(b);
  });
  if (rows.size() > most) rows.resize(most);
  return rows;
}

}  // namespace tdisc::search
