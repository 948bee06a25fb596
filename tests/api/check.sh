#!/bin/sh
# `make check-api` (part of `make check`): the library as an outside C or C++
# program sees it.
#   1. every public header compiles on its own, as C11 with -pedantic -Werror
#      and as C++ (extern "C": a call links against the C library);
#   2. the shared library exports gp_* names only: no gp__ helper of a
#      private lib/*_int.h (gp__raise stays: GP_RAISE in status.h calls it);
#   3. `make install DESTDIR=...` gives a gpuplan.pc whose --cflags/--libs
#      build every example out of tree from the installed headers alone
#      (public API only) against the shared library, whose --modversion is
#      gp_version_string() and the GP_VERSION_* macros, and whose
#      --static --libs link it against libgpuplan.a alone, with only the
#      library's own dependencies (no jansson: only the CLI uses it); both
#      print examples/*.expected.
# Usage: tests/api/check.sh BUILD "CC" "CXX" "SAN" MAKE
set -eu
build=$1 cc=$2 cxx=$3 san=$4 make=${5:-make}
work=$build/apicheck
rm -rf "$work" && mkdir -p "$work"
fail=0
bad() { echo "check-api: $*" >&2; fail=1; }
flags="-std=c11 -Wall -Wextra -pedantic -Werror -Wshadow -Wconversion -Wstrict-prototypes -Wundef"

