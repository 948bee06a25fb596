#!/bin/sh
# Build gpuplan-probe (calib/*.cu) into $1 (default build) as a fat binary:
# cubins for sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 plus PTX for compute_120,
# then check with cuobjdump that all six architectures are inside.
# Called by `make calib`.  Without nvcc it says so and succeeds: everything
# else in gpuplan builds and tests without the probes.
#
# Environment: NVCC (default: nvcc in PATH, else /usr/local/cuda/bin/nvcc),
# GPUPLAN_CUDA_ARCHS: extra real architectures, e.g. "110" for a GPU the
# default list lacks (the toolkit must know them); GPUPLAN_CALIB_ARCHS:
# build ONLY these (e.g. "90" on an H200: cubin sm_90 + PTX compute_90, a
# few seconds; any CUDA >= 11.8) and check only them; GPUPLAN_CALIB_WERROR=0:
# warnings not fatal; NVCC_JOBS (default:
# the number of CPUs, at most 8); CC (default cc) for calib/writer.c.
#
# The probe links only the CUDA runtime (static) and libdl: cuBLASLt, NVML
# and NCCL are loaded with dlopen at run time, so the binary starts on any
# machine with the NVIDIA driver, and what is missing is reported per probe.
set -eu
out=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)

nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then
    if command -v nvcc >/dev/null 2>&1; then nvcc=$(command -v nvcc)
    elif [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc
    fi
fi
if [ -z "$nvcc" ] || ! "$nvcc" --version >/dev/null 2>&1; then
    echo "make calib: nvcc not found; CUDA probes not built (everything else builds and tests without them)"
    exit 0
fi
cudadir=$(cd "$(dirname "$nvcc")/.." && pwd)

release=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p')
known=$("$nvcc" --list-gpu-arch 2>/dev/null | tr '\n' ' ')
if [ -n "${GPUPLAN_CALIB_ARCHS:-}" ]; then
    # Only what this machine needs (a quick build on a lent GPU).
    want=$GPUPLAN_CALIB_ARCHS
    ptx=$(echo "$want" | tr ' ' '\n' | sed '/^$/d' | sort -n | tail -n 1)
    for a in $want; do
        case " $known " in
            *" compute_$a "*) ;;
            *) echo "make calib: $nvcc ($release) cannot target sm_$a"; exit 1 ;;
        esac
    done
else
    # The six targets need CUDA 12.8 or newer (sm_100 and sm_120).
    for a in 80 86 89 90 100 120; do
        case " $known " in
            *" compute_$a "*) ;;
            *) echo "make calib: $nvcc cannot target sm_$a ($release); CUDA 12.8 or newer is needed"
               exit 1 ;;
        esac
    done
    want="80 86 89 90 100 120 ${GPUPLAN_CUDA_ARCHS:-}"
    ptx=120
fi
gencode=""
list=""
for a in $want; do
    gencode="$gencode -gencode arch=compute_$a,code=sm_$a"
    list="$list sm_$a"
done
# PTX for the newest architecture JIT-compiles forward on later GPUs.
gencode="$gencode -gencode arch=compute_$ptx,code=compute_$ptx"
list="${list# } + PTX compute_$ptx"

# Warnings are errors for nvcc and for the host compiler.  On more than six
# CPUs, --threads 2 also compiles two architectures of one file at a time.
# GPUPLAN_CALIB_WERROR=0 keeps the warnings but not as errors (a first run
# on a machine whose host compiler is newer than the one this was checked with).
werror=-Werror
[ "${GPUPLAN_CALIB_WERROR:-1}" = 0 ] && werror=""
if [ -n "$werror" ]; then
    flags="-std=c++17 -O2 -lineinfo -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror"
else
    flags="-std=c++17 -O2 -lineinfo -Xcompiler -Wall,-Wextra"
fi
obj="$out/calib"
mkdir -p "$obj"
# What this binary holds, for the probe's "unsupported architecture" message.
printf '#define GP_PROBE_ARCHS "%s"\n' "$list" > "$obj/gp_archs.h"
start=$(date +%s)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
[ "$ncpu" -gt 8 ] && ncpu=8
jobs=${NVCC_JOBS:-$ncpu}
threads=""
if [ "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" -gt 6 ]; then threads="--threads 2"; fi
rm -f "$obj"/*.o
pids=""
n=0
for src in "$here"/*.cu; do
    o="$obj/$(basename "$src" .cu).o"
    # shellcheck disable=SC2086
    "$nvcc" $flags $threads $gencode -I"$here" -I"$obj" -c "$src" -o "$o" &
    pids="$pids $!"
    n=$((n + 1))
    if [ $((n % jobs)) -eq 0 ]; then
        for p in $pids; do wait "$p" || { echo "make calib: compiling failed"; exit 1; }; done
        pids=""
    fi
done
# The measurement-file writer is plain C (tests/check_probewriter.c compiles it too).
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || cc=gcc
"$cc" -std=c11 -O2 -Wall -Wextra $werror -c "$here/writer.c" -o "$obj/writer.o" ||
    { echo "make calib: compiling calib/writer.c failed"; exit 1; }
for p in $pids; do wait "$p" || { echo "make calib: compiling failed"; exit 1; }; done
# shellcheck disable=SC2086
"$nvcc" $gencode -o "$out/gpuplan-probe.tmp" "$obj"/*.o -cudart static -ldl -lpthread -lm \
    -Xlinker -rpath -Xlinker "$cudadir/lib64"
mv "$out/gpuplan-probe.tmp" "$out/gpuplan-probe"
end=$(date +%s)

# Check the fat binary.  cuobjdump when the toolkit has it; otherwise the
# bundled reader of the .nv_fatbin section (calib/fatbin_list.c).
if command -v cuobjdump >/dev/null 2>&1 || [ -x "$cudadir/bin/cuobjdump" ]; then
    lister=$(command -v cuobjdump 2>/dev/null || echo "$cudadir/bin/cuobjdump")
    listing=$("$lister" --list-elf "$out/gpuplan-probe")
    ptxlist=$("$lister" --list-ptx "$out/gpuplan-probe" || true)
    how="cuobjdump --list-elf"
else
    "$cc" -std=c11 -O2 -Wall -Wextra -Werror -o "$obj/fatbin_list" "$here/fatbin_list.c"
    listing=$("$obj/fatbin_list" --list-elf "$out/gpuplan-probe")
    ptxlist=$("$obj/fatbin_list" --list-ptx "$out/gpuplan-probe")
    how="calib/fatbin_list (cuobjdump not installed)"
fi
missing=""
for a in $want; do
    echo "$listing" | grep -q "sm_$a\b" || missing="$missing sm_$a"
done
echo "$ptxlist" | grep -q "sm_$ptx\|compute_$ptx" || missing="$missing compute_$ptx(PTX)"
if [ -n "$missing" ]; then
    echo "make calib: $out/gpuplan-probe lacks:$missing (checked with $how)"
    exit 1
fi
echo "make calib: built $out/gpuplan-probe in $((end - start)) s; $list present (checked with $how)"
