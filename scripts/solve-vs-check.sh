#!/usr/bin/env bash
# Measures issue 15's "solve <= 2x check" target and what bounds it from below. For each
# size and family it times, best wall time of REPS runs (release, whole process):
#   check   `--check LEVEL`
#   copy    a durable copy of the level (`dd conv=fsync`): what any save of a file that size
#           costs, since a solve writes a level as large as the one it read, and syncs it
#   solve   `--solve LEVEL -o OUT -t THREADS`, with the phases of its fastest run (`--json`)
# and prints a Markdown table with
#   floor   parse + verify + write of that run: the work a solve shares with check (parse,
#           verify) plus the save; nothing the solver does can remove it
#   budget  2 x check - floor: what is left for propagation, regions and search if the
#           target is to hold; negative means the target cannot be met at any solver speed
#   solver  propagate + regions + search of that run
#   scripts/solve-vs-check.sh [REPS]     (default 3)
# Environment: SIZES (default "1024 4096"), THREADS (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
threads=${THREADS:-$(nproc)}
sizes=${SIZES:-"1024 4096"}

cargo build --release --quiet
bin=./target/release/phineloops
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best_of CMD...: milliseconds of the fastest of $reps runs (bash's microsecond clock); that
# run's standard output is left in $tmp/best. Exit codes are ignored (check exits 1 on an
# unsolved level, as it should).
best_of() {
    local best="" t0 t1 ms
    for _ in $(seq "$reps"); do
        t0=$EPOCHREALTIME
        "$@" >"$tmp/run" 2>/dev/null || true
        t1=$EPOCHREALTIME
        ms=$(awk "BEGIN{printf \"%.1f\", ($t1 - $t0) * 1000}")
        if [ -z "$best" ] || awk "BEGIN{exit !($ms < $best)}"; then
            best=$ms
            mv "$tmp/run" "$tmp/best"
        fi
    done
    echo "$best"
}

# phase JSON NAME: one entry of "time_ms".
phase() { sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" <<<"$1"; }

row() { # name file
    local name=$1 file=$2 ct cp st json floor solver budget
    ct=$(best_of "$bin" --check "$file")
    cp=$(best_of dd if="$file" of="$tmp/copy.txt" bs=4M conv=fsync status=none)
    st=$(best_of "$bin" --solve "$file" -o "$tmp/out.txt" -t "$threads" --json)
    json=$(tail -1 "$tmp/best")
    floor=$(awk "BEGIN{printf \"%.0f\", $(phase "$json" parse) + $(phase "$json" verify) + $(phase "$json" write)}")
    solver=$(awk "BEGIN{printf \"%.0f\", $(phase "$json" propagate) + $(phase "$json" regions) + $(phase "$json" search)}")
    budget=$(awk "BEGIN{printf \"%.0f\", 2 * $ct - $floor}")
    printf '| %s | %s | %s | %s | %.1f | %.1f | %s | %s | %s |\n' "$name" "$ct" "$cp" "$st" \
        "$(awk "BEGIN{print $st / $ct}")" "$(awk "BEGIN{print $st / ($ct + $cp)}")" \
        "$floor" "$budget" "$solver"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); -t $threads, best of $reps"
echo
echo "| level | check ms | copy ms | solve ms | solve/check | solve/(check+copy) | floor ms | budget ms | solver ms |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in $sizes; do
    for kind in random loops mixed kruskal; do
        case $kind in
        kruskal) args=(--maze kruskal) ;;
        *) args=(--family "$kind") ;;
        esac
        "$bin" --generate "${n}x${n}" "${args[@]}" --seed 1 -o "$tmp/level.txt"
        row "$kind ${n}x${n} (seed 1)" "$tmp/level.txt"
    done
done
