/* libtdisc_gemm: C = alpha·op(A)·op(B) + beta·C through verified fast matrix-multiplication schemes
 * (Strassen, the rational 4x4 rank 48, and both over Strassen), with cuBLAS as the leaf GEMM and as
 * the fallback. The API is cuBLAS-shaped: column-major, cublasOperation_t, host alpha/beta, the
 * stream of the cuBLAS handle. Guide: docs/gemm.md. */
#ifndef TDISC_GEMM_H
#define TDISC_GEMM_H

#include <cublas_v2.h>
#include <stddef.h>
#include <stdint.h>

#include "tdisc/gemm_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cublas may be NULL: the library then creates (and destroys) its own handle. */
tdisc_gemm_status_t tdisc_gemm_create(tdisc_gemm_handle_t* handle, cublasHandle_t cublas);
tdisc_gemm_status_t tdisc_gemm_destroy(tdisc_gemm_handle_t handle);
cublasHandle_t tdisc_gemm_cublas(tdisc_gemm_handle_t handle);

/* Workspace policy. Caller buffer: the library uses [ptr, ptr + bytes) (stream-ordered on the handle's
 * stream, as cublasSetWorkspace); a plan that does not fit runs lean or falls back to cuBLAS.
 * Internal (the default, or ptr = NULL): the library allocates from its own stream-ordered pool, at
 * most `limit` bytes per call (default: three quarters of the device memory free at create time). */
tdisc_gemm_status_t tdisc_gemm_set_workspace(tdisc_gemm_handle_t handle, void* ptr, size_t bytes);
tdisc_gemm_status_t tdisc_gemm_set_workspace_limit(tdisc_gemm_handle_t handle, size_t limit);
/* allow != 0: when the write-once schedule does not fit, run the lean grouped schedule (workspace a
 * few blocks) before falling back to cuBLAS. Off by default: it saves memory, not time. */
tdisc_gemm_status_t tdisc_gemm_set_lean(tdisc_gemm_handle_t handle, int allow);

/* Which arithmetic the automatic choice may use: TDISC_GEMM_NATIVE (the default) or TDISC_GEMM_EMULATED
 * (Ozaki-II on INT8 tensor cores where it fits; tdisc_gemm_choose says which and why). Plans passed
 * explicitly to tdisc_gemm_[sd]gemm_plan run whatever they name. */
tdisc_gemm_status_t tdisc_gemm_set_accuracy(tdisc_gemm_handle_t handle, tdisc_gemm_accuracy_t accuracy);

/* Replaces the built-in plan tables with a file `tdisc tune` wrote (also read from the environment
 * variable TDISC_GEMM_PLANS at create time). */
tdisc_gemm_status_t tdisc_gemm_load_plan_table(tdisc_gemm_handle_t handle, const char* path);

tdisc_gemm_status_t tdisc_gemm_choose(tdisc_gemm_handle_t handle, tdisc_gemm_dtype_t dtype, cublasOperation_t transa,
                                      cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                      tdisc_gemm_plan_t* plan);

tdisc_gemm_status_t tdisc_gemm_sgemm(tdisc_gemm_handle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                     int64_t m, int64_t n, int64_t k, const float* alpha, const float* A,
                                     int64_t lda, const float* B, int64_t ldb, const float* beta, float* C,
                                     int64_t ldc);
tdisc_gemm_status_t tdisc_gemm_dgemm(tdisc_gemm_handle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                     int64_t m, int64_t n, int64_t k, const double* alpha, const double* A,
                                     int64_t lda, const double* B, int64_t ldb, const double* beta, double* C,
                                     int64_t ldc);
/* The same with a given plan (from tdisc_gemm_choose, possibly edited); a plan that does not fit the
 * workspace runs cuBLAS, as the automatic choice does. */
tdisc_gemm_status_t tdisc_gemm_sgemm_plan(tdisc_gemm_handle_t handle, const tdisc_gemm_plan_t* plan,
                                          cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
                                          int64_t k, const float* alpha, const float* A, int64_t lda, const float* B,
                                          int64_t ldb, const float* beta, float* C, int64_t ldc);
tdisc_gemm_status_t tdisc_gemm_dgemm_plan(tdisc_gemm_handle_t handle, const tdisc_gemm_plan_t* plan,
                                          cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
                                          int64_t k, const double* alpha, const double* A, int64_t lda,
                                          const double* B, int64_t ldb, const double* beta, double* C, int64_t ldc);

/* Compiled plans (no GPU needed): count and names per dtype. */
int tdisc_gemm_plan_count(tdisc_gemm_dtype_t dtype);
const char* tdisc_gemm_plan_name(tdisc_gemm_dtype_t dtype, int index);
const char* tdisc_gemm_plan_describe(tdisc_gemm_dtype_t dtype, int index);

/* The GPU model and cuBLAS version the plan tables are keyed by. */
tdisc_gemm_status_t tdisc_gemm_device(tdisc_gemm_handle_t handle, char* gpu, size_t gpu_size, int* cublas_version);

/* For `tdisc tune`: median milliseconds of `reps` calls (after one warm-up) of the plan on an m×n×k
 * product of random inputs the library allocates; plan NULL or "cublas" times cuBLAS itself. */
tdisc_gemm_status_t tdisc_gemm_time(tdisc_gemm_handle_t handle, tdisc_gemm_dtype_t dtype,
                                    const tdisc_gemm_plan_t* plan, int64_t m, int64_t n, int64_t k, int reps,
                                    double* median_ms);

/* For `tdisc tune --emulated`: the relative Frobenius error, on 16 sampled rows against a double-double
 * reference, of the plan (error) and of cuBLAS (cublas_error) on the same m×n×k inputs the library
 * allocates: uniform in [-1, 1) (wide = 0) or those times 2^e per element, e uniform in [-16, 16]. */
tdisc_gemm_status_t tdisc_gemm_error(tdisc_gemm_handle_t handle, tdisc_gemm_dtype_t dtype,
                                     const tdisc_gemm_plan_t* plan, int64_t m, int64_t n, int64_t k, int wide,
                                     double* error, double* cublas_error);

const char* tdisc_gemm_status_string(tdisc_gemm_status_t status);

#ifdef __cplusplus
}
#endif
#endif
