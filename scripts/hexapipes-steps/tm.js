// Affine matrices {a,b,c,d,e,f} as the transformation-matrix package has them (only what
// hexapipes' polygon utilities call).
export const scale = (sx, sy = sx) => ({ a: sx, b: 0, c: 0, d: sy, e: 0, f: 0 });
export const skew = (ax, ay) => ({ a: 1, b: Math.tan(ay), c: Math.tan(ax), d: 1, e: 0, f: 0 });
export const rotate = (t) => ({ a: Math.cos(t), b: Math.sin(t), c: -Math.sin(t), d: Math.cos(t), e: 0, f: 0 });
const mul = (m, n) => ({
	a: m.a * n.a + m.c * n.b, b: m.b * n.a + m.d * n.b,
	c: m.a * n.c + m.c * n.d, d: m.b * n.c + m.d * n.d,
	e: m.a * n.e + m.c * n.f + m.e, f: m.b * n.e + m.d * n.f + m.f
});
export const compose = (...ms) => ms.flat().reduce(mul, { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 });
export const inverse = (m) => {
	const det = m.a * m.d - m.b * m.c;
	return {
		a: m.d / det, b: -m.b / det, c: -m.c / det, d: m.a / det,
		e: (m.c * m.f - m.d * m.e) / det, f: (m.b * m.e - m.a * m.f) / det
	};
};
export const applyToPoint = (m, p) =>
	Array.isArray(p)
		? [m.a * p[0] + m.c * p[1] + m.e, m.b * p[0] + m.d * p[1] + m.f]
		: { x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f };
