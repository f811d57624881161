#!/usr/bin/env python3
"""The deduction grade against other measures of difficulty, on the shared levels.

For each level: `--grade --json` (rung, score), the search nodes of `--solve --stats`, and,
when HEXAPIPES_STEPS names a node script that prints hexapipes' solver steps for a JSON
puzzle ({"spt": steps per tile}), that measure too: scripts/hexapipes-steps/setup.sh builds one
from a hexapipes checkout. Prints one row per level and
Spearman rank correlations of the score with log nodes and with steps per tile.

Usage: scripts/grade-correlation.py BIN SHARED_DIR  (e.g. target/release/phineloops ../shared)
"""
import glob, json, math, os, re, subprocess, sys

def run(args):
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr

def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r

def spearman(a, b):
    if len(a) < 3:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")

def main():
    bin_, shared = sys.argv[1], sys.argv[2]
    steps_js = os.environ.get("HEXAPIPES_STEPS")
    files = [(f, []) for f in sorted(glob.glob(f"{shared}/instances/public/*.dat"))]
    files += [(f, []) for f in sorted(glob.glob(f"{shared}/hexapipes/hexagonal/*/*.json"))]
    files += [(f, ["--wrap"]) for f in sorted(glob.glob(f"{shared}/hexapipes/hexagonal-wrap/*/*.json"))]
    files += [(f, []) for f in sorted(glob.glob(f"{shared}/hexapipes/daily/*/*.json"))]
    rows = []
    print("| level | cells | rung | score | search nodes | hexapipes steps/tile |")
    print("|---|---|---|---|---|---|")
    for f, extra in files:
        code, out, _ = run([bin_, "--grade", f, "--json"] + extra)
        if code != 0:
            continue  # no solution, or a grid we do not read (octagonal...)
        g = json.loads(out)
        _, _, err = run([bin_, "--solve", f, "--stats", "-o", "/dev/null"] + extra)
        m = re.search(r"search nodes: (\d+)", err)
        nodes = int(m.group(1)) if m else None
        spt = None
        if steps_js and f.endswith(".json"):
            c, o, _ = run(["node", steps_js, f] + (["wrap"] if extra else []))
            if c == 0:
                spt = json.loads(o)["spt"]
        name = os.path.relpath(f, shared)
        print(f"| {name} | {g['cells']} | {g['rung']} | {g['score']:.3f} | {nodes} | "
              f"{'' if spt is None else f'{spt:.3f}'} |")
        rows.append((g["score"], g["rung"], nodes, spt))
    with_nodes = [(s, n) for s, _, n, _ in rows if n is not None]
    with_spt = [(s, t) for s, _, _, t in rows if t is not None]
    print()
    print(f"levels graded: {len(rows)}")
    print("spearman(score, log(1+nodes)) = %.3f over %d levels" % (
        spearman([s for s, _ in with_nodes], [math.log1p(n) for _, n in with_nodes]), len(with_nodes)))
    print("spearman(rung, log(1+nodes)) = %.3f" % spearman(
        [r for _, r, n, _ in rows if n is not None], [math.log1p(n) for _, _, n, _ in rows if n is not None]))
    if with_spt:
        print("spearman(score, steps/tile) = %.3f over %d levels" % (
            spearman([s for s, _ in with_spt], [t for _, t in with_spt]), len(with_spt)))
        print("spearman(rung, steps/tile) = %.3f" % spearman(
            [r for _, r, _, t in rows if t is not None], [t for _, _, _, t in rows if t is not None]))

main()
