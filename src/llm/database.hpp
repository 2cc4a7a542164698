// The program database of AlphaEvolve / FunSearch: every evaluated proposal is kept; the elite of
// each MAP-Elites cell (engine × lattice) lives inside one of a few islands; the best of each island
// migrates to the next periodically; parents mix exploitation (island best) and exploration.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "src/llm/evaluator.hpp"

namespace tdisc::llm {

struct Program {
  int id = -1;
  int parent = -1;                 // id of the program whose prompt produced it (−1: none)
  int island = 0;
  std::string cell;                // "flip/ZT", "numeric/half", "scheme/direct"
  std::string kind;                // "recipe" or "scheme"
  nlohmann::json body;             // the recipe (Recipe::to_json) or the scheme (native JSON)
  Score score;
  std::string origin;              // "default", "llm", "fallback", "migrant"
  int call = -1;                   // the LLM call that proposed it (−1: none)
  nlohmann::json to_json() const;
  static Program from_json(const nlohmann::json& j);
};

struct DatabaseConfig {
  int islands = 3;
  int migrate_every = 8;           // additions between migrations
  double exploit = 0.7;            // chance that the parent is its island's best
  int keep = 400;                  // programs kept in the history (elites are always kept)
};

class Database {
public:
  explicit Database(DatabaseConfig config = {}) : config_(config), cells_(static_cast<size_t>(config.islands)) {}

  // Stores p (assigning its id) and makes it its cell's elite on its island if it is fitter.
  // Returns the id. Migrates when migrate_every additions have passed.
  int add(Program p);
  const Program* find(int id) const;
  const Program* best() const;                      // fittest program anywhere
  std::vector<const Program*> best_programs(int k) const;  // the k fittest elites, best first
  const Program* island_best(int island) const;
  // Exploitation (island best) with probability `exploit`, else a uniformly drawn elite of the island.
  const Program* choose_parent(int island, std::mt19937_64& rng) const;
  // Up to k elites other than `parent`: the global best first, then elites of other cells (diversity).
  std::vector<const Program*> inspirations(const Program* parent, int k, std::mt19937_64& rng) const;
  // The best of island i becomes a migrant in island i+1 (ring), where it competes for its cell.
  void migrate();
  int islands() const { return config_.islands; }
  int next_island() { return round_robin_++ % config_.islands; }
  size_t size() const { return programs_.size(); }
  int migrations() const { return migrations_; }
  std::vector<const Program*> elites(int island) const;

  nlohmann::json to_json() const;
  static Database from_json(const nlohmann::json& j);

private:
  bool place(const Program& p);   // elite replacement; true when p became the elite
  void trim();

  DatabaseConfig config_;
  std::vector<Program> programs_;                      // history, oldest first
  std::vector<std::map<std::string, int>> cells_;      // per island: cell → elite id
  int next_id_ = 0, added_since_migration_ = 0, round_robin_ = 0, migrations_ = 0;
};

}  // namespace tdisc::llm
