#!/usr/bin/env bash
# Independent verification against hexapipes (github.com/gereleth/hexapipes, MIT): solves its
# published puzzles with the release binary and checks every answer with hexapipes' own grid
# code under node (scripts/hexapipes-check.mjs).
#   scripts/hexapipes-verify.sh HEXAPIPES_DIR [PER_SIZE]      (PER_SIZE default 30)
# HEXAPIPES_DIR is a checkout of hexapipes (it needs src/lib/puzzle/grids/ and static/_instances/).
# Puzzles: every daily (static/_instances/daily/**/*.json) and PER_SIZE per size of each of
# static/_instances/hexagonal*/ (deterministic: of the N files of a size, ids sorted numerically,
# the PER_SIZE at 0-based positions 0, s, 2s, ... for s = floor(N / PER_SIZE), all of them if
# PER_SIZE >= N; for ids 1..1000 and PER_SIZE 30: ids 1, 34, ..., 958, every 33rd).
# Files of hexagonal-wrap have no "wrap" field; they are solved and checked with --wrap.
# Each puzzle: `phineloops --solve P -o OUT [--wrap] --timeout 60` (wall ms), then the checker.
# Prints a Markdown table (dailies by grid and wrap, collections by size): files, solved,
# checker OK, median and max solve ms; then lists every failure. Exit 1 if any puzzle is unsolved
# or rejected. Needs node (no npm install: the grids' one npm import, transformation-matrix,
# is replaced by scripts/hexapipes-steps/tm.js).
# Environment: BIN (the binary to run, default: this tree's release build, built first),
# TIMEOUT (solver --timeout seconds, default 60).
set -euo pipefail
hexapipes=${1:?usage: scripts/hexapipes-verify.sh HEXAPIPES_DIR [PER_SIZE]}
per_size=${2:-30}
timeout_s=${TIMEOUT:-60}
hexapipes=$(cd "$hexapipes" 2>/dev/null && pwd) || { echo "error: no folder $1" >&2; exit 2; }
cd "$(dirname "$0")/.."
here=$PWD/scripts

command -v node >/dev/null || { echo "error: node is required (https://nodejs.org)" >&2; exit 2; }
grids_src=$hexapipes/src/lib/puzzle/grids
instances=$hexapipes/static/_instances
for d in "$grids_src" "$instances/daily"; do
    [ -d "$d" ] || { echo "error: $d is missing: is $hexapipes a hexapipes checkout?" >&2; exit 2; }
done
case $per_size in '' | *[!0-9]* | 0) echo "error: PER_SIZE must be a positive integer" >&2; exit 2 ;; esac

if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a private copy, so that a rebuild during the run cannot mix two versions
cp "${BIN:-./target/release/phineloops}" "$tmp/phineloops"
bin=$tmp/phineloops

