#!/usr/bin/env python3
"""Overhead of tdisc from Python (issue 31): verifying the catalogue's 6x6x6:153 built from NumPy arrays
(tdisc.Scheme(U, V, W) then tdisc.verify) against what `tdisc verify FILE` does in process (read the
native file, verify: tdisc.verify(tdisc.read(FILE)), the same C++ calls), against verify() alone on a
built Scheme (the cost of the conversion), bench_verify (the C++ verifier in its own process) and
`tdisc verify` end to end. Prints the numbers and
writes bench/results/python-verify-<date>.json.

    cmake --build build/ci --target tdisc tdisc_python bench_verify
    PYTHONPATH=build/ci/python /usr/bin/python3 bench/python_verify.py --build build/ci [--repeat 20]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

from bench_json import write_result  # bench/ is on sys.path when run as bench/NAME.py

import numpy as np

import tdisc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEME = os.path.join(ROOT, "algorithms", "6x6x6", "r153-ZT-7d17d570.json")


def interleaved(variants, rounds):
    """Each round runs every variant once, in turn, so a busy machine slows them alike; min and median."""
    times = {name: [] for name in variants}
    for _ in range(rounds):
        for name, f in variants.items():
            t0 = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - t0)
    return {name: {"min_s": min(t), "median_s": statistics.median(t), "max_s": max(t)} for name, t in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build/ci", help="the build folder with tdisc and bench_verify")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--out", default=None, help="results file [default: bench/results/python-verify-<date>.json]")
    a = ap.parse_args()
    scheme = tdisc.read(SCHEME)
    U, V, W = (np.ascontiguousarray(x, dtype=np.int64) for x in (scheme.u, scheme.v, scheme.w))  # R × 36 each

    def from_arrays():  # what a notebook does: its arrays → Scheme → exact verification
        assert tdisc.verify(tdisc.Scheme(U, V, W, ring="ZT")).valid

    def verify_only():  # the C++ verify() on a Scheme already built (the binding's call costs microseconds)
        assert tdisc.verify(scheme).valid

    def read_and_verify():  # what tdisc verify FILE does in process: parse the native file, verify
        assert tdisc.verify(tdisc.read(SCHEME)).valid

    py = interleaved({"from_arrays": from_arrays, "verify_only": verify_only, "read_and_verify": read_and_verify},
                     a.repeat)
    bench = subprocess.run([os.path.join(a.build, "bench_verify"), SCHEME, str(a.repeat)], capture_output=True,
                           text=True, check=True)
    cpp = json.loads(bench.stdout)
    cli = interleaved({"cli": lambda: subprocess.run([os.path.join(a.build, "tdisc"), "verify", SCHEME],
                                                     capture_output=True, check=True)}, max(3, a.repeat // 4))["cli"]
    vs_cli_in_process = py["from_arrays"]["median_s"] / py["read_and_verify"]["median_s"]
    vs_verify = py["from_arrays"]["median_s"] / py["verify_only"]["median_s"]
    for name, what in (("from_arrays", "from NumPy arrays (Scheme + verify)"),
                       ("read_and_verify", "tdisc verify in process (read + verify)"),
                       ("verify_only", "verify() alone, Scheme built")):
        print(f"6x6x6:153 {what:42s} min {py[name]['min_s']:.4f} s, median {py[name]['median_s']:.4f} s")
    print(f"bench_verify (C++ process): verify median {cpp['verify_median_s']:.4f} s, read {cpp['read_s']:.4f} s")
    print(f"tdisc verify end to end (a process): median {cli['median_s']:.4f} s")
    print(f"from arrays / tdisc verify in process: {vs_cli_in_process:.3f}x (issue 31: at most 1.2x)")
    print(f"from arrays / verify() alone: {vs_verify:.3f}x (the cost of the conversion)")
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "nogit"
    dirty = bool(subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True).stdout.strip())
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               "unknown")
    result = {
        "benchmark": "python-verify",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": commit, "dirty": dirty,
        "machine": {"uname": " ".join(platform.uname()[i] for i in (0, 2, 4)), "nproc": os.cpu_count(), "cpu": cpu,
                    "python": sys.version.split()[0], "numpy": np.__version__},
        "command": "bench/python_verify.py " + " ".join(sys.argv[1:]),
        "scheme": os.path.relpath(SCHEME, ROOT),
        "repeat": a.repeat,
        "rounds": "interleaved: each round runs from_arrays, verify_only, read_and_verify once",
        "python": py,
        "bench_verify": cpp,
        "cli_end_to_end": cli,
        "ratio_from_arrays_to_tdisc_verify_in_process": vs_cli_in_process,
        "ratio_from_arrays_to_verify_only": vs_verify,
    }
    rows = [{"case": "6x6x6:153 " + what, "value": "median %.4f s (min %.4f s)" % (py[name]["median_s"], py[name]["min_s"])}
            for name, what in (("from_arrays", "from NumPy arrays (Scheme + verify)"),
                               ("read_and_verify", "tdisc verify in process (read + verify)"),
                               ("verify_only", "verify() alone, Scheme built"))]
    rows.append({"case": "from arrays against tdisc verify in process", "ratio": "%.3f×" % vs_cli_in_process})
    write_result(result, a.out, ROOT, "python-verify",
                 summary={"area": "Python", "title": "verifying from NumPy arrays (bench/python_verify.py)", "rows": rows})


if __name__ == "__main__":
    main()
