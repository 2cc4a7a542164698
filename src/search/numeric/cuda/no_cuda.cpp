// The CUDA batch in a build without CUDA (TDISC_CUDA=OFF or no nvcc at configure time): every
// request for it is a usage error with one line that says why, never a silent fallback to the CPU.
#include "base/error.hpp"
#include "src/search/numeric/batch_device.hpp"
#include "src/search/numeric/seed_device.hpp"

namespace tdisc::search::numeric {

namespace {
[[noreturn]] void no_cuda() {
  throw UsageError("--device cuda: this tdisc was built without CUDA (configure with the CUDA Toolkit and "
                   "TDISC_CUDA=ON); use --device cpu");
}
}  // namespace

bool cuda_built() { return false; }
int cuda_device_count() { return 0; }
CudaProbe probe_cuda(const BatchProblem&, int, long) { no_cuda(); }
std::unique_ptr<BatchDevice> make_cuda_batch(const BatchProblem&, int, long) { no_cuda(); }
std::unique_ptr<SeedDevice> make_cuda_seed_device(const SeedProblem&, int) { no_cuda(); }
std::vector<double> cuda_sweep_all(BatchDevice&, double, double, double, double) { no_cuda(); }

}  // namespace tdisc::search::numeric
