#!/bin/sh
# Build gpuplan-probe (calib/*.cu) into $1 (default build) as a fat binary:
# cubins for sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 plus PTX for compute_120,
# then check with cuobjdump that all six architectures are inside.
# Called by `make calib`.  Without nvcc it says so and succeeds: everything
# else in gpuplan builds and tests without the probes.
#
# Environment: NVCC (default: nvcc in PATH, else /usr/local/cuda/bin/nvcc),
# GPUPLAN_CUDA_ARCHS: extra real architectures, e.g. "110" for a GPU the
# default list lacks (the toolkit must know them), NVCC_JOBS (default 2).
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

# The six targets need CUDA 12.8 or newer (sm_100 and sm_120).
known=$("$nvcc" --list-gpu-arch 2>/dev/null | tr '\n' ' ')
for a in 80 86 89 90 100 120; do
    case " $known " in
        *" compute_$a "*) ;;
        *) echo "make calib: $nvcc cannot target sm_$a ($("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p')); CUDA 12.8 or newer is needed"
           exit 1 ;;
    esac
done

archs="80 86 89 90 100 120 ${GPUPLAN_CUDA_ARCHS:-}"
gencode=""
for a in $archs; do
    gencode="$gencode -gencode arch=compute_$a,code=sm_$a"
done
# PTX for the newest architecture JIT-compiles forward on later GPUs.
gencode="$gencode -gencode arch=compute_120,code=compute_120"

# Warnings are errors for nvcc and for the host compiler.
flags="-std=c++17 -O2 -lineinfo -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror"
obj="$out/calib"
mkdir -p "$obj"
start=$(date +%s)
jobs=${NVCC_JOBS:-2}
pids=""
n=0
for src in "$here"/*.cu; do
    o="$obj/$(basename "$src" .cu).o"
    # shellcheck disable=SC2086
    "$nvcc" $flags $gencode -I"$here" -c "$src" -o "$o" &
    pids="$pids $!"
    n=$((n + 1))
    if [ $((n % jobs)) -eq 0 ]; then
        for p in $pids; do wait "$p" || { echo "make calib: compiling failed"; exit 1; }; done
        pids=""
    fi
done
for p in $pids; do wait "$p" || { echo "make calib: compiling failed"; exit 1; }; done
# shellcheck disable=SC2086
"$nvcc" $gencode -o "$out/gpuplan-probe.tmp" "$obj"/*.o -cudart static -lcublasLt -ldl -lpthread \
    -L"$cudadir/lib64" -Xlinker -rpath -Xlinker "$cudadir/lib64"
mv "$out/gpuplan-probe.tmp" "$out/gpuplan-probe"
end=$(date +%s)

# Check the fat binary.  cuobjdump when the toolkit has it; otherwise the
# bundled reader of the .nv_fatbin section (calib/fatbin_list.c).
if command -v cuobjdump >/dev/null 2>&1 || [ -x "$cudadir/bin/cuobjdump" ]; then
    lister=$(command -v cuobjdump 2>/dev/null || echo "$cudadir/bin/cuobjdump")
    listing=$("$lister" --list-elf "$out/gpuplan-probe")
    ptx=$("$lister" --list-ptx "$out/gpuplan-probe" || true)
    how="cuobjdump --list-elf"
else
    cc=${CC:-cc}
    "$cc" -std=c11 -O2 -Wall -Wextra -Werror -o "$obj/fatbin_list" "$here/fatbin_list.c"
    listing=$("$obj/fatbin_list" --list-elf "$out/gpuplan-probe")
    ptx=$("$obj/fatbin_list" --list-ptx "$out/gpuplan-probe")
    how="calib/fatbin_list (cuobjdump not installed)"
fi
missing=""
for a in 80 86 89 90 100 120; do
    echo "$listing" | grep -q "sm_$a\b" || missing="$missing sm_$a"
done
echo "$ptx" | grep -q "sm_120\|compute_120" || missing="$missing compute_120(PTX)"
if [ -n "$missing" ]; then
    echo "make calib: $out/gpuplan-probe lacks:$missing (checked with $how)"
    exit 1
fi
echo "make calib: built $out/gpuplan-probe in $((end - start)) s; sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 + PTX compute_120 present (checked with $how)"
