// Device code of the batched restart: one thread block per restart, its three factors and the
// R×R normal matrix in shared memory; an ALS sweep is three regularised normal-equation solves by an
// in-block LDLᴴ factorisation (Kolda–Bader 2009 CP-ALS; the schedule of batch_schedule.hpp).
#pragma once
#include <cuda_runtime.h>

#include "src/search/numeric/batch_schedule.hpp"

namespace tdisc::search::numeric::cuda {

struct cplx {
  double x, y;
};
__device__ inline cplx operator+(cplx a, cplx b) { return {a.x + b.x, a.y + b.y}; }
__device__ inline cplx operator-(cplx a, cplx b) { return {a.x - b.x, a.y - b.y}; }
__device__ inline cplx operator*(cplx a, cplx b) { return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x}; }
__device__ inline cplx operator*(double s, cplx a) { return {s * a.x, s * a.y}; }
__device__ inline cplx& operator+=(cplx& a, cplx b) { return a = a + b; }
__device__ inline cplx& operator-=(cplx& a, cplx b) { return a = a - b; }
__device__ inline cplx cj(cplx a) { return {a.x, -a.y}; }
__device__ inline double cj(double a) { return a; }
__device__ inline double re(cplx a) { return a.x; }
__device__ inline double re(double a) { return a; }
__device__ inline double abs2(cplx a) { return a.x * a.x + a.y * a.y; }
__device__ inline double abs2(double a) { return a * a; }
__device__ inline cplx div_real(cplx a, double d) { return {a.x / d, a.y / d}; }
__device__ inline double div_real(double a, double d) { return a / d; }
template <class S> __device__ inline S zero();
template <> __device__ inline double zero<double>() { return 0; }
template <> __device__ inline cplx zero<cplx>() { return {0, 0}; }
__device__ inline double from_real(double v, double) { return v; }
__device__ inline cplx from_real(double v, cplx) { return {v, 0}; }

__device__ inline double nearest_of(int l, double v) { return schedule_nearest(l, v); }
__device__ inline cplx nearest_of(int l, cplx v) {
  return {schedule_nearest(l, v.x), l == 3 ? schedule_nearest(l, v.y) : 0.0};
}
// Soft clipping of |x| at c (identity below, tanh knee above), as als.cpp.
__device__ inline double clip_of(double v, double c) {
  double r = fabs(v);
  return (c <= 0 || r <= c) ? v : copysign(c + tanh(r - c), v);
}
__device__ inline cplx clip_of(cplx v, double c) {
  double r = sqrt(abs2(v));
  return (c <= 0 || r <= c) ? v : ((c + tanh(r - c)) / r) * v;
}
__device__ inline void add_noise_to(double& v, double s, double g0, double) { v += s * g0; }
__device__ inline void add_noise_to(cplx& v, double s, double g0, double g1) {
  v.x += s * g0 * 0.7071067811865476;
  v.y += s * g1 * 0.7071067811865476;
}

// Block-wide sum of one double per thread (blockDim a power of two; deterministic order).
__device__ inline double block_sum(double v, double* red) {
  red[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  const double total = red[0];
  __syncthreads();
  return total;
}

// The tensor in device memory: per mode q, for each row x the pairs (y, z) with T(x,y,z) = 1 in
// CSR form; and for each (a, b) of mode 0 the c with T(a,b,c) = 1, or -1.
struct DeviceTensor {
  int d[3];
  int rank;
  int lattice;
  const int* offsets[3];   // d[q] + 1 each
  const int2* pairs[3];    // nmp each
  const int* c_of;         // d[0]·d[1]
};

}  // namespace tdisc::search::numeric::cuda
