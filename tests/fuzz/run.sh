#!/bin/sh
# Build and run every libFuzzer harness (tests/fuzz/fuzz_*.c) for a bounded
# time each: seconds = $1 (default 20); $2 (optional) = a space-separated list
# of harness names to run (default: all).  Built with clang
# -fsanitize=fuzzer,address,undefined; the library is compiled once into
# build/fuzz/obj.  Seed corpora: tests/fuzz/seeds/NAME/ (committed) plus, for
# fuzz_db, every shipped hwdb file prefixed with its kind byte (generated here
# into build/fuzz/seeds-db).  The growing corpus lives in build/fuzz/corpus-NAME.
#
# Fails (exit 1) on any crash, leak, timeout (> 10 s for one input), memory
# blow-up (> 2 GiB), sanitizer report, or a harness that executed nothing.
# Prints the executions of each harness and the total.
set -eu
secs=${1:-20}
only=${2:-}
root=$(pwd)
out=build/fuzz
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "make fuzz: clang not found; install it: apt-get install -y clang" >&2
    exit 2
fi
mkdir -p "$out/obj"
make -s build/gen/db_builtin_data.c build/gen/cli_cmds.h >/dev/null
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 $SAN -Iinclude -Ilib -Ibuild/gen -Icli $(pkg-config --cflags yaml-0.1 gsl jansson)"
LIBS="$(pkg-config --libs yaml-0.1 gsl jansson) -lm"

# Library + CLI objects, instrumented for coverage feedback, rebuilt when the
# source is newer.  cli/main.c without its main (GP_CLI_NO_MAIN): fuzz_cli calls gp_cli_main.
objs=""
cliobjs=""
for src in lib/*.c build/gen/db_builtin_data.c cli/*.c; do
    o="$out/obj/$(echo "$src" | tr '/' '_' | sed 's/\.c$/.o/')"
    if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ lib/db_int.h -nt "$o" ] ||
       [ build/gen/cli_cmds.h -nt "$o" ] || [ -n "$(find include cli/cli.h -newer "$o" -name '*.h' 2>/dev/null | head -n 1)" ]; then
        # shellcheck disable=SC2086
        $CLANG $CFLAGS -fsanitize=fuzzer-no-link -DGP_CLI_NO_MAIN -c "$src" -o "$o"
    fi
    case "$src" in cli/*) cliobjs="$cliobjs $o" ;; *) objs="$objs $o" ;; esac
done

# fuzz_db seeds: "0".."3" = kind (gpus, links, models, formats) without the
# built-in database -- the entry gets a `sources:` map naming every shared
# citation key so it validates on its own up to the cross-references -- and
# the same byte | 0xF0 with the file as shipped, loaded over the built-in.
dbseeds="$out/seeds-db"
rm -rf "$dbseeds"
mkdir -p "$dbseeds"
srckeys=$(sed -n 's/^\([a-z0-9_]*\):.*/\1/p' hwdb/sources.yaml)
k=0
for kind in gpus links models formats; do
    for f in hwdb/$kind/*.yaml; do
        b=$(basename "$f" .yaml)
        {
            printf '%s' "$k"
            cat "$f"
            if ! grep -q '^sources:' "$f"; then
                echo "sources:"
                for key in $srckeys; do echo "  $key: \"$key\""; done
            fi
        } >"$dbseeds/$kind-$b"
        { printf "\\$(printf '%03o' $((240 + k)))"; cat "$f"; } >"$dbseeds/$kind-$b-over"
    done
    k=$((k + 1))
done

total=0
status=0
for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c)
    if [ -n "$only" ]; then
        case " $only " in *" $name "*) ;; *) continue ;; esac
    fi
    bin="$out/$name"
    if [ "$name" = fuzz_calib ] && [ ! -f include/gpuplan/calib.h ]; then
        echo "fuzz: $name skipped: include/gpuplan/calib.h is not on this tree"
        continue
    fi
    extra=""
    [ "$name" = fuzz_cli ] && extra="$cliobjs"
    # shellcheck disable=SC2086
    $CLANG $CFLAGS -fsanitize=fuzzer -o "$bin" "$h" $extra $objs $LIBS
    # Absolute paths: fuzz_cli changes into a scratch directory at start-up.
    corpus="$root/$out/corpus-$name"
    mkdir -p "$corpus"
    seeds=""
    [ -d "tests/fuzz/seeds/${name#fuzz_}" ] && seeds="$root/tests/fuzz/seeds/${name#fuzz_}"
    [ "$name" = fuzz_db ] && seeds="$seeds $root/$dbseeds"
    # fuzz_calib: the recorded and synthetic measurement files, good and bad.
    [ "$name" = fuzz_calib ] && [ -d tests/data/calib ] && seeds="$seeds $root/tests/data/calib"
    log="$out/$name.log"
    rm -f "$out/$name"-crash-* "$out/$name"-leak-* "$out/$name"-timeout-* "$out/$name"-oom-*
    echo "fuzz: $name for ${secs}s"
    # -close_fd_mask=3: the target's stdout/stderr are closed (the CLI prints a
    # lot); libFuzzer and the sanitizers keep reporting to the log.
    # shellcheck disable=SC2086
    if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 GPUPLAN_DB= \
        "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -close_fd_mask=3 -artifact_prefix="$root/$out/$name-" \
        -print_final_stats=1 "$corpus" $seeds >"$log" 2>&1; then
        echo "fuzz: $name FAILED; see $log" >&2
        grep -E 'ERROR|SUMMARY|Test unit written|#[0-9]+ 0x' "$log" | head -n 30 >&2 || tail -n 40 "$log" >&2
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    if [ -z "$runs" ] || [ "$runs" -eq 0 ]; then
        echo "fuzz: $name executed nothing; see $log" >&2
        status=1
        runs=0
    fi
    echo "fuzz: $name executed $runs inputs (${rate:-0}/s)"
    total=$((total + runs))
done
echo "fuzz: total executions $total"
exit $status
