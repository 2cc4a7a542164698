// A Reporter that accepts every offer and never stops or checkpoints: the outer end of an
// evaluation in tests that look only at what the inner, verifying reporter saw.
#pragma once
#include <climits>

#include "src/search/engine.hpp"

namespace tdisc::test {

class NullReporter : public search::Reporter {
public:
  bool offer(const Scheme&, const std::string&) override { return true; }
  void event(const nlohmann::json&) override {}
  void add(const std::string&, double) override {}
  void set(const std::string&, double) override {}
  bool stop_requested() const override { return false; }
  int best_rank() const override { return INT_MAX; }
  bool checkpoint_due() const override { return false; }
  void checkpoint(const nlohmann::json&) override {}
};

}  // namespace tdisc::test
