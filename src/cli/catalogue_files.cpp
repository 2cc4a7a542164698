// The catalogue's paths and their flags; see catalogue_files.hpp.
#include "src/cli/catalogue_files.hpp"

namespace tdisc::cli {

namespace {

std::string source_tree(const std::string& path) { return std::string(TDISC_CATALOG_SOURCE_DIR) + "/" + path; }

// o's value of the path mirrored by `env`, whatever o's table calls it (catalog's --dir, search's
// --catalog-dir; campaign's --dir is its own folder), when set; else the fallback.
std::string mirrored_or(const params::Settings& o, const std::string& env, const std::string& fallback) {
  for (const params::Param& p : o.table().params)
    if (o.table().env_of(p) == env && o.has(p.long_name())) return o.text(p.long_name());
  return fallback;
}

}  // namespace

const params::Param& catalogue_dir_param() {
  static const params::Param p = params::with_env(
      params::with_metavar(params::text("dir", nullptr, "catalogue folder [default: the source tree's algorithms/]"), "DIR"),
      "TDISC_CATALOG_DIR");
  return p;
}

params::Param catalog_dir_flag() {
  params::Param p = catalogue_dir_param();
  p.name = "catalog-dir";
  return p;
}

const params::Param& best_known_param() {
  static const params::Param p = params::with_env(
      params::with_metavar(params::text("sota", nullptr, "fmm_sota.json [default: algorithms/best-known/ of the source tree]"), "FILE"),
      "TDISC_CATALOG_SOTA");
  return p;
}

const params::Param& known_rings_param() {
  static const params::Param p = params::with_env(
      params::with_metavar(params::text("rings", nullptr, "best known rank per ring [default: algorithms/best-known/rings.tsv of the source tree]"), "FILE"),
      "TDISC_CATALOG_RINGS");
  return p;
}

CatalogueFiles catalogue_files(const params::Settings& o) {
  CatalogueFiles f;
  f.dir = mirrored_or(o, "TDISC_CATALOG_DIR", source_tree("algorithms"));
  f.sota = mirrored_or(o, "TDISC_CATALOG_SOTA", source_tree("algorithms/best-known/fmm_sota.json"));
  f.rings = mirrored_or(o, "TDISC_CATALOG_RINGS", source_tree("algorithms/best-known/rings.tsv"));
  return f;
}

}  // namespace tdisc::cli
