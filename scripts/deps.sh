#!/usr/bin/env bash
# Installs the Debian packages tdisc builds with, if any is missing (idempotent; root or sudo).
#   scripts/deps.sh --run    what building and running a search needs (the README's first command)
#   scripts/deps.sh --test   --run, plus what the test suite needs
#   scripts/deps.sh --all    --test, plus MPI, fuzzing and the headless browser (the default: CI)
# Why each:
#   run:  cmake, ninja, g++, pkg-config; git (the version stamp); Eigen (exact-scalar linear algebra),
#         Boost.Program_options (CLI), nlohmann/json (files), libcurl (LLM client), GMP (exact
#         rationals: faster and safer than hand-rolled bignums), OpenSSL's libcrypto (sha256 of
#         schemes), zlib (reading .npz archives), simdjson (the report reads events.jsonl of a
#         million lines within its time budget).
#   test: Catch2 (tests), python3 (runs the exported Python script, formats_python), ccache
#         (rebuilds across worktrees and presets reuse objects; used only when present).
#   all:  Open MPI (distributed search), clang + libFuzzer (fuzzing harness), Chromium (headless
#         browser tests of reports).
set -euo pipefail
run=(cmake ninja-build g++ pkg-config git libeigen3-dev libboost-program-options-dev libboost-dev
     nlohmann-json3-dev libcurl4-openssl-dev libssl-dev libgmp-dev zlib1g-dev libsimdjson-dev)
# The Python package (python/, docs/python.md) and its tests: pybind11 and the headers of Debian's
# python3 to build it; NumPy (schemes as arrays) and CPU PyTorch (tdisc.torch) to test it.
test=(catch2 python3 ccache pybind11-dev python3-dev python3-numpy python3-torch)
all=(libopenmpi-dev openmpi-bin clang libfuzzer-14-dev chromium)
# The run tier skips recommended packages (git's ssh client and less, cmake's make, g++'s manuals):
# a search builds with Ninja and needs none of them (on a fresh Debian 12: 50 fewer packages, apt's
# part of the first command 3 min 0 s instead of 3 min 10 s).
recommends=()
case "${1:---all}" in
  --run) packages=("${run[@]}"); recommends=(--no-install-recommends) ;;
  --test) packages=("${run[@]}" "${test[@]}") ;;
  --all) packages=("${run[@]}" "${test[@]}" "${all[@]}") ;;
  *) echo "deps.sh: unknown tier '$1' (use --run, --test or --all)" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "deps.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${recommends[@]}" "${missing[@]}" >/dev/null
fi
