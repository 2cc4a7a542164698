// SIGINT/SIGTERM recorded for the lifetime of a run (see interrupt.hpp).
#include "base/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace tdisc {

namespace {

std::atomic<int> g_signal{0};
extern "C" void on_interrupt(int sig) { g_signal.store(sig); }

struct sigaction g_old_int {}, g_old_term {};

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal.store(0);
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

int interrupt_signal() { return g_signal.load(); }

}  // namespace tdisc
