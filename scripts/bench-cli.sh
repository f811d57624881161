#!/usr/bin/env bash
# Times the release binary as a user runs it (whole process: start, parse, solve, verify,
# write) on generated levels with fixed seeds and, when ../shared is present, on every public
# instance. Prints a Markdown table: best wall time of REPS runs for --check and --solve, peak
# memory of the solve, and the solver's verdict.
#   scripts/bench-cli.sh [REPS]        (default 3)
# Environment: SIZES_RANDOM, SIZES_DOMINOES, SIZES_STRAIGHT (space-separated; straight
# segments, seed 2, default 512; empty to skip), METHOD (default auto),
# THREADS (default: all cores), PUBLIC_DIR (default ../shared/instances/public).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
method=${METHOD:-auto}
threads=${THREADS:-$(nproc)}
sizes_random=${SIZES_RANDOM:-"64 256 1024 4096"}
sizes_dominoes=${SIZES_DOMINOES:-"256 512 1024"}
sizes_straight=${SIZES_STRAIGHT-"512"}
public_dir=${PUBLIC_DIR:-../shared/instances/public}

cargo build --release --quiet
bin=./target/release/phineloops
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best_of CMD...: prints "milliseconds peak_kb exit_code" of the fastest of $reps runs
# (wall time from bash's microsecond clock; memory from GNU time).
best_of() {
    local best="" mem="" code=0 t0 t1 ms m
    for _ in $(seq "$reps"); do
        code=0
        t0=$EPOCHREALTIME
        /usr/bin/time -f "%M" -o "$tmp/time" "$@" >/dev/null 2>&1 || code=$?
        t1=$EPOCHREALTIME
        ms=$(awk "BEGIN{printf \"%.1f\", ($t1 - $t0) * 1000}")
        m=$(tail -1 "$tmp/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($ms < $best)}"; then best=$ms; mem=$m; fi
    done
    echo "$best $mem $code"
}

row() { # name file
    local name=$1 file=$2
    read -r ct _ _ < <(best_of "$bin" --check "$file")
    read -r st sm sc < <(best_of "$bin" --solve "$file" -o "$tmp/out.txt" -m "$method" -t "$threads")
    local verdict
    case $sc in 0) verdict=solved ;; 1) verdict=no-solution ;; 3) verdict=timeout ;; *) verdict="exit $sc" ;; esac
    local ratio
    ratio=$(awk "BEGIN{ if ($ct > 0) printf \"%.1f\", $st / $ct; else print \"-\" }")
    printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$ct" "$st" "$ratio" "$((sm / 1024))" "$verdict"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); method $method, -t $threads, best of $reps"
echo
echo "| level | check ms | solve ms | solve/check | solve peak MB | verdict |"
echo "|---|---|---|---|---|---|"
for n in $sizes_random; do
    "$bin" --generate "${n}x${n}" --seed 1 -o "$tmp/r$n.txt"
    row "random ${n}x${n} (seed 1)" "$tmp/r$n.txt"
done
for n in $sizes_dominoes; do
    "$bin" --generate "${n}x${n}" --family dominoes --seed 1 -o "$tmp/d$n.txt"
    row "dominoes ${n}x${n} (seed 1)" "$tmp/d$n.txt"
done
for n in $sizes_straight; do
    "$bin" --generate "${n}x${n}" --family straight --seed 2 -o "$tmp/s$n.txt"
    row "straight ${n}x${n} (seed 2)" "$tmp/s$n.txt"
done
if [ -d "$public_dir" ]; then
    for f in "$public_dir"/*; do
        case $f in *.dat|*.txt) row "$(basename "$f")" "$f" ;; esac
    done
else
    echo
    echo "($public_dir not found: public instances skipped)"
fi
