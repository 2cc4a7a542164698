// tdisc report RUN_DIR [-o FILE]: the run as one self-contained HTML page (plots, calls, database).
#include <filesystem>
#include <iostream>

#include "base/error.hpp"
#include "decomposition/json_input.hpp"
#include "src/cli/commands.hpp"
#include "src/cli/options.hpp"
#include "src/cli/tables.hpp"
#include "src/report/pages.hpp"

namespace tdisc::cli {

namespace {

using namespace params;

const Table kReportOptions{
    "report",
    "tdisc report RUN_DIR [-o FILE]",
    "Writes one self-contained HTML page of a search run (no network, readable offline): rank,\n"
    "throughput, residual and lifts over time, LLM calls and program database, parameters.",
    {with_env(with_metavar(text("output,o", nullptr, "where to write the page [default: RUN_DIR/report.html]"), "FILE"), "-")},
    "RUN_DIR",
    ""};

}  // namespace

const params::Table& report_table() { return kReportOptions; }

int cmd_report(const Args& args) {
  Settings o = parse_options(kReportOptions, args);
  if (o.help) {
    std::cout << params::help_text(kReportOptions);
    return kOk;
  }
  if (o.positional().size() != 1) throw UsageError("report: give exactly one run directory (tdisc report RUN_DIR)");
  const std::string dir = o.positional()[0];
  std::string out = o.text("output");
  if (out.empty()) out = (std::filesystem::path(dir) / "report.html").string();
  report::RunData run;
  try {
    run = report::write_run_report(dir, out);
  } catch (const nlohmann::json::exception& e) {  // a field of a type the page did not expect
    throw InputError(dir, 0, "not a run directory tdisc can report: " + json_library_message(e));
  }
  std::cout << "wrote " << out << " (" << run.lines << " events, " << run.improvements.size() << " improvements)\n";
  return kOk;
}

}  // namespace tdisc::cli
