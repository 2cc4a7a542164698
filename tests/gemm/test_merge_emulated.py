"""codegen/gemm/plans/merge_emulated.py: tuned emulated entries replace the same shapes' emulated entries of
the default tables, native entries stay, other shapes keep theirs, a new GPU gets a table, the note names
the source, and bad input leaves the tables untouched with a non-zero exit."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "codegen", "gemm", "plans", "merge_emulated.py")


def entry(m, plan, speedup, emulated=False, moduli=None):
    e = {"m": m, "n": m, "k": m, "plan": plan, "speedup": speedup, "ms": 1.0, "cublas_ms": speedup, "leaf": "separate"}
    if emulated:
        e["accuracy"] = "emulated"
        if moduli:
            e["moduli"] = moduli
    return e


def run(tune, tables):
    d = tempfile.mkdtemp()
    tp, pp = os.path.join(d, "tune.json"), os.path.join(d, "tables.json")
    json.dump(tune, open(tp, "w"))
    json.dump(tables, open(pp, "w"))
    r = subprocess.run([sys.executable, SCRIPT, tp, "--tables", pp, "--source", "bench/results/x.json"],
                       capture_output=True, text=True)
    return r, json.load(open(pp))


def main():
    gpu = "NVIDIA H100 80GB HBM3"
    tables = {"note": "n", "tables": [{"gpu": gpu, "dtype": "f64", "cublas": 1, "entries": [
        entry(4096, "r48m", 1.3), entry(4096, "cublas", 1.0, True),
        entry(16384, "r48m", 1.37), entry(16384, "oz2", 1.37, True, 15),
        entry(32768, "oz2", 1.6, True, 15)]}]}
    tune = {"command": "tdisc tune --emulated oz2", "date": "D", "tables": [
        {"gpu": gpu, "dtype": "f64", "cublas": 1, "entries": [
            entry(16384, "s1", 1.1), entry(16384, "oz2", 1.55, True, 14), entry(8192, "oz2", 1.2, True, 14)]},
        {"gpu": "NVIDIA H200", "dtype": "f32", "cublas": 1, "entries": [entry(4096, "oz2", 1.4, True, 7)]}]}
    r, out = run(tune, tables)
    assert r.returncode == 0, r.stderr
    h100 = next(t for t in out["tables"] if t["gpu"] == gpu)
    got = [(e["m"], e["plan"], e.get("accuracy", "native"), e.get("moduli")) for e in h100["entries"]]
    assert got == [(4096, "r48m", "native", None), (4096, "cublas", "emulated", None),
                   (16384, "r48m", "native", None), (16384, "oz2", "emulated", 14),
                   (32768, "oz2", "emulated", 15), (8192, "oz2", "emulated", 14)], got
    h200 = next(t for t in out["tables"] if t["gpu"] == "NVIDIA H200")
    assert [e["moduli"] for e in h200["entries"]] == [7]
    assert "bench/results/x.json" in out["note"] and "tdisc tune --emulated oz2" in out["note"]
    # no emulated entries, or not a table: refused, the tables unchanged
    for bad in ({"tables": [{"gpu": gpu, "dtype": "f64", "cublas": 1, "entries": [entry(4096, "s1", 1.1)]}]}, {"x": 1}):
        r, after = run(bad, tables)
        assert r.returncode != 0 and r.stderr.startswith("tdisc: ") and ":1: " in r.stderr, r.stderr
        assert after == tables
    print("merge_emulated: ok")


if __name__ == "__main__":
    main()
