#!/usr/bin/env bash
# Every generator family on one board, as generated, made unsolvable, and (on the bounded
# square board) with one straight moved: where does `--solve` slow down? For each family,
# variant and seed it generates a level and times `--solve LEVEL -t THREADS --timeout
# TIMEOUT` (release, whole process, one run), and prints a Markdown table of the exit code
# (0 solved, 1 no solution, 3 no answer in time) and the wall time.
#   scripts/sweep-families.sh
# Environment: SIZE (default 256), SEEDS (default "1 2"), TIMEOUT seconds (default 20),
# THREADS (default 2), BOARD (extra --generate options, e.g. "--grid hexagonal" or "--wrap"),
# FAMILIES (default: every family the board has; a --family name, maze-ALGO, or NAME:P for
# --bent P), VARIANTS (default "plain odd even", plus "move" on the bounded square board;
# odd and even are --unsolvable odd-parity / even-parity, move is --move-i 1), BIN (default:
# the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${SIZE:-256}
seeds=${SEEDS:-"1 2"}
timeout=${TIMEOUT:-20}
threads=${THREADS:-2}
board=${BOARD:-}
if [ -z "$board" ]; then
    all="random dominoes loops mixed straight hooks paths3:0.6 paths3:0.75 paths3:0.9 paths3:1.0 paths4:0.75 paths4:1.0 maze-kruskal"
    variants=${VARIANTS:-"plain odd even move"}
else
    all="random dominoes loops paths3:0.6 paths3:0.75 paths3:1.0 paths4:0.75 paths4:1.0 maze-kruskal"
    variants=${VARIANTS:-"plain odd even"}
fi
families=${FAMILIES:-$all}
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    bin=./target/release/phineloops
else
    bin=$BIN
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "board: ${board:-bounded square} ${size}x${size}; --solve -t $threads --timeout $timeout; exit code, wall seconds per seed ($seeds)"
echo
echo "| family | variant | $(sed 's/ / | /g' <<<"$seeds") |"
echo "|---|---|$(for _ in $seeds; do printf -- '---|'; done)"
for family in $families; do
    case $family in
    maze-*) fam=(--maze "${family#maze-}") ;;
    *:*) fam=(--family "${family%%:*}" --bent "${family#*:}") ;;
    *) fam=(--family "$family") ;;
    esac
    for variant in $variants; do
        case $variant in
        plain) var=() ;;
        odd) var=(--unsolvable odd-parity) ;;
        even) var=(--unsolvable even-parity) ;;
        move) var=(--move-i 1) ;;
        *) echo "unknown variant $variant" >&2; exit 2 ;;
        esac
        row="| $family | $variant |"
        for seed in $seeds; do
            # shellcheck disable=SC2086
            if ! "$bin" --generate "${size}x${size}" $board "${fam[@]}" ${var[@]+"${var[@]}"} \
                --seed "$seed" -o "$tmp/level.txt" 2>"$tmp/gen.err"; then
                row="$row no level |"
                continue
            fi
            t0=$EPOCHREALTIME
            code=0
            "$bin" --solve "$tmp/level.txt" -o "$tmp/out.txt" -t "$threads" --timeout "$timeout" \
                >/dev/null 2>&1 || code=$?
            t1=$EPOCHREALTIME
            row="$row $code, $(awk "BEGIN{printf \"%.2f\", $t1 - $t0}") |"
        done
        echo "$row"
    done
done
