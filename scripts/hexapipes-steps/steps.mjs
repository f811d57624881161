// hexapipes' difficulty measure for one puzzle: the steps its solver yields while finding
// every solution, per tile (as its generator-stats test counts them). Usage:
// node steps.mjs PUZZLE.json [wrap]  ->  {"spt": ...}
import fs from 'fs';
import { Solver } from './solver.js';
import { HexaGrid } from './grids/hexagrid.js';
import { SquareGrid } from './grids/squaregrid.js';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf-8'));
const wrap = p.wrap ?? process.argv[3] === 'wrap';
const kind = p.grid ?? 'hexagonal';
const grid = kind === 'square' ? new SquareGrid(p.width, p.height, wrap, p.tiles) : new HexaGrid(p.width, p.height, wrap, p.tiles);
const solver = new Solver(p.tiles, grid);
let steps = 0;
for (const _ of solver.solve(true)) steps += 1;
console.log(JSON.stringify({ spt: steps / grid.total }));
