#!/usr/bin/env bash
# Installs the Debian packages tdisc builds with, if any is missing (idempotent; root or sudo).
# Why each: Eigen (exact-scalar linear algebra), Boost.Program_options (CLI), nlohmann/json (files),
# libcurl (LLM client), Catch2 (tests), GMP (exact rationals: faster and safer than hand-rolled
# bignums), OpenSSL's libcrypto (sha256 of schemes), zlib (reading .npz archives), simdjson (the report reads
# events.jsonl of a million lines within its time budget), Open MPI (distributed
# search), clang + libFuzzer (fuzzing harness), Chromium (headless browser tests of reports), ccache
# (rebuilds across worktrees and presets reuse objects; used only when present).
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config git libeigen3-dev libboost-program-options-dev libboost-dev
          nlohmann-json3-dev libcurl4-openssl-dev libssl-dev catch2 libgmp-dev zlib1g-dev libsimdjson-dev
          libopenmpi-dev openmpi-bin clang libfuzzer-14-dev chromium ccache)
# The Python package (python/, docs/python.md) and its tests: pybind11 and the headers of Debian's
# python3 to build it; NumPy (schemes as arrays) and CPU PyTorch (tdisc.torch) to test it.
packages+=(pybind11-dev python3-dev python3-numpy python3-torch)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "deps.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
