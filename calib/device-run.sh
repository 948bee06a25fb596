#!/bin/sh
# First run of gpuplan-probe on a lent GPU machine (docs/calibration.md,
# "First run on a lent GPU").  From the repository root:
#
#     OUT=/some/dir sh calib/device-run.sh        ($OUT is set by the device tool)
#
# Needs only the NVIDIA driver and the CUDA toolkit (nvcc); no make, no
# libyaml/GSL/Check, no network.  Steps, each bounded so the whole script
# stays under ~5.5 minutes of wall time:
#   1. nvidia-smi, nvcc --version (missing tools are reported, not fatal);
#   2. build the probe for this GPU's architecture only (calib/build.sh with
#      GPUPLAN_CALIB_ARCHS, warnings not fatal, ~5-10 s), falling back to a carried
#      build/gpuplan-probe when there is no nvcc or the build fails;
#   3. the full run under `timeout`, writing $OUT/<gpu>.yaml (e.g. h200.yaml)
#      and $OUT/probe.log; the probe rewrites its file after every sub-probe,
#      so even a killed run leaves a readable file;
#   4. when the full run fails or times out, `--quick` into
#      $OUT/<gpu>-quick.yaml (if time is left);
#   5. nvidia-smi -q into $OUT/nvidia-smi-q.txt and a summary (also
#      $OUT/summary.txt).  Always exits 0: read the summary.
# At most 7 files are left in $OUT (the device tool returns 8).
set -u
OUT=${OUT:-$(pwd)/device-out}
mkdir -p "$OUT"
t0=$(date +%s)
DEADLINE=${GPUPLAN_DEADLINE_S:-330}   # seconds after start by which everything must end
FULL_TIMEOUT=${GPUPLAN_FULL_TIMEOUT_S:-210}
BUILD_TIMEOUT=${GPUPLAN_BUILD_TIMEOUT_S:-120}
build=${GPUPLAN_DEVICE_BUILD:-/tmp/gpuplan-device-build}

say() { echo "device-run: $*"; }
elapsed() { echo $(( $(date +%s) - t0 )); }
left() { echo $(( DEADLINE - $(elapsed) )); }
have() { command -v "$1" >/dev/null 2>&1; }
# run_limited SECONDS CMD...: with timeout(1) when present.
run_limited() {
    s=$1
    shift
    if have timeout; then timeout -k 10 "$s" "$@"; else "$@"; fi
}

# Driver libraries (libcuda, libnvidia-ml) where some images mount them.
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
    [ -d "$d" ] && LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}"
[ -d /usr/local/cuda/bin ] && PATH="$PATH:/usr/local/cuda/bin"
export PATH

# ---- 1. the machine ------------------------------------------------------------------
say "=== machine ($(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -m), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs)"
gpu_name=""
cc=""
if have nvidia-smi; then
    nvidia-smi || say "nvidia-smi failed (rc $?)"
    gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
    nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,pcie.link.gen.current,pcie.link.width.current --format=csv 2>/dev/null
else
    say "nvidia-smi not found"
fi
if have nvcc; then nvcc --version; else say "nvcc not found"; fi

# File name from the GPU: "NVIDIA H200" -> h200, "NVIDIA H100 80GB HBM3" -> h100-80gb-hbm3.
name=$(printf '%s' "$gpu_name" | tr '[:upper:]' '[:lower:]' | sed -e 's/^nvidia //' -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' -e 's/-$//')
[ -n "$name" ] || name=gpu
name=$(printf '%s' "$name" | cut -c1-40)
case "$cc" in
    [0-9][0-9] | [0-9][0-9][0-9]) ;;
    *) cc="" ;;
esac
say "GPU '$gpu_name' -> $OUT/$name.yaml; compute capability ${cc:-unknown}"

# ---- 2. build --------------------------------------------------------------------------
probe=""
if have nvcc; then
    say "=== build (GPUPLAN_CALIB_ARCHS=${cc:-all six}) into $build"
    rm -rf "$build"
    if [ -n "$cc" ]; then
        GPUPLAN_CALIB_WERROR=0 GPUPLAN_CALIB_ARCHS=$cc run_limited "$BUILD_TIMEOUT" sh calib/build.sh "$build" >"$OUT/build.log" 2>&1
    else
        GPUPLAN_CALIB_WERROR=0 run_limited "$BUILD_TIMEOUT" sh calib/build.sh "$build" >"$OUT/build.log" 2>&1
    fi
    brc=$?
    tail -n 20 "$OUT/build.log"
    if [ $brc -eq 0 ] && [ -x "$build/gpuplan-probe" ]; then
        probe="$build/gpuplan-probe"
    else
        say "build failed (rc $brc; $OUT/build.log)"
    fi
