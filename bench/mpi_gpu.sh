#!/usr/bin/env bash
# bench/mpi_gpu.sh — the numeric engine with one MPI rank per GPU (issue 12): restarts per second with
# N=1 (one process, GPU 0) and N=2 (mpirun -np 2, rank k on GPU k) on a two-GPU host (nvidia-h200-x2).
# The device machine has no Open MPI, so three modes:
#   bench/mpi_gpu.sh --stage [BUILD_DIR]  here: copies tdisc, its libraries, and Open MPI's runtime
#                                         (mpirun/orterun/orted, libraries, MCA plugins, PMIx plugins,
#                                         help files) into STAGE (default /work/main/.stage-mpi);
#   bench/mpi_gpu.sh --selftest           here: runs mpirun -np 2 from STAGE with the system Open MPI
#                                         hidden (unshare -m, bind mounts), a 2-rank numeric CPU search;
#   bench/mpi_gpu.sh                      on the device, in the repository root: N=1 then N=2, writes
#                                         $OUT/mpi-gpu.json and the logs (STAGE default .stage-mpi).
# Environment: SECONDS_EACH (90), TARGET ("--size 4x4 --rank 48 --ring Q"), DEVICE_ARGS ("--device cuda"),
#              THREADS (4 per rank), SEED (1).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mode=${1:-run}
ompi_lib=/usr/lib/x86_64-linux-gnu/openmpi
pmix_dir=/usr/lib/x86_64-linux-gnu/pmix2

# Shared libraries of the given files, less the C library (present everywhere) and the CUDA
# driver/toolkit libraries, which the device machine has and which are too large to carry.
deps() {
  ldd "$@" 2>/dev/null | awk '/=> \// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libpthread|libdl|librt|libresolv|ld-linux[^/]*)\.so|/lib(cuda|cublas|cublasLt|cusolver|cusparse|cudart|nvidia-[a-z-]*|nvJitLink)\.so'
}

# The environment that makes the staged Open MPI find itself (installdirs "env" component, PMIx prefix).
stage_env() {
  local s=$1
  export OPAL_PREFIX=$s/ompi OPAL_EXEC_PREFIX=$s/ompi OPAL_BINDIR=$s/ompi/bin OPAL_LIBDIR=$s/ompi/lib \
    OPAL_PKGLIBDIR=$s/ompi/lib/openmpi3 OPAL_DATAROOTDIR=$s/ompi/share OPAL_DATADIR=$s/ompi/share \
    OPAL_PKGDATADIR=$s/ompi/share/openmpi OPAL_SYSCONFDIR=$s/ompi/etc OPAL_LIBEXECDIR=$s/ompi/bin
  export PMIX_INSTALL_PREFIX=$s/pmix PMIX_MCA_mca_base_component_path=$s/pmix/lib/pmix
  export PATH=$s/ompi/bin:$s:${PATH:-/usr/bin:/bin} LD_LIBRARY_PATH=$s/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_pml=ob1 OMPI_MCA_mtl=^ofi,psm,psm2 OMPI_MCA_osc=^ucx OMPI_MCA_btl_tcp_if_include=lo
}

