//! Exact determinants of sparse ±1 matrices by arithmetic modulo 62-bit primes and the Chinese
//! remainder theorem, for the determinant count ([`super::kasteleyn`]).
//!
//! A matrix is eliminated once per prime, and only partly: the columns and rows that some case
//! of the count may delete ("touched", numbered last) are never pivots, so every case shares
//! that elimination and is left with a small dense determinant of what remains (the Schur
//! complement). Rows are kept as dense windows that grow with fill-in: with vertices numbered
//! along the grid the matrix is banded and a pivot costs about the band's width squared, not
//! the matrix size.
//!
//! A pivot that is zero modulo one prime is skipped for that prime only; every prime still gets
//! the true determinant modulo itself, so the remainders combine exactly. The primes' product
//! exceeds twice Hadamard's bound, which makes the symmetric remainder the signed determinant.

use num_bigint::BigUint;
use num_traits::Zero;

/// Montgomery arithmetic modulo an odd `p < 2^62` (values kept as `a·2^64 mod p`).
#[derive(Clone, Copy)]
struct Mont {
    p: u64,
    /// `-p⁻¹ mod 2^64`.
    pinv: u64,
    /// `2^128 mod p`, to enter the Montgomery form.
    r2: u64,
}

impl Mont {
    fn new(p: u64) -> Mont {
        let mut inv = p;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = ((1u128 << 64) % u128::from(p)) as u64;
        let r2 = ((u128::from(r) * u128::from(r)) % u128::from(p)) as u64;
        Mont {
            p,
            pinv: inv.wrapping_neg(),
            r2,
        }
    }

    #[inline(always)]
    fn redc(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.pinv);
        let u = ((t + u128::from(m) * u128::from(self.p)) >> 64) as u64;
        if u >= self.p { u - self.p } else { u }
    }

    #[inline(always)]
    fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(u128::from(a) * u128::from(b))
    }

    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b { a - b } else { a + self.p - b }
    }

    fn enter(&self, a: u64) -> u64 {
        self.mul(a % self.p, self.r2)
    }

    fn leave(&self, a: u64) -> u64 {
        self.redc(u128::from(a))
    }

    fn neg(&self, a: u64) -> u64 {
        if a == 0 { 0 } else { self.p - a }
    }

    fn inv(&self, a: u64) -> u64 {
        // Fermat: a^(p-2), in Montgomery form throughout.
        let mut base = a;
        let mut e = self.p - 2;
        let mut acc = self.enter(1);
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        acc
    }
}

fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) % u128::from(p)) as u64
}

fn pow_mod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut acc = 1u64;
    a %= p;
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_mod(acc, a, p);
        }
        a = mul_mod(a, a, p);
        e >>= 1;
    }
    acc
}

/// Deterministic Miller–Rabin for 64-bit numbers.
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    for &b in &BASES {
        if n.is_multiple_of(b) {
            return n == b;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    'base: for &a in &BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'base;
            }
        }
        return false;
    }
    true
}

/// The `count` largest primes below 2^62 (computed once, extended on demand).
pub fn primes(count: usize) -> Vec<u64> {
    use std::sync::Mutex;
    static CACHE: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let mut n = cache.last().map_or(1u64 << 62, |&p| p) - 1;
    while cache.len() < count {
        if n % 2 == 1 && is_prime(n) {
            cache.push(n);
        }
        n -= 1;
    }
    cache[..count].to_vec()
}

/// Bits each prime of [`primes`] is worth, rounded down.
pub const PRIME_BITS: u32 = 61;

/// A sparse matrix of ±1 entries whose last rows and columns may be deleted per case.
pub struct SignedMatrix {
    /// Number of rows and columns.
    pub rows: usize,
    pub cols: usize,
    /// Per row, (column, +1 or −1) entries.
    pub entries: Vec<Vec<(u32, bool)>>,
    /// Rows `touched_rows..rows` and columns `touched_cols..cols` may be deleted by a case.
    pub touched_rows: usize,
    pub touched_cols: usize,
    /// Entries (touched row, touched column, +1 or −1) that a case may negate (bit k of
    /// [`Deletion::flips`] negates entry k).
    pub flips: Vec<(u32, u32, bool)>,
}

/// One case: the touched rows and columns it deletes, as bit sets over `row - touched_rows`
/// and `col - touched_cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deletion {
    pub rows: u64,
    pub cols: u64,
    /// Entries of [`SignedMatrix::flips`] negated in this case.
    pub flips: u64,
}

