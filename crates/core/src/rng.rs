//! Seeded randomness. Records must replay on any machine and any version, so
//! the generator is ChaCha8 (portable), never `StdRng` (which may change).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The portable generator every random element of a match comes from.
pub type MatchRng = ChaCha8Rng;

/// A generator seeded from a match seed.
pub fn seeded_rng(seed: u64) -> MatchRng {
    ChaCha8Rng::seed_from_u64(seed)
}