if [ "$mode" = "--stage" ]; then
  set -e
  build=${2:-build/ci}
  s=${STAGE:-/work/main/.stage-mpi}
  rm -rf "$s" && mkdir -p "$s/lib" "$s/ompi/bin" "$s/ompi/lib/openmpi3" "$s/ompi/share" "$s/ompi/etc" "$s/pmix/lib/pmix" "$s/pmix/share"
  cp "$build/tdisc" "$s/tdisc"
  cp /usr/bin/orterun "$s/ompi/bin/orterun" && cp /usr/bin/orterun "$s/ompi/bin/mpirun" && cp /usr/bin/orted "$s/ompi/bin/orted"
  cp "$ompi_lib"/lib/openmpi3/*.so "$s/ompi/lib/openmpi3/"
  cp -r /usr/share/openmpi "$s/ompi/share/openmpi"
  cp /etc/openmpi/openmpi-mca-params.conf "$s/ompi/etc/" 2>/dev/null || true
  cp "$pmix_dir"/lib/pmix/*.so "$s/pmix/lib/pmix/"
  [ -d "$pmix_dir/share/pmix" ] && cp -r "$pmix_dir/share/pmix" "$s/pmix/share/pmix"
  deps "$s/tdisc" "$s"/ompi/bin/* "$s"/ompi/lib/openmpi3/*.so "$s"/pmix/lib/pmix/*.so | xargs -r -I{} cp -Lu {} "$s/lib/"
  cp -u "$ompi_lib"/lib/lib*.so.* "$s/lib/" 2>/dev/null || true
  cp bench/mpi_gpu.sh "$s/"
  du -sh "$s"
  echo "staged into $s; on the device: bench/mpi_gpu.sh (carry [\".stage-mpi\"])"
  exit 0
fi

if [ "$mode" = "--selftest" ]; then
  s=${STAGE:-/work/main/.stage-mpi}
  [ -x "$s/tdisc" ] || { echo "nothing staged in $s (bench/mpi_gpu.sh --stage first)"; exit 1; }
  empty=$(mktemp -d)
  # Hide the system Open MPI and PMIx (directories, programs, libraries) in a private mount namespace.
  hide="true"
  for f in /usr/bin/orterun /usr/bin/orted /usr/bin/mpiexec.openmpi /usr/bin/mpirun.openmpi /lib/x86_64-linux-gnu/libmpi.so.40 \
           /lib/x86_64-linux-gnu/libopen-rte.so.40 /lib/x86_64-linux-gnu/libopen-pal.so.40 /lib/x86_64-linux-gnu/libpmix.so.2; do
    [ -e "$f" ] && hide="$hide; mount --bind /dev/null $(readlink -f $f)"
  done  # files first: some resolve into the directories hidden next
  hide="$hide; mount --bind $empty $ompi_lib; mount --bind $empty /usr/share/openmpi; mount --bind $empty $pmix_dir; mount --bind $empty /etc/openmpi"
  out=$(mktemp -d)
  unshare -m sh -c "$hide
    export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    $(declare -f stage_env); stage_env '$s'
    echo \"mpirun: \$(command -v mpirun)\"; mpirun --version | head -n 1
    mpirun -np 2 --oversubscribe tdisc search --size 2x2 --rank 7 --ring Q --engine numeric --threads 1 --seed 3 --time 60s -q --out $out/run
    echo exit \$?" 2>&1 | tee "$out/selftest.log"
  grep -q '"event":"rank_started"' "$out/run/events.jsonl" && grep -q '"device_index":1' "$out/run/events.jsonl" &&
    grep -q "^exit 0" "$out/selftest.log" && { echo "selftest passed (staged mpirun, 2 ranks, target reached)"; exit 0; }
  echo "selftest FAILED"; exit 1
fi

# On the device.
s=${STAGE:-$root/.stage-mpi}
OUT=${OUT:-$root/out}
mkdir -p "$OUT"
stage_env "$s"
SECONDS_EACH=${SECONDS_EACH:-90}
TARGET=${TARGET:-"--size 4x4 --rank 48 --ring Q"}
DEVICE_ARGS=${DEVICE_ARGS-"--device cuda"}
THREADS=${THREADS:-4}
SEED=${SEED:-1}
nvidia-smi --query-gpu=index,name,driver_version --format=csv | tee "$OUT/gpus.txt"
common="search $TARGET --engine numeric $DEVICE_ARGS --threads $THREADS --seed $SEED --time ${SECONDS_EACH}s -q"
restarts() { grep '"event":"finished"' "$1/events.jsonl" | tail -n 1 | sed -n 's/.*"restarts":\([0-9.e+-]*\).*/\1/p'; }
elapsed() { grep '"event":"finished"' "$1/events.jsonl" | tail -n 1 | sed -n 's/.*"elapsed":\([0-9.e+-]*\).*/\1/p'; }
"$s/tdisc" $common --out "$OUT/n1" >"$OUT/n1.log" 2>&1
echo "N=1 exit $?"
mpirun -np 2 --bind-to none "$s/tdisc" $common --out "$OUT/n2" >"$OUT/n2.log" 2>&1
echo "N=2 exit $?"
r1=$(restarts "$OUT/n1"); t1=$(elapsed "$OUT/n1"); r2=$(restarts "$OUT/n2"); t2=$(elapsed "$OUT/n2")
devices=$(grep -o '"device_index":[0-9]*' "$OUT/n2/events.jsonl" | sed 's/.*://' | sort -u | paste -sd, -)  # the GPUs the ranks took
printf '{"bench":"mpi_gpu","date":"%s","machine":"%s","command":"%s","seed":%s,"n1":{"restarts":%s,"seconds":%s},"n2":{"restarts":%s,"seconds":%s,"devices":"%s"}}\n' \
  "$(date -u +%FT%TZ)" "$(nvidia-smi --query-gpu=name --format=csv,noheader | paste -sd+ -)" "tdisc $common" "$SEED" \
  "${r1:-null}" "${t1:-null}" "${r2:-null}" "${t2:-null}" "$devices" | tee "$OUT/mpi-gpu.json"
awk -v r1="${r1:-0}" -v t1="${t1:-1}" -v r2="${r2:-0}" -v t2="${t2:-1}" \
  'BEGIN { a = r1 / t1; b = r2 / t2; printf "restarts/s: N=1 %.3f, N=2 %.3f, ratio %.2f (target ≥ 1.8)\n", a, b, (a > 0 ? b / a : 0) }' | tee -a "$OUT/mpi-gpu.txt"
