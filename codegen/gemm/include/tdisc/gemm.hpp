// C++ face of libtdisc_gemm (include/tdisc/gemm.h): one overload tdisc::gemm::gemm for float and
// double, a Plan object, and a Handle that owns the C handle.
#pragma once
#include <stdexcept>
#include <string>

#include "tdisc/gemm.h"

namespace tdisc::gemm {

using Plan = tdisc_gemm_plan_t;

template <class T> struct dtype_of;
template <> struct dtype_of<float> { static constexpr tdisc_gemm_dtype_t value = TDISC_GEMM_F32; };
template <> struct dtype_of<double> { static constexpr tdisc_gemm_dtype_t value = TDISC_GEMM_F64; };

class Handle {
public:
  explicit Handle(cublasHandle_t cublas = nullptr) {
    const tdisc_gemm_status_t s = tdisc_gemm_create(&h_, cublas);
    if (s != TDISC_GEMM_SUCCESS) throw std::runtime_error(std::string("tdisc_gemm_create: ") + tdisc_gemm_status_string(s));
  }
  ~Handle() { tdisc_gemm_destroy(h_); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator tdisc_gemm_handle_t() const { return h_; }

private:
  tdisc_gemm_handle_t h_ = nullptr;
};

inline tdisc_gemm_status_t gemm(tdisc_gemm_handle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda, const float* B,
                                int64_t ldb, const float* beta, float* C, int64_t ldc) {
  return tdisc_gemm_sgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
inline tdisc_gemm_status_t gemm(tdisc_gemm_handle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                int64_t n, int64_t k, const double* alpha, const double* A, int64_t lda,
                                const double* B, int64_t ldb, const double* beta, double* C, int64_t ldc) {
  return tdisc_gemm_dgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
inline tdisc_gemm_status_t gemm(tdisc_gemm_handle_t h, const Plan& p, cublasOperation_t ta, cublasOperation_t tb,
                                int64_t m, int64_t n, int64_t k, const float* alpha, const float* A, int64_t lda,
                                const float* B, int64_t ldb, const float* beta, float* C, int64_t ldc) {
  return tdisc_gemm_sgemm_plan(h, &p, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
inline tdisc_gemm_status_t gemm(tdisc_gemm_handle_t h, const Plan& p, cublasOperation_t ta, cublasOperation_t tb,
                                int64_t m, int64_t n, int64_t k, const double* alpha, const double* A, int64_t lda,
                                const double* B, int64_t ldb, const double* beta, double* C, int64_t ldc) {
  return tdisc_gemm_dgemm_plan(h, &p, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// The plan the library would run for this call.
template <class T>
Plan choose(tdisc_gemm_handle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k) {
  Plan p{};
  const tdisc_gemm_status_t s = tdisc_gemm_choose(h, dtype_of<T>::value, ta, tb, m, n, k, &p);
  if (s != TDISC_GEMM_SUCCESS) throw std::runtime_error(std::string("tdisc_gemm_choose: ") + tdisc_gemm_status_string(s));
  return p;
}

}  // namespace tdisc::gemm
