// tdisc catalog list|best|add|check|index|derive: the catalogue of verified schemes in algorithms/.
// This file dispatches the verbs and implements the read-only ones (list, best).
#include <iomanip>
#include <iostream>

#include "base/error.hpp"
#include "src/catalog/catalogue.hpp"
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Param kSizeOption = with_metavar(text("size", nullptr, "format (4x4 means 4x4x4)"), "NxMxP");
const Param kRingOption = ring_option("only schemes usable over R", false);
const Param kExactOption = flag("exact", "the format itself only, not its permutations");
const Param kKnownOption = flag("known", "answer from the best-known table (rings.tsv) instead of the catalogue");

const Table kListOptions{
    "catalog list", "tdisc catalog list [--size NxMxP] [--ring R] [--exact] [--dir DIR]",
    "Lists catalogued schemes (format, rank, ring, file, name), lowest rank first per format.\n"
    "--size matches the format and its permutations unless --exact.",
    {kSizeOption, kRingOption, kExactOption, catalogue_dir_param()}, "", ""};

const Table kBestOptions{
    "catalog best", "tdisc catalog best --size NxMxP [--ring R] [--exact] [--dir DIR] [--known [--rings FILE]]",
    "Prints 'PATH RANK RING FORMAT' of the lowest-rank scheme for the format (or a permutation of it,\n"
    "unless --exact) usable over R. Exit 0 when found, 3 when the catalogue has none.\n"
    "--known prints instead 'RANK RING FORMAT SOURCE (DATE)', the best known rank over R (default Q)\n"
    "from the best-known table, for every sorted format up to 16x16x16; exit 3 if it has none.",
    {kSizeOption, kRingOption, kExactOption, catalogue_dir_param(), kKnownOption, known_rings_param()}, "", ""};

std::string catalogue_dir(const Settings& o) { return catalogue_files(o).dir; }

CatalogueQuery query_of(const Settings& o) {
  CatalogueQuery q;
  if (o.has("size")) {
    q.format = parse_format(o.text("size"));
    if (!q.format) throw UsageError("--size: \"" + o.text("size") + "\" is not a format like 4x4 or 2x3x4");
  }
  if (o.has("ring")) {
    q.ring = parse_ring(o.text("ring"));  // a choice of the table
  }
  q.permutations = !o.flag("exact");
  return q;
}

void reject_positional(const Settings& o, const std::string& verb) {
  if (!o.positional().empty())
    throw UsageError("catalog " + verb + ": unexpected argument \"" + o.positional().front() + "\"");
}

std::string describe_query(const CatalogueQuery& q) {
  std::string t = q.format ? q.format->str() + (q.permutations ? " (or a permutation)" : "") : "any format";
  if (q.ring) t += " usable over " + std::string(ring_name(*q.ring));
  return t;
}

// catalog best --known: the table's value, not a file.
int known_best(const Settings& o, const CatalogueQuery& q) {
  const std::string path = catalogue_files(o).rings;
  const Ring r = q.ring.value_or(Ring::Q);
  auto k = known_rank(read_known_table(path), *q.format, r);
  if (!k) {
    std::cerr << "tdisc: " << path << " has no best known rank for " << q.format->str() << " over " << ring_name(r) << "\n";
    return kNoTarget;
  }
  std::cout << k->rank << " " << ring_name(r) << " " << sorted_format(*q.format).str() << " " << k->source << " ("
            << k->date << ")\n";
  return kOk;
}

}  // namespace

const params::Table& catalog_list_table() { return kListOptions; }
const params::Table& catalog_best_table() { return kBestOptions; }

int catalog_list(const Args& args) {
  Settings o = parse_options(kListOptions, args);
  if (o.help) return std::cout << params::help_text(kListOptions), kOk;
  reject_positional(o, "list");
  CatalogueQuery q = query_of(o);
  auto entries = select(read_catalogue(catalogue_dir(o)), q);
  for (const auto& e : entries)
    std::cout << std::left << std::setw(8) << e.format.str() << " rank " << std::setw(4) << e.rank << " "
              << std::setw(4) << ring_name(e.ring) << " " << e.path << (e.name.empty() ? "" : "  " + e.name) << "\n";
  if (entries.empty()) std::cerr << "tdisc: no catalogued scheme for " << describe_query(q) << "\n";
  return kOk;
}

int catalog_best(const Args& args) {
  Settings o = parse_options(kBestOptions, args);
  if (o.help) return std::cout << params::help_text(kBestOptions), kOk;
  reject_positional(o, "best");
  if (!o.has("size")) throw UsageError("catalog best: --size NxMxP is required");
  CatalogueQuery q = query_of(o);
  if (o.flag("known")) return known_best(o, q);
  auto top = best(read_catalogue(catalogue_dir(o)), q);
  if (!top) {
    std::cerr << "tdisc: the catalogue " << catalogue_dir(o) << " has no scheme for " << describe_query(q) << "\n";
    return kNoTarget;
  }
  std::cout << top->path << " " << top->rank << " " << ring_name(top->ring) << " " << top->format.str() << "\n";
  if (top->format != *q.format)
    std::cerr << "note: a scheme for " << top->format.str() << "; 'tdisc catalog derive permute " << top->path
              << " --to " << q.format->str() << " -o OUT' gives " << q.format->str() << "\n";
  return kOk;
}

int cmd_catalog(const Args& args) {
  static const char* kUsageText =
      "usage: tdisc catalog VERB [options]\n"
      "  list     list catalogued schemes (--size, --ring)\n"
      "  best     the lowest-rank scheme for a format (--size, --ring); exit 3 if none\n"
      "  add      verify native files and file them under DIR/<format>/r<R>-<ring>-<hash8>.json\n"
      "  check    re-verify every catalogued file over its ring\n"
      "  index    regenerate DIR/INDEX.md (or --check that it is up to date)\n"
      "  derive   build a scheme by a construction (classical, rotate, transpose, permute, kron,\n"
      "           join, restrict, project, degroote; sweep: all over a set of schemes)\n"
      "  import-sources  import, verify and file every public scheme under SRC… into a catalogue DIR\n"
      "'tdisc catalog VERB --help' shows a verb's options.\n";
  if (args.empty()) throw UsageError(std::string("catalog: no verb given\n") + kUsageText);
  const std::string& verb = args.front();
  Args rest(args.begin() + 1, args.end());
  if (verb == "--help" || verb == "-h" || verb == "help") return std::cout << kUsageText, kOk;
  if (verb == "list") return catalog_list(rest);
  if (verb == "best") return catalog_best(rest);
  if (verb == "add") return catalog_add(rest);
  if (verb == "check") return catalog_check(rest);
  if (verb == "index") return catalog_index(rest);
  if (verb == "derive") return catalog_derive(rest);
  if (verb == "import-sources") return catalog_import_sources(rest);
  throw UsageError("catalog: unknown verb \"" + verb + "\"\n" + kUsageText);
}

}  // namespace tdisc::cli
