//! Checking, listing and drawing placements and turns. Everything works on
//! bitboards, so a random turn costs a few hundred nanoseconds.

use rand::{Rng, RngExt};
use umpire_core::{Cell, Game, Seat};

use umpire_core::grid::nth_bit;

use crate::board::{Board, Dir, GRID, Kind, crowded, king, movers, orthogonal, step};
use crate::{BombDomain, Illegal, MAX_MOVE, Motion, PEGS, Placement, Step, Turn};

/// The pieces a turn's move step moved: kind and step, at most two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moved {
    steps: [Option<(Kind, Step)>; 2],
}

impl Moved {
    pub fn iter(&self) -> impl Iterator<Item = (Kind, Step)> + '_ {
        self.steps.iter().flatten().copied()
    }
}

/// A random cell of a non-empty set.
fn pick<R: Rng + ?Sized>(set: u128, rng: &mut R) -> Cell {
    GRID.cell_at(nth_bit(set, rng.random_range(0..set.count_ones())))
}

/// The cells of `set` above index `cell`'s, so triples are listed once.
fn after(cell: Cell) -> u128 {
    GRID.all & !((2u128 << cell.index(GRID.width)) - 1)
}

/// Three cells of `cands`, no two in one 2×2 block, if there are any.
fn find_triple(cands: u128) -> Option<[Cell; 3]> {
    for a in GRID.cells_of(cands) {
        let rest = cands & !king(GRID.bit(a)) & after(a);
        for b in GRID.cells_of(rest) {
            let third = rest & !king(GRID.bit(b)) & after(b);
            if third != 0 {
                return Some([a, b, GRID.cell_at(third.trailing_zeros() as usize)]);
            }
        }
    }
    None
}

/// Every such triple, each once, in reading order.
fn triples(cands: u128) -> impl Iterator<Item = [Cell; 3]> {
    GRID.cells_of(cands).flat_map(move |a| {
        let rest = cands & !king(GRID.bit(a)) & after(a);
        GRID.cells_of(rest).flat_map(move |b| {
            GRID.cells_of(rest & !king(GRID.bit(b)) & after(b))
                .map(move |c| [a, b, c])
        })
    })
}

const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

fn placement(cells: [Cell; 3], order: [usize; 3]) -> Placement {
    Placement::new(cells[order[0]], cells[order[1]], cells[order[2]])
}

impl BombDomain {
    /// The cells `seat` may place on in the open round, and whether the
    /// neighbour rule is lifted (no three cells of the domain meet both
    /// rules at once).
    pub fn placement_cells(&self, seat: Seat) -> (u128, bool) {
        let occupied = self.board.occupied();
        let free = self.placement_domain(seat) & !occupied;
        let strict = free & !crowded(occupied);
        if find_triple(strict).is_some() {
            (strict, false)
        } else {
            (free, true)
        }
    }

    pub(crate) fn check_placement(&self, seat: Seat, p: &Placement) -> Result<(), Illegal> {
        if let Some(&cell) = p.cells.iter().find(|&&c| !GRID.contains(c)) {
            return Err(Illegal::OffBoard(cell));
        }
        let domain = self.placement_domain(seat);
        let occupied = self.board.occupied();
        for &cell in &p.cells {
            if domain & GRID.bit(cell) == 0 {
                let whose = if self.round % 2 == 1 {
                    "your"
                } else {
                    "the opponent's"
                };
                let columns = if domain == crate::board::DMO_HALF {
                    "A–D"
                } else {
                    "F–I"
                };
                return Err(Illegal::WrongDomain {
                    round: self.round,
                    cell,
                    whose,
                    columns,
                });
            }
            if occupied & GRID.bit(cell) != 0 {
                return Err(Illegal::Occupied(cell));
            }
        }
        for (i, &a) in p.cells.iter().enumerate() {
            for &b in &p.cells[i + 1..] {
                if a == b {
                    return Err(Illegal::SameCell(a));
                }
                if king(GRID.bit(a)) & GRID.bit(b) != 0 {
                    return Err(Illegal::SameBlock(a, b));
                }
            }
        }
        let crowd = crowded(occupied);
        if let Some(&cell) = p.cells.iter().find(|&&c| crowd & GRID.bit(c) != 0) {
            let strict = domain & !occupied & !crowd;
            if let Some(example) = find_triple(strict) {
                let example: Vec<String> = example.iter().map(Cell::to_string).collect();
                return Err(Illegal::Crowded {
                    cell,
                    neighbours: (orthogonal(GRID.bit(cell)) & occupied).count_ones(),
                    example: example.join(", "),
                });
            }
        }
        Ok(())
    }

