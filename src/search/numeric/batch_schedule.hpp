// The per-restart schedule of a batched (GPU) restart as a small state machine over plain data, so
// the CUDA kernels and the host (tests, the CPU reference batch) run the same code (restart.cpp's
// phases 1–2: annealed ALS, lattice pull, relaxation; then the batch's own snap phase, U and V
// fixed onto the lattice entry by entry as a distance tolerance grows, with the snapped residual
// checked on the device; rounding and repair stay on the CPU).
#pragma once
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define TDISC_HD __host__ __device__
#else
#define TDISC_HD
#endif

namespace tdisc::search::numeric {

// What a slot of the batch is doing. Continuous → LatticePull → Relax → [Snap] → NearMiss, or Stalled.
// Snap runs only when the relaxed point does not already snap to residual 0 and snap_steps > 0.
enum SlotPhase : int { kIdle = 0, kContinuous = 1, kLatticePull = 2, kRelax = 3, kNearMiss = 4, kStalled = 5, kSnap = 6 };

// A snapped residual at or below this is 0: lattice points are multiples of ½ (or ½·Z[i]), so the
// terms of the snapped residual are multiples of 1/64 and a double sums them exactly.
constexpr double kSnappedZero = 1e-9;
// Why a slot stalled (the host replaces it in place and records the reason).
enum StallReason : int { kNone = 0, kPlateau = 1, kDiverged = 2, kNotFinite = 3, kAboveThreshold = 4 };

// The schedule numbers of Params that the batch needs, as plain data (copied to the device).
struct BatchSchedule {
  long sweeps = 3000;              // phase 1 length (ALS sweeps)
  long check_every = 25;           // residual checked every this many sweeps
  long stall = 500;                // no 1 % improvement for this many sweeps: plateau
  long noise_every = 25;
  long lattice_steps = 600, relax_steps = 500;
  double reg_start = 1e-2, reg_end = 1e-6;
  double noise_start = 0.02, noise_decay = 0.85;
  double clip = 2.0;
  int balance = 1;
  double converge_residual = 1e-9, discretise_below = 1e-4;
  double lattice_weight_start = 1e-4, lattice_weight_end = 0.3, relax_lattice_weight = 1e-5;
  double diverge_norm = 1e6;       // ‖x‖_F above this: diverged
  // The snap phase (0 steps: off): ALS in which an entry of U or V within the tolerance τ of its
  // nearest lattice point is held there (weight snap_fix_weight on ‖x − snap(x)‖²), τ growing
  // linearly from snap_tolerance_start to snap_tolerance_end (half the lattice spacing: then every
  // entry is held); W stays free, as in the CPU's rounding, for the exact repair to solve.
  long snap_steps = 0;
  double snap_tolerance_start = 0.02, snap_tolerance_end = 0.5;
  double snap_fix_weight = 1e8;
};

// One slot's bookkeeping (device memory; the host reads it after each launch).
struct SlotState {
  unsigned long long seed = 0;     // the restart's seed (noise stream)
  long long restart = -1;          // restart index, -1 when idle
  int phase = kIdle;
  int reason = kNone;
  long step = 0;                   // sweeps done in the current phase
  long total = 0;                  // sweeps done in this restart
  long best_at = 0;
  long noise_events = 0;
  double residual = INFINITY;      // at the last check
  double best = INFINITY;          // best residual in phase 1
  double continuous_residual = 0;  // residual when phase 1 ended
  double relaxed_snapped = INFINITY;  // ‖T − [[snap(U), snap(V), snap(W)]]‖ when Relax ended
  double snapped = INFINITY;       // the same at the last check of the snap pull (or of Relax)
};

struct StepWeights {
  double reg = 0, lattice = 0;
};

// Geometric interpolation from a to b at t ∈ [0,1] (linear when either end is zero), as restart.cpp.
TDISC_HD inline double schedule_ramp(double a, double b, double t) {
  if (a > 0 && b > 0) return a * pow(b / a, t);
  return a + (b - a) * t;
}

// Regularisation and lattice weight of the next sweep of a slot.
TDISC_HD inline StepWeights slot_weights(const SlotState& s, const BatchSchedule& c) {
  if (s.phase == kContinuous)
    return {schedule_ramp(c.reg_start, c.reg_end, static_cast<double>(s.step) / static_cast<double>(c.sweeps)), 0};
  if (s.phase == kLatticePull) {
    double t = c.lattice_steps > 1 ? static_cast<double>(s.step) / static_cast<double>(c.lattice_steps - 1) : 1.0;
    return {c.reg_end, schedule_ramp(c.lattice_weight_start, c.lattice_weight_end, t)};
  }
  return {c.reg_end, c.relax_lattice_weight};
}

// Noise of phase 1: sigma of the injection after this sweep, 0 when none is due.
TDISC_HD inline double slot_noise(const SlotState& s, const BatchSchedule& c) {
  if (s.phase != kContinuous || s.step % c.noise_every != c.noise_every - 1) return 0;
  double sigma = c.noise_start * pow(c.noise_decay, static_cast<double>(s.noise_events));
  return sigma > 1e-9 ? sigma : 0;
}

// The snap phase's tolerance τ for the next sweep (entries of U, V within τ of the lattice are held
// there); negative outside the snap phase.
TDISC_HD inline double slot_snap_tolerance(const SlotState& s, const BatchSchedule& c) {
  if (s.phase != kSnap) return -1;
  double t = c.snap_steps > 1 ? static_cast<double>(s.step) / static_cast<double>(c.snap_steps - 1) : 1.0;
  return c.snap_tolerance_start + (c.snap_tolerance_end - c.snap_tolerance_start) * fmin(t, 1.0);
}

TDISC_HD inline bool slot_balances(const SlotState& s, const BatchSchedule& c) {
  return c.balance && s.phase == kContinuous && s.step % 10 == 9;
}

TDISC_HD inline bool slot_active(const SlotState& s) {
  return s.phase == kContinuous || s.phase == kLatticePull || s.phase == kRelax || s.phase == kSnap;
}

// Whether the residual is due after the sweep just counted (phase 1 checks; phase ends).
TDISC_HD inline bool slot_check_due(const SlotState& s, const BatchSchedule& c) {
  if (s.phase == kContinuous) return s.step % c.check_every == 0 || s.step >= c.sweeps;
  if (s.phase == kLatticePull) return s.step >= c.lattice_steps;
  if (s.phase == kSnap) return s.step % c.check_every == 0 || s.step >= c.snap_steps;
  return s.phase == kRelax && s.step >= c.relax_steps;
}

// Whether a check of this phase also needs the snapped residual (the end of Relax, and the snap pull).
TDISC_HD inline bool slot_wants_snapped(const SlotState& s) { return s.phase == kRelax || s.phase == kSnap; }

TDISC_HD inline void slot_stall(SlotState& s, int reason) {
  s.phase = kStalled;
  s.reason = reason;
}

// After a sweep (step already counted) and a residual check: the transitions of the ladder.
// `snapped` is the snapped residual, computed when slot_wants_snapped (else ignored).
TDISC_HD inline void slot_after_check(SlotState& s, const BatchSchedule& c, double residual, double norm,
                                      double snapped = INFINITY) {
  s.residual = residual;
  if (!(residual == residual) || residual > 1e300 || !(norm == norm)) return slot_stall(s, kNotFinite);
  if (norm > c.diverge_norm) return slot_stall(s, kDiverged);
  if (s.phase == kContinuous) {
    if (residual < s.best * 0.99) s.best = residual, s.best_at = s.step;
    const bool plateau = s.step - s.best_at > c.stall;
    const bool ended = residual < c.converge_residual || s.step >= c.sweeps || plateau;
    if (!ended) return;
    s.continuous_residual = residual;
    s.step = 0;
    if (residual <= c.discretise_below) s.phase = kLatticePull;
    else slot_stall(s, plateau ? kPlateau : kAboveThreshold);
    return;
  }
  if (s.phase == kLatticePull && s.step >= c.lattice_steps) s.phase = kRelax, s.step = 0;
  if (s.phase == kRelax && s.step >= c.relax_steps) {
    s.relaxed_snapped = s.snapped = snapped;
    s.step = 0;
    s.phase = c.snap_steps > 0 && !(snapped <= kSnappedZero) ? kSnap : kNearMiss;
    return;
  }
  if (s.phase == kSnap) {
    s.snapped = snapped;
    if (snapped <= kSnappedZero || s.step >= c.snap_steps) s.phase = kNearMiss;
  }
}

// Nearest lattice point of one real part (lattice as in lattice.hpp: 0 ternary, 1 integer, 2 half,
// 3 half-gaussian); a complex value on a real lattice drops its imaginary part.
TDISC_HD inline double schedule_nearest(int lattice, double x) {
  if (lattice == 0) return fmin(fmax(round(x), -1.0), 1.0);
  if (lattice == 1) return round(x);
  return round(2 * x) / 2;
}

// Counter-based normal deviates for the noise (SplitMix64 mixing, Box–Muller): the same numbers
// on host and device, independent of thread layout, so a restart is reproducible from its seed.
TDISC_HD inline unsigned long long schedule_mix(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Two independent standard normal deviates for entry `entry` at sweep `sweep` of the restart.
TDISC_HD inline void schedule_normal2(unsigned long long seed, long sweep, long entry, double& g0, double& g1) {
  unsigned long long h = schedule_mix(seed ^ schedule_mix((static_cast<unsigned long long>(sweep) << 24) ^
                                                          static_cast<unsigned long long>(entry)));
  unsigned long long h2 = schedule_mix(h);
  double u1 = (static_cast<double>(h >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
  double u2 = static_cast<double>(h2 >> 11) * 0x1.0p-53;         // [0, 1)
  double r = sqrt(-2.0 * log(u1)), a = 6.283185307179586 * u2;
  g0 = r * cos(a);
  g1 = r * sin(a);
}

}  // namespace tdisc::search::numeric
