// tdisc catalog import-sources SRC… --dir DIR: every public scheme file under SRC (folders walked,
// format from the file: .npz with metadata_json → qcsr-npz, other .npz → skipped, .json →
// perminov-json, .exp → exp, .mpl → fmm-mpl; a checkout of AntoineTilloy/explicit-matmul-schemes
// contributes only its catalogue entries schemes/*.json → cwschemes) imported, verified exactly over
// its ring and filed into the catalogue DIR when it improves on what DIR holds (file_in_catalogue,
// if_better). The full public catalogue lives outside the repository; algorithms/ keeps what tests
// and records need.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "base/error.hpp"
#include "decomposition/formats/cwschemes.hpp"
#include "decomposition/formats/formats.hpp"
#include "src/catalog/catalogue.hpp"
#include "src/cli/catalog_verbs.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "verifier/narrow.hpp"
#include "verifier/verify.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Table kSourcesOptions{
    "catalog import-sources", "tdisc catalog import-sources SRC… --dir DIR [--max-dim D]",
    "Imports every scheme file under the folders or files SRC (qcsr .npz, Perminov .json, .exp,\n"
    "FMM .mpl; in a checkout of Tilloy's explicit-matmul-schemes, its schemes/*.json entries),\n"
    "verifies each exactly, and files those that improve on DIR's schemes into DIR.\n"
    "Files that fail to import or verify are reported and skipped. Exit 2 if any failed.",
    {with_metavar(text("dir", nullptr, "catalogue folder to fill (required; outside the repository)"), "DIR"),
     integer("max-dim", 16, 1, 64, "skip formats with a dimension above D")},
    "SRC…", ""};

std::string format_of(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  if (fmt::is_cwschemes_entry(p)) return "cwschemes";
  if (ext == ".npz") return "qcsr-npz";
  if (ext == ".json") return "perminov-json";
  if (ext == ".exp") return "exp";
  if (ext == ".mpl") return "fmm-mpl";
  return "";
}

std::vector<std::filesystem::path> files_under(const std::vector<std::string>& sources) {
  std::vector<std::filesystem::path> out;
  for (const std::string& s : sources) {
    if (std::filesystem::is_directory(s)) {
      if (fmt::is_cwschemes_checkout(s)) {
        for (const auto& p : fmt::cwschemes_entries(s)) out.push_back(p);
        continue;
      }
      for (auto it = std::filesystem::recursive_directory_iterator(s); it != std::filesystem::recursive_directory_iterator(); ++it) {
        if (it->is_directory() && fmt::is_cwschemes_checkout(it->path())) {  // its other JSON files are not schemes
          for (const auto& p : fmt::cwschemes_entries(it->path())) out.push_back(p);
          it.disable_recursion_pending();
        } else if (it->is_regular_file() && !format_of(it->path()).empty()) {
          out.push_back(it->path());
        }
      }
    } else {
      out.emplace_back(s);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

const params::Table& catalog_sources_table() { return kSourcesOptions; }

int catalog_import_sources(const Args& args) {
  Settings o = parse_options(kSourcesOptions, args);
  if (o.help) return std::cout << params::help_text(kSourcesOptions), kOk;
  if (!o.has("dir")) throw UsageError("catalog import-sources: --dir DIR is required");
  if (o.positional().empty()) throw UsageError("catalog import-sources: no SRC given");
  const std::string dir = o.text("dir");
  const int max_dim = static_cast<int>(o.integer("max-dim"));
  std::filesystem::create_directories(dir);
  std::vector<CatalogueEntry> have = read_catalogue(dir);
  int added = 0, failed = 0, skipped = 0;
  for (const auto& path : files_under(o.positional())) {
    try {
      const std::string format = format_of(path);
      if (format == "cwschemes" && fmt::cwschemes_entry_size(path.string()) > max_dim) {  // sizes up to 10^10
        ++skipped;
        continue;
      }
      Scheme s = import_scheme(format, path.string());
      if (std::max({s.format.n, s.format.m, s.format.p}) > max_dim) {
        ++skipped;
        continue;
      }
      Verdict v = verify(s, s.ring);
      if (!v.valid) throw InputError(path.string(), 0, "not valid over " + std::string(ring_name(s.ring)) + ": " + v.why_not);
      s.ring = narrowed_ring(s);
      const FiledScheme f = file_in_catalogue(dir, s, true, have);
      if (f.what == Filed::Added) {
        ++added;
        std::cout << "added " << f.path << " (" << s.format.str() << " rank " << s.rank() << " over " << ring_name(s.ring) << ")\n";
      } else {
        ++skipped;
      }
    } catch (const InputError& e) {
      ++failed;
      std::cerr << "tdisc: " << path.string() << ": " << e.what() << "\n";
    }
  }
  std::cout << added << " added, " << skipped << " skipped (dominated, present or too large), " << failed << " failed\n";
  return failed ? kInvalid : kOk;
}

}  // namespace tdisc::cli
