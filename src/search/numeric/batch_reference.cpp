// The CPU reference of the batched restart: each slot runs the batch schedule (batch_schedule.hpp)
// with the Eigen ALS sweep of als.cpp. Tests compare the CUDA kernels against it; CI runs the whole
// batched driver on it (no GPU there).
#include <cmath>

#include "src/search/numeric/als.hpp"
#include "src/search/numeric/batch_device.hpp"
#include "src/search/numeric/batch_pack.hpp"
#include "src/search/numeric/handover.hpp"
#include "src/search/numeric/lattice.hpp"

namespace tdisc::search::numeric {

template <class S>
FixedMask hold_on_lattice(Factors<S>& x, Lattice l, double tolerance) {
  FixedMask m = no_fixed(x);
  for (int q = 0; q < 2; ++q)
    for (Eigen::Index e = 0; e < x.f[q].size(); ++e) {
      const S n = static_cast<S>(nearest(l, x.f[q].data()[e]));
      if (std::abs(x.f[q].data()[e] - n) <= tolerance) m.f[q].data()[e] = 1, x.f[q].data()[e] = n;
    }
  return m;
}
template FixedMask hold_on_lattice(Factors<double>&, Lattice, double);
template FixedMask hold_on_lattice(Factors<cdouble>&, Lattice, double);

namespace {

template <class S>
class ReferenceBatch : public BatchDevice {
public:
  ReferenceBatch(const BatchProblem& p, int slots)
      : p_(p), tensor_(tensor_of(p)), x_(static_cast<size_t>(slots)), relaxed_(static_cast<size_t>(slots)),
        states_(static_cast<size_t>(slots)) {}

  std::string name() const override { return "CPU reference batch"; }
  int slots() const override { return static_cast<int>(states_.size()); }

  void start(int slot, long long restart, unsigned long long seed, const std::vector<double>& packed) override {
    x_[slot] = unpack<S>(p_, packed);
    SlotState s;
    s.seed = seed;
    s.restart = restart;
    s.phase = kContinuous;
    states_[slot] = s;
  }
  void idle(int slot) override { states_[slot] = SlotState{}; }

  const std::vector<SlotState>& advance(int sweeps) override {
    for (size_t slot = 0; slot < states_.size(); ++slot)
      for (int k = 0; k < sweeps && slot_active(states_[slot]); ++k) sweep(states_[slot], x_[slot]);
    return states_;
  }

  std::vector<double> packed(int slot) override { return pack(p_, x_[slot]); }
  std::vector<double> relaxed(int slot) override { return pack(p_, relaxed_[slot]); }

private:
  void sweep(SlotState& s, Factors<S>& x) {
    const BatchSchedule& c = p_.schedule;
    StepWeights w = slot_weights(s, c);
    const Lattice l = static_cast<Lattice>(p_.lattice);
    const double tolerance = slot_snap_tolerance(s, c);
    als_sweep(tensor_, x, tolerance >= 0 ? hold_on_lattice(x, l, tolerance) : no_fixed(x), Weights{w.reg, w.lattice, l, c.clip});
    if (slot_balances(s, c)) balance_terms(x, no_fixed(x));
    if (double sigma = slot_noise(s, c); sigma > 0) {
      add_batch_noise(p_, x, s.seed, s.total, sigma);
      ++s.noise_events;
    }
    ++s.step;
    ++s.total;
    if (!slot_check_due(s, c)) return;
    double n2 = 0;
    for (int q = 0; q < 3; ++q) n2 += x.f[q].squaredNorm();
    const int was = s.phase;
    const double snapped = slot_wants_snapped(s) ? snapped_residual(x) : INFINITY;
    slot_after_check(s, c, residual(tensor_, x), std::sqrt(n2), snapped);
    if (was == kRelax && s.phase != kRelax) relaxed_[&x - x_.data()] = x;
  }

  double snapped_residual(const Factors<S>& x) const {
    Factors<cdouble> z;
    for (int q = 0; q < 3; ++q) z.f[q] = x.f[q].template cast<cdouble>();
    return rounded_residual(tensor_, static_cast<Lattice>(p_.lattice), z);
  }

  BatchProblem p_;
  MatmulTensor tensor_;
  std::vector<Factors<S>> x_;
  std::vector<Factors<S>> relaxed_;  // each slot's factors when its Relax phase ended
  std::vector<SlotState> states_;
};

}  // namespace

std::unique_ptr<BatchDevice> make_reference_batch(const BatchProblem& p, int slots) {
  if (p.complex) return std::make_unique<ReferenceBatch<cdouble>>(p, slots);
  return std::make_unique<ReferenceBatch<double>>(p, slots);
}

}  // namespace tdisc::search::numeric
