// libFuzzer entry of one fuzz target; TDISC_FUZZ_FORMAT names the reader (CMake sets it per target).
#include "tests/fuzz/targets/fuzz_one.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tdisc::fuzz::run_one(TDISC_FUZZ_FORMAT, data, size);
  return 0;
}
