"""tdisc.torch.matmul on a GPU, bit for bit against the same product through libtdisc_gemm's C API
(and close to torch.matmul), f32 and f64, on the default and on a side stream. Skipped (77) without a
CUDA device or without the library."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import support  # noqa: E402

support.require("tdisc", "torch")
import torch  # noqa: E402

import tdisc.torch as tt  # noqa: E402

if not torch.cuda.is_available():
    print("no CUDA device: skipped")
    sys.exit(support.SKIP)
if tt.library() is None:
    print(f"{tt._library_error}: skipped")
    sys.exit(support.SKIP)


def c_api(a, b):
    """C = A·B (row-major) through tdisc_gemm_[sd]gemm directly: column-major Cᵀ = Bᵀ·Aᵀ."""
    lib = ctypes.CDLL(tt.library().path)
    h = ctypes.c_void_p()
    assert lib.tdisc_gemm_create(ctypes.byref(h), None) == 0
    (M, K), N = a.shape, b.shape[1]
    c = torch.empty(M, N, dtype=a.dtype, device=a.device)
    scalar = ctypes.c_float if a.dtype == torch.float32 else ctypes.c_double
    call = lib.tdisc_gemm_sgemm if a.dtype == torch.float32 else lib.tdisc_gemm_dgemm
    one, zero = scalar(1), scalar(0)
    i64 = ctypes.c_int64
    torch.cuda.synchronize()
    status = call(h, 0, 0, i64(N), i64(M), i64(K), ctypes.byref(one), ctypes.c_void_p(b.data_ptr()), i64(N),
                  ctypes.c_void_p(a.data_ptr()), i64(K), ctypes.byref(zero), ctypes.c_void_p(c.data_ptr()), i64(N))
    assert status == 0, status
    torch.cuda.synchronize()
    lib.tdisc_gemm_destroy(h)
    return c


class Gpu(support.TempDirCase):
    def test_bit_exact_against_the_c_api(self):
        for dtype in (torch.float32, torch.float64):
            for M, K, N in ((512, 384, 640), (2048, 2048, 2048), (4096, 4096, 4096)):
                with self.subTest(dtype=dtype, shape=(M, K, N)):
                    g = torch.Generator(device="cuda").manual_seed(M + K + N)
                    a = torch.randn(M, K, dtype=dtype, device="cuda", generator=g)
                    b = torch.randn(K, N, dtype=dtype, device="cuda", generator=g)
                    self.assertTrue(tt.explain(a, b).startswith("libtdisc_gemm: plan "))
                    c = tt.matmul(a, b)
                    torch.cuda.synchronize()
                    self.assertTrue(torch.equal(c, c_api(a, b)))
                    ref = torch.matmul(a.double(), b.double())
                    tol = 1e-3 if dtype == torch.float32 else 1e-10
                    self.assertLess(((c.double() - ref).abs().max() / ref.abs().max()).item(), tol)

    def test_on_a_side_stream(self):
        a = torch.randn(2048, 2048, device="cuda")
        b = torch.randn(2048, 2048, device="cuda")
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            c = tt.matmul(a, b)
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(c, c_api(a, b)))


if __name__ == "__main__":
    support.main()
