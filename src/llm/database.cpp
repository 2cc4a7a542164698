// MAP-Elites cells inside islands (Mouret–Clune 2015; FunSearch 2023; AlphaEvolve 2025): elites per
// cell, ring migration of island bests, parent choice between exploitation and exploration.
#include "src/llm/database.hpp"

#include <algorithm>
#include <set>

#include "base/error.hpp"

namespace tdisc::llm {

using nlohmann::json;

json Program::to_json() const {
  return {{"id", id},     {"parent", parent}, {"island", island},         {"cell", cell}, {"kind", kind},
          {"body", body}, {"score", score.to_json()}, {"origin", origin}, {"call", call}};
}

Program Program::from_json(const json& j) {
  Program p;
  p.id = j.at("id");
  p.parent = j.value("parent", -1);
  p.island = j.value("island", 0);
  p.cell = j.value("cell", "");
  p.kind = j.value("kind", "recipe");
  p.body = j.value("body", json::object());
  p.score = Score::from_json(j.value("score", json::object()));
  p.origin = j.value("origin", "");
  p.call = j.value("call", -1);
  return p;
}

const Program* Database::find(int id) const {
  for (const auto& p : programs_)
    if (p.id == id) return &p;
  return nullptr;
}

bool Database::place(const Program& p) {
  auto& cells = cells_[static_cast<size_t>(p.island)];
  auto it = cells.find(p.cell);
  if (it != cells.end()) {
    const Program* incumbent = find(it->second);
    if (incumbent && incumbent->score.fitness >= p.score.fitness) return false;
  }
  cells[p.cell] = p.id;
  return true;
}

int Database::add(Program p) {
  p.id = next_id_++;
  p.island = ((p.island % config_.islands) + config_.islands) % config_.islands;
  programs_.push_back(p);
  place(p);
  trim();
  if (++added_since_migration_ >= config_.migrate_every) migrate();
  return p.id;
}

void Database::trim() {
  if (static_cast<int>(programs_.size()) <= config_.keep) return;
  std::set<int> elite_ids;
  for (const auto& cells : cells_)
    for (const auto& [cell, id] : cells) elite_ids.insert(id);
  for (auto it = programs_.begin(); it != programs_.end() && static_cast<int>(programs_.size()) > config_.keep;)
    it = elite_ids.count(it->id) ? std::next(it) : programs_.erase(it);
}

std::vector<const Program*> Database::elites(int island) const {
  std::vector<const Program*> out;
  for (const auto& [cell, id] : cells_[static_cast<size_t>(island)])
    if (const Program* p = find(id)) out.push_back(p);
  return out;
}

const Program* Database::island_best(int island) const {
  const Program* best = nullptr;
  for (const Program* p : elites(island))
    if (!best || p->score.fitness > best->score.fitness) best = p;
  return best;
}

const Program* Database::best() const {
  const Program* best = nullptr;
  for (int i = 0; i < config_.islands; ++i)
    if (const Program* p = island_best(i); p && (!best || p->score.fitness > best->score.fitness)) best = p;
  return best;
}

const Program* Database::choose_parent(int island, std::mt19937_64& rng) const {
  auto pool = elites(island);
  if (pool.empty()) return best();
  if (std::uniform_real_distribution<double>(0, 1)(rng) < config_.exploit) return island_best(island);
  return pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)];
}

std::vector<const Program*> Database::inspirations(const Program* parent, int k, std::mt19937_64& rng) const {
  std::vector<const Program*> out;
  const Program* top = best();
  if (top && top != parent) out.push_back(top);
  std::vector<const Program*> others;
  for (int i = 0; i < config_.islands; ++i)
    for (const Program* p : elites(i))
      if (p != parent && p != top && (!parent || p->cell != parent->cell || p->island != parent->island)) others.push_back(p);
  std::shuffle(others.begin(), others.end(), rng);
  std::set<std::string> cells_seen;
  for (const Program* p : others) {  // one per cell first, for diversity
    if (static_cast<int>(out.size()) >= k) break;
    if (cells_seen.insert(p->cell).second) out.push_back(p);
  }
  return out;
}

void Database::migrate() {
  added_since_migration_ = 0;
  if (config_.islands < 2) return;
  std::vector<Program> movers;
  for (int i = 0; i < config_.islands; ++i)
    if (const Program* p = island_best(i)) movers.push_back(*p);
  for (Program m : movers) {
    int to = (m.island + 1) % config_.islands;
    auto& cells = cells_[static_cast<size_t>(to)];
    auto it = cells.find(m.cell);
    const Program* incumbent = it == cells.end() ? nullptr : find(it->second);
    if (incumbent && incumbent->score.fitness >= m.score.fitness) continue;
    m.parent = m.id;
    m.island = to;
    m.origin = "migrant";
    m.id = next_id_++;
    programs_.push_back(m);
    cells[m.cell] = m.id;
  }
  ++migrations_;
}

json Database::to_json() const {
  json programs = json::array(), cells = json::array();
  for (const auto& p : programs_) programs.push_back(p.to_json());
  for (const auto& island : cells_) cells.push_back(island);
  return {{"islands", config_.islands}, {"migrate_every", config_.migrate_every}, {"exploit", config_.exploit},
          {"keep", config_.keep}, {"programs", programs}, {"cells", cells}, {"next_id", next_id_},
          {"added_since_migration", added_since_migration_}, {"round_robin", round_robin_},
          {"migrations", migrations_}};
}

Database Database::from_json(const json& j) {
  DatabaseConfig c;
  c.islands = j.value("islands", 3);
  if (c.islands < 1)  // a damaged or hand-edited file: refused, not clamped to one island
    throw InputError("program database: islands " + std::to_string(c.islands) + " is out of range (at least 1)");
  c.migrate_every = j.value("migrate_every", 8);
  c.exploit = j.value("exploit", 0.7);
  c.keep = j.value("keep", 400);
  Database db(c);
  for (const auto& p : j.value("programs", json::array())) db.programs_.push_back(Program::from_json(p));
  auto cells = j.value("cells", json::array());
  for (size_t i = 0; i < cells.size() && i < db.cells_.size(); ++i)
    db.cells_[i] = cells[i].get<std::map<std::string, int>>();
  db.next_id_ = j.value("next_id", static_cast<int>(db.programs_.size()));
  db.added_since_migration_ = j.value("added_since_migration", 0);
  db.round_robin_ = j.value("round_robin", 0);
  db.migrations_ = j.value("migrations", 0);
  return db;
}

std::vector<const Program*> Database::best_programs(int k) const {
  std::vector<const Program*> all;
  for (int i = 0; i < islands(); ++i)
    for (const Program* p : elites(i)) all.push_back(p);
  std::stable_sort(all.begin(), all.end(), [](const Program* a, const Program* b) { return a->score.fitness > b->score.fitness; });
  if (all.size() > static_cast<size_t>(std::max(0, k))) all.resize(static_cast<size_t>(std::max(0, k)));
  return all;
}

}  // namespace tdisc::llm
