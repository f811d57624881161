//! Cutting one random stream into chunks that threads can draw in parallel with the same
//! result as one thread. fastrand's generator (WyRand) is a counter: every `u64` it draws adds
//! a constant to the state and hashes it, so the state after `k` draws is `seed + k·C`. A loop
//! that makes exactly one draw per item (the scramble: every `u8(..k)` with `k` a power of two
//! takes one draw, never a rejection) can start item `i`'s chunk at that state: the level for
//! a seed is the same byte for byte on any number of threads, and the same as the sequential
//! loop made. The test pins the constant: a fastrand that changed its generator fails it.

/// WyRand's state increment per drawn `u64` (fastrand 2.x, `gen_u64`).
const STEP: u64 = 0x2d35_8dcc_aa6c_78a5;

/// The generator `rng` would be after `draws` more `u64` draws.
pub fn skipped(rng: &fastrand::Rng, draws: u64) -> fastrand::Rng {
    fastrand::Rng::with_seed(rng.get_seed().wrapping_add(draws.wrapping_mul(STEP)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipping_is_drawing() {
        for seed in [0u64, 1, 7, u64::MAX] {
            let start = fastrand::Rng::with_seed(seed);
            for draws in [0u64, 1, 2, 5, 1000] {
                let mut walked = start.clone();
                for _ in 0..draws {
                    walked.u64(..);
                }
                let mut jumped = skipped(&start, draws);
                assert_eq!(jumped.get_seed(), walked.get_seed(), "seed {seed} +{draws}");
                assert_eq!(jumped.u64(..), walked.u64(..));
            }
        }
    }

    #[test]
    fn a_power_of_two_range_takes_one_draw() {
        // What the scramble's chunks rely on: `u8(..k)` for k in {1, 2, 4} is one draw.
        let mut rng = fastrand::Rng::with_seed(3);
        for i in 0..100_000u64 {
            let k = [1u8, 2, 4][(i % 3) as usize];
            rng.u8(..k);
            assert_eq!(
                rng.get_seed(),
                skipped(&fastrand::Rng::with_seed(3), i + 1).get_seed()
            );
        }
    }
}
