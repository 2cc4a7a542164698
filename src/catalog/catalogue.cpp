// Reading and querying the catalogue folder (DESIGN §2): data only, no verification, no search.
#include "src/catalog/catalogue.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/json_input.hpp"
#include "decomposition/native.hpp"

namespace fs = std::filesystem;

namespace tdisc {

namespace {

std::string extra_field(const Provenance& p, const char* key) {
  auto it = p.extra.find(key);
  return it == p.extra.end() ? std::string() : it->second;
}

}  // namespace

CatalogueEntry catalogue_entry(const Scheme& s, const std::string& path, const std::string& relative) {
  CatalogueEntry e;
  e.path = path;
  e.relative = relative;
  e.format = s.format;
  e.rank = s.rank();
  e.ring = s.ring;
  e.hash8 = scheme_hash8(s);
  e.name = extra_field(s.provenance, "name");
  e.source = s.provenance.source;
  e.licence = extra_field(s.provenance, "licence");
  e.holds_mod2 = ring_is_modular(s.ring) ? s.ring == Ring::GF2 : ring_holds(Ring::GF2, s);
  e.holds_mod3 = ring_is_modular(s.ring) ? s.ring == Ring::GF3 : ring_holds(Ring::GF3, s);
  return e;
}

namespace {

bool entry_order(const CatalogueEntry& a, const CatalogueEntry& b) {
  if (a.format != b.format) return a.format < b.format;
  if (a.rank != b.rank) return a.rank < b.rank;
  if (a.ring != b.ring) return a.ring < b.ring;
  return a.path < b.path;
}

// r<R>-<ring>-<hash8>.json, or .json.gz for a scheme whose native text passes kCompressAbove.
bool is_catalogue_file_name(const std::string& name) {
  auto ends = [&](std::string_view tail) { return name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0; };
  return ends(".json") || ends(".json.gz");
}

std::vector<fs::path> sorted_children(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& d : fs::directory_iterator(dir)) out.push_back(d.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<CatalogueEntry> read_catalogue(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw IoError(dir, 0, "not a catalogue folder (no such directory)");
  std::vector<CatalogueEntry> out;
  for (const fs::path& sub : sorted_children(dir)) {
    auto f = parse_format(sub.filename().string());
    if (!fs::is_directory(sub) || !f || f->str() != sub.filename().string()) continue;
    for (const fs::path& file : sorted_children(sub)) {
      if (!is_catalogue_file_name(file.filename().string())) continue;
      Scheme s = read_native(file.string());
      std::string relative = sub.filename().string() + "/" + file.filename().string();
      if (s.format != *f)
        throw InputError(file.string(), 0, "a " + s.format.str() + " scheme filed under " + f->str());
      const std::string name = catalogue_file_name(s), got = file.filename().string();
      if (got != name && got != name + ".gz") throw InputError(file.string(), 0, "misnamed: its contents call for " + name);
      out.push_back(catalogue_entry(s, file.string(), relative));
    }
  }
  std::sort(out.begin(), out.end(), entry_order);
  return out;
}

FiledScheme file_in_catalogue(const std::string& dir, const Scheme& s, bool if_better, std::vector<CatalogueEntry>& have) {
  FiledScheme out{Filed::Added, catalogue_path(dir, s)};
  if (std::filesystem::exists(out.path)) {
    out.what = Filed::AlreadyThere;
    return out;
  }
  if (if_better)
    if (auto top = best(have, {s.format, true, s.ring}); top && top->rank <= s.rank()) {
      out.what = Filed::Dominated;
      return out;
    }
  std::filesystem::create_directories(std::filesystem::path(out.path).parent_path());
  write_native(out.path, s);
  have.push_back(catalogue_entry(s, out.path, s.format.str() + "/" + fs::path(out.path).filename().string()));
  return out;
}

std::string catalogue_path(const std::string& dir, const Scheme& s) {
  const std::string name = catalogue_file_name(s) + (native_text(s).size() > kCompressAbove ? ".gz" : "");
  return (fs::path(dir) / s.format.str() / name).string();
}

bool usable_over(const CatalogueEntry& e, Ring over) {
  if (ring_is_modular(e.ring)) return e.ring == over;
  if (over == Ring::GF2) return e.holds_mod2;
  if (over == Ring::GF3) return e.holds_mod3;
  return ring_contains(over, e.ring);
}

int ring_preference(Ring r) {
  switch (r) {
    case Ring::ZT: return 0;
    case Ring::Z: return 1;
    case Ring::Q: return 2;
    case Ring::QI: return 3;
    case Ring::GF2: return 4;
    case Ring::GF3: return 5;
  }
  return 6;
}

Format sorted_format(Format f) {
  std::array<int, 3> d{f.n, f.m, f.p};
  std::sort(d.begin(), d.end());
  return {d[0], d[1], d[2]};
}

bool same_up_to_permutation(Format a, Format b) { return sorted_format(a) == sorted_format(b); }

std::vector<CatalogueEntry> select(const std::vector<CatalogueEntry>& all, const CatalogueQuery& q) {
  std::vector<CatalogueEntry> out;
  for (const auto& e : all) {
    if (q.format && !(q.permutations ? same_up_to_permutation(e.format, *q.format) : e.format == *q.format))
      continue;
    if (q.ring && !usable_over(e, *q.ring)) continue;
    out.push_back(e);
  }
  return out;
}

std::optional<CatalogueEntry> best(const std::vector<CatalogueEntry>& all, const CatalogueQuery& q) {
  std::optional<CatalogueEntry> top;
  auto better = [&](const CatalogueEntry& a, const CatalogueEntry& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    bool ea = q.format && a.format == *q.format, eb = q.format && b.format == *q.format;
    if (ea != eb) return ea;
    if (a.ring != b.ring) return ring_preference(a.ring) < ring_preference(b.ring);
    return a.path < b.path;
  };
  for (const auto& e : select(all, q))
    if (!top || better(e, *top)) top = e;
  return top;
}

std::map<Format, int> read_best_known(const std::string& path) {
  nlohmann::json j = parse_json_input(read_text_file(path), path, "a best-known rank file");
  if (!j.contains("entries") || !j["entries"].is_array()) throw InputError(path, 0, "no \"entries\" array");
  std::map<Format, int> out;
  for (const auto& e : j["entries"]) {
    auto small_int = [](const nlohmann::json& x) { return x.is_number_integer() && x.get<long long>() >= 0 && x.get<long long>() < 1 << 20; };
    const bool ok = e.is_object() && e.contains("format") && e["format"].is_array() && e["format"].size() == 3 &&
                    small_int(e["format"][0]) && small_int(e["format"][1]) && small_int(e["format"][2]) &&
                    e.contains("rank") && small_int(e["rank"]);
    if (!ok) throw InputError(path, 0, "malformed entry " + json_excerpt(e));
    const auto& f = e["format"];
    Format key = sorted_format({f[0].get<int>(), f[1].get<int>(), f[2].get<int>()});
    int rank = e["rank"].get<int>();
    auto it = out.find(key);
    if (it == out.end() || rank < it->second) out[key] = rank;
  }
  return out;
}

}  // namespace tdisc
