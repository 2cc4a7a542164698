#!/usr/bin/env bash
# bench/stage_libs.sh DIR BINARY…: copies the non-CUDA, non-libc shared libraries the binaries need
# into DIR/lib, so a GPU machine without our Debian packages runs them (LD_LIBRARY_PATH=DIR/lib).
set -euo pipefail
dir=${1:?stage directory}
shift
mkdir -p "$dir/lib"
for b in "$@"; do
  ldd "$b" | awk '/=> \// {print $3}' | grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*|libcu[^/]*|libnv[^/]*)\.so' |
    xargs -r -I{} cp -Lu {} "$dir/lib/"
done
