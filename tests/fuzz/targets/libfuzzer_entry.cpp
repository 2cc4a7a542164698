// libFuzzer entry of one fuzz target; TDISC_FUZZ_FORMAT names the reader or entry point (CMake sets
// it per target), TDISC_FUZZ_APP the targets that link the search, LLM and report code.
#include "tests/fuzz/targets/fuzz_one.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
#ifdef TDISC_FUZZ_APP
  tdisc::fuzz::run_app_one(TDISC_FUZZ_FORMAT, data, size);
#else
  tdisc::fuzz::run_one(TDISC_FUZZ_FORMAT, data, size);
#endif
  return 0;
}
