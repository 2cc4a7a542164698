// A batch of numeric restarts advanced together on one device: the CUDA kernels (cuda/) or the CPU
// reference (batch_reference.cpp, the same schedule with the Eigen ALS of als.cpp). Plain data only,
// so the CUDA library needs neither Eigen nor the rest of the engine.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "src/search/numeric/batch_schedule.hpp"

namespace tdisc::search::numeric {

// The problem every slot of the batch solves.
struct BatchProblem {
  std::array<int, 3> nmp{};                     // ⟨n,m,p⟩ (plain ints: nvcc compiles this header as C++17)
  std::array<int, 3> dims{};                    // I_0 = n·m, I_1 = m·p, I_2 = p·n
  int rank = 0;
  bool complex = false;
  int lattice = 2;                              // static_cast<int>(Lattice): ternary, integer, half, half-gaussian
  std::vector<std::array<int, 3>> ones;         // the ones (a, b, c) of T, mode 0
  BatchSchedule schedule;
  // Packed factors of one slot: for q = 0, 1, 2, row i, term r (row-major I_q × R), then
  // (re, im) for complex problems: 2·Σ I_q·R doubles, else Σ I_q·R.
  long packed_size() const {
    return static_cast<long>(dims[0] + dims[1] + dims[2]) * rank * (complex ? 2 : 1);
  }
};

class BatchDevice {
public:
  virtual ~BatchDevice() = default;
  virtual std::string name() const = 0;  // e.g. "NVIDIA H200 (cuda:0)"
  virtual int slots() const = 0;         // restarts resident at once
  // Puts restart `restart` (its noise seed, its packed starting point) into `slot`, in phase 1.
  virtual void start(int slot, long long restart, unsigned long long seed, const std::vector<double>& packed) = 0;
  virtual void idle(int slot) = 0;
  // Advances every active slot by up to `sweeps` sweeps (slots leave at their phase ends); returns
  // the slot states after it. Slots do not wait for one another.
  virtual const std::vector<SlotState>& advance(int sweeps) = 0;
  virtual std::vector<double> packed(int slot) = 0;  // the slot's current factors
  virtual std::vector<double> relaxed(int slot) = 0; // its factors when Relax ended (before the snap pull)
};

std::unique_ptr<BatchDevice> make_reference_batch(const BatchProblem& p, int slots);

// What a CUDA device offers for a problem, asked before a run starts (the command line prints it).
struct CudaProbe {
  std::string name;        // "NVIDIA H200 (cuda:0, sm_90, 132 SMs)"
  int slots = 0;           // restarts resident at once (occupancy × SMs × 2)
};
// Both throw UsageError: built without CUDA, no CUDA device, or a device index out of range.
CudaProbe probe_cuda(const BatchProblem& p, int device, long slots);
std::unique_ptr<BatchDevice> make_cuda_batch(const BatchProblem& p, int device, long slots);
// Tests: one ALS sweep (reg, lattice weight, clip) on every slot of a CUDA batch, a snap-phase sweep
// when tolerance ≥ 0 (U, V entries within it held on the lattice); returns the residual before it,
// after it, and the snapped residual after it: three per slot.
std::vector<double> cuda_sweep_all(BatchDevice& cuda_batch, double reg, double lattice, double clip, double tolerance = -1);
// Whether this build has the CUDA engine (TDISC_CUDA on and nvcc found at configure time).
bool cuda_built();
// CUDA devices this process can use: 0 without CUDA in the build, without a driver or without a GPU.
int cuda_device_count();

}  // namespace tdisc::search::numeric
