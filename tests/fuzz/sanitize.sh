#!/bin/sh
# The sanitizer build of CI: configures the fuzz preset (clang, ASan+UBSan) in build/fuzz, builds
# only the readers, the verifier, fuzz_replay and tests_sanitized (their fast Catch2 tests), then runs
# them: the committed fuzz corpus of every reader, and the fast tests of the readers and the verifier
# (the property tests at a tenth of their trials: ASan slows GMP about tenfold). Exit 77
# (skipped) when clang is missing; any sanitizer report fails the test.
set -eu
src=${1:?usage: sanitize.sh SOURCE_DIR}
command -v clang++ >/dev/null 2>&1 || { echo "sanitize.sh: clang++ not found: skipped"; exit 77; }
cd "$src"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j2 --target fuzz_replay tests_sanitized
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for format in native exp maple fmm-mpl perminov-json fast-matmul flip-cpd alphaevolve-ipynb alphatensor-npz gzip; do
  dirs="tests/fuzz/corpus/$format"
  [ -d "tests/fuzz/crashes/$format" ] && dirs="$dirs tests/fuzz/crashes/$format"
  build/fuzz/tests/fuzz/targets/fuzz_replay "$format" $dirs
done
TDISC_PROPERTY_SCALE=0.1 build/fuzz/tests/fuzz/targets/tests_sanitized "~[slow]~[.]"
