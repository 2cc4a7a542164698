// The generations: variation of elites, evaluation, elite replacement, the run directory.
#include "src/search/evolve/evolve.hpp"

#include <filesystem>

#include "base/error.hpp"
#include "base/io.hpp"
#include "src/search/evolve/recipe_space.hpp"
#include "src/search/numeric/params.hpp"

namespace tdisc::search::evolve {

namespace {

// The recipes of one generation, with their origins.
std::vector<std::pair<nlohmann::json, std::string>> next_generation(const EvolveConfig& c, int generation,
                                                                    const EvolveResult& r, std::mt19937_64& rng,
                                                                    std::vector<std::string>& rejected) {
  std::vector<std::pair<nlohmann::json, std::string>> out;
  if (generation == 0) {
    out.emplace_back(c.base, "base");
    while (static_cast<int>(out.size()) < c.population) out.emplace_back(mutate(c.base, rng), "mutation");
    return out;
  }
  if (c.proposer)
    for (nlohmann::json& p : c.proposer(r.elites, c.population)) {
      const auto problems = numeric::validate(p);
      if (problems.empty() && static_cast<int>(out.size()) < c.population) out.emplace_back(std::move(p), "proposer");
      else if (!problems.empty()) rejected.push_back(problems.front());
    }
  std::uniform_real_distribution<double> u(0, 1);
  while (static_cast<int>(out.size()) < c.population) {
    const Scored& a = r.elites.parent(rng);
    if (r.elites.size() >= 2 && u(rng) < c.crossover) {
      const Scored& b = r.elites.parent(rng, 0);
      out.emplace_back(mutate(cross(a.params, b.params, rng), rng), "crossover");
    } else {
      out.emplace_back(mutate(a.params, rng), "mutation");
    }
  }
  return out;
}

void write_run(const EvolveConfig& c, const EvolveResult& r, bool complete) {
  if (c.out_dir.empty()) return;
  std::filesystem::create_directories(c.out_dir);
  write_file_atomic(c.out_dir + "/evolve.json", evolve_json(c, r, complete).dump(2) + "\n");
}

}  // namespace

EvolveResult evolve(const EvolveConfig& c) {
  TDISC_REQUIRE(c.generations >= 1 && c.population >= 1, "evolve: generations and population must be at least 1");
  const auto base_problems = numeric::validate(c.base);
  if (!base_problems.empty()) throw InputError("evolve: --params: " + base_problems.front());
  EvolveResult r;
  std::mt19937_64 rng(c.seed ^ 0xe701e701e701e701ULL);
  for (int g = 0; g < c.generations; ++g)
    for (auto& [params, origin] : next_generation(c, g, r, rng, r.rejected)) {
      Scored s = evaluate(params, c.trial);
      s.id = static_cast<int>(r.history.size());
      s.generation = g;
      s.origin = origin;
      const bool elite = r.elites.add(s);
      r.history.push_back(s);
      write_run(c, r, false);
      if (c.progress) c.progress(s, elite);
    }
  write_run(c, r, true);
  return r;
}

nlohmann::json evolve_json(const EvolveConfig& c, const EvolveResult& r, bool complete) {
  nlohmann::json history = nlohmann::json::array();
  for (const Scored& s : r.history) history.push_back(s.to_json());
  const Scored* best = r.elites.best();
  return {{"format", "tdisc-evolve"},
          {"version", 1},
          {"complete", complete},
          {"target", {{"size", c.trial.target.format.str()}, {"rank", c.trial.target.rank},
                      {"ring", std::string(ring_name(c.trial.target.ring))}}},
          {"trial", {{"seed", c.trial.seed}, {"seconds", c.trial.seconds}, {"threads", c.trial.threads}}},
          {"evolve_seed", c.seed},
          {"generations", c.generations},
          {"population", c.population},
          {"base", c.base},
          {"evaluations", std::move(history)},
          {"rejected", r.rejected},
          {"elites", r.elites.to_json()},
          {"best", best ? best->to_json() : nlohmann::json()},
          {"best_params", best ? best->params.dump() : ""}};
}

}  // namespace tdisc::search::evolve
