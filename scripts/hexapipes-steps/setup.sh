#!/usr/bin/env bash
# Builds a runner of hexapipes' own solver (github.com/gereleth/hexapipes, MIT) for
# scripts/grade-correlation.py: copies its solver and grids from a checkout into OUT, points
# their SvelteKit imports at the copies, and adds steps.mjs (steps per tile, as hexapipes'
# generator-stats test counts them) with tm.js (the few affine-matrix functions the grids
# import from the transformation-matrix package, so no npm install is needed).
#   scripts/hexapipes-steps/setup.sh HEXAPIPES_CHECKOUT OUT
#   HEXAPIPES_STEPS=OUT/steps.mjs scripts/grade-correlation.py target/release/phineloops ../shared
set -euo pipefail
src=${1:?a hexapipes checkout}/src/lib/puzzle
out=${2:?an output folder}
here=$(dirname "$0")
mkdir -p "$out/grids"
cp "$src/solver.js" "$out/"
for g in hexagrid octagrid squaregrid polygonutils abstractgrid; do
    cp "$src/grids/$g.js" "$out/grids/"
done
sed -i -E "s#'\\\$lib/puzzle/grids/([a-z]+)'#'./grids/\1.js'#" "$out/solver.js"
sed -i -E "s#'\\\$lib/puzzle/grids/([a-z]+)'#'./\1.js'#; s#from 'transformation-matrix'#from '../tm.js'#" "$out"/grids/*.js
cp "$here/steps.mjs" "$here/tm.js" "$out/"
echo '{"type":"module"}' > "$out/package.json"
echo "HEXAPIPES_STEPS=$out/steps.mjs"
