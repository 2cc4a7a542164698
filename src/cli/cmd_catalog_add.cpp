// tdisc catalog add|check|index: the verbs that prove and write. `add` verifies each scheme exactly,
// narrows it to the smallest ring it is valid over and files it; `check` re-verifies every file;
// `index` regenerates algorithms/INDEX.md.
#include <filesystem>
#include <iostream>

#include "base/error.hpp"
#include "base/io.hpp"
#include "decomposition/native.hpp"
#include "src/catalog/catalogue.hpp"
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/report/pages.hpp"
#include "verifier/narrow.hpp"
#include "verifier/verify.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Table kAddOptions{
    "catalog add", "tdisc catalog add FILE… [--source TEXT] [--licence TEXT] [--name NAME] [--dir DIR]",
    "Verifies each native file over its declared ring, narrows the ring to the smallest one it is\n"
    "valid over, and writes it to DIR/<n>x<m>x<p>/r<R>-<ring>-<hash8>.json. Provenance must name a\n"
    "source and a licence (from the file or the flags). Exit 2 and nothing written if one fails.",
    {text("source", nullptr, "provenance source (paper, repository, file)"),
     text("licence", nullptr, "licence of the source data"),
     with_metavar(text("name", nullptr, "a name for the scheme (\"Strassen\")"), "NAME"),
     flag("if-better", "add a scheme only if the catalogue has nothing of lower or equal rank for its\n"
                       "format (any permutation) usable over its ring; candidates go in ring order\n"
                       "(ZT, Z, Q, QI, GF2, GF3), then by rank"),
     catalogue_dir_param()},
    "FILE", ""};

const Table kCheckOptions{
    "catalog check", "tdisc catalog check [--dir DIR]",
    "Re-verifies every catalogued file exactly over the ring it declares. Exit 2 if any fails.",
    {catalogue_dir_param()}, "", ""};

const Table kIndexOptions{
    "catalog index", "tdisc catalog index [--dir DIR] [--sota FILE] [--rings FILE] [--out FILE] [--check]",
    "Writes DIR/INDEX.md: per sorted format up to 5x5x5, the best known rank (fmm_sota.json) and our\n"
    "best rank usable over each ring, marked against that ring's best known rank (--rings), then\n"
    "every file. --check compares instead (exit 2 if stale).",
    {catalogue_dir_param(),
     best_known_param(),
     known_rings_param(),
     with_metavar(text("out,o", nullptr, "where to write [default: DIR/INDEX.md]"), "FILE"),
     flag("check", "do not write; exit 2 if the file differs from what would be written"),
     with_metavar(text("html", nullptr, "also write the catalogue as HTML pages into DIR (index.html, a page per scheme, exports)"), "DIR")},
    "", ""};

std::string dir_of(const Settings& o) { return catalogue_files(o).dir; }

Scheme prepared(const std::string& path, const Settings& o) {
  Scheme s = read_native(path);
  Verdict v = verify(s, s.ring);
  if (!v.valid) throw InputError(path, 0, "not valid over " + std::string(ring_name(s.ring)) + ": " + v.why_not);
  s.ring = narrowed_ring(s);
  if (o.has("source")) s.provenance.source = o.text("source");
  if (o.has("licence")) s.provenance.extra["licence"] = o.text("licence");
  if (o.has("name")) s.provenance.extra["name"] = o.text("name");
  if (s.provenance.source.empty()) throw InputError(path, 0, "provenance has no source; give --source");
  if (!s.provenance.extra.count("licence")) throw InputError(path, 0, "provenance has no licence; give --licence");
  return s;
}

}  // namespace

const params::Table& catalog_add_table() { return kAddOptions; }
const params::Table& catalog_check_table() { return kCheckOptions; }
const params::Table& catalog_index_table() { return kIndexOptions; }

int catalog_add(const Args& args) {
  Settings o = parse_options(kAddOptions, args);
  if (o.help) return std::cout << params::help_text(kAddOptions), kOk;
  if (o.positional().empty()) throw UsageError("catalog add: no FILE given");
  std::vector<Scheme> schemes;  // verify them all before writing any
  for (const std::string& path : o.positional()) schemes.push_back(prepared(path, o));
  const std::string dir = dir_of(o);
  const bool if_better = o.flag("if-better");
  std::vector<CatalogueEntry> have;
  if (if_better) {
    if (std::filesystem::is_directory(dir)) have = read_catalogue(dir);
    std::stable_sort(schemes.begin(), schemes.end(), [](const Scheme& a, const Scheme& b) {
      int ra = ring_preference(a.ring), rb = ring_preference(b.ring);
      return ra != rb ? ra < rb : a.rank() < b.rank();
    });
  }
  for (const Scheme& s : schemes) {
    const FiledScheme f = file_in_catalogue(dir, s, if_better, have);
    if (f.what == Filed::AlreadyThere)
      std::cout << "already catalogued: " << f.path << "\n";
    else if (f.what == Filed::Dominated)
      std::cout << "skipped " << s.format.str() << " rank " << s.rank() << " over " << ring_name(s.ring)
                << " (" << s.provenance.source << "): the catalogue has as good\n";
    else
      std::cout << "added " << f.path << " (" << s.format.str() << " rank " << s.rank() << " over "
                << ring_name(s.ring) << ")\n";
  }
  return kOk;
}

int catalog_check(const Args& args) {
  Settings o = parse_options(kCheckOptions, args);
  if (o.help) return std::cout << params::help_text(kCheckOptions), kOk;
  auto entries = read_catalogue(dir_of(o));
  int failed = 0;
  for (const auto& e : entries) {
    Scheme s = read_native(e.path);
    Verdict v = verify(s, s.ring);
    if (!v.valid) {
      std::cerr << "tdisc: " << e.path << ": INVALID over " << ring_name(s.ring) << ": " << v.why_not << "\n";
      ++failed;
    }
  }
  std::cout << entries.size() - failed << " of " << entries.size() << " catalogued schemes verify\n";
  return failed ? kInvalid : kOk;
}

// The catalogue as a static site (src/report/catalog_pages.cpp), every file written atomically.
void write_catalog_site(const std::string& out, const std::string& dir, const std::map<Format, int>& best_known) {
  report::SiteFiles files = report::catalog_pages(dir, best_known);
  for (const auto& [relative, content] : files) {
    std::filesystem::path path = std::filesystem::path(out) / relative;
    std::filesystem::create_directories(path.parent_path());
    write_file_atomic(path.string(), content);
  }
  std::cout << "wrote " << out << "/index.html (" << files.size() << " files)\n";
}

int catalog_index(const Args& args) {
  Settings o = parse_options(kIndexOptions, args);
  if (o.help) return std::cout << params::help_text(kIndexOptions), kOk;
  const std::string dir = dir_of(o);
  const std::string sota = catalogue_files(o).sota;
  const std::string out = o.has("out") ? o.text("out") : dir + "/INDEX.md";
  const std::string rings = catalogue_files(o).rings;
  std::string text = index_markdown(read_catalogue(dir), read_best_known(sota), 5, read_known_table(rings));
  if (o.has("html")) write_catalog_site(o.text("html"), dir, read_best_known(sota));
  if (o.flag("check")) {
    std::string current;
    try {
      current = read_text_file(out);
    } catch (const InputError&) {
    }
    if (current != text) throw InputError(out, 0, "out of date; run 'tdisc catalog index'");
    std::cout << out << " is up to date\n";
    return kOk;
  }
  write_file_atomic(out, text);
  std::cout << "wrote " << out << "\n";
  return kOk;
}

}  // namespace tdisc::cli