# 1. headers, alone, C and C++
for h in include/gpuplan.h include/gpuplan/*.h; do
    n=${h#include/}
    printf '#include <%s>\nint main(void) { return 0; }\n' "$n" > "$work/h.c"
    $cc $flags -Iinclude -c "$work/h.c" -o "$work/h.o" 2> "$work/h.err" || { cat "$work/h.err" >&2; bad "$n does not compile alone as C11"; }
    if command -v "$cxx" > /dev/null 2>&1; then
        printf '#include <%s>\nint main() { return 0; }\n' "$n" > "$work/h.cc"
        $cxx -std=c++11 -Wall -Wextra -pedantic -Werror -Iinclude -c "$work/h.cc" -o "$work/h.o" 2> "$work/h.err" || { cat "$work/h.err" >&2; bad "$n does not compile alone as C++"; }
    fi
done
if command -v "$cxx" > /dev/null 2>&1; then
    # C++ linkage: one call per public header links against the C objects.
    cat > "$work/link.cc" <<'CXX'
#include <gpuplan.h>
int main()
{
    gp_err e;
    gp_roofline_params rp;
    gp_comm_params cp;
    gp_scale_params sp;
    gp_infer_params ip;
    gp_train_in in;
    gp_ledger l = gp_ledger();
    double v = 0;
    gp_err_clear(&e);
    gp_roofline_params_init(&rp);
    gp_comm_params_default(&cp);
    gp_scale_params_default(&sp);
    gp_infer_params_init(&ip);
    gp_train_in_init(&in);
    gp_ledger_close(&l, GP_OVERLAP_MAX);
    gp_calib_free(0);
    gp_db_free(0);
    return gp_parse_bytes("14GB", &v, &e) == GP_OK && v == 14e9 && gp_version_string()[0] ? 0 : 1;
}
CXX
    $cxx -std=c++11 $san -Iinclude "$work/link.cc" -o "$work/link" "$build/libgpuplan.a" \
        $(pkg-config --libs yaml-0.1 gsl) -lm && "$work/link" || bad "C++ program calling the C API does not link or run"
fi

# 2. exports
nm -D --defined-only "$build/libgpuplan.so" | awk '{print $3}' | grep -v '^gp_[a-z]' | grep -vx 'gp__raise' > "$work/extra" || true
if [ -s "$work/extra" ]; then
    bad "libgpuplan.so exports non-API symbols: $(tr '\n' ' ' < "$work/extra")"
fi
nm -D --defined-only "$build/libgpuplan.so" | grep -q ' T gp_db_open$' || bad "libgpuplan.so does not export gp_db_open"

# 3. install + pkg-config, out of tree
dest=$(cd "$work" && pwd)/dest
$make -s install BUILD="$build" SAN="$san" DESTDIR="$dest" PREFIX=/opt/gpuplan > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; bad "make install DESTDIR failed"; }
pc=$dest/opt/gpuplan/lib/pkgconfig
[ -f "$pc/gpuplan.pc" ] || bad "no gpuplan.pc installed"
if [ $fail -eq 0 ]; then
    export PKG_CONFIG_PATH="$pc" PKG_CONFIG_SYSROOT_DIR="$dest"
    cflags=$(pkg-config --cflags gpuplan) libs=$(pkg-config --libs gpuplan) slibs=$(pkg-config --static --libs gpuplan)
    mkdir -p "$work/oot/shared" "$work/oot/static"
    cp examples/roofline.c examples/roofline.expected "$work/oot/"
    # Shared: only the installed header and library are visible.
    (cd "$work/oot" && $cc $flags $san $cflags roofline.c -o shared/roofline $libs) || bad "pkg-config --cflags --libs gpuplan does not build examples/roofline.c"
    # Static: the .so removed, so -lgpuplan is the archive; --as-needed off,
    # so each Libs.private library must exist (and nothing more is asked).
    mkdir -p "$work/static-lib" && cp "$dest/opt/gpuplan/lib/libgpuplan.a" "$work/static-lib/"
    sed -e "s|^libdir=.*|libdir=$(cd "$work/static-lib" && pwd)|" "$pc/gpuplan.pc" > "$work/static-lib/gpuplan.pc"
    slibs=$(PKG_CONFIG_PATH="$work/static-lib" PKG_CONFIG_SYSROOT_DIR= pkg-config --static --libs gpuplan)
    (cd "$work/oot" && $cc $flags $san $cflags roofline.c -o static/roofline -Wl,--no-as-needed $slibs) || bad "pkg-config --static --libs gpuplan does not link examples/roofline.c"
    # Every example from the installed headers alone (no -Ilib: public API
    # only), run from the source tree (calib_overlay reads tests/data).
    for ex in examples/*.c; do
        n=$(basename "$ex" .c)
        $cc $flags $san $cflags "$ex" -o "$work/oot/shared/$n" $libs || { bad "examples/$n.c does not build against the installed headers"; continue; }
        LD_LIBRARY_PATH="$dest/opt/gpuplan/lib" "$work/oot/shared/$n" > "$work/oot/$n.out" || bad "out-of-tree examples/$n failed"
        if [ -f "examples/$n.expected" ]; then
            diff -u "examples/$n.expected" "$work/oot/$n.out" >&2 || bad "out-of-tree examples/$n differs from examples/$n.expected"
        fi
    done
    # One version: the macros, gp_version_string() and gpuplan.pc.
    printf '#include <stdio.h>\n#include <gpuplan.h>\nint main(void)\n{\n    printf("%%d.%%d.%%d %%s\\n", GP_VERSION_MAJOR, GP_VERSION_MINOR, GP_VERSION_PATCH, gp_version_string());\n    return GP_VERSION_HEX == ((GP_VERSION_MAJOR << 16) | (GP_VERSION_MINOR << 8) | GP_VERSION_PATCH) ? 0 : 1;\n}\n' > "$work/ver.c"
    $cc $flags $san $cflags "$work/ver.c" -o "$work/ver" $libs || bad "version program does not build"
    v=$(LD_LIBRARY_PATH="$dest/opt/gpuplan/lib" "$work/ver") || bad "GP_VERSION_HEX disagrees with the version macros"
    want="$(pkg-config --modversion gpuplan) $(pkg-config --modversion gpuplan)"
    [ "$v" = "$want" ] || bad "versions disagree: macros and gp_version_string() '$v', gpuplan.pc '$want'"
    if [ $fail -eq 0 ]; then
        LD_LIBRARY_PATH="$dest/opt/gpuplan/lib" "$work/oot/shared/roofline" > "$work/oot/shared.out" || bad "out-of-tree roofline (shared) failed"
        "$work/oot/static/roofline" > "$work/oot/static.out" || bad "out-of-tree roofline (static) failed"
        diff -u examples/roofline.expected "$work/oot/shared.out" >&2 || bad "out-of-tree roofline (shared) differs from examples/roofline.expected"
        diff -u examples/roofline.expected "$work/oot/static.out" >&2 || bad "out-of-tree roofline (static) differs from examples/roofline.expected"
        if command -v ldd > /dev/null 2>&1; then
            ldd "$work/oot/static/roofline" | grep -q jansson && bad "a static link pulls in libjansson, which the library does not use"
            ldd "$work/oot/static/roofline" | grep -q libgpuplan && bad "the static link used libgpuplan.so"
        fi
    fi
fi
[ $fail -eq 0 ] && echo "check-api: headers (C11, C++), exports, install + pkg-config: ok"
exit $fail
