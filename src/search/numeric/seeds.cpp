// Near-miss seeds: ranking, drawing, and (de)serialisation as [re, im] pairs per entry.
#include "src/search/numeric/seeds.hpp"

#include <algorithm>

namespace tdisc::search::numeric {

namespace {
bool better(const Seed& a, const Seed& b) {
  return a.exact_fraction != b.exact_fraction ? a.exact_fraction > b.exact_fraction : a.residual < b.residual;
}
}  // namespace

void SeedPool::offer(Seed s) {
  std::lock_guard lock(mutex_);
  if (capacity_ == 0) return;
  seeds_.push_back(std::move(s));
  std::stable_sort(seeds_.begin(), seeds_.end(), better);
  if (seeds_.size() > capacity_) seeds_.resize(capacity_);
}

std::optional<Seed> SeedPool::draw(std::mt19937_64& rng) const {
  std::lock_guard lock(mutex_);
  if (seeds_.empty()) return std::nullopt;
  std::uniform_int_distribution<size_t> pick(0, seeds_.size() - 1);
  return seeds_[pick(rng)];
}

size_t SeedPool::size() const {
  std::lock_guard lock(mutex_);
  return seeds_.size();
}

nlohmann::json SeedPool::to_json() const {
  std::lock_guard lock(mutex_);
  nlohmann::json all = nlohmann::json::array();
  for (const auto& s : seeds_) {
    nlohmann::json j{{"exact_fraction", s.exact_fraction}, {"residual", s.residual}};
    for (int q = 0; q < 3; ++q) {
      nlohmann::json m = nlohmann::json::array();
      for (Eigen::Index i = 0; i < s.x.f[q].rows(); ++i) {
        nlohmann::json row = nlohmann::json::array();
        for (Eigen::Index r = 0; r < s.x.f[q].cols(); ++r)
          row.push_back({s.x.f[q](i, r).real(), s.x.f[q](i, r).imag()});
        m.push_back(row);
      }
      j[std::string(1, "abc"[q])] = m;
    }
    all.push_back(j);
  }
  return all;
}

void SeedPool::from_json(const nlohmann::json& all) {
  std::vector<Seed> loaded;
  for (const auto& j : all) {
    Seed s;
    s.exact_fraction = j.at("exact_fraction");
    s.residual = j.at("residual");
    for (int q = 0; q < 3; ++q) {
      const auto& m = j.at(std::string(1, "abc"[q]));
      const auto rows = static_cast<Eigen::Index>(m.size());
      const auto cols = rows ? static_cast<Eigen::Index>(m[0].size()) : 0;
      s.x.f[q] = Mat<cdouble>(rows, cols);
      for (Eigen::Index i = 0; i < rows; ++i)
        for (Eigen::Index r = 0; r < cols; ++r)
          s.x.f[q](i, r) = {m[i][r][0].get<double>(), m[i][r][1].get<double>()};
    }
    loaded.push_back(std::move(s));
  }
  std::lock_guard lock(mutex_);
  seeds_ = std::move(loaded);
}

}  // namespace tdisc::search::numeric
