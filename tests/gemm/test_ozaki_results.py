"""bench/ozaki_results.py: one device run's rounds into a result file — oz2 at its moduli against cuBLAS and
against GEMMul8's accurate mode at the fewest moduli whose error is at most cuBLAS's, a scheme level that
beat oz2 joined to oz2's row (and only then), the phases the log printed, and no ozaki-R.json refused."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "bench", "ozaki_results.py")


def row(variant, n, ms, **extra):
    r = {"dtype": "f64", "n": n, "input": "uniform", "variant": variant, "ms": ms, "moduli": 14,
         "speedup_vs_cublas": 160.0 / ms, "error_vs_cublas": 0.59}
    r.update(extra)
    return r


def g8(moduli, ms, err_ratio):
    return {"dtype": "f64", "n": 16384, "input": "uniform", "method": "gemmul8", "mode": "accurate",
            "moduli": moduli, "ms": ms, "err_ratio": err_ratio}


def main():
    d = tempfile.mkdtemp()
    ozaki = {"date": "2026-11-27T00:00:00Z", "gpu": "NVIDIA H200", "commit": "abc1234", "command": "tdisc_gemm_ozaki x",
             "cublas": 130100, "rows": [
                 row("cublas", 16384, 160.0), row("oz2", 16384, 100.0), row("oz2-s1", 16384, 110.0),
                 row("oz2", 16384, 90.0, sweep=True),  # a sweep row is not the table's plan
                 row("cublas", 32768, 1380.0), row("oz2", 32768, 765.0), row("oz2-s1", 32768, 740.0),
                 row("oz2-r48", 32768, 800.0)]}
    json.dump(ozaki, open(os.path.join(d, "ozaki-1.json"), "w"))
    json.dump({"rows": [g8(14, 115.0, 1.39), g8(15, 123.0, 0.02), g8(16, 130.0, 0.01)]},
              open(os.path.join(d, "gemmul8-1.json"), "w"))
    open(os.path.join(d, "ozaki.log"), "w").write(
        "tdisc_gemm oz2 16384x16384x16384, 14 moduli phases (ms): scaling 1.3, residues 5.4, INT8 products 87.1, "
        "reductions and C combinations 0.02, reconstruction 5.7\n")
    out = os.path.join(d, "result.json")
    r = subprocess.run([sys.executable, SCRIPT, d, "test", "--out", out], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    res = json.load(open(out))
    rows = {x["case"]: x for x in res["summary"]["rows"]}
    first = rows["f64 16384, round 1"]
    assert first["value"].startswith("oz2 14 moduli 100.0 ms, 1.600× cuBLAS"), first
    assert "oz2-s1" not in first["value"], first  # slower than oz2 there
    assert first["baseline"] == "GEMMul8 accurate 15 moduli 123.0 ms", first  # 14 moduli missed cuBLAS's error
    assert first["ratio"] == 1.23, first
    big = rows["f64 32768, round 1"]
    assert "; oz2-s1 740.0 ms" in big["value"] and "oz2-r48" not in big["value"], big
    assert "baseline" not in big, big  # no GEMMul8 at 32768
    assert res["phases"] == [{"plan": "oz2", "n": 16384, "moduli": 14, "ms": {
        "scaling": 1.3, "residues": 5.4, "INT8 products": 87.1, "reductions and C combinations": 0.02,
        "reconstruction": 5.7}}], res["phases"]
    assert res["commit"] == "abc1234" and res["machine"] == "NVIDIA H200"
    empty = tempfile.mkdtemp()
    r = subprocess.run([sys.executable, SCRIPT, empty, "test", "--out", os.path.join(empty, "x.json")],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "no ozaki-R.json" in r.stderr + r.stdout, r
    assert not os.path.exists(os.path.join(empty, "x.json"))
    print("ok")


if __name__ == "__main__":
    main()
