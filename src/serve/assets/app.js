// The phineloops player: draws any board from the geometry the server sends (cell centres,
// each kind of cell polygon with its side directions, the link table), so a new tiling needs
// no change here, nor does a grid that mixes polygons (each cell turns over its own sides).
// Served by `phineloops --serve`, or inlined with one level by `--render FILE.html`, where it
// runs with no server (the "online" controls are hidden).
'use strict';

(function () {
  const errors = [];
  window.__phineErrors = errors;
  window.addEventListener('error', (e) => errors.push(String(e.message)));
  window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));

  const $ = (id) => document.getElementById(id);
  const svg = $('board');
  const embedded = $('embedded');
  const offline = embedded !== null;
  // Replay speeds of the watch mode, in solver steps per second (the terminal game's).
  const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 20000, 100000];

  const S = {
    level: null, geo: null, k: 4, kinds: [], kind: null, masks: null, fixed: null, locks: null,
    barriers: null, status: null, history: [], redo: [], cursor: 0, solved: false,
    solvedBy: null, start: 0, stoppedAt: null, moves: 0, hints: 0, solution: null,
    watch: null, speed: 7, lockMode: false, query: null, spec: null, id: 0,
    confirmNew: false, tick: 0,
    perf: { render: null, paint: null, turn: null, turnFrame: null, request: null },
  };
  window.phine = S;
  // For tests and the console: the level as the server takes it.
  S.levelForServer = () => levelForServer();

  function message(text, isError) {
    const m = $('message');
    m.textContent = text;
    m.classList.toggle('error', !!isError);
  }

  async function api(path, body) {
    const t0 = performance.now();
    const r = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const data = await r.json();
    S.perf.request = performance.now() - t0;
    if (!r.ok) throw new Error(data.error || ('HTTP ' + r.status));
    return data;
  }

  // The polygon kind of cell `c`.
  function kindOf(c) { return S.kinds[S.kind[c]]; }

  // `mask` turned `t` places up the side order of cell `c`, over that cell's own sides.
  function rotate(c, mask, t) {
    const kd = kindOf(c);
    const k = kd.sides;
    t = ((t % k) + k) % k;
    if (t === 0) return mask;
    return ((mask << t) | (mask >> (k - t))) & kd.full;
  }

  // One clockwise step on a cell of `k` sides, whichever way the tiling numbers them.
  function clockwiseSteps(k, back) {
    const cw = S.geo.clockwise ? 1 : k - 1;
    return back ? k - cw : cw;
  }

  function num(x) { return Math.round(x * 1000) / 1000; }

  // The pipe drawing of every mask on a kind of cell, relative to its centre: a spoke to each
  // side's middle, and a bulb on a one-end piece (smaller in the small cells of a mixed grid,
  // so it stays inside them).
  function pipePaths(kd) {
    const mid = kd.middles;
    const r = num(Math.min(0.13, 0.4 * Math.min(...mid.map((m) => Math.hypot(m[0], m[1])))));
    const bulb = 'M' + r + ' 0A' + r + ' ' + r + ' 0 1 0 ' + -r + ' 0A' + r + ' ' + r + ' 0 1 0 ' + r + ' 0';
    const paths = [];
    for (let m = 0; m <= kd.full; m++) {
      let d = '';
      let ends = 0;
      for (let s = 0; s < kd.sides; s++) {
        if (!(m >> s & 1)) continue;
        ends++;
        d += 'M0 0L' + num(mid[s][0]) + ' ' + num(mid[s][1]);
      }
      if (ends === 1) d += bulb;
      paths.push(d);
    }
    return paths;
  }

  // The marks of loose ends: the outer part of each unanswered spoke.
  function endPaths(kd) {
    const mid = kd.middles;
    const paths = [];
    for (let m = 0; m <= kd.full; m++) {
      let d = '';
      for (let s = 0; s < kd.sides; s++) {
        if (m >> s & 1) {
          d += 'M' + num(mid[s][0] * 0.6) + ' ' + num(mid[s][1] * 0.6) + 'L' +
            num(mid[s][0]) + ' ' + num(mid[s][1]);
        }
      }
      paths.push(d);
    }
    return paths;
  }

  // Each polygon kind of the board, ready to draw. A pipe ends at the middle of its side,
  // between the side's two corners: cells of different kinds reach their sides at different
  // depths, and a cube face's side direction is not square to the side.
  function kindsOf(geo) {
    return geo.polygons.map((p) => {
      const k = p.sides;
      const kd = {
        sides: k, full: (1 << k) - 1, corners: p.polygon, directions: p.directions, bits: p.bits,
        points: p.polygon.map((q) => q[0] + ',' + q[1]).join(' '),
        // Side s lies between corners s-1 and s.
        middles: p.polygon.map((b, s) => {
          const a = p.polygon[(s + k - 1) % k];
          return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        }),
      };
      kd.pipes = pipePaths(kd);
      kd.ends = endPaths(kd);
      return kd;
    });
  }

  // The segment of cell `c`'s side `s` on its polygon, centred at (x, y): from corner s-1
  // to corner s.
  function sideSegment(x, y, c, s) {
    const kd = kindOf(c);
    const a = kd.corners[(s + kd.sides - 1) % kd.sides];
    const b = kd.corners[s];
    return 'M' + num(x + a[0]) + ' ' + num(y + a[1]) + 'L' + num(x + b[0]) + ' ' + num(y + b[1]);
  }

  function draw() {
    const t0 = performance.now();
    const g = S.geo;
    const [x0, y0, x1, y1] = g.extent;
    const pad = 0.08;
    svg.setAttribute('viewBox', [x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad].join(' '));
    const n = S.masks.length;
    // Judged first, so each cell is written once with its marks (no second pass over the DOM).
    const r = judge();
    const kinds = ['', ' loop', ' island'];
    const parts = new Array(n);
    let walls = '';
    for (let c = 0; c < n; c++) {
      const x = g.centres[2 * c];
      const y = g.centres[2 * c + 1];
      const lock = S.fixed[c] || S.locks[c] ? ' locked' : '';
      const kd = kindOf(c);
      parts[c] = '<g id="c' + c + '" class="cell' + lock + kinds[r.status[c] >> 1] + '" data-cell="' + c +
        '" transform="translate(' + x + ' ' + y + ')"><polygon class="tile" points="' + kd.points +
        '"/><path class="pipe" d="' + kd.pipes[S.masks[c]] + '"/><path class="ends" d="' +
        kd.ends[r.loose[c]] + '"/></g>';
      const b = S.barriers ? S.barriers[c] : 0;
      for (let s = 0; b && s < kd.sides; s++) {
        const l = g.links[c * S.k + s];
        if ((b >> s & 1) && (l < 0 || c * 8 + s < l)) walls += sideSegment(x, y, c, s);
      }
    }
    // The cursor's outline is drawn last, so no neighbouring tile covers it; its shape is
    // the cursor cell's (set by setCursor).
    svg.innerHTML = parts.join('') + (walls ? '<path class="barrier" d="' + walls + '"/>' : '') +
      '<polygon id="cursor-mark"/>';
    S.status = r.status;
    S.loose = r.loose;
    // The cells' groups alone, by cell number (the barriers and the cursor follow them).
    S.cells = Array.prototype.slice.call(svg.children, 0, n);
    setSolved(r.solved, 'player');
    setCursor(S.cursor);
    svg.getBoundingClientRect();
    S.perf.render = performance.now() - t0;
    requestAnimationFrame(() => setTimeout(() => { S.perf.paint = performance.now() - t0; }, 0));
  }

  // Loose ends (a connection nobody answers), and under Net rules loops (a network with a
  // cycle) and islands (a closed network that is not the whole): the classes of each cell,
  // and whether the level is solved. Union-find over flat arrays, once per turn.
  function analyse() {
    const r = judge();
    for (let c = 0; c < r.loose.length; c++) {
      if (r.loose[c] !== S.loose[c]) {
        S.cells[c].children[2].setAttribute('d', kindOf(c).ends[r.loose[c]]);
        S.loose[c] = r.loose[c];
      }
      const st = r.status[c];
      if (st !== S.status[c]) {
        const el = S.cells[c];
        el.classList.toggle('loop', !!(st & 2));
        el.classList.toggle('island', !!(st & 4));
        S.status[c] = st;
      }
    }
    setSolved(r.solved, S.solvedBy || 'player');
  }

  // The judgement of the pieces as they stand, touching no element: per cell its loose sides
  // and its network's state (2: has a loop, 4: a closed island), and whether it is solved.
  function judge() {
    const n = S.masks.length;
    const k = S.k;
    const links = S.geo.links;
    const masks = S.masks;
    const parent = new Int32Array(n);
    for (let i = 0; i < n; i++) parent[i] = i;
    const find = (x) => {
      while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; }
      return x;
    };
    const loose = new Uint8Array(n);
    // Answered connections, each counted at its lower end.
    const own = new Uint8Array(n);
    let anyLoose = false;
    for (let c = 0; c < n; c++) {
      const m = masks[c];
      if (!m) continue;
      const wall = S.barriers ? S.barriers[c] : 0;
      for (let s = 0; s < k; s++) {
        if (!(m >> s & 1)) continue;
        const l = links[c * k + s];
        if (l < 0 || (wall >> s & 1) || !(masks[l >> 3] >> (l & 7) & 1)) {
          loose[c] |= 1 << s;
          anyLoose = true;
        } else if (c * 8 + s < l) {
          own[c]++;
          parent[find(c)] = find(l >> 3);
        }
      }
    }
    const net = S.level.rules === 'net';
    let networks = 0;
    let loops = false;
    const verts = new Int32Array(n);
    const edges = new Int32Array(n);
    const open = new Uint8Array(n);
    if (net) {
      for (let c = 0; c < n; c++) {
        if (!masks[c]) continue;
        const r = find(c);
        if (verts[r] === 0) networks++;
        verts[r]++;
        edges[r] += own[c];
        if (loose[c]) open[r] = 1;
      }
    }
    const status = new Uint8Array(n);
    if (net) {
      for (let c = 0; c < n; c++) {
        if (!masks[c]) continue;
        const r = find(c);
        if (edges[r] >= verts[r]) { status[c] = 2; loops = true; }
        else if (!open[r] && networks > 1) status[c] = 4;
      }
    }
    return { loose, status, solved: !anyLoose && (!net || (networks <= 1 && !loops)) };
  }

  function setSolved(solved, by) {
    if (solved && !S.solved && S.stoppedAt === null) {
      S.stoppedAt = performance.now();
      S.solvedBy = by;
      message(by === 'solver' ? 'solved by the solver' : 'solved in ' + clock() + ' with ' + S.moves + ' moves');
    }
    S.solved = solved;
    svg.classList.toggle('solved', solved);
    const st = $('status');
    st.dataset.solved = String(solved);
    st.textContent = solved ? 'solved' : 'not solved';
    updateTimer();
  }

  function clock() {
    const end = S.stoppedAt === null ? performance.now() : S.stoppedAt;
    const secs = Math.floor((end - S.start) / 1000);
    return Math.floor(secs / 60) + ':' + String(secs % 60).padStart(2, '0');
  }

  function updateTimer() {
    const t = $('timer');
    t.textContent = clock();
    t.dataset.running = String(S.stoppedAt === null && S.level !== null);
    $('moves').textContent = S.moves + (S.moves === 1 ? ' move' : ' moves') +
      (S.hints ? ', ' + S.hints + (S.hints === 1 ? ' hint' : ' hints') : '');
  }

  setInterval(() => { S.tick++; if (S.level) updateTimer(); }, 250);

  function setCursor(c) {
    S.cursor = c;
    const g = S.geo.centres;
    const mark = $('cursor-mark');
    mark.setAttribute('points', kindOf(c).points);
    mark.setAttribute('transform', 'translate(' + g[2 * c] + ' ' + g[2 * c + 1] + ')');
  }

  function setMask(c, mask) {
    S.masks[c] = mask;
    S.cells[c].children[1].setAttribute('d', kindOf(c).pipes[mask]);
  }

  function movable(c) {
    return !S.fixed[c] && !S.locks[c];
  }

  // A player's change, undoable: a turn, a hint or a lock.
  function act(step) {
    clearMarks('explained');
    clearMarks('mistake');
    apply(step, false);
    S.history.push(step);
    S.redo.length = 0;
  }

  function apply(step, undo) {
    if (step.kind === 'lock') {
      S.locks[step.cell] ^= 1;
      S.cells[step.cell].classList.toggle('locked', !!(S.locks[step.cell] || S.fixed[step.cell]));
      return;
    }
    setMask(step.cell, undo ? step.before : step.after);
    const sign = undo ? -1 : 1;
    if (step.kind === 'hint') S.hints += sign; else S.moves += sign;
    analyse();
  }

  function turn(c, back) {
    if (S.watch) { message('watching the solver: w stops'); return; }
    if (!movable(c)) { message('that tile is locked'); return; }
    const t0 = performance.now();
    const before = S.masks[c];
    act({ kind: 'turn', cell: c, before, after: rotate(c, before, clockwiseSteps(kindOf(c).sides, back)) });
    setCursor(c);
    svg.getBoundingClientRect();
    S.perf.turn = performance.now() - t0;
    requestAnimationFrame(() => { S.perf.turnFrame = performance.now() - t0; });
  }

  function toggleLock(c) {
    if (S.fixed[c]) { message('the level locks this tile'); return; }
    act({ kind: 'lock', cell: c });
    setCursor(c);
  }

  function undo() {
    const step = S.history.pop();
    if (!step) { message('nothing to undo'); return; }
    apply(step, true);
    S.redo.push(step);
    setCursor(step.cell);
    message('undone');
  }

  function redo() {
    const step = S.redo.pop();
    if (!step) { message('nothing to redo'); return; }
    apply(step, false);
    S.history.push(step);
    setCursor(step.cell);
    message('redone');
  }

  function levelForServer() {
    const l = S.level;
    return {
      tiling: l.tiling, width: l.width, height: l.height, wrap: l.wrap, rules: l.rules,
      masks: Array.from(S.masks), locked: l.locked, barriers: l.barriers,
    };
  }

  async function solution() {
    if (S.solution) return S.solution;
    if (offline) throw new Error('no solution was put in this file');
    const id = S.id;
    const data = await api('/api/solve', { level: levelForServer() });
    if (id === S.id) S.solution = Uint8Array.from(data.masks);
    return S.solution;
  }

  // The solver's hint: one wrong piece, the nearest to the cursor, turned as in a solution.
  async function hint() {
    if (S.solved) { message('already solved'); return; }
    if (S.watch) return;
    let sol;
    try {
      sol = await solution();
    } catch (e) {
      message('no hint: ' + e.message, true);
      return;
    }
    const g = S.geo.centres;
    const cx = g[2 * S.cursor];
    const cy = g[2 * S.cursor + 1];
    let best = -1;
    let bestD = Infinity;
    let lockedWrong = false;
    for (let c = 0; c < sol.length; c++) {
      if (sol[c] === S.masks[c]) continue;
      if (!movable(c)) { lockedWrong = true; continue; }
      const d = (g[2 * c] - cx) ** 2 + (g[2 * c + 1] - cy) ** 2;
      if (d < bestD) { bestD = d; best = c; }
    }
    if (best < 0) {
      message(lockedWrong ? 'no hint: a tile you locked is wrong' : 'every piece matches the solution');
      return;
    }
    act({ kind: 'hint', cell: best, before: S.masks[best], after: sol[best] });
    setCursor(best);
    for (const el of svg.querySelectorAll('.hinted')) el.classList.remove('hinted');
    S.cells[best].classList.add('hinted');
    message('hint: cell ' + best + ' turned');
  }

  function clearMarks(cls) {
    for (const el of svg.querySelectorAll('.' + cls)) el.classList.remove(cls);
  }

  // The deduction ladder on the grid as it stands: the next step the turns do not follow,
  // with its cells marked (nothing is turned), and the pieces no solution allows.
  async function ladder() {
    const id = S.id;
    const data = await api('/api/explain', { level: levelForServer() });
    return id === S.id ? data : null;
  }

  async function explainStep() {
    if (S.solved) { message('already solved'); return; }
    if (S.watch) return;
    if (offline) { hint(); return; }
    let data;
    try { data = await ladder(); } catch (e) { message('no explanation: ' + e.message, true); return; }
    if (!data) return;
    clearMarks('explained');
    if (!data.step) {
      message('the deductions are stuck here: only a guess goes on (H turns a piece as in a solution)');
      return;
    }
    for (const c of data.step.cells) S.cells[c].classList.add('explained');
    setCursor(data.step.cells[0]);
    message(data.step.text);
  }

  async function checkMistakes() {
    if (S.watch || offline) return;
    let data;
    try { data = await ladder(); } catch (e) { message('no check: ' + e.message, true); return; }
    if (!data) return;
    clearMarks('mistake');
    for (const c of data.mistakes) S.cells[c].classList.add('mistake');
    const n = data.mistakes.length;
    message(n === 0 ? 'no piece is turned in a way the deductions rule out'
      : n + (n === 1 ? ' piece is' : ' pieces are') + ' turned in a way no solution allows');
  }

  // Plays the solver's steps at the chosen speed; w stops, +/- change the speed.
  async function watch() {
    if (S.watch) { stopWatch('stopped watching'); return; }
    let data;
    const id = S.id;
    try {
      message('the solver is working…');
      data = await api('/api/watch', { level: levelForServer() });
    } catch (e) {
      message('cannot watch: ' + e.message, true);
      return;
    }
    if (id !== S.id || S.watch) return;
    const n = S.masks.length;
    S.watch = { steps: data.steps, i: 0, budget: 0, last: performance.now(), saved: S.masks.slice(), answer: data.masks };
    svg.classList.add('watching');
    for (let c = 0; c < n; c++) { S.cells[c].classList.add('w-open'); }
    message((data.observed ? 'watching the solver' : 'this board\'s engine reports no steps: its answer, cell by cell') +
      ' — +/- speed, w stops');
    requestAnimationFrame(watchFrame);
  }

  function watchFrame(now) {
    const w = S.watch;
    if (!w) return;
    w.budget = Math.min(w.budget + SPEEDS[S.speed] * (now - w.last) / 1000, SPEEDS[S.speed] / 4 + 1);
    w.last = now;
    while (w.budget >= 1 && w.i < w.steps.length) {
      const [c, m] = w.steps[w.i++];
      w.budget -= 1;
      const el = S.cells[c];
      el.classList.toggle('w-open', m === -1);
      el.classList.toggle('w-empty', m === -2);
      if (m >= 0) setMask(c, m);
    }
    if (w.i < w.steps.length) { requestAnimationFrame(watchFrame); return; }
    const answer = w.answer;
    stopWatch('');
    for (let c = 0; c < answer.length; c++) setMask(c, answer[c]);
    S.history.length = 0;
    S.redo.length = 0;
    S.solvedBy = 'solver';
    analyse();
  }

  function stopWatch(text) {
    const w = S.watch;
    S.watch = null;
    svg.classList.remove('watching');
    for (const el of S.cells) el.classList.remove('w-open', 'w-empty');
    for (let c = 0; c < w.saved.length; c++) setMask(c, w.saved[c]);
    if (text) message(text);
  }

  // A level from the server or the file: the board drawn anew, the clock restarted.
  function load(data, origin) {
    const l = data.level;
    const n = l.masks.length;
    // A replay belongs to the level it was asked for.
    S.watch = null;
    svg.classList.remove('watching');
    S.id++;
    S.level = l;
    S.geo = data.geometry;
    S.k = S.geo.sides;
    S.kinds = kindsOf(S.geo);
    S.kind = S.geo.polygonOf ? Uint8Array.from(S.geo.polygonOf) : new Uint8Array(n);
    S.masks = Uint8Array.from(l.masks);
    S.fixed = l.locked.length ? Uint8Array.from(l.locked) : new Uint8Array(n);
    S.locks = new Uint8Array(n);
    S.barriers = l.barriers.length ? Uint8Array.from(l.barriers) : null;
    S.history = [];
    S.redo = [];
    S.cursor = 0;
    S.solved = false;
    S.solvedBy = null;
    S.moves = 0;
    S.hints = 0;
    S.solution = data.solution ? Uint8Array.from(data.solution) : null;
    S.confirmNew = false;
    S.start = performance.now();
    S.stoppedAt = null;
    S.query = origin || null;
    draw();
    svg.setAttribute('aria-label', l.width + '×' + l.height + ' ' + l.tiling + ' board, ' + l.rules + ' rules');
    $('hint').disabled = offline && !S.solution;
    if (offline) $('format').value = offlineFormat();
    const link = $('permalink');
    link.href = S.query ? '#' + S.query : '#';
    link.hidden = !S.query;
    if (S.query && !offline && location.hash !== '#' + S.query) history.replaceState(null, '', '#' + S.query);
    updateTimer();
    svg.dataset.level = String(S.id);
  }

  function specFromForm() {
    const f = $('gen-form').elements;
    const spec = {
      width: Number(f.width.value), height: Number(f.height.value), grid: f.grid.value,
      wrap: f.wrap.value, family: f.family.value, rules: f.rules.value, unique: f.unique.checked,
    };
    if (f.barriers.value !== '') spec.barriers = Number(f.barriers.value);
    if (f.difficulty.value !== '') spec.difficulty = f.difficulty.value;
    if (f.seed.value.trim() !== '') spec.seed = f.seed.value.trim();
    return spec;
  }

  function specToForm(spec) {
    const f = $('gen-form').elements;
    for (const key of ['width', 'height', 'grid', 'wrap', 'family', 'rules', 'barriers', 'seed']) {
      if (spec[key] !== undefined) f[key].value = spec[key];
    }
    f.difficulty.value = spec.difficulty || '';
    f.unique.checked = !!spec.unique;
  }

  async function generate(spec) {
    message('generating…');
    try {
      const data = await api('/api/generate', spec);
      specToForm(Object.assign({}, spec, { seed: data.seed }));
      S.spec = Object.assign({}, spec, { seed: data.seed });
      load(data, data.query);
      message('level of seed ' + data.seed);
    } catch (e) {
      message('cannot generate: ' + e.message, true);
    }
  }

  function newLevel() {
    if (!S.confirmNew && S.moves > 0 && !S.solved) {
      S.confirmNew = true;
      message('n again discards your ' + S.moves + ' moves for a new level');
      return;
    }
    const spec = specFromForm();
    delete spec.seed;
    generate(spec);
  }

  async function openText(text, name) {
    try {
      const data = await api('/api/open', { text, name });
      const query = text.length <= 20000 ? 'text=' + encodeURIComponent(text) : null;
      load(data, query);
      message('opened ' + name + ' (' + data.format + ' format)');
    } catch (e) {
      message('cannot open: ' + e.message, true);
    }
  }

  // The one format the file that has no server to ask writes: the board format, or for a
  // mixed grid, which that format does not hold, hexapipes' JSON.
  function offlineFormat() {
    return S.kinds[0].bits ? 'hexapipes' : 'board';
  }

  // The board format, written here for the file that has no server to ask.
  function boardText() {
    const l = S.level;
    let t = 'board ' + l.tiling + ' ' + l.width + 'x' + l.height + ' wrap=' + l.wrap +
      (l.rules === 'infinity' ? '' : ' rules=' + l.rules) + '\n';
    for (let c = 0; c < S.masks.length; c++) {
      t += S.masks[c] + (S.fixed[c] ? ' locked' : '') +
        (S.barriers && S.barriers[c] ? ' barriers=' + S.barriers[c] : '') + '\n';
    }
    return t;
  }

  // hexapipes' JSON as `--solve -o FILE.json` writes it: a tile is the bits of its sides'
  // directions.
  function hexapipesText() {
    const l = S.level;
    const tiles = Array.from(S.masks, (m, c) =>
      kindOf(c).bits.reduce((tile, bit, s) => (m >> s & 1 ? tile | bit : tile), 0));
    return '{"grid": "' + l.tiling + '", "width": ' + l.width + ', "height": ' + l.height +
      ', "wrap": ' + (l.wrap !== 'none') + ', "tiles": [' + tiles.join(', ') + ']}\n';
  }

  async function download() {
    const format = $('format').value;
    let text = null;
    let ext = 'board';
    if (offline) {
      const own = offlineFormat();
      if (format !== own) { message('this file writes the ' + own + ' format only', true); return; }
      text = own === 'board' ? boardText() : hexapipesText();
      ext = own === 'board' ? 'board' : 'json';
    } else {
      try {
        const data = await api('/api/export', { level: levelForServer(), format });
        text = data.text;
        ext = data.extension;
      } catch (e) {
        message('cannot export: ' + e.message, true);
        return;
      }
    }
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = 'level.' + ext;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 0);
    message('downloaded level.' + ext);
  }

  async function save() {
    if (offline) { download(); return; }
    try {
      const data = await api('/api/save', {
        level: levelForServer(), format: $('format').value, name: $('save-name').value,
      });
      message('saved ' + data.saved + ' (' + data.format + ', ' + data.bytes + ' bytes)');
    } catch (e) {
      message('cannot save: ' + e.message, true);
    }
  }

  // The neighbour in the direction nearest to (dx, dy), on any tiling.
  function step(dx, dy) {
    const kd = kindOf(S.cursor);
    const dirs = kd.directions;
    let best = 0;
    let bestDot = -Infinity;
    for (let s = 0; s < kd.sides; s++) {
      const dot = dirs[s][0] * dx + dirs[s][1] * dy;
      if (dot > bestDot + 1e-9) { bestDot = dot; best = s; }
    }
    const l = S.geo.links[S.cursor * S.k + best];
    if (l >= 0) setCursor(l >> 3);
  }

  function cellOf(target) {
    const g = target.closest && target.closest('.cell');
    return g ? Number(g.dataset.cell) : -1;
  }

  svg.addEventListener('click', (e) => {
    const c = cellOf(e.target);
    if (c < 0 || !S.level) return;
    if (S.lockMode || e.ctrlKey || e.metaKey || e.altKey) toggleLock(c);
    else turn(c, e.shiftKey);
  });
  svg.addEventListener('contextmenu', (e) => {
    const c = cellOf(e.target);
    if (c < 0 || !S.level) return;
    e.preventDefault();
    if (S.lockMode) toggleLock(c); else turn(c, true);
  });

  document.addEventListener('keydown', (e) => {
    if (!S.level || e.target.closest('input, select, textarea, button')) return;
    if ((e.ctrlKey || e.metaKey) && !e.altKey) {
      if (e.key === 'z' || e.key === 'Z') { e.shiftKey ? redo() : undo(); e.preventDefault(); }
      if (e.key === 'y') { redo(); e.preventDefault(); }
      return;
    }
    const confirmed = S.confirmNew;
    S.confirmNew = false;
    let handled = true;
    switch (e.key) {
      case 'ArrowUp': case 'k': step(0, -1); break;
      case 'ArrowDown': case 'j': step(0, 1); break;
      case 'ArrowLeft': case 'h': step(-1, 0); break;
      case 'ArrowRight': case 'l': step(1, 0); break;
      case ' ': case 'Enter': case 'r': turn(S.cursor, false); break;
      case 'R': turn(S.cursor, true); break;
      case 'x': toggleLock(S.cursor); break;
      case 'u': undo(); break;
      case 'y': redo(); break;
      case '?': explainStep(); break;
      case 'H': hint(); break;
      case 'm': checkMistakes(); break;
      case 's': save(); break;
      case 'w': if (!offline) watch(); break;
      case '+': case '=': S.speed = Math.min(S.speed + 1, SPEEDS.length - 1); message('speed ' + SPEEDS[S.speed] + ' steps/s'); break;
      case '-': case '_': S.speed = Math.max(S.speed - 1, 0); message('speed ' + SPEEDS[S.speed] + ' steps/s'); break;
      case 'n': if (!offline) { S.confirmNew = confirmed; newLevel(); } break;
      case 'Escape': case 'q': if (S.watch) stopWatch('stopped watching'); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });

  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', hint);
  $('explain').addEventListener('click', explainStep);
  $('check').addEventListener('click', checkMistakes);
  $('watch').addEventListener('click', watch);
  $('new').addEventListener('click', newLevel);
  $('lockmode').addEventListener('click', () => {
    S.lockMode = !S.lockMode;
    $('lockmode').setAttribute('aria-pressed', String(S.lockMode));
    message(S.lockMode ? 'taps lock and unlock tiles' : 'taps turn tiles');
  });
  $('gen-form').addEventListener('submit', (e) => { e.preventDefault(); generate(specFromForm()); });
  $('open').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (file) openText(await file.text(), file.name);
    e.target.value = '';
  });
  $('save').addEventListener('click', save);
  $('download').addEventListener('click', download);
  $('format').addEventListener('change', () => {
    const ext = { board: 'board', course: 'txt', hexapipes: 'json', sgt: 'sgt' }[$('format').value];
    $('save-name').value = $('save-name').value.replace(/(\.[A-Za-z0-9]+)?$/, '.' + ext);
  });

  // The level a URL names: `#w=..&h=..&seed=..` (board and seed) or `#text=...` (the file).
  function fromHash() {
    const q = new URLSearchParams(location.hash.slice(1));
    if (q.has('text')) { openText(q.get('text'), 'the link'); return true; }
    if (!q.has('w')) return false;
    const spec = { width: Number(q.get('w')), height: Number(q.get('h') || q.get('w')) };
    for (const key of ['grid', 'wrap', 'family', 'rules', 'seed', 'difficulty']) if (q.has(key)) spec[key] = q.get(key);
    if (q.has('barriers')) spec.barriers = Number(q.get('barriers'));
    spec.unique = q.get('unique') === '1';
    specToForm(spec);
    generate(spec);
    return true;
  }

  if (offline) {
    document.body.classList.add('offline');
    load(JSON.parse(embedded.textContent), null);
  } else {
    window.addEventListener('hashchange', () => {
      if (location.hash !== '#' + S.query) fromHash();
    });
    if (!fromHash()) generate(specFromForm());
  }
})();
