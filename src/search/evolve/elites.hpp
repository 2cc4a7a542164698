// The MAP-Elites database of recipes (Mouret–Clune 2015, as AlphaEvolve keeps programs): a recipe's
// cell is which families of recipe terms it switches on (noise, clip, discretisation, culling), and
// each cell keeps its best recipe by score.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace tdisc::search::evolve {

// One evaluated recipe: finds per second over a short run, the best residual as tie-break.
struct Scored {
  int id = -1;
  int generation = 0;
  std::string origin;           // "base", "mutation", "crossover", or a proposer's name
  nlohmann::json params;        // the recipe (numeric-engine parameters)
  unsigned long long seed = 0;  // the run seed it was scored with
  double seconds = 0;
  long restarts = 0, numerical = 0, exact = 0, culled = 0;
  double residual = -1;         // best residual (−1: none)
  double rate() const { return seconds > 0 ? static_cast<double>(numerical + exact) / seconds : 0; }
  nlohmann::json to_json() const;
};

// a better than b: higher rate, then lower residual (a residual of −1 is worst).
bool better(const Scored& a, const Scored& b);

// "noise+clip", "plain", …: the families of terms that are on.
std::string cell_of(const nlohmann::json& params);

class Elites {
public:
  // Keeps s as its cell's elite when it is better than the one there; true when it became the elite.
  bool add(const Scored& s);
  const Scored* best() const;
  std::vector<const Scored*> all() const;  // one per cell, in cell order
  // A parent: the overall best with probability `exploit`, else a uniformly drawn elite.
  const Scored& parent(std::mt19937_64& rng, double exploit = 0.5) const;
  size_t size() const { return cells_.size(); }
  nlohmann::json to_json() const;

private:
  std::map<std::string, Scored> cells_;
};

}  // namespace tdisc::search::evolve
