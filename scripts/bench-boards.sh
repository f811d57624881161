#!/usr/bin/env bash
# Times the release binary's --solve on generated boards (fixed seeds) against the bounded
# square level (course format, the specialised engine) of the same family and size: the
# speed and memory targets of issue 28. Prints a Markdown table: best wall time of REPS runs,
# its ratio to the bounded square, peak RSS of the fastest run and bytes per cell, verdict.
#   scripts/bench-boards.sh [REPS]        (default 3)
# Environment: SIZES (default "1024 4096"), FAMILIES (default "random loops maze dominoes"),
# BOARDS (default "square-wrap hex-wrap hex"), TIMEOUT (seconds per solve, default 20),
# CACHE (generated levels are kept there between runs, default /tmp/bench-boards-cache),
# TIMEOUT_CHECK (seconds given to --timeout on the hardest 4096 board; empty to skip, default 3),
# BIN (the binary to time, default: this tree's release build, built first),
# SEEDS (generator seeds, one row set each, default "1": the one-end-heavy family's time
# varies from seed to seed on hexagonal boards, see benches/PERFORMANCE.md "Other boards").
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
sizes=${SIZES:-"1024 4096"}
families=${FAMILIES:-"random loops maze dominoes"}
boards=${BOARDS:-"square-wrap hex-wrap hex"}
timeout=${TIMEOUT:-20}
cache=${CACHE:-/tmp/bench-boards-cache}
timeout_check=${TIMEOUT_CHECK-3}
seeds=${SEEDS:-1}

if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
fi
bin=${BIN:-./target/release/phineloops}
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

family_args() { # family -> generator options
    case $1 in
        maze) echo "--maze kruskal" ;;
        *) echo "--family $1" ;;
    esac
}

board_args() { # board kind -> generator options
    case $1 in
        square) echo "" ;;
        square-wrap) echo "--grid square --wrap both" ;;
        hex-wrap) echo "--grid hexagonal --wrap both" ;;
        hex) echo "--grid hexagonal" ;;
    esac
}

level() { # board family size [seed] -> path of the cached level
    local seed=${4:-1} f="$cache/$1-$2-$3.txt"
    if [ "$seed" != 1 ]; then f="$cache/$1-$2-$3-s$seed.txt"; fi
    if [ ! -s "$f" ]; then
        # shellcheck disable=SC2046
        "$bin" --generate "$3x$3" --seed "$seed" $(family_args "$2") $(board_args "$1") -o "$f" >/dev/null 2>&1
    fi
    echo "$f"
}

# best_of CMD...: "milliseconds peak_kb exit_code" of the fastest of $reps runs.
best_of() {
    local best="" mem="" code=0 t0 t1 ms m c
    for _ in $(seq "$reps"); do
        c=0
        t0=$EPOCHREALTIME
        /usr/bin/time -f "%M" -o "$tmp/time" "$@" >/dev/null 2>&1 || c=$?
        t1=$EPOCHREALTIME
        ms=$(awk "BEGIN{printf \"%.1f\", ($t1 - $t0) * 1000}")
        m=$(tail -1 "$tmp/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($ms < $best)}"; then best=$ms; mem=$m; code=$c; fi
    done
    echo "$best $mem $code"
}

# row SIZE FAMILY SEED BOARD MS RATIO PEAK_KB EXIT: one table row.
row() {
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" "$6" \
        "$(($7 / 1024))" "$(($7 * 1024 / cells))" "$(verdict "$8")"
}

verdict() {
    case $1 in 0) echo solved ;; 1) echo no-solution ;; 3) echo timeout ;; *) echo "exit $1" ;; esac
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); best of $reps; --timeout $timeout"
echo
echo "| size | family | seed | board | solve ms | vs bounded square | peak MB | bytes/cell | verdict |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in $sizes; do
    cells=$((n * n))
    for fam in $families; do
        for seed in $seeds; do
            sq=$(level square "$fam" "$n" "$seed")
            read -r base bm bc < <(best_of "$bin" --solve "$sq" -o "$tmp/out.txt" --timeout "$timeout")
            row "${n}x${n}" "$fam" "$seed" square "$base" 1.0 "$bm" "$bc"
            for b in $boards; do
                f=$(level "$b" "$fam" "$n" "$seed")
                read -r ms m c < <(best_of "$bin" --solve "$f" -o "$tmp/out.txt" --timeout "$timeout")
                row "${n}x${n}" "$fam" "$seed" "$b" "$ms" \
                    "$(awk "BEGIN{printf \"%.2f\", $ms / $base}")" "$m" "$c"
            done
        done
    done
done

if [ -n "$timeout_check" ]; then
    echo
    echo "| --timeout check (4096x4096 dominoes) | board | wall ms | over the limit ms | exit |"
    echo "|---|---|---|---|---|"
    for b in $boards; do
        f=$(level "$b" dominoes 4096)
        reps_saved=$reps
        reps=1
        read -r ms _ c < <(best_of "$bin" --solve "$f" -o "$tmp/out.txt" --timeout "$timeout_check")
        reps=$reps_saved
        printf '| %ss | %s | %s | %s | %s |\n' "$timeout_check" "$b" "$ms" \
            "$(awk "BEGIN{printf \"%.0f\", $ms - $timeout_check * 1000}")" "$c"
    done
fi