    /// Every legal submission of `seat` in the open round (empty when it
    /// has nothing to place): every triple of cells, each way round.
    pub fn placements(&self, seat: Seat) -> impl Iterator<Item = Placement> + '_ {
        let open = self.decision().kind(seat) == Some("place");
        let cands = if open {
            self.placement_cells(seat).0
        } else {
            0
        };
        triples(cands).flat_map(|t| ORDERS.map(|o| placement(t, o)))
    }

    /// A random legal submission: three random cells, each way round alike.
    pub fn sample_placement<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Placement> {
        let occupied = self.board.occupied();
        let free = self.placement_domain(seat) & !occupied;
        let strict = free & !crowded(occupied);
        let order = ORDERS[rng.random_range(0..6)];
        for cands in [strict, free] {
            for _ in 0..8 {
                if cands == 0 {
                    break;
                }
                let a = pick(cands, rng);
                let rest = cands & !king(GRID.bit(a));
                if rest == 0 {
                    continue;
                }
                let b = pick(rest, rng);
                let third = rest & !king(GRID.bit(b));
                if third != 0 {
                    return Some(placement([a, b, pick(third, rng)], order));
                }
            }
            let all: Vec<[Cell; 3]> = triples(cands).collect();
            if !all.is_empty() {
                return Some(placement(all[rng.random_range(0..all.len())], order));
            }
        }
        None
    }

    /// The direction and length of a straight move, checked for 1–4 cells.
    fn straight(step: Step) -> Result<(Dir, u8), Illegal> {
        let (f, t) = (step.from, step.to);
        let dir = match (f.col.cmp(&t.col), f.row.cmp(&t.row)) {
            (std::cmp::Ordering::Equal, std::cmp::Ordering::Equal) => {
                return Err(Illegal::MoveLength(step, 0));
            }
            (std::cmp::Ordering::Equal, std::cmp::Ordering::Greater) => Dir::Up,
            (std::cmp::Ordering::Equal, std::cmp::Ordering::Less) => Dir::Down,
            (std::cmp::Ordering::Greater, std::cmp::Ordering::Equal) => Dir::Left,
            (std::cmp::Ordering::Less, std::cmp::Ordering::Equal) => Dir::Right,
            _ => return Err(Illegal::NotStraight(step)),
        };
        let len = f.col.abs_diff(t.col) + f.row.abs_diff(t.row);
        if len > MAX_MOVE {
            return Err(Illegal::MoveLength(step, len));
        }
        Ok((dir, len))
    }

    /// Moves `seat`'s piece along `step` on `board`, checking the piece and
    /// the path; returns its kind.
    fn move_on(
        board: &mut Board,
        seat: Seat,
        step: Step,
        dir: Dir,
        len: u8,
    ) -> Result<Kind, Illegal> {
        let kind = board
            .kind_at(seat, step.from)
            .ok_or(Illegal::NotYourPiece(step.from))?;
        let occupied = board.occupied();
        let mut at = GRID.bit(step.from);
        for _ in 0..len {
            at = crate::board::shift(at, dir);
            if at & occupied != 0 {
                let at = GRID.cell_at(at.trailing_zeros() as usize);
                return Err(Illegal::Blocked { step, at });
            }
        }
        board.move_piece(seat, kind, GRID.bit(step.from), GRID.bit(step.to));
        Ok(kind)
    }

    /// The board after a move pair, and the pieces it moved.
    pub(crate) fn after_pair(
        &self,
        seat: Seat,
        a: Step,
        b: Step,
    ) -> Result<(Board, Moved), Illegal> {
        let (da, la) = Self::straight(a)?;
        let (db, lb) = Self::straight(b)?;
        if da.is_vertical() == db.is_vertical() {
            let axis = if da.is_vertical() {
                "vertical"
            } else {
                "horizontal"
            };
            return Err(Illegal::NotOneOfEach(a, b, axis));
        }
        if la != lb {
            return Err(Illegal::UnequalLengths(a, la, b, lb));
        }
        let mut board = self.board;
        let ka = Self::move_on(&mut board, seat, a, da, la)?;
        if b.from == a.to {
            return Err(Illegal::SamePiece(a));
        }
        let kb = Self::move_on(&mut board, seat, b, db, lb)?;
        Ok((
            board,
            Moved {
                steps: [Some((ka, a)), Some((kb, b))],
            },
        ))
    }

    /// Checks a whole turn of `seat` and returns the board after it.
    pub(crate) fn check_turn(&self, seat: Seat, turn: &Turn) -> Result<Board, Illegal> {
        let steps = match turn.motion {
            Some(Motion::Pair(a, b)) => [Some(a), Some(b)],
            Some(Motion::Diagonal(s)) => [Some(s), None],
            None => [None, None],
        };
        let all = steps
            .iter()
            .flatten()
            .flat_map(|s| [s.from, s.to])
            .chain(turn.peg)
            .chain(turn.detonate);
        if let Some(cell) = all.into_iter().find(|&c| !GRID.contains(c)) {
            return Err(Illegal::OffBoard(cell));
        }
        let (mut board, moved) = match turn.motion {
            None => (self.board, Moved::default()),
            Some(Motion::Pair(a, b)) => self.after_pair(seat, a, b)?,
            Some(Motion::Diagonal(s)) => return self.check_diagonal(seat, s, turn),
        };
        let detonated = match turn.detonate {
            Some(cell) => Some((
                board
                    .kind_at(seat, cell)
                    .ok_or(Illegal::NotYourPiece(cell))?,
                cell,
            )),
            None => None,
        };
        if let Some(peg) = turn.peg {
            self.check_peg(seat, &board, &moved, detonated, peg)?;
            board.pegs[seat] |= GRID.bit(peg);
            board.placed[seat] |= GRID.bit(peg);
            board.claim(seat, GRID.bit(peg));
        }
        if let Some((kind, cell)) = detonated {
            self.detonate(&mut board, seat, kind, cell);
        }
        Ok(board)
    }

    /// The piece on `cell` explodes: its shape claims every cell without a
    /// peg or piece, and it becomes its owner's peg.
    fn detonate(&self, board: &mut Board, seat: Seat, kind: Kind, cell: Cell) {
        let blast = self.shapes.of(kind, cell) & !board.occupied();
        board.pieces[seat][kind as usize] &= !GRID.bit(cell);
        board.pegs[seat] |= GRID.bit(cell);
        board.claim(seat, blast | GRID.bit(cell));
    }

    fn check_diagonal(&self, seat: Seat, s: Step, turn: &Turn) -> Result<Board, Illegal> {
        let mut board = self.board;
        let kind = board
            .kind_at(seat, s.from)
            .ok_or(Illegal::NotYourPiece(s.from))?;
        if s.from.col.abs_diff(s.to.col) != 1 || s.from.row.abs_diff(s.to.row) != 1 {
            return Err(Illegal::NotDiagonal(s));
        }
        if board.occupied() & GRID.bit(s.to) != 0 {
            return Err(Illegal::Blocked { step: s, at: s.to });
        }
        if turn.peg.is_some() || turn.detonate.is_some() {
            return Err(Illegal::DiagonalEndsTurn);
        }
        if let Some((a, b)) = self.find_pair(seat, &mut |_| 0) {
            let example = Turn {
                motion: Some(Motion::Pair(a, b)),
                ..Turn::PASS
            };
            return Err(Illegal::PairExists(example.to_string()));
        }
        board.move_piece(seat, kind, GRID.bit(s.from), GRID.bit(s.to));
        Ok(board)
    }

    /// Where `seat` may not peg this turn because of moved pieces: their
    /// blast shapes at start and end.
    fn moved_shapes(&self, moved: &Moved) -> u128 {
        moved.iter().fold(0, |acc, (k, s)| {
            acc | self.shapes.of(k, s.from) | self.shapes.of(k, s.to)
        })
    }

    /// The cells `seat` may peg on `board` (after its move step), given
    /// the cells the move and detonation forbid.
    pub(crate) fn peg_cells(&self, seat: Seat, board: &Board, forbidden: u128) -> u128 {
        if board.placed[seat].count_ones() >= PEGS {
            return 0;
        }
        let mut ok = board.empty() & !forbidden & !board.peg_lines(seat);
        if let Some(d) = self.diagonal {
            ok &= !orthogonal(GRID.bit(d));
        }
        ok
    }

    fn check_peg(
        &self,
        seat: Seat,
        board: &Board,
        moved: &Moved,
        detonated: Option<(Kind, Cell)>,
        peg: Cell,
    ) -> Result<(), Illegal> {
        if board.placed[seat].count_ones() >= PEGS {
            return Err(Illegal::NoPegsLeft);
        }
        if let Some(other) = GRID
            .cells_of(board.placed[seat])
            .find(|c| c.row == peg.row || c.col == peg.col)
        {
            let line = if other.row == peg.row {
                "row"
            } else {
                "column"
            };
            return Err(Illegal::PegRowColumn {
                cell: peg,
                peg: other,
                line,
            });
        }
        if board.occupied() & GRID.bit(peg) != 0 {
            return Err(Illegal::Occupied(peg));
        }
        let centres = moved
            .iter()
            .flat_map(|(k, s)| [(k, "moved from", s.from), (k, "moved to", s.to)])
            .chain(detonated.map(|(k, c)| (k, "detonating on", c)));
        for (kind, how, centre) in centres {
            if self.shapes.of(kind, centre) & GRID.bit(peg) != 0 {
                return Err(Illegal::PegInBlast {
                    cell: peg,
                    kind,
                    how,
                    centre,
                });
            }
        }
        if let Some(piece) = self.diagonal {
            if orthogonal(GRID.bit(piece)) & GRID.bit(peg) != 0 {
                return Err(Illegal::PegNextToDiagonal {
                    cell: peg,
                    piece,
                    by: seat.other(),
                });
            }
        }
        Ok(())
    }

    /// A move pair of `seat`, if one exists. `draw(n)` picks where the
    /// search starts among `n` choices (always 0: the first pair in a fixed
    /// order; random: a random pair). Every first move is tried, so `None`
    /// means no pair exists.
    pub(crate) fn find_pair(
        &self,
        seat: Seat,
        draw: &mut impl FnMut(u32) -> u32,
    ) -> Option<(Step, Step)> {
        let own = self.board.own_pieces(seat);
        if own.count_ones() < 2 {
            return None;
        }
        let empty = self.board.empty();
        let start = draw(16);
        for i in 0..16 {
            let combo = (start + i) % 16;
            let (dir, len) = (Dir::ALL[(combo % 4) as usize], (combo / 4) as u8 + 1);
            let (first, _) = movers(own, empty, dir, len);
            let n = first.count_ones();
            let skip = draw(n);
            for j in 0..n {
                let a = GRID.cell_at(nth_bit(first, (skip + j) % n));
                let a2 = step(a, dir, len).expect("movers stay on the board");
                let empty2 = (empty | GRID.bit(a)) & !GRID.bit(a2);
                let across = dir.across();
                let flip = draw(2) as usize;
                for k in 0..2 {
                    let dir2 = across[(k + flip) % 2];
                    let (second, _) = movers(own & !GRID.bit(a), empty2, dir2, len);
                    if second != 0 {
                        let m = second.count_ones();
                        let b = GRID.cell_at(nth_bit(second, draw(m)));
                        let b2 = step(b, dir2, len).expect("movers stay on the board");
                        return Some((Step { from: a, to: a2 }, Step { from: b, to: b2 }));
                    }
                }
            }
        }
        None
    }

    /// Whether `seat` has a move pair now (in any order of any two pieces).
    pub fn has_pair(&self, seat: Seat) -> bool {
        self.find_pair(seat, &mut |_| 0).is_some()
    }

    /// Every move pair of `seat`, each in the order written.
    pub fn pairs(&self, seat: Seat) -> Vec<(Step, Step)> {
        let own = self.board.own_pieces(seat);
        let empty = self.board.empty();
        let mut out = Vec::new();
        for len in 1..=MAX_MOVE {
            for dir in Dir::ALL {
                for a in GRID.cells_of(movers(own, empty, dir, len).0) {
                    let a2 = step(a, dir, len).expect("movers stay on the board");
                    let empty2 = (empty | GRID.bit(a)) & !GRID.bit(a2);
                    for dir2 in dir.across() {
                        for b in GRID.cells_of(movers(own & !GRID.bit(a), empty2, dir2, len).0) {
                            let b2 = step(b, dir2, len).expect("movers stay on the board");
                            out.push((Step { from: a, to: a2 }, Step { from: b, to: b2 }));
                        }
                    }
                }
            }
        }
        out
    }

    /// Every diagonal step of `seat` onto an empty cell (legal only when
    /// no pair exists).
    pub fn diagonal_steps(&self, seat: Seat) -> Vec<Step> {
        let empty = self.board.empty();
        let mut out = Vec::new();
        for from in GRID.cells_of(self.board.own_pieces(seat)) {
            for (dc, dr) in [(-1i8, -1i8), (1, -1), (-1, 1), (1, 1)] {
                let (col, row) = (from.col as i8 + dc, from.row as i8 + dr);
                if !(0..9).contains(&col) || !(0..9).contains(&row) {
                    continue;
                }
                let to = Cell::new(col as u8, row as u8);
                if empty & GRID.bit(to) != 0 {
                    out.push(Step { from, to });
                }
            }
        }
        out
    }

    /// Every move step `seat` may take: none, each pair, or (only without
    /// pairs) each diagonal step.
    pub fn motions(&self, seat: Seat) -> Vec<Option<Motion>> {
        let pairs = self.pairs(seat);
        let mut out = vec![None];
        if pairs.is_empty() {
            out.extend(
                self.diagonal_steps(seat)
                    .into_iter()
                    .map(|s| Some(Motion::Diagonal(s))),
            );
        } else {
            out.extend(pairs.into_iter().map(|(a, b)| Some(Motion::Pair(a, b))));
        }
        out
    }

    /// Every legal whole turn of `seat` (empty when it is not its turn),
    /// lazily: each move step, then each detonation, then each peg.
    pub fn turns(&self, seat: Seat) -> impl Iterator<Item = Turn> + '_ {
        let motions = if self.to_move() == Some(seat) {
            self.motions(seat)
        } else {
            Vec::new()
        };
        motions
            .into_iter()
            .flat_map(move |motion| self.turns_with(seat, motion))
    }

    /// The legal turns of `seat` that begin with `motion`, which must be
    /// one of [`BombDomain::motions`].
    pub fn turns_with(&self, seat: Seat, motion: Option<Motion>) -> Vec<Turn> {
        let (board, moved) = match motion {
            Some(Motion::Diagonal(_)) => {
                return vec![Turn {
                    motion,
                    ..Turn::PASS
                }];
            }
            Some(Motion::Pair(a, b)) => self.after_pair(seat, a, b).expect("a legal pair"),
            None => (self.board, Moved::default()),
        };
        let forbidden = self.moved_shapes(&moved);
        let detonations = std::iter::once(None).chain(Kind::ALL.into_iter().flat_map(|k| {
            GRID.cells_of(board.pieces[seat][k as usize])
                .map(move |c| Some((k, c)))
        }));
        let mut out = Vec::new();
        for det in detonations {
            let blast = det.map_or(0, |(k, c)| self.shapes.of(k, c));
            let pegs = self.peg_cells(seat, &board, forbidden | blast);
            for peg in std::iter::once(None).chain(GRID.cells_of(pegs).map(Some)) {
                out.push(Turn {
                    motion,
                    peg,
                    detonate: det.map(|(_, c)| c),
                });
            }
        }
        out
    }

    /// A random legal turn, fast: a random pair (7 times in 8 when one
    /// exists), else now and then a diagonal step; then a detonation one
    /// time in three and a peg one time in two.
    pub fn sample_turn<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Turn {
        let pair = self.find_pair(seat, &mut |n| {
            if n > 1 { rng.random_range(0..n) } else { 0 }
        });
        let mut board = self.board;
        let mut moved = Moved::default();
        let mut motion = None;
        match pair {
            Some((a, b)) if rng.random_range(0..8) != 0 => {
                (board, moved) = self.after_pair(seat, a, b).expect("a found pair is legal");
                motion = Some(Motion::Pair(a, b));
            }
            Some(_) => {}
            None => {
                let steps = self.diagonal_steps(seat);
                if !steps.is_empty() && rng.random() {
                    let s = steps[rng.random_range(0..steps.len())];
                    return Turn {
                        motion: Some(Motion::Diagonal(s)),
                        ..Turn::PASS
                    };
                }
            }
        }
        let own = board.own_pieces(seat);
        let detonated = (own != 0 && rng.random_range(0..3) == 0).then(|| {
            let cell = pick(own, rng);
            (board.kind_at(seat, cell).expect("an own piece"), cell)
        });
        let blast = detonated.map_or(0, |(k, c)| self.shapes.of(k, c));
        let pegs = self.peg_cells(seat, &board, self.moved_shapes(&moved) | blast);
        let peg = (pegs != 0 && rng.random()).then(|| pick(pegs, rng));
        Turn {
            motion,
            peg,
            detonate: detonated.map(|(_, c)| c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_with_eighteen_free_cells_always_holds_a_triple() {
        // Three cells pairwise outside one 2×2 block exist in any 18 cells
        // of a 4×9 half: with at most two, every cell would lie within 4
        // rows of each other (rows r, r+2, r+4 give three), so at most 16.
        assert!(find_triple(GRID.cols(0, 3)).is_some());
        let four_rows = (0..4).fold(0, |acc, r| acc | GRID.row(r));
        assert!(find_triple(GRID.cols(0, 1) & four_rows).is_none());
    }
}
