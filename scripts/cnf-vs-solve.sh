#!/usr/bin/env bash
# Our solver against a generic SAT solver on our own CNF export (issue 32's "no family where
# CaDiCaL is faster" target). For every family, size and seed it generates a level and times,
# whole process, one run each, wall clock and CPU time (user + system, from GNU time: on a
# loaded host the fairer figure, though ours may use two threads):
#   ours     `--solve LEVEL -t 2 --timeout TIMEOUT -o OUT`
#   encode   `--to-cnf LEVEL -o CNF`
#   cadical  `cadical -t TIMEOUT CNF`, its model then checked by `--from-model` (a wrong
#            model would show as "BAD" in the verdict)
# and prints a Markdown table, times as "wall (cpu)" seconds; "ratio" is (encode + cadical) /
# ours in wall time, above 1 meaning we win.
#   scripts/cnf-vs-solve.sh
# Environment: SIZES (default "256 512"), SEEDS (default "1"), TIMEOUT seconds per run
# (default 60), CADICAL (default cadical), BIN (default: the release build), FAMILIES
# (space-separated; default every family of the generator), BOARD (extra --generate options
# for another board, e.g. "--grid hexagonal --wrap"; there only random, loops, dominoes,
# paths3, paths4 and maze-kruskal exist, and +moved does not). A family is a --family name or
# maze-ALGO, with :P for --bent P and +moved for one straight moved (--move-i 1, which makes
# most levels unsolvable with the chessboard balance kept), e.g. "paths3:0.9+moved".
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${SIZES:-"256 512"}
seeds=${SEEDS:-"1"}
timeout=${TIMEOUT:-60}
cadical=${CADICAL:-cadical}
families=${FAMILIES:-"random dominoes loops mixed straight maze-kruskal paths3:0.6 paths3:0.75 paths3:0.9 paths3:1.0 paths4:0.6"}
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    bin=./target/release/phineloops
else
    bin=$BIN
fi
command -v "$cadical" >/dev/null || { echo "no $cadical on PATH" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed CMD...: runs CMD (output to $tmp/run.out), sets $secs (wall), $cpu and $code.
timed() {
    local t0
    code=0
    t0=$EPOCHREALTIME
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >"$tmp/run.out" 2>/dev/null || code=$?
    secs=$(awk "BEGIN{printf \"%.2f\", $EPOCHREALTIME - $t0}")
    cpu=$(tail -1 "$tmp/time" | awk '{printf "%.2f", $1 + $2}')
}

# generate_args FAMILY: the --generate options of a family token.
generate_args() {
    local token=$1 name bent
    name=${token%%+*}
    bent=""
    case $name in *:*) bent=${name#*:}; name=${name%%:*} ;; esac
    case $name in
        maze-*) printf -- '--maze %s' "${name#maze-}" ;;
        *) printf -- '--family %s' "$name" ;;
    esac
    [ -n "$bent" ] && printf -- ' --bent %s' "$bent"
    case $token in *+moved) printf -- ' --move-i 1' ;; esac
    return 0
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg); ours -t 2; timeout ${timeout} s; cadical $("$cadical" --version 2>/dev/null | head -1)"
echo
[ -n "${BOARD:-}" ] && echo "board: $BOARD" && echo
echo "| family | size | seed | ours s (cpu) | verdict | encode s (cpu) | cadical s (cpu) | verdict | ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in $sizes; do
    for family in $families; do
        for seed in $seeds; do
            level=$tmp/level.txt
            # shellcheck disable=SC2046,SC2086
            "$bin" --generate "${n}x${n}" ${BOARD:-} $(generate_args "$family") --seed "$seed" -o "$level" 2>/dev/null
            timed "$bin" --solve "$level" -t 2 --timeout "$timeout" -o "$tmp/ours.txt"
            ours=$secs
            ours_cpu=$cpu
            case $code in 0) ov=solved ;; 1) ov=no-solution ;; 3) ov=timeout ;; *) ov="exit $code" ;; esac
            timed "$bin" --to-cnf "$level" -o "$tmp/level.cnf"
            enc=$secs
            enc_cpu=$cpu
            timed "$cadical" -q -t "$timeout" "$tmp/level.cnf"
            cad=$secs
            cad_cpu=$cpu
            case $code in
                10)
                    cv=sat
                    cp "$tmp/run.out" "$tmp/model.txt"
                    "$bin" --from-model "$tmp/model.txt" --level "$level" -o "$tmp/cad.txt" >/dev/null 2>&1 || cv="sat BAD"
                    ;;
                20) cv=unsat ;;
                *) cv=timeout ;;
            esac
            ratio=$(awk "BEGIN{ if ($ours > 0) printf \"%.1f\", ($enc + $cad) / $ours; else print \"-\" }")
            if [ "$ov" = timeout ] && [ "$cv" = timeout ]; then ratio=-
            elif [ "$ov" = timeout ]; then ratio="<$ratio"
            elif [ "$cv" = timeout ]; then ratio=">$ratio"
            fi
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
                "$family" "${n}x${n}" "$seed" "$ours ($ours_cpu)" "$ov" "$enc ($enc_cpu)" \
                "$cad ($cad_cpu)" "$cv" "$ratio"
        done
    done
done
