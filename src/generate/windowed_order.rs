//! A random order of a grid's items (cells, walls) that stays inside a window of rows, for the
//! generators that visit every item in random order (Kruskal's walls, the dominoes' cells).
//! A uniform shuffle of a grid far larger than the cache makes every visit a cache and TLB
//! miss (the neighbours of a random cell, a union-find root); here each item of row `r`
//! gets the random key `r + U(0, window)` and items go in key order, random among equal keys,
//! so the visits sweep down the grid and touch about `window` rows at a time. Every row
//! boundary is treated alike (no seams): of two neighbours one row apart, the upper one comes
//! first with probability about 1/2 + 1/window (keys are whole rows, ties shuffled).

/// A window holds about this many cells (at least [`MIN_WINDOW_ROWS`] rows): what a
/// generator keeps per cell of the window (union-find links and masks: 5 bytes) then about
/// fits a core's 1 MiB L2 cache. With 2^20 cells (the L3) Kruskal at 4096x4096 took twice the
/// time.
pub const WINDOW_CELLS: usize = 1 << 18;

/// The fewest rows in a window: the narrower the window, the more a top-down sweep shows
/// (Kruskal at 512x512 with 8-row windows: 52% vertical passages, 29.5% dead ends; with 32
/// rows 50.3% and 30.6%, as the uniform order).
pub const MIN_WINDOW_ROWS: usize = 32;

/// The window, in rows, for a grid `width` cells wide.
pub fn window_rows(width: usize) -> usize {
    (WINDOW_CELLS / width.max(1)).max(MIN_WINDOW_ROWS)
}

/// Items of a `rows`-row grid in windowed random order (see the module doc). Row `r` holds
/// the items `r * per_row .. (r + 1) * per_row` for which `exists(item)` holds. An item for
/// which `straddles(item)` holds lies between rows `r` and `r + 1` (a south wall): its key
/// is moved half a row down on average, by a coin, so that it is not taken before the items
/// of row `r + 1` more often than after those of row `r` (keyed on `r` alone, Kruskal's
/// vertical passages were 5% more frequent than the horizontal ones with 16-row windows).
pub fn windowed_order(
    rows: usize,
    per_row: usize,
    window: usize,
    exists: impl Fn(usize) -> bool,
    straddles: impl Fn(usize) -> bool,
    rng: &mut fastrand::Rng,
) -> Vec<u32> {
    let window = window.max(1);
    let buckets = rows + window + 1;
    let key = |r: usize, item: usize, rng: &mut fastrand::Rng| {
        r + rng.usize(..window) + usize::from(straddles(item) && rng.bool())
    };
    // Counting sort by key; the keys are drawn twice from the same seed (count, then place)
    // instead of being stored.
    let mut start = vec![0usize; buckets + 1];
    let mut draw = rng.clone();
    for r in 0..rows {
        for item in r * per_row..(r + 1) * per_row {
            if exists(item) {
                start[key(r, item, &mut draw) + 1] += 1;
            }
        }
    }
    for b in 0..buckets {
        start[b + 1] += start[b];
    }
    let mut order = vec![0u32; start[buckets]];
    let mut next = start.clone();
    for r in 0..rows {
        for item in r * per_row..(r + 1) * per_row {
            if exists(item) {
                let b = key(r, item, rng);
                order[next[b]] = item as u32;
                next[b] += 1;
            }
        }
    }
    for b in 0..buckets {
        rng.shuffle(&mut order[start[b]..start[b + 1]]);
    }
    order
}

/// The visit of [`visit_windowed_pipelined`] on one thread: the reference the tests hold it
/// to.
#[cfg(test)]
pub fn visit_windowed(
    rows: usize,
    per_row: usize,
    window: usize,
    exists: impl Fn(usize) -> bool,
    straddles: impl Fn(usize) -> bool,
    rng: &mut fastrand::Rng,
    mut visit: impl FnMut(u32, &[u32]) -> bool,
) {
    shuffled_buckets(
        rows,
        per_row,
        window,
        exists,
        straddles,
        rng,
        |bucket, _| {
            let go_on = (0..bucket.len()).all(|k| visit(bucket[k], &bucket[k + 1..]));
            bucket.clear();
            go_on
        },
    );
}