/// Most touched rows, and most touched columns (one bit each in [`Deletion`]).
pub const MAX_TOUCHED: usize = 64;

impl SignedMatrix {
    /// Bits of Hadamard's bound on the absolute determinant of any square submatrix.
    pub fn hadamard_bits(&self) -> u32 {
        let mut half_bits = 0.0f64;
        for r in &self.entries {
            if !r.is_empty() {
                half_bits += (r.len() as f64).log2() / 2.0;
            }
        }
        half_bits.ceil() as u32
    }

    /// Σ over `cases` of |det| of the matrix without the case's deleted rows and columns (a
    /// case whose remaining matrix is not square counts 0).
    pub fn sum_abs_dets(&self, cases: &[Deletion]) -> BigUint {
        let nprimes = (self.hadamard_bits() + 2).div_ceil(PRIME_BITS) as usize;
        let ps = primes(nprimes.max(1));
        let residues: Vec<Vec<u64>> = ps.iter().map(|&p| self.case_dets_mod(p, cases)).collect();
        let mut total = BigUint::zero();
        let mut modulus = BigUint::from(1u32);
        for &p in &ps {
            modulus *= p;
        }
        let half = &modulus >> 1usize;
        for (k, case) in cases.iter().enumerate() {
            if !self.square(case) {
                continue;
            }
            let x = crt(&ps, residues.iter().map(|r| r[k]));
            total += if x > half { &modulus - x } else { x };
        }
        total
    }

    fn square(&self, case: &Deletion) -> bool {
        self.rows - case.rows.count_ones() as usize == self.cols - case.cols.count_ones() as usize
    }

