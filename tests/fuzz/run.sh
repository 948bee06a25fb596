#!/bin/sh
# Build and run every libFuzzer harness (tests/fuzz/fuzz_*.c) for a bounded
# time each (seconds = $1, default 20).  Seed corpora: tests/fuzz/seeds/NAME/.
# Fails on any crash, leak, timeout or sanitizer report.  The total number of
# executions is printed at the end.
set -eu
secs=${1:-20}
out=build/fuzz
mkdir -p "$out"
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "make fuzz: clang not found; install it: apt-get install -y clang" >&2
    exit 2
fi
make -s build/gen/db_builtin_data.c build/gen/cli_cmds.h >/dev/null
CFLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Iinclude -Ilib -Ibuild/gen -Icli"
LIBS="$(pkg-config --libs yaml-0.1 gsl jansson) -lm"
total=0
status=0
for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c)
    bin="$out/$name"
    extra=""
    case "$name" in
        fuzz_cli) extra="$(ls cli/*.c)" ;;
    esac
    # shellcheck disable=SC2086
    $CLANG $CFLAGS -o "$bin" "$h" lib/*.c build/gen/db_builtin_data.c $extra \
        $( [ "$name" = fuzz_cli ] && echo "-Dmain=gp_cli_main" ) $LIBS
    corpus="$out/corpus-$name"
    mkdir -p "$corpus"
    seeds="tests/fuzz/seeds/${name#fuzz_}"
    [ -d "$seeds" ] || seeds=""
    log="$out/$name.log"
    echo "fuzz: $name for ${secs}s"
    if ! ASAN_OPTIONS=detect_leaks=1 "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -artifact_prefix="$out/$name-" -print_final_stats=1 \
        "$corpus" $seeds >"$log" 2>&1; then
        echo "fuzz: $name FAILED; see $log" >&2
        tail -n 40 "$log" >&2
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    echo "fuzz: $name executed ${runs:-0} inputs"
    total=$((total + ${runs:-0}))
done
echo "fuzz: total executions $total"
exit $status
