// The recipe table (algorithms/recipes.json, docs/recipes.md): for each target class (format, rank
// relative to the best known or absolute, rings, device) the recipe that won when measured — engine,
// walk ring, symmetry, parameters, threads — with its evidence (time to target over seeds, hits,
// machine, commit, command). plan_search runs the first row that fits a target; where none fits the
// engine's own portfolio runs. One row per line in the file, so a refusal names the row's line.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/search/engine.hpp"

namespace tdisc::search {

struct RecipeRow {
  std::string id;                 // "5x5x5-93": unique in the table
  Format format;                  // exactly this format (5x5 means 5x5x5)
  std::string rank;               // "93", "best", "best+K", "best-K" or "below-best" (known_ranks.hpp)
  std::vector<Ring> rings;        // target rings the row serves
  std::string device = "any";     // any, gpu (a CUDA device present), cpu (none present)
  std::string engine;             // flip, numeric
  std::string walk_ring;          // flip: ZT, GF2, GF3, or empty (the engine's auto)
  std::string symmetry;           // flip: none, z3, s3, or empty (auto: the engine's lanes)
  std::optional<int> threads;     // when --threads is not given (empty: one per core)
  bool ansatz = false;            // numeric over Q: inside the catalogue's ansatz (plan.cpp's route)
  nlohmann::json params = nlohmann::json::object();  // further engine parameters
  std::string why;                // one line: what the row does and why it wins
  nlohmann::json evidence = nlohmann::json::object();  // hits, seeds, median/max seconds, machine, commit, command
  int line = 0;                   // where the row is in its file

  // The engine parameters the row sets: params plus walk_ring and symmetry.
  nlohmann::json engine_params() const;
  nlohmann::json to_json() const;  // the row as the file holds it (without line)
};

struct RecipeTable {
  std::string path;  // where it was read, for messages ("" for a table made in memory)
  std::vector<RecipeRow> rows;
};

// Parses and checks a table: every field's type and value, unique ids, and every parameter against
// its engine's table (an unknown or out-of-range parameter is refused). Throws InputError
// "ORIGIN:LINE: what is wrong" with the line of the row (or of the JSON error).
RecipeTable parse_recipe_table(std::string_view text, const std::string& origin);
// The file at path; a missing file is an empty table (no rows: every target runs a portfolio).
RecipeTable read_recipe_table(const std::string& path);
// The table's text: a header and one row a line (parse_recipe_table reads it back).
std::string recipe_table_text(const RecipeTable& table);

// Whether a row's rank ("best+1", "93", …) names rank r of format f.
bool recipe_rank_matches(const std::string& rank, const Format& f, int r);
// The first row that fits the target and the device; nullptr when none does.
const RecipeRow* match_recipe(const RecipeTable& table, const Target& target, bool gpu);

// The rows whose recipes a flip portfolio runs as lanes beside the engine's own, for a target no row
// fits (docs/recipes.md, "The portfolio"): the flip rows for the device whose symmetry the format
// allows (z3, s3: square formats only) and whose walk ring serves the target ring (GF2, GF3: that
// ring's targets, or a Z, Q or QI target through the lift), nearest class first — the distance of
// their format (the sum of |differences| of the sorted dimensions), then rows that list the target's
// ring before those that do not, then file order —, at most `most` of them.
std::vector<const RecipeRow*> portfolio_rows(const RecipeTable& table, const Target& target, bool gpu, size_t most);

}  // namespace tdisc::search