    /// The determinant of each case modulo `p` (0 for cases that are not square).
    fn case_dets_mod(&self, p: u64, cases: &[Deletion]) -> Vec<u64> {
        let m = Mont::new(p);
        let one = m.enter(1);
        let minus = m.neg(one);
        let (tr, tc) = (self.touched_rows, self.touched_cols);
        let ntc = self.cols - tc;
        // Windows over the untouched columns, and dense touched parts.
        let mut start = vec![usize::MAX; self.rows];
        let mut win: Vec<Vec<u64>> = vec![Vec::new(); self.rows];
        let mut tpart: Vec<Vec<u64>> = vec![vec![0; ntc]; self.rows];
        for (i, row) in self.entries.iter().enumerate() {
            let (mut lo, mut hi) = (usize::MAX, 0);
            for &(c, _) in row {
                let c = c as usize;
                if c < tc {
                    lo = lo.min(c);
                    hi = hi.max(c + 1);
                }
            }
            if lo == usize::MAX {
                lo = tc;
                hi = tc;
            }
            start[i] = lo;
            win[i] = vec![0; hi - lo];
            for &(c, plus) in row {
                let c = c as usize;
                let v = if plus { one } else { minus };
                if c < tc {
                    win[i][c - lo] = v;
                } else {
                    tpart[i][c - tc] = v;
                }
            }
        }
        let at = |win: &Vec<Vec<u64>>, start: &[usize], i: usize, c: usize| -> u64 {
            let s = start[i];
            if c < s {
                0
            } else {
                win[i].get(c - s).copied().unwrap_or(0)
            }
        };
        let mut by_start: Vec<usize> = (0..self.rows).collect();
        by_start.sort_by_key(|&i| start[i]);
        let mut next_row = 0;
        let mut active: Vec<usize> = Vec::new();
        let mut det_u = one;
        let mut pivot_rows: Vec<usize> = Vec::with_capacity(tc);
        let mut is_pivot_row = vec![false; self.rows];
        let mut leftover_cols: Vec<usize> = Vec::new();
        // Parity of the column permutation [pivot columns, leftover columns].
        let mut col_parity = false;
        for c in 0..tc {
            while next_row < self.rows && start[by_start[next_row]] <= c {
                active.push(by_start[next_row]);
                next_row += 1;
            }
            let Some(pos) = active
                .iter()
                .position(|&i| i < tr && at(&win, &start, i, c) != 0)
            else {
                leftover_cols.push(c);
                continue;
            };
            let pr = active.swap_remove(pos);
            // Pivot columns before this one are already placed; each leftover column before it
            // is jumped over.
            col_parity ^= leftover_cols.len() % 2 == 1;
            pivot_rows.push(pr);
            is_pivot_row[pr] = true;
            let pv = at(&win, &start, pr, c);
            det_u = m.mul(det_u, pv);
            let pinv = m.inv(pv);
            let prow = std::mem::take(&mut win[pr]);
            let ptouched = std::mem::take(&mut tpart[pr]);
            let ps = start[pr];
            let pend = ps + prow.len();
            for &i in &active {
                let a = at(&win, &start, i, c);
                if a == 0 {
                    continue;
                }
                let f = m.mul(a, pinv);
                let s = start[i];
                let row = &mut win[i];
                if s + row.len() < pend {
                    row.resize(pend - s, 0);
                }
                for j in c..pend {
                    let v = prow[j - ps];
                    if v != 0 {
                        row[j - s] = m.sub(row[j - s], m.mul(f, v));
                    }
                }
                let t = &mut tpart[i];
                for (j, &v) in ptouched.iter().enumerate() {
                    if v != 0 {
                        t[j] = m.sub(t[j], m.mul(f, v));
                    }
                }
            }
            win[pr] = prow;
            tpart[pr] = ptouched;
        }
        // Row permutation [pivot rows, leftover untouched rows] of the untouched rows.
        let mut perm: Vec<usize> = pivot_rows.clone();
        perm.extend((0..tr).filter(|&i| !is_pivot_row[i]));
        let sign_flip = permutation_odd(&perm) ^ col_parity;
        let factor = if sign_flip { m.neg(det_u) } else { det_u };
        // The remaining matrix: leftover untouched rows then touched rows, by leftover
        // untouched columns then touched columns.
        let srows: Vec<usize> = (0..self.rows).filter(|&i| !is_pivot_row[i]).collect();
        let nlc = leftover_cols.len();
        let scols = nlc + ntc;
        let mut s = vec![0u64; srows.len() * scols];
        for (a, &i) in srows.iter().enumerate() {
            for (b, &c) in leftover_cols.iter().enumerate() {
                s[a * scols + b] = at(&win, &start, i, c);
            }
            s[a * scols + nlc..(a + 1) * scols].copy_from_slice(&tpart[i]);
        }
        let nlr = srows.iter().filter(|&&i| i < tr).count();
        let mut out = Vec::with_capacity(cases.len());
        let mut scratch = Vec::new();
        let mut keep_r = Vec::new();
        let mut keep_c = Vec::new();
        for case in cases {
            if !self.square(case) {
                out.push(0);
                continue;
            }
            keep_r.clear();
            keep_r.extend(0..nlr);
            keep_r.extend((nlr..srows.len()).filter(|&a| case.rows >> (srows[a] - tr) & 1 == 0));
            keep_c.clear();
            keep_c.extend(0..nlc);
            keep_c.extend(
                (0..ntc)
                    .filter(|&j| case.cols >> j & 1 == 0)
                    .map(|j| nlc + j),
            );
            debug_assert_eq!(keep_r.len(), keep_c.len());
            let n = keep_r.len();
            scratch.clear();
            for &r in &keep_r {
                for &c in &keep_c {
                    scratch.push(s[r * scols + c]);
                }
            }
            let mut fl = case.flips;
            while fl != 0 {
                let k = fl.trailing_zeros() as usize;
                fl &= fl - 1;
                let (r, c, plus) = self.flips[k];
                let (sr, sc) = (nlr + r as usize - tr, nlc + c as usize - tc);
                if let (Some(a), Some(b)) = (
                    keep_r.iter().position(|&x| x == sr),
                    keep_c.iter().position(|&x| x == sc),
                ) {
                    // The entry v becomes −v: subtract 2v.
                    let v = if plus { one } else { minus };
                    let x = &mut scratch[a * n + b];
                    *x = m.sub(m.sub(*x, v), v);
                }
            }
            let d = dense_det(&m, n, &mut scratch);
            out.push(m.leave(m.mul(factor, d)));
        }
        out
    }
}

/// Determinant (Montgomery form) of the row-major n × n matrix `a` (destroyed).
fn dense_det(m: &Mont, n: usize, a: &mut [u64]) -> u64 {
    let one = m.enter(1);
    let mut det = one;
    for k in 0..n {
        let Some(p) = (k..n).find(|&i| a[i * n + k] != 0) else {
            return 0;
        };
        if p != k {
            for j in 0..n {
                a.swap(p * n + j, k * n + j);
            }
            det = m.neg(det);
        }
        let pv = a[k * n + k];
        det = m.mul(det, pv);
        let pinv = m.inv(pv);
        for i in k + 1..n {
            let x = a[i * n + k];
            if x == 0 {
                continue;
            }
            let f = m.mul(x, pinv);
            for j in k..n {
                let v = a[k * n + j];
                if v != 0 {
                    a[i * n + j] = m.sub(a[i * n + j], m.mul(f, v));
                }
            }
        }
    }
    det
}

