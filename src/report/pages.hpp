// The three kinds of page: a run (tdisc report, search --report), the catalogue (catalog index
// --html: an index page and one page per scheme) and a GPU benchmark (bench --report).
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "decomposition/format.hpp"
#include "src/report/run_data.hpp"

namespace tdisc::report {

// `link_base`: how the page reaches the run directory's files (relative to where it is written).
std::string run_page(const RunData& run, const std::string& link_base);
// The LLM sections of a run page (calls timeline, spending, program database, best recipes); empty
// for runs without LLM calls.
std::string llm_sections(const RunData& run);

// Files of the catalogue site, path relative to its folder → content: index.html, one page per
// scheme under schemes/, and each scheme exported to the public formats under exports/.
using SiteFiles = std::map<std::string, std::string>;
// `catalog_dir`: the catalogue (algorithms/); `sota`: fmm_sota.json's entries (may be null).
SiteFiles catalog_pages(const std::string& catalog_dir, const std::map<Format, int>& best_known);

// One or more bench JSON results (codegen/bench.cpp's --json output).
std::string bench_page(const std::vector<nlohmann::json>& results, const std::vector<std::string>& sources);

}  // namespace tdisc::report

namespace tdisc::report {

// Loads run_dir and writes its page to out_path atomically; links to the best files are relative
// to out_path's folder. Returns the loaded run (for messages).
RunData write_run_report(const std::string& run_dir, const std::string& out_path);

}  // namespace tdisc::report
