// Dispatch of the targets that link the search, LLM and report code (fuzz_one.hpp, kAppEntryPoints).
#include "tests/fuzz/targets/fuzz_one.hpp"

namespace tdisc::fuzz {

void run_app_one(const std::string& format, const uint8_t* data, size_t size) {
  if (format == "run-dir") return run_dir_one(data, size);
  if (format == "llm-reply") return llm_reply_one(data, size);
  finding(format, "no such target (run-dir, llm-reply)");
}

}  // namespace tdisc::fuzz