/// True when the permutation (a list of distinct indices `0..n`) is odd.
fn permutation_odd(perm: &[usize]) -> bool {
    let mut seen = vec![false; perm.len()];
    let mut odd = false;
    for i in 0..perm.len() {
        if seen[i] {
            continue;
        }
        let mut j = i;
        let mut len = 0;
        while !seen[j] {
            seen[j] = true;
            j = perm[j];
            len += 1;
        }
        odd ^= len % 2 == 0;
    }
    odd
}

/// The number in `0..Π primes` with the given remainders (Garner's mixed radix).
fn crt(primes: &[u64], residues: impl Iterator<Item = u64>) -> BigUint {
    let mut x = BigUint::zero();
    let mut modulus = BigUint::from(1u32);
    for (&p, r) in primes.iter().zip(residues) {
        let xm = (&x % p).to_u64_digits().first().copied().unwrap_or(0);
        let mm = (&modulus % p).to_u64_digits().first().copied().unwrap_or(0);
        let diff = (r + p - xm) % p;
        let t = mul_mod(diff, pow_mod(mm, p - 2, p), p);
        x += &modulus * t;
        modulus *= p;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_det(a: &[Vec<i64>]) -> i128 {
        let n = a.len();
        if n == 0 {
            return 1;
        }
        let mut total = 0i128;
        for j in 0..n {
            if a[0][j] == 0 {
                continue;
            }
            let minor: Vec<Vec<i64>> = a[1..]
                .iter()
                .map(|r| {
                    r.iter()
                        .enumerate()
                        .filter(|&(k, _)| k != j)
                        .map(|(_, &v)| v)
                        .collect()
                })
                .collect();
            let s = if j % 2 == 0 { 1 } else { -1 };
            total += s * i128::from(a[0][j]) * brute_det(&minor);
        }
        total
    }

    #[test]
    fn primes_are_prime_and_descending() {
        let ps = primes(5);
        assert!(ps.windows(2).all(|w| w[0] > w[1]));
        assert!(
            ps.iter()
                .all(|&p| p < 1 << 62 && p > 1 << 61 && is_prime(p))
        );
        assert!(!is_prime(1 << 61) && is_prime(2_305_843_009_213_693_951));
    }

    #[test]
    fn case_determinants_match_cofactor_expansion() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..300 {
            let rows = rng.usize(1..8);
            let cols = (rows + rng.usize(0..3)).saturating_sub(1).max(1);
            let tr = rng.usize(0..=rows.min(3));
            let tc = rng.usize(0..=cols.min(3));
            let mut dense = vec![vec![0i64; cols]; rows];
            let mut entries = vec![Vec::new(); rows];
            for (i, row) in dense.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    if rng.u8(0..3) > 0 {
                        let plus = rng.bool();
                        *v = if plus { 1 } else { -1 };
                        entries[i].push((j as u32, plus));
                    }
                }
            }
            let m = SignedMatrix {
                rows,
                cols,
                entries,
                touched_rows: rows - tr,
                touched_cols: cols - tc,
                flips: Vec::new(),
            };
            let cases: Vec<Deletion> = (0..1u64 << (tr + tc))
                .map(|b| Deletion {
                    rows: b & ((1 << tr) - 1),
                    cols: b >> tr,
                    flips: 0,
                })
                .collect();
            let got = m.sum_abs_dets(&cases);
            let mut want = 0u128;
            for case in &cases {
                let kr: Vec<usize> = (0..rows)
                    .filter(|&i| i < rows - tr || case.rows >> (i - (rows - tr)) & 1 == 0)
                    .collect();
                let kc: Vec<usize> = (0..cols)
                    .filter(|&j| j < cols - tc || case.cols >> (j - (cols - tc)) & 1 == 0)
                    .collect();
                if kr.len() != kc.len() {
                    continue;
                }
                let sub: Vec<Vec<i64>> = kr
                    .iter()
                    .map(|&i| kc.iter().map(|&j| dense[i][j]).collect())
                    .collect();
                want += brute_det(&sub).unsigned_abs();
            }
            assert_eq!(got, BigUint::from(want), "{dense:?} tr {tr} tc {tc}");
        }
    }
}