/// Buckets in flight between the drawing thread and the visiting one: a few rows of work,
/// enough to absorb the jitter of either side.
const PIPELINE_DEPTH: usize = 8;

/// Visits the items of [`windowed_order`]'s distribution without storing the order: the same
/// keys, ties in random order, but each key's bucket is shuffled and visited as soon as it is
/// complete (after its own row is keyed, as keys never go below the row). Only the buckets of
/// about one window are held (at 8192x8192 Kruskal's walls: 2 MiB instead of a 512 MiB
/// order), and the draws interleave keys and shuffles, so a seed gives another order than
/// [`windowed_order`]. `visit` gets each item and the items its bucket visits after it (to
/// prefetch what they will touch), and returns false to stop.
///
/// The keys are drawn and the buckets shuffled on a second thread while this one visits
/// (the drawing thread sends each bucket with the generator's state after its shuffle, and
/// `rng` is left in the state the visit stopped at). Kruskal at 8192x8192 spent a fifth of
/// its time drawing keys and shuffling, work that does not depend on the visits.
pub fn visit_windowed_pipelined(
    rows: usize,
    per_row: usize,
    window: usize,
    exists: impl Fn(usize) -> bool + Sync,
    straddles: impl Fn(usize) -> bool + Sync,
    rng: &mut fastrand::Rng,
    mut visit: impl FnMut(u32, &[u32]) -> bool,
) {
    let (full_tx, full_rx) =
        crossbeam_channel::bounded::<(Vec<u32>, fastrand::Rng)>(PIPELINE_DEPTH);
    // Visited buckets go back to the drawing thread, so the ring's vectors are reused
    // instead of allocated once per row.
    let (empty_tx, empty_rx) = crossbeam_channel::unbounded::<Vec<u32>>();
    let mut drawer = rng.clone();
    std::thread::scope(|scope| {
        let (exists, straddles) = (&exists, &straddles);
        scope.spawn(move || {
            shuffled_buckets(
                rows,
                per_row,
                window,
                exists,
                straddles,
                &mut drawer,
                |bucket, state| {
                    let spare = empty_rx.try_recv().unwrap_or_default();
                    let full = std::mem::replace(bucket, spare);
                    // A closed channel means the visitor stopped.
                    full_tx.send((full, state.clone())).is_ok()
                },
            );
        });
        for (mut bucket, state) in &full_rx {
            let go_on = (0..bucket.len()).all(|k| visit(bucket[k], &bucket[k + 1..]));
            *rng = state;
            bucket.clear();
            let _ = empty_tx.send(bucket);
            if !go_on {
                break;
            }
        }
        // Unblocks a drawing thread waiting to send, before the scope joins it.
        drop(full_rx);
    });
}

