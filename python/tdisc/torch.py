"""tdisc.torch.matmul: C = A·B for CUDA tensors (float32, float64) through libtdisc_gemm (docs/gemm.md),
on the tensors' current stream; torch.matmul wherever the library is not used, and why (explain).

Importable without CUDA and without the library: it is loaded (ctypes) on the first CUDA call, from
TDISC_GEMM_LIBRARY, else this build's libtdisc_gemm (-DTDISC_GEMM=ON), else the loader's search path.
"""
import ctypes
import ctypes.util
import os
import threading

import torch

try:
    from . import _build
except ImportError:
    _build = None

__all__ = ["matmul", "explain", "library"]

_OP_N = 0  # CUBLAS_OP_N
_F32, _F64 = 0, 1  # tdisc_gemm_dtype_t


class _Plan(ctypes.Structure):  # tdisc_gemm_plan_t (codegen/gemm/include/tdisc/gemm_types.h)
    _fields_ = [("name", ctypes.c_char * 32), ("leaf", ctypes.c_int), ("group", ctypes.c_int),
                ("workspace_bytes", ctypes.c_size_t), ("tuned_speedup", ctypes.c_double), ("why", ctypes.c_char * 160)]


class _Library:
    """libtdisc_gemm through ctypes: one handle per device, its cuBLAS handle on the caller's stream."""

    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(path)
        self.handles = {}
        self.lock = threading.Lock()
        lib = self.lib
        lib.tdisc_gemm_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
        lib.tdisc_gemm_cublas.restype = ctypes.c_void_p
        lib.tdisc_gemm_cublas.argtypes = [ctypes.c_void_p]
        lib.tdisc_gemm_status_string.restype = ctypes.c_char_p
        lib.cublasSetStream_v2.argtypes = [ctypes.c_void_p, ctypes.c_void_p]  # found through the library's cuBLAS
        sizes = [ctypes.c_int64] * 3
        for name, scalar in (("tdisc_gemm_sgemm", ctypes.c_float), ("tdisc_gemm_dgemm", ctypes.c_double)):
            getattr(lib, name).argtypes = ([ctypes.c_void_p, ctypes.c_int, ctypes.c_int] + sizes +
                                           [ctypes.POINTER(scalar), ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                                            ctypes.c_int64, ctypes.POINTER(scalar), ctypes.c_void_p, ctypes.c_int64])
        lib.tdisc_gemm_choose.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int] + sizes + [
            ctypes.POINTER(_Plan)]

    def check(self, status):
        if status != 0:
            raise RuntimeError("libtdisc_gemm: " + self.lib.tdisc_gemm_status_string(status).decode())

    def handle(self, device):
        with self.lock:
            if device not in self.handles:
                h = ctypes.c_void_p()
                with torch.cuda.device(device):
                    self.check(self.lib.tdisc_gemm_create(ctypes.byref(h), None))
                self.handles[device] = h
            return self.handles[device]

    def plan(self, dtype, m, n, k, device):
        plan = _Plan()
        self.check(self.lib.tdisc_gemm_choose(self.handle(device), dtype, _OP_N, _OP_N, m, n, k, ctypes.byref(plan)))
        return plan

    def gemm(self, a, b):
        """Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the library gets (B, A) with m = N, n = M."""
        a, b = a.contiguous(), b.contiguous()
        (M, K), N = a.shape, b.shape[1]
        c = torch.empty((M, N), dtype=a.dtype, device=a.device)
        device = a.device.index if a.device.index is not None else torch.cuda.current_device()
        h = self.handle(device)
        self.lib.cublasSetStream_v2(self.lib.tdisc_gemm_cublas(h), ctypes.c_void_p(torch.cuda.current_stream(device).cuda_stream))
        scalar, call = (ctypes.c_float, self.lib.tdisc_gemm_sgemm) if a.dtype == torch.float32 else \
            (ctypes.c_double, self.lib.tdisc_gemm_dgemm)
        one, zero = scalar(1), scalar(0)
        with torch.cuda.device(device):
            self.check(call(h, _OP_N, _OP_N, N, M, K, ctypes.byref(one), b.data_ptr(), N, a.data_ptr(), K,
                            ctypes.byref(zero), c.data_ptr(), N))
        return c


_library = None
_library_error = None


def _library_path():
    env = os.environ.get("TDISC_GEMM_LIBRARY")
    if env:
        return env
    if _build is not None and _build.GEMM_LIBRARY:
        return _build.GEMM_LIBRARY
    return ctypes.util.find_library("tdisc_gemm")


def library():
    """The loaded libtdisc_gemm, or None (explain() says why)."""
    global _library, _library_error
    if _library is None and _library_error is None:
        path = _library_path()
        if not path:
            _library_error = ("libtdisc_gemm not found (build it with -DTDISC_GEMM=ON, or set TDISC_GEMM_LIBRARY "
                              "to its path)")
        else:
            try:
                _library = _Library(path)
            except (OSError, AttributeError) as e:
                _library_error = f"libtdisc_gemm at {path} cannot be loaded: {e}"
    return _library


def _refusal(a, b):
    """Why torch.matmul must do this product, or None when libtdisc_gemm can."""
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return "the operands are not both tensors"
    if a.dim() != 2 or b.dim() != 2:
        return f"operands of {a.dim()} and {b.dim()} dimensions; libtdisc_gemm multiplies matrices (2-D)"
    if a.shape[1] != b.shape[0]:
        return f"shapes {tuple(a.shape)} and {tuple(b.shape)} do not chain (torch.matmul says how)"
    if a.device.type != "cuda" or b.device.type != "cuda":
        return f"tensors on {a.device} and {b.device}; libtdisc_gemm runs on CUDA devices"
    if a.device != b.device:
        return f"tensors on two devices ({a.device}, {b.device})"
    if a.dtype != b.dtype or a.dtype not in (torch.float32, torch.float64):
        return f"dtypes {a.dtype} and {b.dtype}; libtdisc_gemm has float32 and float64 plans"
    if torch.is_grad_enabled() and (a.requires_grad or b.requires_grad):
        return "an operand requires grad; libtdisc_gemm has no backward"
    if library() is None:
        return _library_error
    return None


def explain(a, b):
    """What matmul(a, b) does and why: "libtdisc_gemm: plan s1 (…)" or "torch.matmul: <reason>"."""
    reason = _refusal(a, b)
    if reason is not None:
        return "torch.matmul: " + reason
    (M, K), N = a.shape, b.shape[1]
    device = a.device.index if a.device.index is not None else torch.cuda.current_device()
    plan = _library.plan(_F32 if a.dtype == torch.float32 else _F64, N, M, K, device)
    return f"libtdisc_gemm: plan {plan.name.decode()} ({plan.why.decode()})"


def matmul(a, b):
    """a @ b: through libtdisc_gemm for 2-D CUDA float32/float64 tensors (the library itself runs
    cuBLAS where no scheme pays), else torch.matmul; explain(a, b) says which and why."""
    if _refusal(a, b) is not None:
        return torch.matmul(a, b)
    return _library.gemm(a, b)
