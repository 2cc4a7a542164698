// The handle behind tdisc_gemm_handle_t (shared by library.cu and timing.cu).
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

#include "plan_table.hpp"

struct tdisc_gemm_context {
  cublasHandle_t cublas = nullptr;
  bool owns_cublas = false;
  void* user_ws = nullptr;  // caller's buffer, or null: the internal pool
  size_t user_bytes = 0;
  size_t limit = 0;         // internal pool: bytes per call at most
  bool allow_lean = false;  // tdisc_gemm_set_lean
  int accuracy = 0;         // tdisc_gemm_accuracy_t: 0 native, 1 emulation allowed
  cudaMemPool_t pool = nullptr;
  tdisc_gemm::TableSet tables;
  std::string gpu;
  int cublas_version = 0;
};

// Bytes one call may use: the caller's buffer, or the internal pool's limit.
inline size_t limit_of(const tdisc_gemm_context* h) { return h->user_ws ? h->user_bytes : h->limit; }
