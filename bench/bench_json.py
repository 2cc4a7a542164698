"""Writing a benchmark's result JSON under bench/results/ (to a temporary name, then renamed)."""
import json
import os
import time


def write_result(result, out, root, stem):
    """out: the path asked for, or None for bench/results/<stem>-<UTC date>.json under root."""
    out = out or os.path.join(root, "bench", "results", stem + "-" + time.strftime("%Y-%m-%d", time.gmtime()) + ".json")
    with open(out + ".tmp", "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    os.replace(out + ".tmp", out)
    print("wrote " + os.path.relpath(out, root))
