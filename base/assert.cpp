// The failure path of TDISC_ASSERT (assert.hpp).
#include "base/assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace tdisc {

void assertion_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "tdisc: %s:%d: assertion failed: %s (a bug in tdisc; please report it)\n", file, line,
               condition);
  std::fflush(stderr);
  std::abort();
}

}  // namespace tdisc
