// The table of engines by name. Built-in engines are listed here; others register at start-up.
#include <map>
#include <mutex>

#include "src/search/engine.hpp"
#include "src/search/flip/engine.hpp"
#include "src/search/flip/meta_engine.hpp"
#include "src/search/numeric/engine.hpp"

namespace tdisc::search {

namespace {

std::map<std::string, EngineFactory>& table() {
  static std::map<std::string, EngineFactory> t{
      {"flip", []() -> std::unique_ptr<Engine> { return std::make_unique<flip::FlipEngine>(); }},
      {"meta", []() -> std::unique_ptr<Engine> { return std::make_unique<flip::MetaEngine>(); }},
      {"numeric", []() -> std::unique_ptr<Engine> { return std::make_unique<numeric::NumericEngine>(); }}};
  return t;
}

std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

void register_engine(const std::string& name, EngineFactory factory) {
  std::lock_guard lock(table_mutex());
  table()[name] = factory;
}

std::unique_ptr<Engine> make_engine(const std::string& name) {
  std::lock_guard lock(table_mutex());
  auto it = table().find(name);
  return it == table().end() ? nullptr : it->second();
}

std::vector<std::string> engine_names() {
  std::lock_guard lock(table_mutex());
  std::vector<std::string> names;
  for (auto& [k, v] : table()) names.push_back(k);
  return names;
}

}  // namespace tdisc::search
