#!/usr/bin/env python3
"""One result file from a device run of bench/ozaki.sh rounds (issue 30): each round's tdisc_gemm_ozaki
(ozaki-R.json) and GEMMul8 (gemmul8-R.json), run back to back on one card, plus the phases the log
printed. Writes bench/results/ozaki-TAG-DATE.json with a summary for docs/PERFORMANCE.md:
per dtype and round, the emulated plan at the table's moduli against cuBLAS in the same process and
against GEMMul8's accurate mode at the fewest moduli whose error is at most cuBLAS's.

    bench/ozaki_results.py DIR TAG [--note TEXT] [--out FILE]
"""
import argparse
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_json import write_result  # noqa: E402

PHASES = re.compile(r"tdisc_gemm (\S+) (\d+)x\d+x\d+, (\d+) moduli phases \(ms\): (.*)")


def rounds(d):
    out = []
    for path in sorted(glob.glob(os.path.join(d, "ozaki-[0-9]*.json"))):
        r = re.search(r"ozaki-(\d+)\.json$", path).group(1)
        g = os.path.join(d, f"gemmul8-{r}.json")
        out.append((r, json.load(open(path)), json.load(open(g)) if os.path.exists(g) else None))
    return out


def oz2_row(oz, dtype, n):
    return next((x for x in oz["rows"] if x.get("dtype") == dtype and x.get("n") == n and x.get("input") == "uniform"
                 and x.get("variant") == "oz2" and not x.get("sweep")), None)


def level_rows(oz, dtype, n, ours):
    """The scheme levels (oz2-s1, …) that ran faster than oz2 on the same inputs."""
    return [x for x in oz["rows"] if x.get("dtype") == dtype and x.get("n") == n and x.get("input") == "uniform"
            and str(x.get("variant", "")).startswith("oz2-") and not x.get("sweep") and x["ms"] < ours["ms"]]


def gemmul8_accurate(g8, dtype, n):
    """GEMMul8's accurate mode at the fewest moduli whose error is at most cuBLAS's (its own run's)."""
    rows = [x for x in g8["rows"] if x.get("dtype") == dtype and x.get("n") == n and x.get("input") == "uniform"
            and x.get("method") == "gemmul8" and x.get("mode") == "accurate" and x.get("err_ratio", 9) <= 1]
    return min(rows, key=lambda x: x["moduli"]) if rows else None


def phases(log):
    out = []
    for line in open(log) if os.path.exists(log) else []:
        m = PHASES.search(line)
        if m:
            parts = dict((k.strip(), float(v)) for k, v in (p.rsplit(" ", 1) for p in m.group(4).split(", ")))
            out.append({"plan": m.group(1), "n": int(m.group(2)), "moduli": int(m.group(3)), "ms": parts})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--out", help="the result file (default: bench/results/ozaki-TAG-DATE.json)")
    ap.add_argument("tag")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    rs = rounds(a.dir)
    if not rs:
        sys.exit(f"ozaki_results: {a.dir}: no ozaki-R.json")
    first = rs[0][1]
    summary_rows = []
    for r, oz, g8 in rs:
        for dtype in ("f64", "f32"):
            for n in sorted({x["n"] for x in oz["rows"] if x.get("dtype") == dtype and x.get("input") == "uniform"}):
                ours = oz2_row(oz, dtype, n)
                if not ours:
                    continue
                row = {"case": f"{dtype} {n}, round {r}", "value": f"oz2 {ours['moduli']} moduli {ours['ms']:.1f} ms, "
                       f"{ours['speedup_vs_cublas']:.3f}× cuBLAS (error {ours['error_vs_cublas']:.3f}×)"}
                theirs = gemmul8_accurate(g8, dtype, n) if g8 else None
                if theirs:
                    row["baseline"] = f"GEMMul8 accurate {theirs['moduli']} moduli {theirs['ms']:.1f} ms"
                    row["ratio"] = round(theirs["ms"] / ours["ms"], 3)
                for lv in level_rows(oz, dtype, n, ours):  # a scheme level faster than oz2 at this size
                    row["value"] += f"; {lv['variant']} {lv['ms']:.1f} ms, {lv['speedup_vs_cublas']:.3f}× (same bits)"
                summary_rows.append(row)
    result = {
        "date": first["date"], "machine": first["gpu"], "commit": first["commit"],
        "command": "bench/ozaki.sh rounds of ozaki and gemmul8 (" + first["command"] + ")",
        "cublas": first.get("cublas"),
        "rounds": [{"round": r, "ozaki": oz, "gemmul8": g8} for r, oz, g8 in rs],
        "phases": phases(os.path.join(a.dir, "ozaki.log")),
        "note": "ratio: GEMMul8's time over ours (above 1: ours faster); same card, back to back, median of the reps"
                + (". " + a.note if a.note else ""),
    }
    write_result(result, a.out, os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                 f"ozaki-{a.tag}",
                 summary={"area": "Ozaki/emulation",
                          "title": f"Ozaki-II (oz2) at the tuned moduli beside cuBLAS and GEMMul8 on the {first['gpu']}",
                          "rows": summary_rows})


if __name__ == "__main__":
    main()
