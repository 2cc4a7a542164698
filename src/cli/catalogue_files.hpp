// Where the catalogue and its best-known tables are, one answer for every command that reads them
// (catalog's verbs, search, recipe, campaign): the flag, else its environment mirror
// (TDISC_CATALOG_DIR, TDISC_CATALOG_SOTA, TDISC_CATALOG_RINGS; the options table reads it), else the
// source tree's algorithms/ (baked in at build time).
#pragma once
#include <string>

#include "base/params/settings.hpp"
#include "base/params/table.hpp"

namespace tdisc::cli {

// The flags, each with its mirror; a command's table lists those it reads.
const params::Param& catalogue_dir_param();  // --dir DIR (catalog's verbs), TDISC_CATALOG_DIR
params::Param catalog_dir_flag();            // the same folder as --catalog-dir DIR (search, recipe, campaign)
const params::Param& best_known_param();     // --sota FILE, TDISC_CATALOG_SOTA
const params::Param& known_rings_param();    // --rings FILE, TDISC_CATALOG_RINGS

struct CatalogueFiles {
  std::string dir;    // the catalogue folder: DIR/<n>x<m>x<p>/r<R>-<ring>-<hash8>.json
  std::string sota;   // fmm_sota.json: the best known rank per sorted format (any ring)
  std::string rings;  // rings.tsv: the best known rank per format and ring
};

// The one lookup: each path from the parameter of o's table mirrored by its TDISC_CATALOG_* name
// (given as a flag or in the environment), else the source tree's (algorithms/,
// algorithms/best-known/fmm_sota.json, algorithms/best-known/rings.tsv).
CatalogueFiles catalogue_files(const params::Settings& o);

}  // namespace tdisc::cli