# ---- hexapipes' grid code, runnable by plain node ---------------------------------------------
grids=$tmp/grids
mkdir "$grids"
for f in "$grids_src"/*.js; do
    case $f in *.test.js) ;; *) cp "$f" "$grids/" ;; esac
done
[ -f "$grids/grids.js" ] || { echo "error: $grids_src/grids.js is missing" >&2; exit 2; }
# import specifiers: '$lib/puzzle/grids/x' and './x' -> './x.js'; 'transformation-matrix' ->
# './tm.js'; either quote. (Type-only import('...') in JSDoc comments are left alone.)
sed -i -E \
    -e "s#(from[[:space:]]*)(['\"])\\\$lib/puzzle/grids/([A-Za-z0-9_]+)(\\.js)?(['\"])#\\1\\2./\\3.js\\5#g" \
    -e "s#(from[[:space:]]*)(['\"])\\./([A-Za-z0-9_]+)(['\"])#\\1\\2./\\3.js\\4#g" \
    -e "s#(from[[:space:]]*)(['\"])transformation-matrix(['\"])#\\1\\2./tm.js\\3#g" \
    "$grids"/*.js
cp "$here/hexapipes-steps/tm.js" "$grids/tm.js"
echo '{"type":"module"}' >"$grids/package.json"
# every module specifier left (static `from '...'`, bare `import '...'`, or a dynamic import /
# require outside a comment) must now name a file of this folder
bad=0
while IFS=: read -r file line spec; do
    case $spec in
        ./*.js) [ -f "$grids/${spec#./}" ] && continue ;;
    esac
    echo "error: $(basename "$file"):$line: import '$spec' was not rewritten to a file of the grids folder" >&2
    bad=1
done < <(grep -HnoE "(from[[:space:]]*|^[[:space:]]*import[[:space:]]*)['\"][^'\"]+['\"]" "$grids"/*.js |
    sed -E "s#^([^:]+:[0-9]+:).*['\"]([^'\"]+)['\"]\$#\\1\\2#")
if grep -nE "^[[:space:]]*[^*/[:space:]].*(\\bimport\\(|\\brequire\\()" "$grids"/*.js >&2; then
    echo "error: dynamic import / require in hexapipes' grid code: not handled" >&2
    bad=1
fi
[ "$bad" = 0 ] || exit 2
check() { node "$here/hexapipes-check.mjs" "$grids" "$@"; }

# ---- the puzzles: "file<TAB>group<TAB>wrap flag" ------------------------------------------------
list=$tmp/list.tsv
find -L "$instances/daily" -name '*.json' | sort >"$tmp/daily"
# group of a daily: its grid ("hexagonal" when absent, as the app) and wrap
node --input-type=module -e '
import { readFileSync } from "node:fs";
for (const f of readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean)) {
    const d = JSON.parse(readFileSync(f, "utf8"));
    console.log(`${f}\tdaily ${d.grid ?? "hexagonal"}${d.wrap ? " wrap" : ""}\t`);
}' "$tmp/daily" | sort -t$'\t' -k2,2 -s >"$list"
for coll in "$instances"/hexagonal*/; do
    coll=${coll%/}
    name=$(basename "$coll")
    flag=
    [[ $name == *wrap* ]] && flag=--wrap
    while read -r size; do
        find -L "$coll/$size" -name '*.json' |
            awk -F/ '{ id = $NF; sub(/\.json$/, "", id); print id "\t" $0 }' | sort -n -k1,1 | cut -f2 |
            awk -v k="$per_size" -v g="$name $size" -v w="$flag" '
                { f[NR - 1] = $0 }
                END { if (k >= NR) { for (i = 0; i < NR; i++) print f[i] "\t" g "\t" w; exit }
                      s = int(NR / k)
                      for (j = 0; j < k; j++) print f[j * s] "\t" g "\t" w }'
    done < <(find -L "$coll" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -n -t x -k1,1)
done >>"$list"
total=$(wc -l <"$list")
echo "hexapipes: $hexapipes ($total puzzles: every daily, $per_size per size of hexagonal*)" >&2

# ---- solve and check ---------------------------------------------------------------------------
results=$tmp/results.tsv   # order group file rc ms verdict detail
: >"$results"
order=0 prev= n=0
while IFS=$'\t' read -r file group flag; do
    [ "$group" = "$prev" ] || { order=$((order + 1)); prev=$group; }
    n=$((n + 1))
    out=$tmp/out.json
    rm -f "$out"
    args=(--solve "$file" -o "$out" --timeout "$timeout_s")
    [ -n "$flag" ] && args+=("$flag")
    rc=0
    t0=$EPOCHREALTIME
    timeout $((timeout_s * 3)) "$bin" "${args[@]}" >"$tmp/log" 2>&1 || rc=$?
    t1=$EPOCHREALTIME
    ms=$(awk "BEGIN{printf \"%.1f\", ($t1 - $t0) * 1000}")
    if [ "$rc" = 0 ] && [ -s "$out" ]; then
        crc=0
        check "$file" "$out" ${flag:+"$flag"} >"$tmp/check" 2>&1 || crc=$?
        if [ "$crc" = 0 ] && [ "$(cat "$tmp/check")" = OK ]; then
            verdict=OK detail=
        else
            verdict=REJECTED detail="checker exit $crc: $(tr -s '\n\t ' ' ' <"$tmp/check")"
        fi
    elif [ "$rc" = 0 ]; then
        verdict=NO_OUTPUT detail="exit 0 but no output file"
    else
        verdict=UNSOLVED detail="exit $rc: $(tail -n 3 "$tmp/log" | tr -s '\n\t ' ' ')"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$order" "$group" "${file#"$instances"/}" "$rc" "$ms" "$verdict" "$detail" >>"$results"
    if [ $((n % 100)) = 0 ]; then echo "  $n / $total" >&2; fi
done <"$list"

# ---- report ------------------------------------------------------------------------------------
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); --timeout $timeout_s"
echo
echo "| puzzles | files | solved | checker OK | median ms | max ms |"
echo "|---|---|---|---|---|---|"
sort -t$'\t' -k1,1n -k5,5g "$results" | awk -F'\t' '
    function row(name, a, n, s, c,    med) {
        med = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        printf "| %s | %d | %d | %d | %.1f | %.1f |\n", name, n, s, c, med, a[n]
    }
    $1 != cur { if (cur != "") row(g, t, n, s, c); cur = $1; g = $2; n = s = c = 0 }
    { t[++n] = $5; s += ($4 == 0); c += ($6 == "OK"); S += ($4 == 0); C += ($6 == "OK"); N++ }
    END { if (cur != "") row(g, t, n, s, c); printf "| **all** | %d | %d | %d | | |\n", N, S, C }'
failures=$(awk -F'\t' '$6 != "OK"' "$results")
if [ -n "$failures" ]; then
    echo
    echo "Failures:"
    printf '%s\n' "$failures" | awk -F'\t' '{ printf "- %s (%s, %s ms): %s %s\n", $3, $2, $5, $6, $7 }'
    exit 1
fi
echo
echo "All $total answers accepted by hexapipes' grid code."
