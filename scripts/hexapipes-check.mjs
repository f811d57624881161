// Independent checker of a solved hexapipes puzzle, built on hexapipes' own grid code
// (github.com/gereleth/hexapipes, MIT): the topology (cells, empty cells, directions, neighbours
// across the edges and across wrap seams, tile rotation) comes from its src/lib/puzzle/grids/*.js,
// not from this crate. scripts/hexapipes-verify.sh prepares GRIDS_DIR from a checkout: those
// files with their SvelteKit imports ($lib/..., extension-less './x') rewritten to './x.js',
// the npm package transformation-matrix replaced by a small shim (tm.js; the grids use it only for
// drawing and pointer geometry), and a package.json {"type":"module"}.
//
// usage: node scripts/hexapipes-check.mjs GRIDS_DIR PUZZLE.json SOLUTION.json [--wrap]
//    or: HEXAPIPES_GRIDS=GRIDS_DIR node scripts/hexapipes-check.mjs PUZZLE.json SOLUTION.json [--wrap]
//   both files are hexapipes instances: {"grid"?, "width", "height", "wrap"?, "tiles": [...]};
//   "grid" absent => 'hexagonal' (as the app: createGrid(data.grid || 'hexagonal', ...));
//   "wrap" absent => true if --wrap is given, else false (the hexagonal-wrap collection's files
//   have no "wrap" field).
// The grid is built from the PUZZLE's tiles, as the app does, and the solution must
//   1. describe the same board (grid, width, height, wrap, number of tiles);
//   2. give each cell a rotation of the puzzle's tile there (grid.rotate on that cell's polygon);
//      cells hexapipes treats as empty must hold tile 0;
//   3. answer every pipe end: each direction a tile points to is a direction of its polygon, leads
//      (grid.find_neighbour) to a non-empty cell on the board, and that cell points back
//      (grid.OPPOSITE); the grid must map the way back to the same cell;
//   4. connect the non-empty cells into a single tree: one component, no loop.
// Compared with hexapipes' own game.isSolved (src/lib/puzzle/game.js), which accepts a board when
// its connections form one loop-free component covering every non-empty cell: the same tree
// test, but stricter, because the game builds its connections only from ends that reach a
// non-empty cell and silently drops ends pointing off the board or into an empty cell (it only
// marks those tiles as disconnected), so isSolved can accept such a board; this checker rejects
// it. It also checks tile rotations and the board, which the game never needs to.
// Prints OK and exits 0 when the solution is valid; otherwise prints the first problems and
// exits 1 (exit 2 on usage, unreadable input or grid code that cannot be loaded).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const MAX_SHOWN = 10;

const args = process.argv.slice(2);
const wrapFlag = args.includes('--wrap');
const positional = args.filter((a) => a !== '--wrap');
const gridsDir = positional.length === 3 ? positional.shift() : process.env.HEXAPIPES_GRIDS;
const files = positional;
if (files.length !== 2 || !gridsDir) {
	console.error('usage: node hexapipes-check.mjs GRIDS_DIR PUZZLE.json SOLUTION.json [--wrap]');
	console.error('   or: HEXAPIPES_GRIDS=GRIDS_DIR node hexapipes-check.mjs PUZZLE.json SOLUTION.json [--wrap]');
	process.exit(2);
}
let createGrid;
try {
	({ createGrid } = await import(pathToFileURL(resolve(gridsDir, 'grids.js')).href));
} catch (e) {
	console.error(`cannot load hexapipes' grid code from ${gridsDir}/grids.js: ${e.message || e}`);
	process.exit(2);
}

function load(path) {
	try {
		return JSON.parse(readFileSync(path, 'utf8'));
	} catch (e) {
		console.error(`cannot read ${path}: ${e.message || e}`);
		process.exit(2);
	}
}

const puzzleData = load(files[0]);
const solutionData = load(files[1]);

const problems = [];
function problem(msg) {
	problems.push(msg);
}
function finish() {
	if (problems.length === 0) {
		console.log('OK');
		process.exit(0);
	}
	console.log(`FAIL: ${problems.length} problem(s)`);
	for (const p of problems.slice(0, MAX_SHOWN)) console.log('  ' + p);
	if (problems.length > MAX_SHOWN) console.log(`  ... and ${problems.length - MAX_SHOWN} more`);
	process.exit(1);
}

function norm(d) {
	return {
		grid: d.grid ?? 'hexagonal',
		width: d.width,
		height: d.height,
		wrap: d.wrap ?? wrapFlag,
		tiles: d.tiles
	};
}
const P = norm(puzzleData);
const S = norm(solutionData);

