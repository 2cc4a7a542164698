// The assert that stays on in release builds (STYLE §3: invariants → TDISC_ASSERT). A broken
// invariant is a bug in tdisc: it prints "tdisc: FILE:LINE: assertion failed: COND" and aborts,
// where <cassert>'s assert would vanish under NDEBUG. nlohmann::json's own checks (JSON_ASSERT: a
// missing key read through a const reference, an iterator of another value) come through it too:
// tdisc_flags force-includes this header before any other, so JSON_ASSERT is defined before
// <nlohmann/json.hpp> looks for it (CMakeLists.txt).
#pragma once

namespace tdisc {

[[noreturn]] void assertion_failed(const char* condition, const char* file, int line);

}  // namespace tdisc

#define TDISC_ASSERT(cond) ((cond) ? static_cast<void>(0) : ::tdisc::assertion_failed(#cond, __FILE__, __LINE__))

#ifndef JSON_ASSERT
#define JSON_ASSERT(cond) TDISC_ASSERT(cond)
#endif