/// Draws the keys of [`visit_windowed_pipelined`]'s order and hands each complete bucket, shuffled, to
/// `emit` with the generator's state after the shuffle; `emit` leaves the bucket empty and
/// returns false to stop.
fn shuffled_buckets(
    rows: usize,
    per_row: usize,
    window: usize,
    exists: impl Fn(usize) -> bool,
    straddles: impl Fn(usize) -> bool,
    rng: &mut fastrand::Rng,
    mut emit: impl FnMut(&mut Vec<u32>, &fastrand::Rng) -> bool,
) {
    let window = window.max(1);
    // Keys of row r lie in r..=r + window: a ring of at least window + 1 buckets, a power of
    // two so that a key's bucket is a mask, not a division (134 million of them at 8192²).
    let ring = (window + 1).next_power_of_two();
    let slot = ring - 1;
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); ring];
    let mut flush = |bucket: &mut Vec<u32>, rng: &mut fastrand::Rng| {
        rng.shuffle(bucket);
        emit(bucket, rng)
    };
    for r in 0..rows {
        for item in r * per_row..(r + 1) * per_row {
            if exists(item) {
                let key = r + rng.usize(..window) + usize::from(straddles(item) && rng.bool());
                buckets[key & slot].push(item as u32);
            }
        }
        if !flush(&mut buckets[r & slot], rng) {
            return;
        }
    }
    for key in rows..rows + window + 1 {
        if !flush(&mut buckets[key & slot], rng) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `order` holds each item of `rows * per_row` for which `exists` holds exactly once, and
    /// no item comes after one whose row is `reach` rows below its own.
    fn assert_each_once_within(
        order: &[u32],
        rows: usize,
        per_row: usize,
        exists: impl Fn(usize) -> bool,
        reach: usize,
    ) {
        let mut seen = order.to_vec();
        seen.sort_unstable();
        let want: Vec<u32> = (0..rows * per_row)
            .filter(|&i| exists(i))
            .map(|i| i as u32)
            .collect();
        assert_eq!(seen, want);
        let mut deepest = 0;
        for &i in order {
            let r = i as usize / per_row;
            assert!(r + reach > deepest, "row {r} after row {deepest}");
            deepest = deepest.max(r);
        }
    }

    #[test]
    fn every_existing_item_once_and_no_further_than_the_window() {
        let (rows, per_row, window) = (50, 7, 4);
        let odd = |i: usize| i % 2 == 1;
        let order = windowed_order(
            rows,
            per_row,
            window,
            odd,
            |_| false,
            &mut fastrand::Rng::with_seed(5),
        );
        // An item never comes after one whose row is `window` rows below its own.
        assert_each_once_within(&order, rows, per_row, odd, window);
    }

    #[test]
    fn visits_are_every_item_once_and_near_their_row() {
        let (rows, per_row, window) = (60, 9, 5);
        let odd = |i: usize| i % 2 == 1;
        let mut order = Vec::new();
        visit_windowed(
            rows,
            per_row,
            window,
            odd,
            |i| i % 3 == 0,
            &mut fastrand::Rng::with_seed(4),
            |i, _| {
                order.push(i);
                true
            },
        );
        assert_each_once_within(&order, rows, per_row, odd, window + 1);
        // Stopping early stops.
        let mut visited = 0;
        visit_windowed(
            rows,
            per_row,
            window,
            odd,
            |_| false,
            &mut fastrand::Rng::with_seed(4),
            |_, _| {
                visited += 1;
                visited < 10
            },
        );
        assert_eq!(visited, 10);
    }

    #[test]
    fn neighbours_come_in_either_order() {
        // Cells one row apart: the upper one first about half of the time (exactly
        // 1/2 + 1/window - 1/(2·window²) with whole-row keys).
        let (rows, w, window) = (200, 100, 16);
        let order = windowed_order(
            rows,
            w,
            window,
            |_| true,
            |_| false,
            &mut fastrand::Rng::with_seed(2),
        );
        let mut when = vec![0usize; rows * w];
        for (t, &i) in order.iter().enumerate() {
            when[i as usize] = t;
        }
        let upper_first = (0..(rows - 1) * w)
            .filter(|&i| when[i] < when[i + w])
            .count();
        let share = upper_first as f64 / ((rows - 1) * w) as f64;
        let want = 0.5 + 1.0 / window as f64 - 0.5 / (window * window) as f64;
        assert!(
            (share - want).abs() < 0.01,
            "upper neighbour first {share:.3} of the time"
        );
    }
    #[test]
    fn the_pipelined_visit_is_the_one_thread_visit() {
        // Same items in the same order and the generator left in the same state, whether the
        // visit runs to the end or stops early (at the start, mid-bucket, near the end).
        let (rows, per_row, window) = (70, 11, 6);
        let odd = |i: usize| i % 2 == 1;
        let thirds = |i: usize| i.is_multiple_of(3);
        let total = (0..rows * per_row).filter(|&i| odd(i)).count();
        for stop_after in [1, 2, 17, total - 3, total, usize::MAX] {
            for seed in 0..3 {
                let run = |pipelined: bool| {
                    let mut rng = fastrand::Rng::with_seed(seed);
                    let mut seen = Vec::new();
                    let visit = |i: u32, next: &[u32]| {
                        seen.push((i, next.len()));
                        seen.len() < stop_after
                    };
                    if pipelined {
                        visit_windowed_pipelined(
                            rows, per_row, window, odd, thirds, &mut rng, visit,
                        );
                    } else {
                        visit_windowed(rows, per_row, window, odd, thirds, &mut rng, visit);
                    }
                    (seen, rng.u64(..))
                };
                assert_eq!(
                    run(true),
                    run(false),
                    "seed {seed}, stop after {stop_after}"
                );
            }
        }
    }
}
