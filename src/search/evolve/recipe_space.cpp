// The evolvable genes and the variation operators. Typical values are the middle of AlphaEvolve's
// sweep ranges (arXiv:2506.13131, Fig. 9) where the paper gives one.
#include "src/search/evolve/recipe_space.hpp"

#include <algorithm>
#include <cmath>

#include "src/search/numeric/params.hpp"

namespace tdisc::search::evolve {

namespace {

Gene from_table(const std::string& key, double typical, bool can_be_off) {
  const params::Param* p = numeric::numeric_table().find(key);
  Gene g{key, typical, can_be_off, p->lo, p->hi, p->kind == params::Kind::Integer};
  return g;
}

double clamp_to(const Gene& g, double v) {
  v = std::clamp(v, g.lo, g.hi);
  return g.integer ? std::round(v) : v;
}

void set_gene(nlohmann::json& r, const Gene& g, double v) {
  v = clamp_to(g, v);
  if (g.integer) r[g.key] = static_cast<long>(v);
  else r[g.key] = v;
}

}  // namespace

const std::vector<Gene>& genes() {
  static const std::vector<Gene> all = {
      from_table("init_scale", 0.2, false),       from_table("adam_lr", 0.02, false),
      from_table("adam_slow_from", 0.75, false),  from_table("grad_noise", 5e-4, true),
      from_table("param_noise", 5e-3, true),      from_table("target_noise", 5e-3, true),
      from_table("hallucinate", 0.05, true),      from_table("hallucinate_scale", 0.1, false),
      from_table("soft_clip_period", 2000, true), from_table("soft_clip_min", 0.25, false),
      from_table("soft_clip_max", 2, false),      from_table("discrete_weight", 0.05, true),
      from_table("discrete_floor", 0.5, false),   from_table("large_weight", 5e-3, true),
      from_table("large_above", 1, false),        from_table("cull_at", 0.25, false),
      from_table("cull_residual", 1, true)};
  return all;
}

double gene_value(const nlohmann::json& recipe, const Gene& g) {
  if (recipe.contains(g.key) && recipe[g.key].is_number()) return recipe[g.key].get<double>();
  return numeric::default_params_json().at(g.key).get<double>();
}

nlohmann::json mutate(const nlohmann::json& parent, std::mt19937_64& rng) {
  nlohmann::json child = parent;
  const auto& all = genes();
  std::uniform_int_distribution<size_t> pick(0, all.size() - 1);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> step(0, 0.5);
  const int changes = 1 + static_cast<int>(std::uniform_int_distribution<int>(0, 2)(rng));
  for (int c = 0; c < changes; ++c) {
    const Gene& g = all[pick(rng)];
    const double v = gene_value(child, g);
    if (v == 0) set_gene(child, g, g.typical * std::exp(step(rng)));
    else if (g.can_be_off && u(rng) < 0.2) set_gene(child, g, 0);
    else if (g.key == "adam_slow_from" || g.key == "cull_at" || g.key == "discrete_floor")
      set_gene(child, g, v + 0.15 * step(rng));  // shares: additive steps
    else set_gene(child, g, v * std::exp(step(rng)));
  }
  return child;
}

nlohmann::json cross(const nlohmann::json& a, const nlohmann::json& b, std::mt19937_64& rng) {
  nlohmann::json child = a;
  std::bernoulli_distribution coin(0.5);
  for (const Gene& g : genes())
    if (coin(rng)) set_gene(child, g, gene_value(b, g));
  return child;
}

}  // namespace tdisc::search::evolve
