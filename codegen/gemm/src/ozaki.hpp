// Emulated plans (Ozaki scheme II on INT8 tensor cores, optionally with a scheme level over Z/p on
// each modular product): the interface library.cu calls. Column-major, op = N (library.cu copies
// transposed operands first), host alpha and beta.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace tdisc_gemm::ozaki {

bool is_emulated(const char* plan);  // "oz2", "oz2-s1", "oz2-s2", "oz2-r48"
bool known_emulated(const char* plan);
// Moduli for the dtype's working precision (f64: 53 bits, f32: 24) at depth k.
int default_moduli(int dtype, long long k);
// Why the emulation cannot run this shape (k too deep for INT32, too many moduli), or "" when it can.
std::string unsupported(const char* plan, long long m, long long n, long long k, int moduli);
// The least workspace a call needs (the lean path, one INT32 product at a time reduced to int8 residues of
// C, with the operands of a quarter of the moduli at a time: four passes over A and B), and the workspace
// of the fastest layout within `budget` bytes (0 if none): the fused path (every modulus's INT32 products
// kept and reduced inside the reconstruction; oz2 and the Strassen level) in one residue pass, else the
// lean path in one, two, three or four passes. A call takes the fastest layout its workspace holds.
size_t workspace(const char* plan, long long m, long long n, long long k, int moduli);
size_t workspace_within(const char* plan, long long m, long long n, long long k, int moduli, size_t budget);

// C = alpha·A·B + beta·C emulated with `moduli` moduli; returns 0, or 1 bad argument (a workspace not
// 16-byte aligned among them: the kernels use 16-byte accesses; cudaMalloc and the pools give 256), 2 cuBLAS
// error, 3 CUDA error (as the generated plans).
int gemm_f64(cublasHandle_t h, cudaStream_t s, const char* plan, int moduli, long long m, long long n, long long k,
             double alpha, const double* A, long long lda, const double* B, long long ldb, double beta, double* C,
             long long ldc, void* ws, size_t bytes);
int gemm_f32(cublasHandle_t h, cudaStream_t s, const char* plan, int moduli, long long m, long long n, long long k,
             float alpha, const float* A, long long lda, const float* B, long long ldb, float beta, float* C,
             long long ldc, void* ws, size_t bytes);

}  // namespace tdisc_gemm::ozaki
