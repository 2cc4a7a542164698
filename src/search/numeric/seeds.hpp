// The pool of near-misses (best exact fractions) that later restarts start from, and its JSON form
// for checkpoints. Near-misses are seeds, never results: nothing here is offered as a scheme.
#pragma once
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "src/search/numeric/restart.hpp"

namespace tdisc::search::numeric {

class SeedPool {
public:
  explicit SeedPool(size_t capacity) : capacity_(capacity) {}
  // Keeps s if it ranks among the best `capacity` (higher exact fraction, then lower residual).
  void offer(Seed s);
  // A uniformly drawn seed, or nullopt when empty.
  std::optional<Seed> draw(std::mt19937_64& rng) const;
  nlohmann::json to_json() const;
  void from_json(const nlohmann::json& j);
  size_t size() const;

private:
  size_t capacity_;
  mutable std::mutex mutex_;
  std::vector<Seed> seeds_;
};

}  // namespace tdisc::search::numeric
