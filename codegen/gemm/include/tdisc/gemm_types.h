/* libtdisc_gemm's types without CUDA headers, so that host code (the tdisc binary's `tune`, which
 * loads the library with dlopen and never links CUDA) shares them with the library. */
#ifndef TDISC_GEMM_TYPES_H
#define TDISC_GEMM_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tdisc_gemm_context* tdisc_gemm_handle_t;

typedef enum {
  TDISC_GEMM_SUCCESS = 0,
  TDISC_GEMM_BAD_ARGUMENT = 1, /* as cuBLAS: negative size, leading dimension too small, null handle */
  TDISC_GEMM_CUBLAS_ERROR = 2,
  TDISC_GEMM_CUDA_ERROR = 3,
  TDISC_GEMM_TABLE_ERROR = 4,  /* a plan table that cannot be read */
  TDISC_GEMM_NOT_FOUND = 5     /* no compiled plan of that name and dtype */
} tdisc_gemm_status_t;

typedef enum { TDISC_GEMM_F32 = 0, TDISC_GEMM_F64 = 1 } tdisc_gemm_dtype_t;
typedef enum { TDISC_GEMM_SEPARATE = 0, TDISC_GEMM_BATCHED = 1, TDISC_GEMM_STREAMS = 2 } tdisc_gemm_leaf_t;
/* What the caller allows (tdisc_gemm_set_accuracy). NATIVE: products in the dtype's own arithmetic (the
 * default). EMULATED: also Ozaki scheme II on INT8 tensor cores ("oz2" plans), with the number of moduli
 * for the dtype's working precision; its error is of the order of native cuBLAS's on well-scaled inputs
 * and is measured, not proven, to be no worse (docs/gemm.md, "Emulation"). */
typedef enum { TDISC_GEMM_NATIVE = 0, TDISC_GEMM_EMULATED = 1 } tdisc_gemm_accuracy_t;

/* The plan object: what one call does. tdisc_gemm_choose fills it (the library's own choice);
 * callers may edit it and run it with tdisc_gemm_[sd]gemm_plan. */
typedef struct {
  char name[32];          /* compiled plan ("s1", "s2", "r48", "r48s"), an emulated plan ("oz2", "oz2-s1",
                             "oz2-s2", "oz2-r48": Ozaki-II alone or with a scheme level over Z/p) or "cublas" */
  int leaf;               /* tdisc_gemm_leaf_t */
  int group;              /* 0: write-once schedule; g >= 1: lean grouped schedule, g products at a time */
  size_t workspace_bytes; /* plan workspace plus transposed operand copies */
  double tuned_speedup;   /* over cuBLAS at the nearest tuned shape (1 for cuBLAS) */
  char why[160];          /* why this plan, or why cuBLAS */
  int moduli;             /* emulated plans: number of moduli (0: the dtype's default); else 0 */
} tdisc_gemm_plan_t;

#ifdef __cplusplus
}
#endif
#endif
