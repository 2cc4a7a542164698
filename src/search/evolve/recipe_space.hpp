// The space a recipe evolves in: the numeric engine's seed-space Adam parameters and AlphaEvolve's
// recipe terms (recipe_terms.hpp), each with its range from the engine's parameter table, and the
// two variation operators tdisc applies itself: mutation and uniform crossover.
#pragma once
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace tdisc::search::evolve {

struct Gene {
  std::string key;     // a numeric-engine parameter
  double typical = 0;  // the value a mutation starts from when the key is 0 (off) or absent
  bool can_be_off = false;  // 0 turns the term off: a mutation may switch it off or on
  double lo = 0, hi = 0;    // the table's range
  bool integer = false;
};

// Every evolvable key, ranges read from numeric_table().
const std::vector<Gene>& genes();

// The value of a gene in a recipe (base defaults where absent).
double gene_value(const nlohmann::json& recipe, const Gene& g);

// A copy of `parent` with one to three genes changed: a log-normal step of a non-zero value (or a
// switch off, for a term), a typical value for a term that is off; every value clamped to its range.
nlohmann::json mutate(const nlohmann::json& parent, std::mt19937_64& rng);

// Each gene from one parent or the other, uniformly; keys outside the genes from `a`.
nlohmann::json cross(const nlohmann::json& a, const nlohmann::json& b, std::mt19937_64& rng);

}  // namespace tdisc::search::evolve