fi
if [ -z "$probe" ] && [ -x build/gpuplan-probe ]; then
    probe=build/gpuplan-probe
    say "using the carried build/gpuplan-probe"
fi
if [ -z "$probe" ]; then
    say "no probe binary: no nvcc and no carried build/gpuplan-probe; nothing measured"
    exit 0
fi

# cuBLASLt: the probe dlopens it (GEMM only).  If the loader cannot find
# it, look where CUDA and the pip 'nvidia-cublas' wheels put it.
if ! ldconfig -p 2>/dev/null | grep -q 'libcublasLt\.so\.' && [ -z "${GPUPLAN_CUBLASLT:-}" ]; then
    for f in /usr/local/cuda/lib64/libcublasLt.so.1[0-9] /usr/local/cuda/targets/x86_64-linux/lib/libcublasLt.so.1[0-9]; do
        [ -e "$f" ] && { GPUPLAN_CUBLASLT=$f; break; }
    done
    if [ -z "${GPUPLAN_CUBLASLT:-}" ]; then
        f=$(run_limited 20 find /usr/local /opt /usr/lib -name 'libcublasLt.so.1[0-9]' 2>/dev/null | head -n 1)
        [ -n "$f" ] && GPUPLAN_CUBLASLT=$f
    fi
    [ -n "${GPUPLAN_CUBLASLT:-}" ] && { export GPUPLAN_CUBLASLT; say "cuBLASLt: $GPUPLAN_CUBLASLT"; }
fi

# ---- 3. full run -----------------------------------------------------------------------
full="$OUT/$name.yaml"
t=$FULL_TIMEOUT
[ "$(left)" -lt "$t" ] && t=$(left)
say "=== full run, timeout ${t} s (elapsed $(elapsed) s)"
rm -f "$OUT/probe.rc"
{ run_limited "$t" "$probe" -v -o "$full" 2>&1; echo $? >"$OUT/probe.rc"; } | tee "$OUT/probe.log"
rc=$(cat "$OUT/probe.rc" 2>/dev/null || echo 1)
rm -f "$OUT/probe.rc"
say "full run: exit $rc after $(elapsed) s (124/137 = timed out)"

# ---- 4. quick run when the full one failed -------------------------------------------------
quick=""
finished=0
[ -f "$full" ] && grep -q 'finished: true' "$full" && finished=1
if [ "$rc" -ne 0 ] || [ $finished -eq 0 ]; then
    t=$(( $(left) - 15 ))
    [ "$t" -gt 75 ] && t=75
    if [ "$t" -ge 30 ]; then
        quick="$OUT/$name-quick.yaml"
        say "=== quick run, timeout ${t} s"
        { run_limited "$t" "$probe" -v --quick -o "$quick" 2>&1; echo $? >"$OUT/quick.rc"; } | tee "$OUT/probe-quick.log"
        say "quick run: exit $(cat "$OUT/quick.rc" 2>/dev/null || echo '?') after $(elapsed) s"
        rm -f "$OUT/quick.rc"
    else
        say "no time left for a quick run"
    fi
fi

# ---- 5. card state and summary --------------------------------------------------------------
if have nvidia-smi; then
    run_limited 30 nvidia-smi -q >"$OUT/nvidia-smi-q.txt" 2>&1
    nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv 2>/dev/null
fi
{
    echo "device-run summary ($(elapsed) s wall)"
    echo "  GPU: ${gpu_name:-unknown} (cc ${cc:-?}); probe: $probe"
    for f in "$full" $quick; do
        [ -n "$f" ] || continue
        if [ ! -f "$f" ]; then
            echo "  $f: not written"
            continue
        fi
        echo "  $f: $(wc -c <"$f") bytes, $(grep -c '^  - {' "$f") points"
        for sec in gemm memory latency transfer peer allreduce; do
            n=$(awk -v s="$sec:" '$0 == s {on=1; next} /^[a-z]/ {on=0} on && /^  - \{/ {c++} END {print c+0}' "$f")
            echo "    $sec: $n points"
        done
        grep -q 'finished: true' "$f" && echo "    every requested probe finished" ||
            echo "    NOT every probe finished (see skipped:)"
        awk '/^skipped:/ {on=1; next} /^[a-z]/ {on=0} on' "$f" | sed 's/^/    skipped/'
    done
    echo "  next, on the development machine: build/gpuplan calib show FILE; build/gpuplan --db DIR calib import FILE"
} | tee "$OUT/summary.txt"
exit 0