// ---- 1. same board -------------------------------------------------------------------------
for (const key of ['grid', 'width', 'height', 'wrap']) {
	if (P[key] !== S[key]) problem(`${key} differs: puzzle ${JSON.stringify(P[key])}, solution ${JSON.stringify(S[key])}`);
}
for (const [name, d] of [['puzzle', P], ['solution', S]]) {
	if (!Array.isArray(d.tiles) || !d.tiles.every((t) => Number.isInteger(t) && t >= 0)) {
		problem(`${name}: "tiles" is not an array of non-negative integers`);
	}
}
if (problems.length) finish();
if (P.tiles.length !== S.tiles.length) {
	problem(`tile count differs: puzzle ${P.tiles.length}, solution ${S.tiles.length}`);
	finish();
}

let grid;
try {
	// built with the PUZZLE's tiles, exactly as the app's daily route does
	grid = createGrid(P.grid, P.width, P.height, P.wrap, P.tiles);
} catch (e) {
	problem(`hexapipes cannot build grid ${P.grid} ${P.width}x${P.height} wrap=${P.wrap}: ${e}`);
	finish();
}
if (grid.total !== P.tiles.length) {
	problem(`grid ${P.grid} ${P.width}x${P.height} has ${grid.total} cells, files have ${P.tiles.length} tiles`);
	finish();
}

const total = grid.total;
const isEmpty = (i) => grid.emptyCells.has(i);
const bitsOf = (t) => {
	const out = [];
	for (let b = 1; b <= t; b *= 2) if (t & b) out.push(b);
	return out;
};

// ---- 2. every solution tile is a rotation of the puzzle tile on that cell's polygon -------------
for (let i = 0; i < total; i++) {
	const pt = P.tiles[i];
	const st = S.tiles[i];
	const polygon = grid.polygon_at(i);
	const dirs = polygon.directions;
	const stray = bitsOf(pt).filter((b) => !dirs.includes(b));
	if (stray.length) problem(`cell ${i}: puzzle tile ${pt} has bits ${stray} that are not directions of its polygon ${dirs}`);
	if (isEmpty(i) && pt !== 0) problem(`cell ${i}: hexapipes treats it as empty but the puzzle tile is ${pt}`);
	let ok = false;
	for (let times = 0; times < polygon.num_directions; times++) {
		if (grid.rotate(pt, times, i) === st) {
			ok = true;
			break;
		}
	}
	if (!ok) problem(`cell ${i}: solution tile ${st} is not a rotation of puzzle tile ${pt} (polygon directions ${dirs})`);
}

// ---- 3. every connection is answered --------------------------------------------------------
let halfEdges = 0; // answered (cell, direction) pairs; each connection is counted from both ends
const parent = Array.from({ length: total }, (_, i) => i);
const find = (x) => {
	while (parent[x] !== x) x = parent[x] = parent[parent[x]];
	return x;
};
let cycleAt = null;
for (let i = 0; i < total; i++) {
	const st = S.tiles[i];
	if (st === 0) continue;
	const dirs = grid.polygon_at(i).directions;
	for (const d of bitsOf(st)) {
		if (!dirs.includes(d)) {
			problem(`cell ${i}: solution tile ${st} has bit ${d}, not a direction of its polygon ${dirs}`);
			continue;
		}
		const { neighbour, empty } = grid.find_neighbour(i, d);
		if (neighbour === -1 || neighbour === undefined) {
			problem(`cell ${i}: direction ${d} points outside the board`);
			continue;
		}
		if (empty) {
			problem(`cell ${i}: direction ${d} points to empty cell ${neighbour}`);
			continue;
		}
		const opp = grid.OPPOSITE.get(d);
		if (opp === undefined || !(S.tiles[neighbour] & opp)) {
			problem(`cell ${i}: direction ${d} to cell ${neighbour} is not answered (neighbour tile ${S.tiles[neighbour]} lacks bit ${opp})`);
			continue;
		}
		// sanity of the grid code itself: the opposite direction must lead back
		const back = grid.find_neighbour(neighbour, opp).neighbour;
		if (back !== i) {
			problem(`grid inconsistency: ${i} -(${d})-> ${neighbour} but ${neighbour} -(${opp})-> ${back}`);
			continue;
		}
		halfEdges++;
		// ---- 4 (part). union each connection once: from its lower (cell, direction) end
		if (i < neighbour || (i === neighbour && d < opp)) {
			const a = find(i);
			const b = find(neighbour);
			if (a === b) {
				if (cycleAt === null) cycleAt = `${i} -(${d})-> ${neighbour}`;
			} else parent[a] = b;
		}
	}
}

// ---- 4. exactly one tree over the non-empty cells ------------------------------------------------
const cells = [];
for (let i = 0; i < total; i++) if (!isEmpty(i)) cells.push(i);
const connections = halfEdges / 2;
if (cells.length > 0) {
	const roots = new Set(cells.map(find));
	if (roots.size !== 1) problem(`not connected: the ${cells.length} non-empty cells form ${roots.size} components`);
	if (connections !== cells.length - 1) {
		problem(`not a tree: ${connections} connections for ${cells.length} non-empty cells (need ${cells.length - 1})`);
	}
	if (cycleAt !== null) problem(`loop: connection ${cycleAt} closes a cycle`);
}

finish();
