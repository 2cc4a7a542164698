#!/usr/bin/env python3
"""tdisc.torch.matmul's speed-up over torch.matmul against libtdisc_gemm's own over cuBLAS (issue 31:
equal within 2 % at 16384, f32 and f64). Needs a CUDA device, PyTorch with CUDA and the library
(TDISC_GEMM_LIBRARY or a -DTDISC_GEMM=ON build). Writes bench/results/python-gemm-<date>.json.

    PYTHONPATH=build/release/python python3 bench/python_gemm.py [--sizes 16384] [--reps 10]
"""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import time

from bench_json import write_result  # bench/ is on sys.path when run as bench/NAME.py

import torch

import tdisc.torch as tt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cuda_ms(f, reps):
    """Median milliseconds of f() over reps calls, after one warm-up, by CUDA events."""
    f()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        f()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def library_ms(lib, dtype, n, reps):
    """libtdisc_gemm's own timing (tdisc_gemm_time): its chosen plan and cuBLAS, median ms."""
    plan = lib.plan(dtype, n, n, n, torch.cuda.current_device())
    h = lib.handle(torch.cuda.current_device())
    lib.lib.tdisc_gemm_time.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                                        ctypes.c_int64, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
    planned, cublas = ctypes.c_double(), ctypes.c_double()
    lib.check(lib.lib.tdisc_gemm_time(h, dtype, ctypes.byref(plan), n, n, n, reps, ctypes.byref(planned)))
    lib.check(lib.lib.tdisc_gemm_time(h, dtype, None, n, n, n, reps, ctypes.byref(cublas)))
    return plan.name.decode(), planned.value, cublas.value


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="16384")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if not torch.cuda.is_available() or tt.library() is None:
        sys.exit("python_gemm: needs a CUDA device and libtdisc_gemm (" + (tt._library_error or "no CUDA device") + ")")
    lib = tt.library()
    rows = []
    for n in map(int, a.sizes.split(",")):
        for dtype, code in ((torch.float32, 0), (torch.float64, 1)):
            x = torch.randn(n, n, dtype=dtype, device="cuda")
            y = torch.randn(n, n, dtype=dtype, device="cuda")
            torch_ms = cuda_ms(lambda: torch.matmul(x, y), a.reps)
            tdisc_ms = cuda_ms(lambda: tt.matmul(x, y), a.reps)
            plan, plan_ms, cublas_ms = library_ms(lib, code, n, a.reps)
            row = {"n": n, "dtype": str(dtype).replace("torch.", ""), "plan": plan, "torch_matmul_ms": torch_ms,
                   "tdisc_torch_matmul_ms": tdisc_ms, "library_plan_ms": plan_ms, "library_cublas_ms": cublas_ms,
                   "speedup_python": torch_ms / tdisc_ms, "speedup_library": cublas_ms / plan_ms}
            row["python_over_library"] = row["speedup_python"] / row["speedup_library"]
            rows.append(row)
            print(f"{n} {row['dtype']}: plan {plan}; torch.matmul {torch_ms:.1f} ms, tdisc.torch.matmul {tdisc_ms:.1f} ms "
                  f"({row['speedup_python']:.3f}x); library {cublas_ms:.1f} -> {plan_ms:.1f} ms "
                  f"({row['speedup_library']:.3f}x); ratio {row['python_over_library']:.3f} (issue 31: within 2 %)")
            del x, y
            torch.cuda.empty_cache()
    commit = os.environ.get("TDISC_COMMIT") or subprocess.run(
        ["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip() or "nogit"
    result = {"benchmark": "python-gemm", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": commit,
              "machine": {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "nproc": os.cpu_count()},
              "command": "bench/python_gemm.py " + " ".join(sys.argv[1:]), "library": lib.path, "results": rows}
    summary = {"area": "Python", "title": "tdisc.torch.matmul against torch.matmul (bench/python_gpu.sh)",
               "rows": [{"case": "%s %d" % (r["dtype"].replace("float", "f"), r["n"]),
                         "value": "%.3f× over torch.matmul" % r["speedup_python"],
                         "baseline": "the library over cuBLAS: %.3f×" % r["speedup_library"]} for r in rows]}
    write_result(result, a.out, ROOT, "python-gemm", summary=summary)


if __name__ == "__main__":
    main()
