// The host side of seed-space restarts on a CUDA device (seed_device.hpp): the plain-data problem
// of a SeedSpace and the driver that runs a numeric search's restarts through it.
#pragma once
#include <vector>

#include "src/search/numeric/run.hpp"
#include "src/search/numeric/seed_device.hpp"

namespace tdisc::search::numeric {

SeedProblem seed_problem(const SeedSpace& s, const MatmulTensor& t, const Params& p, bool complex);
// θ as the device stores it: (re, im) pairs when complex, else the real parts.
std::vector<double> pack_seeds(const std::vector<cdouble>& theta, bool complex);
std::vector<cdouble> unpack_seeds(const std::vector<double>& packed, bool complex);
// The numeric search with an ansatz on params.gpu: batches of 4 × the device's slots (16 × with
// culling; gpu_batch overrides), no batch started that the deadline would likely cut off.
void run_ansatz_on_cuda(Run& run);

}  // namespace tdisc::search::numeric
