// The scheme levels' straight-line code over Z/p (generated: ozaki_level_code.inc, from
// codegen/gemm/tools/ozaki_schemes.py): Level_s1 (Strassen), Level_s2 (Strassen ⊗ Strassen, 4x4:49),
// Level_r48 (the rational 4x4:48). Each works on the integer numerators (coefficients times den); the
// caller reduces mod p and multiplies by den^-1 mod p once per operand sum and once per C block.
// __host__ __device__: the level kernels call them, and the host tests compare them with the tables of
// ozaki_schemes.hpp.
#pragma once
#include "ozaki_math.hpp"

namespace tdisc_gemm::ozaki {
#include "ozaki_level_code.inc"
}  // namespace tdisc_gemm::ozaki
