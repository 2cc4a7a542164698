#!/usr/bin/env bash
# bench/fresh_debian.sh [--apt-only]: the README's first command on a fresh Debian 12 (issue 28, item 6:
# at most 8 minutes from a fresh machine to the search result, apt included). Builds a minimal root
# with mmdebstrap (variant apt, plus ca-certificates and sudo; kept in $ROOTFS, default
# /tmp/tdisc-fresh-bookworm, and copied for each run so every run starts bare), clones this
# repository's HEAD into it, and times inside a chroot either the whole "# 1." command of README.md
# (ccache off) or, with --apt-only, its first step (scripts/deps.sh --run). Writes
# bench/results/fresh-debian-<what>-<UTC date>.json. Needs root, mmdebstrap and the Debian mirror.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-all}
[ "$(id -u)" -eq 0 ] || { echo "fresh_debian: needs root (chroot)" >&2; exit 1; }
command -v mmdebstrap >/dev/null || { echo "fresh_debian: needs mmdebstrap (apt-get install mmdebstrap)" >&2; exit 1; }
base=${ROOTFS:-/tmp/tdisc-fresh-bookworm}
[ -d "$base/usr" ] || mmdebstrap --variant=apt --include=ca-certificates,sudo bookworm "$base" http://deb.debian.org/debian
work=$(mktemp -d)
cleanup() { umount "$work/root/proc" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cp -a "$base" "$work/root"
cp /etc/resolv.conf "$work/root/etc/"
mount -t proc proc "$work/root/proc"
git clone -q "$ROOT" "$work/root/root/tdisc"
first=$(awk '/^# 1\./ {getline; print; exit}' "$ROOT/README.md")
if [ "$mode" = --apt-only ]; then what=apt; command="scripts/deps.sh --run"; else what=first-command; command=$first; fi
echo "fresh_debian: $command"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%FT%TZ)
status=0
/usr/bin/time -f "%e" -o "$work/time" chroot "$work/root" bash -c "cd /root/tdisc && CCACHE_DISABLE=1 $command" >"$work/log" 2>&1 || status=$?
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
tail -n 3 "$work/log"
packages=$(chroot "$work/root" dpkg-query -W -f='.\n' | wc -l)
out=$ROOT/bench/results/fresh-debian-$what-$(date -u +%F).json
python3 - "$out" "$ROOT" "$started" "$(git -C "$ROOT" rev-parse --short HEAD)" "$command" "$(cat "$work/time")" \
  "$load_before" "$load_after" "$status" "$(tail -n 1 "$work/log")" "$(nproc)" "$packages" "$what" <<'PY'
import os, platform, sys
out, root, started, commit, command, wall, lb, la, status, last, cores, packages, what = sys.argv[1:]
sys.path.insert(0, os.path.join(root, "bench"))
from bench_json import write_result
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
wall = float(wall)
result = {"date": started, "machine": f"VM ({cores} cores, {cpu}), load {lb} before, {la} after; a fresh Debian 12 chroot",
          "commit": commit, "command": "bench/fresh_debian.sh" + (" --apt-only" if what == "apt" else ""),
          "measured_command": command, "wall_s": wall, "exit": int(status), "packages_after": int(packages), "last_line": last}
title = ("scripts/deps.sh --run on a fresh Debian 12 (bench/fresh_debian.sh --apt-only)" if what == "apt"
         else "the README's first command on a fresh Debian 12, apt included (bench/fresh_debian.sh)")
value = f"{int(wall // 60)} min {wall % 60:.0f} s wall, exit {status}, {packages} packages after"
write_result(result, out, root, "fresh-debian", summary={"area": "Building", "title": title,
             "rows": [{"case": "wall clock", "value": value}]})
print(f"fresh_debian: {wall:.0f} s wall, exit {status}: {out}")
PY
exit $((status != 0))
