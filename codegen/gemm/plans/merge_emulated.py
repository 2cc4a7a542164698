#!/usr/bin/env python3
"""Merge the emulated entries of a `tdisc tune --emulated` output into the default plan tables.

    codegen/gemm/plans/merge_emulated.py TUNE.json [--tables codegen/gemm/plans/default_tables.json]
                                         [--source bench/results/NAME.json]

For every table of TUNE.json (one GPU model, cuBLAS version and dtype), the default table of the same
GPU and dtype takes the tuned emulated entries in place of its own for the same shapes (other shapes keep
theirs); its native entries stay as they are (a tune run with a library of few plans must not overwrite
them). A GPU or dtype with no default table
gets a new table holding the emulated entries only (native calls then use the nearest table's rules:
cuBLAS). The tables' note gains one sentence naming the tune command, its date and the source file.
Written through a temporary file and renamed.
"""
import argparse
import json
import os
import sys
import tempfile


def emulated(entry):
    return entry.get("accuracy") == "emulated"


def merge(tables, tune, source):
    by_key = {(t["gpu"], t["dtype"]): t for t in tables["tables"]}
    changed = []
    for t in tune["tables"]:
        new = [e for e in t["entries"] if emulated(e)]
        if not new:
            continue
        key = (t["gpu"], t["dtype"])
        target = by_key.get(key)
        if target is None:
            target = {"cublas": t["cublas"], "dtype": t["dtype"], "gpu": t["gpu"], "entries": []}
            tables["tables"].append(target)
            by_key[key] = target
        shape = lambda e: (e["m"], e["n"], e["k"])
        tuned = {shape(e): e for e in new}
        replaced = set(tuned)
        entries = []
        for e in target["entries"]:  # native entries kept in place, each followed by its shape's emulated one
            if emulated(e) and shape(e) in replaced:
                continue
            entries.append(e)
            if not emulated(e) and shape(e) in tuned:
                entries.append(tuned.pop(shape(e)))
        target["entries"] = entries + list(tuned.values())
        changed.append(f"{t['gpu']} {t['dtype']}")
    if not changed:
        return []
    tables["note"] += (f"; the emulated entries of {', '.join(changed)} replaced from {tune.get('command', 'tdisc tune')} "
                       f"on {tune.get('date', '?')}" + (f" ({source})" if source else ""))
    return changed


def read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as err:
        sys.exit(f"tdisc: {path}: {err.strerror}")
    except json.JSONDecodeError as err:
        sys.exit(f"tdisc: {path}:{err.lineno}: {err.msg}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tune")
    ap.add_argument("--tables", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "default_tables.json"))
    ap.add_argument("--source", default="")
    a = ap.parse_args()
    tune, tables = read(a.tune), read(a.tables)
    if not isinstance(tune, dict) or "tables" not in tune:
        sys.exit(f"tdisc: {a.tune}:1: not a plan table (no \"tables\")")
    changed = merge(tables, tune, a.source)
    if not changed:
        sys.exit(f"tdisc: {a.tune}:1: no emulated entries to merge")
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(a.tables)), suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(tables, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, a.tables)
    print("merged: " + ", ".join(changed))


if __name__ == "__main__":
    main()
