#!/usr/bin/env bash
# Times --count as a user runs it (whole process) on every public level up to MAX cells a side
# and on dominoes levels 12 wide and 40 long (seeds 1-3), and --count-limit 1 / 2 against
# --solve on the public 128x128 dist.1 level. Prints Markdown tables: best wall time of REPS
# runs and the answer (the count, its digits, or the error line).
#   scripts/bench-count.sh [REPS]      (default 3)
# Environment: MAX (default 32), TIMEOUT seconds per count (default 10),
# PUBLIC_DIR (default ../shared/instances/public).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
max=${MAX:-32}
limit=${TIMEOUT:-10}
public_dir=${PUBLIC_DIR:-../shared/instances/public}

cargo build --release --quiet
bin=./target/release/phineloops
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best_of CMD...: prints the milliseconds of the fastest of $reps runs; the first line of the
# last run's output (stdout, else stderr) is left in $tmp/answer.
best_of() {
    local best="" t0 t1 ms
    for _ in $(seq "$reps"); do
        t0=$EPOCHREALTIME
        "$@" >"$tmp/out" 2>"$tmp/err" || true
        t1=$EPOCHREALTIME
        ms=$(( (${t1/./} - ${t0/./}) / 1000 ))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    if [ -s "$tmp/out" ]; then head -n1 "$tmp/out" >"$tmp/answer"; else head -n1 "$tmp/err" >"$tmp/answer"; fi
    echo "$best"
}

answer() {
    local a
    a=$(cat "$tmp/answer")
    a=${a#SOLUTIONS: }
    if [ "${#a}" -gt 40 ]; then a="${a:0:12}... (${#a} digits)"; fi
    echo "$a"
}

echo "| level | --count ms | solutions |"
echo "|---|---:|---|"
levels=()
if [ -d "$public_dir" ]; then
    for f in "$public_dir"/grid_*.dat; do
        n=$(basename "$f")
        side=${n#grid_}
        side=${side%%x*}
        if [ "$side" -le "$max" ]; then levels+=("$f"); fi
    done
fi
for seed in 1 2 3; do
    f="$tmp/dominoes_12x40_s$seed.txt"
    "$bin" --generate 12x40 --family dominoes --seed "$seed" -o "$f" >/dev/null
    levels+=("$f")
done
for f in "${levels[@]}"; do
    ms=$(best_of "$bin" --count "$f" --timeout "$limit")
    echo "| $(basename "$f") | $ms | $(answer) |"
done

big=$(ls "$public_dir"/grid_128x128_dist.1_*.dat 2>/dev/null | head -n1 || true)
if [ -n "$big" ]; then
    echo
    echo "| $(basename "$big") | ms | answer |"
    echo "|---|---:|---|"
    ms=$(best_of "$bin" --solve "$big" -o "$tmp/solution.txt")
    echo "| --solve | $ms | $(answer) |"
    for k in 1 2 3; do
        ms=$(best_of "$bin" --count "$big" --count-limit "$k" --timeout "$limit")
        echo "| --count-limit $k | $ms | $(answer) |"
    done
fi
