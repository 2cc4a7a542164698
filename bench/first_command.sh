#!/usr/bin/env bash
# bench/first_command.sh — the README's first command, timed from a fresh clone (issue 28, item 6:
# at most 8 minutes from a fresh 2-core machine to the search result). Clones this repository's HEAD
# into a temporary folder, runs the command the README's code block gives after "# 1." there with
# ccache off (a fresh machine has no cache; the Debian packages it installs are whatever this machine
# lacks: none, where they are installed), and writes the wall, user and system seconds, the load
# before and after and the search's last line to bench/results/first-command-<UTC date>.json (or
# $OUT/first-command.json). Exits 1 when the command fails.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$ROOT" "$work/tdisc"
command=$(awk '/^# 1\./ {getline; print; exit}' "$ROOT/README.md")
[ -n "$command" ] || { echo "first_command: no command after '# 1.' in README.md" >&2; exit 1; }
echo "first_command: $command"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%FT%TZ)
status=0
(cd "$work/tdisc" && CCACHE_DISABLE=1 /usr/bin/time -f "%e %U %S" -o "$work/time" bash -c "$command" >"$work/log" 2>&1) || status=$?
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
tail -n 3 "$work/log"
read -r wall user sys <"$work/time" || true
out=${OUT:+$OUT/first-command.json}
out=${out:-$ROOT/bench/results/first-command-$(date -u +%F).json}
python3 - "$out" "$started" "$(git -C "$ROOT" rev-parse HEAD)" "$command" "${wall:-0}" "${user:-0}" "${sys:-0}" \
  "$load_before" "$load_after" "$status" "$(tail -n 1 "$work/log")" "$(nproc)" <<'EOF'
import json, platform, sys
out, started, commit, command, wall, user, sys_s, lb, la, status, last, cores = sys.argv[1:]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
row = {"benchmark": "first-command", "date": started, "machine": f"{cores} cores, {cpu}", "commit": commit,
       "command": "bench/first_command.sh", "measured_command": command, "ccache": "off",
       "wall_s": float(wall), "user_s": float(user), "sys_s": float(sys_s), "load_before": lb, "load_after": la,
       "exit": int(status), "last_line": last}
json.dump(row, open(out, "w"), indent=1)
print(f"first_command: {float(wall):.0f} s wall, {float(user) + float(sys_s):.0f} s CPU, exit {status}: {out}")
EOF
exit $((status != 0))
