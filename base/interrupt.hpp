// SIGINT and SIGTERM for the lifetime of a run: while an InterruptGuard lives, either signal is
// recorded instead of ending the process, so that a search or a campaign stops at its next check,
// writes its checkpoint and ends normally. The previous handlers come back when the guard ends.
#pragma once

namespace tdisc {

class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

// The signal received under a guard (SIGINT or SIGTERM), 0 when none; a new guard clears it.
int interrupt_signal();

}  // namespace tdisc
