// Writing a run's page where the user asked for it, with links that work from there.
#include <filesystem>

#include "src/report/html.hpp"
#include "src/report/pages.hpp"

namespace tdisc::report {

namespace fs = std::filesystem;

RunData write_run_report(const std::string& run_dir, const std::string& out_path) {
  RunData run = load_run(run_dir);
  fs::path out_dir = fs::absolute(out_path).parent_path();
  std::string base = fs::relative(fs::absolute(run_dir), out_dir).generic_string();
  base = base.empty() || base == "." ? "" : base + "/";
  write_page(out_path, run_page(run, base));
  return run;
}

}  // namespace tdisc::report
