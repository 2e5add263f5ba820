//! Renumbering colourings between cell sets.

use crate::grid::CellSet;

/// Most cells a [`Remap`] reads: three chunks of four base-4 digits.
pub(super) const MAX_FROM: usize = 12;

/// Maps a colouring number over `from` (digit `j` is the colour of the
/// `j`-th cell in reading order) to the number over `to` of the same
/// colouring: digits of cells outside `to` are dropped, cells of `to` outside
/// `from` read as red. Works by table lookup, a byte (four digits) at a time,
/// since the number is linear in the digits.
#[derive(Clone, Debug)]
pub(super) struct Remap {
    chunks: Box<[[u32; 256]; 3]>,
}

impl Remap {
    pub fn new(from: CellSet, to: CellSet) -> Remap {
        assert!(from.len() <= MAX_FROM, "a remap reads at most 12 cells");
        let weights: Vec<u32> = from
            .indices()
            .map(|i| {
                if to.contains(i) {
                    1 << (2 * rank(to, i))
                } else {
                    0
                }
            })
            .collect();
        let mut chunks = Box::new([[0u32; 256]; 3]);
        for (c, chunk) in chunks.iter_mut().enumerate() {
            for (byte, entry) in chunk.iter_mut().enumerate() {
                *entry = (0..4)
                    .filter_map(|d| {
                        weights
                            .get(4 * c + d)
                            .map(|w| ((byte as u32 >> (2 * d)) & 3) * w)
                    })
                    .sum();
            }
        }
        Remap { chunks }
    }

    #[inline]
    pub fn map(&self, k: usize) -> usize {
        (self.chunks[0][k & 255] + self.chunks[1][(k >> 8) & 255] + self.chunks[2][(k >> 16) & 255])
            as usize
    }
}

/// How many cells of `set` come before cell `i`.
pub(super) fn rank(set: CellSet, i: usize) -> usize {
    (u32::from(set.0) & ((1u32 << i) - 1)).count_ones() as usize
}
