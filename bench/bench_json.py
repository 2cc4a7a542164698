"""A benchmark's result JSON under bench/results/: the schema docs/PERFORMANCE.md is generated from
(bench/README.md describes it), its checks, and writing a file (to a temporary name, then renamed)."""
import json
import os
import time

SCHEMA = "tdisc-bench/1"
# Top-level fields every schema'd result has; each but `summary` is a non-empty string ("words").
REQUIRED = ("schema", "date", "machine", "commit", "command", "summary")
SUMMARY_REQUIRED = ("area", "title", "rows")
# The areas of the page, in its order; a result may name another (it comes after these, sorted).
AREAS = ("Building", "Verification", "Flip graph", "Recipes", "Numeric", "GPU numeric", "Symmetric ansätze", "GPU kernels",
         "GEMM", "Ozaki/emulation", "Python", "Campaign", "MPI", "LLM", "Reports")
CELL_TYPES = (str, int, float, bool, type(None))


def problems(doc):
    """What a schema'd result lacks, as short phrases ("no `machine`"); empty when it conforms."""
    if not isinstance(doc, dict):
        return ["not a JSON object"]
    out = []
    for key in REQUIRED:
        if key not in doc:
            out.append("no `%s`" % key)
        elif key != "summary" and not (isinstance(doc[key], str) and doc[key].strip()):
            out.append("`%s` is not words (a non-empty string)" % key)
    if "schema" in doc and isinstance(doc["schema"], str) and doc["schema"] != SCHEMA:
        out.append("`schema` is %r, not %r" % (doc["schema"], SCHEMA))
    summary = doc.get("summary")
    if "summary" in doc and not isinstance(summary, dict):
        return out + ["`summary` is not an object"]
    if isinstance(summary, dict):
        out += summary_problems(summary)
    return out


def summary_problems(summary):
    out = []
    for key in SUMMARY_REQUIRED:
        if key not in summary:
            out.append("no `summary.%s`" % key)
    for key in ("area", "title", "note"):
        if key in summary and not (isinstance(summary[key], str) and summary[key].strip()):
            out.append("`summary.%s` is not words (a non-empty string)" % key)
    rows = summary.get("rows")
    if "rows" in summary and not (isinstance(rows, list) and rows):
        out.append("`summary.rows` is not a non-empty list")
    elif isinstance(rows, list):
        for i, row in enumerate(rows):
            if not isinstance(row, dict) or not row:
                out.append("`summary.rows[%d]` is not a non-empty object" % i)
            elif not all(isinstance(v, CELL_TYPES) for v in row.values()):
                out.append("`summary.rows[%d]` is not flat (a value is a list or an object)" % i)
    return out


def machine_words(machine):
    """A machine recorded as an object ({"cpu": …, "cores": 2}) in words: "cpu …, cores 2"."""
    if isinstance(machine, dict):
        return ", ".join("%s %s" % (k, v) for k, v in machine.items())
    return machine


def conform(result, area, title, rows, note=None):
    """RESULT with the schema's fields: `schema` first, `machine` in words (an object moves to
    `machine_detail`), a script's own `summary` moved to `runs_summary`, and the page's `summary`."""
    out = {"schema": SCHEMA}
    for key, value in result.items():
        if key == "summary":
            out["runs_summary"] = value
        elif key == "machine" and isinstance(value, dict):
            out["machine"] = machine_words(value)
            out["machine_detail"] = value
        else:
            out[key] = value
    out["summary"] = {"area": area, "title": title, "rows": rows}
    if note:
        out["summary"]["note"] = note
    return out


def write_result(result, out, root, stem, summary=None):
    """out: the path asked for, or None for bench/results/<stem>-<UTC date>.json under root.
    summary: {"area", "title", "rows"[, "note"]} for docs/PERFORMANCE.md; with it the file follows
    the schema, and a result that misses a field is refused (nothing is written)."""
    out = out or os.path.join(root, "bench", "results", stem + "-" + time.strftime("%Y-%m-%d", time.gmtime()) + ".json")
    if summary is not None:
        result = conform(result, summary["area"], summary["title"], summary["rows"], summary.get("note"))
        missing = problems(result)
        if missing:
            raise SystemExit("tdisc: %s: %s" % (out, "; ".join(missing)))
    with open(out + ".tmp", "w") as f:
        json.dump(result, f, indent=2, ensure_ascii=False)
        f.write("\n")
    os.replace(out + ".tmp", out)
    print("wrote " + os.path.relpath(out, root))
