//! Bomb Domain: each seat places 21 bombs in seven sealed rounds, then in 25
//! turns each moves them in pairs, places pegs and detonates them to claim
//! cells of a 9×9 board; a final blast ends the game and most cells win.
//! Rules: `RULES.md` beside this crate.
//!
//! ```
//! use umpire_bomb_domain::{BombDomain, Config, Phase};
//! use umpire_core::{Game, Seat, Viewer};
//!
//! let mut game = BombDomain::new(&Config::default(), 0).unwrap();
//! game.play(Seat::P1, &"defer".parse().unwrap()).unwrap();
//! game.play(Seat::P2, &"first P1".parse().unwrap()).unwrap();
//! game.play(Seat::P1, &"square B2, plus C4, cross A7".parse().unwrap()).unwrap();
//! // P2 sees only that P1 has submitted.
//! let seen = serde_json::to_value(game.view(Viewer::Seat(Seat::P2))).unwrap();
//! assert_eq!(seen["sealed"]["P1"], "submitted");
//! assert_eq!(game.view(Viewer::Spectator).phase, Phase::Place);
//! ```

mod board;
mod bot;
mod moves;
mod notation;
mod sample;
mod search;
mod shapes;
mod view;

use std::sync::Arc;

use rand::Rng;
use serde::{Deserialize, Deserializer, Serialize};
use umpire_core::{
    Cell, ClockPolicy, ConfigError, ConfigOption, Decision, Game, OptionKind, Outcome, Pending,
    PerSeat, RuleViolation, Seat, Timeout, TurnClock, Viewer,
};

pub use board::{Board, Dir, Kind};
use board::{DMO_HALF, EC_HALF, GRID};
pub use moves::Moved;
pub use notation::{Action, Motion, Placement, Step, Turn};
pub use shapes::{Blast, Shapes};
pub use view::{Event, PieceCells, SealedView, ShapePictures, View};

/// Bomb Domain's place in the catalogue: the game and its bots.
pub static REGISTRATION: umpire_core::Registration = umpire_core::Registration {
    game: umpire_core::erase::<BombDomain>(),
    bots: &bot::BOTS,
    commands: &[],
    words: &["bomb", "bombs", "blast", "blasts", "detonate", "detonation"],
};

/// Placement rounds.
pub const ROUNDS: u8 = 7;
/// Turns in the whole game, 25 a seat.
pub const TURNS: u8 = 50;
/// Pegs a seat may place with the peg step.
pub const PEGS: u32 = 9;
/// The longest straight move.
pub const MAX_MOVE: u8 = 4;

/// Match options. The blast shapes are pictures (see [`Shapes`]); an empty
/// or `null` picture means the standard shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The advantage seat: the DMO, who starts with columns A–D and makes
    /// the starter choice.
    pub advantage: Seat,
    #[serde(deserialize_with = "text_or_null")]
    pub square_blast: String,
    #[serde(deserialize_with = "text_or_null")]
    pub plus_blast: String,
    #[serde(deserialize_with = "text_or_null")]
    pub cross_blast: String,
    #[serde(deserialize_with = "text_or_null")]
    pub final_blast: String,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            advantage: Seat::P1,
            square_blast: shapes::SQUARE.into(),
            plus_blast: shapes::PLUS.into(),
            cross_blast: shapes::CROSS.into(),
            final_blast: shapes::FINAL.into(),
        }
    }
}

fn text_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
}

impl Config {
    /// The config's blast shapes, or what is wrong with them.
    pub fn shapes(&self) -> Result<Arc<Shapes>, ConfigError> {
        Shapes::shared([
            &self.square_blast,
            &self.plus_blast,
            &self.cross_blast,
            &self.final_blast,
        ])
        .map_err(|e| ConfigError(format!("{}: {e}", BombDomain::ID)))
    }
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The starter choice (the DMO's, or the EC's after `defer`).
    First,
    /// The seven sealed placement rounds.
    Place,
    /// The 50 turns.
    Turns,
    Over,
}

/// One seat's part of the open placement round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sealed {
    #[default]
    Waiting,
    Placed(Placement),
    /// The seat's time ran out: this round's pieces are lost.
    Missed,
}

/// Why a Bomb Domain action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("`{0}` is not what this decision takes: {1}")]
    WrongDecision(String, &'static str),
    #[error("the DMO handed you the starter choice: say `first P1` or `first P2`")]
    CannotDefer,
    #[error("{0} is off the board (columns A–I, rows 1–9)")]
    OffBoard(Cell),
    #[error(
        "round {round} places in {whose} starting domain, columns {columns}: {cell} is not there"
    )]
    WrongDomain {
        round: u8,
        cell: Cell,
        whose: &'static str,
        columns: &'static str,
    },
    #[error("{0} is occupied")]
    Occupied(Cell),
    #[error("two pieces on {0}: each piece needs its own cell")]
    SameCell(Cell),
    #[error("{0} and {1} lie in one 2×2 block, which no two pieces of one submission may share")]
    SameBlock(Cell, Cell),
    #[error(
        "{cell} has {neighbours} occupied orthogonal neighbours: a piece may have at most 2 \
         while three cells of the domain still meet both rules (e.g. {example})"
    )]
    Crowded {
        cell: Cell,
        neighbours: u32,
        example: String,
    },
    #[error("{0} holds no piece of yours")]
    NotYourPiece(Cell),
    #[error("{0} is neither vertical nor horizontal")]
    NotStraight(Step),
    #[error("{0} moves {1} cells: a straight move is 1 to 4 cells")]
    MoveLength(Step, u8),
    #[error("a move pair is one vertical and one horizontal move: {0} and {1} are both {2}")]
    NotOneOfEach(Step, Step, &'static str),
    #[error("both moves of a pair go the same number of cells: {0} goes {1}, {2} goes {3}")]
    UnequalLengths(Step, u8, Step, u8),
    #[error("the piece that moved {0} cannot move again: a pair moves two different pieces")]
    SamePiece(Step),
    #[error("{step} is blocked at {at}: no piece moves through or onto a piece or peg")]
    Blocked { step: Step, at: Cell },
    #[error("{0} is not one cell diagonally")]
    NotDiagonal(Step),
    #[error("a diagonal step is allowed only when no move pair exists, and `{0}` is one")]
    PairExists(String),
    #[error("a diagonal step ends the turn: no peg or detonation after it")]
    DiagonalEndsTurn,
    #[error("all {PEGS} of your pegs are placed")]
    NoPegsLeft,
    #[error("{cell} shares a {line} with your peg on {peg}: each peg needs its own row and column")]
    PegRowColumn {
        cell: Cell,
        peg: Cell,
        line: &'static str,
    },
    #[error(
        "{cell} is in the blast shape of your {kind} {how} {centre}: no peg in the blast shape \
         of a piece you move (start or end) or detonate this turn"
    )]
    PegInBlast {
        cell: Cell,
        kind: Kind,
        how: &'static str,
        centre: Cell,
    },
    #[error(
        "{cell} is next to {piece}, which {by} moved diagonally in the turn just before: \
         no peg there this turn"
    )]
    PegNextToDiagonal { cell: Cell, piece: Cell, by: Seat },
}

impl RuleViolation for Illegal {
    fn rule(&self) -> &'static str {
        match self {
            Illegal::WrongDecision(..) => "wrong-decision",
            Illegal::CannotDefer => "cannot-defer",
            Illegal::OffBoard(..) => "off-board",
            Illegal::WrongDomain { .. } => "wrong-domain",
            Illegal::Occupied(_) => "occupied",
            Illegal::SameCell(_) => "same-cell",
            Illegal::SameBlock(..) => "two-by-two",
            Illegal::Crowded { .. } => "neighbours",
            Illegal::NotYourPiece(_) => "not-your-piece",
            Illegal::NotStraight(_) => "not-straight",
            Illegal::MoveLength(..) => "move-length",
            Illegal::NotOneOfEach(..) => "one-of-each",
            Illegal::UnequalLengths(..) => "equal-lengths",
            Illegal::SamePiece(_) => "same-piece",
            Illegal::Blocked { .. } => "blocked",
            Illegal::NotDiagonal(_) => "not-diagonal",
            Illegal::PairExists(_) => "pair-exists",
            Illegal::DiagonalEndsTurn => "diagonal-ends-turn",
            Illegal::NoPegsLeft => "no-pegs-left",
            Illegal::PegRowColumn { .. } => "peg-row-column",
            Illegal::PegInBlast { .. } => "peg-in-blast",
            Illegal::PegNextToDiagonal { .. } => "peg-next-to-diagonal",
        }
    }
}

/// A Bomb Domain match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BombDomain {
    shapes: Arc<Shapes>,
    /// The advantage seat.
    dmo: Seat,
    phase: Phase,
    /// The DMO handed the starter choice to the EC.
    deferred: bool,
    /// The seat that chose the starter.
    chooser: Option<Seat>,
    /// The seat that takes the first turn.
    starter: Option<Seat>,
    /// The open placement round, 1–7 (7 once placement is over).
    round: u8,
    sealed: PerSeat<Sealed>,
    /// Turns taken, 0–50.
    turn: u8,
    board: Board,
    /// Placement sets lost to the clock.
    lost: PerSeat<u8>,
    /// Where the piece stands that the turn just before moved diagonally.
    diagonal: Option<Cell>,
    last: Option<Event>,
}

impl BombDomain {
    /// The DMO: the advantage seat.
    pub fn dmo(&self) -> Seat {
        self.dmo
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn shapes(&self) -> &Shapes {
        &self.shapes
    }

    /// The board as bitboards (bit `row * 9 + col` is a cell), for bots
    /// that weigh many positions.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is during the turns phase.
    pub fn to_move(&self) -> Option<Seat> {
        let starter = self.starter?;
        (self.phase == Phase::Turns).then(|| {
            if self.turn % 2 == 0 {
                starter
            } else {
                starter.other()
            }
        })
    }

    /// The seat that chose the starter, once chosen.
    pub fn chooser(&self) -> Option<Seat> {
        self.chooser
    }

    /// Cells of each seat's domain.
    pub fn cells(&self) -> PerSeat<u32> {
        self.board.counts()
    }

    /// The owner of `cell`'s domain, if any.
    pub fn owner(&self, cell: Cell) -> Option<Seat> {
        Seat::BOTH
            .into_iter()
            .find(|&s| self.board.owner[s] & GRID.bit(cell) != 0)
    }

    /// The piece on `cell`: its owner and kind.
    pub fn piece(&self, cell: Cell) -> Option<(Seat, Kind)> {
        self.board.piece_at(cell)
    }

    /// `seat`'s pieces on the board.
    pub fn pieces(&self, seat: Seat) -> Vec<(Kind, Cell)> {
        Kind::ALL
            .into_iter()
            .flat_map(|k| {
                GRID.cells_of(self.board.pieces[seat][k as usize])
                    .map(move |c| (k, c))
            })
            .collect()
    }

    /// `seat`'s pegs: `(placed with the peg step, left by detonations)`.
    pub fn pegs(&self, seat: Seat) -> (Vec<Cell>, Vec<Cell>) {
        let b = &self.board;
        (
            GRID.cells_of(b.placed[seat]).collect(),
            GRID.cells_of(b.pegs[seat] & !b.placed[seat]).collect(),
        )
    }

    /// Turns taken so far, of [`TURNS`].
    pub fn turns_taken(&self) -> u8 {
        self.turn
    }

    /// Placement rounds already landed.
    fn landed_rounds(&self) -> u8 {
        match self.phase {
            Phase::First => 0,
            Phase::Place => self.round - 1,
            Phase::Turns | Phase::Over => ROUNDS,
        }
    }

    /// The seat's starting half.
    fn half(&self, seat: Seat) -> u128 {
        if seat == self.dmo { DMO_HALF } else { EC_HALF }
    }

    /// Where `seat` places in the open round: its own starting domain in
    /// odd rounds, the opponent's in even ones.
    fn placement_domain(&self, seat: Seat) -> u128 {
        if self.round % 2 == 1 {
            self.half(seat)
        } else {
            self.half(seat.other())
        }
    }

    fn start_placement(&mut self) {
        self.phase = Phase::Place;
        self.round = 1;
    }

    fn choose_starter(&mut self, by: Seat, first: Seat, lapsed: bool) {
        self.starter = Some(first);
        self.chooser = Some(by);
        self.last = Some(Event::First { by, first, lapsed });
        self.start_placement();
    }

    /// Both submissions are in (or lost): they land at once.
    fn land_round_if_done(&mut self) {
        if self.sealed.p1 == Sealed::Waiting || self.sealed.p2 == Sealed::Waiting {
            return;
        }
        let placed = self.sealed.map(|s| match s {
            Sealed::Placed(p) => Some(*p),
            _ => None,
        });
        for seat in Seat::BOTH {
            if let Some(p) = placed[seat] {
                for (kind, cell) in p.pieces() {
                    self.board.pieces[seat][kind as usize] |= GRID.bit(cell);
                }
            }
        }
        self.last = Some(Event::Round {
            round: self.round,
            placed,
        });
        self.sealed = PerSeat::default();
        if self.round == ROUNDS {
            self.phase = Phase::Turns;
            self.turn = 0;
        } else {
            self.round += 1;
        }
    }

    /// A turn is over (played, or skipped when `turn` is `None`).
    fn end_turn(&mut self, seat: Seat, turn: Option<Turn>) {
        self.diagonal = match turn.and_then(|t| t.motion) {
            Some(Motion::Diagonal(s)) => Some(s.to),
            _ => None,
        };
        self.turn += 1;
        self.last = Some(Event::Turn {
            seat,
            turn: self.turn,
            action: turn,
        });
        if self.turn == TURNS {
            self.final_blast();
            self.phase = Phase::Over;
        }
    }

    /// Every remaining piece claims itself and the final shape around it,
    /// pegs and pieces excepted; a cell both seats reach keeps its owner.
    fn final_blast(&mut self) {
        let b = &self.board;
        let blocked = b.occupied();
        let reach = PerSeat::from_fn(|s| {
            let pieces = b.own_pieces(s);
            GRID.cells_of(pieces).fold(pieces, |acc, c| {
                acc | (self.shapes.mask(Blast::Final, c) & !blocked)
            })
        });
        let both = reach.p1 & reach.p2;
        for seat in Seat::BOTH {
            self.board.claim(seat, reach[seat] & !both);
        }
    }

    /// What `seat`'s pending decision takes, in words.
    fn expected(&self, seat: Seat) -> &'static str {
        match self.phase {
            Phase::First if seat == self.dmo && !self.deferred => {
                "choose who takes the first turn, `first P1` or `first P2`, or `defer` to the EC"
            }
            Phase::First => "choose who takes the first turn: `first P1` or `first P2`",
            Phase::Place => {
                "place one square, one plus and one cross, like `square B2, plus C4, cross A7`"
            }
            Phase::Turns => "play a turn, like `move D4-D6 F3-H3; peg G7; detonate C3`, or `pass`",
            Phase::Over => "nothing: the game is over",
        }
    }
}

impl Game for BombDomain {
    umpire_core::game_header!("bomb-domain", "Bomb Domain", include_str!("../RULES.md"));

    fn new(config: &Config, _seed: u64) -> Result<Self, ConfigError> {
        Ok(BombDomain {
            shapes: config.shapes()?,
            dmo: config.advantage,
            phase: Phase::First,
            deferred: false,
            chooser: None,
            starter: None,
            round: 0,
            sealed: PerSeat::default(),
            turn: 0,
            board: Board::start(config.advantage),
            lost: PerSeat::default(),
            diagonal: None,
            last: None,
        })
    }

    fn options() -> Vec<ConfigOption> {
        let shape = |key, label, about, placeholder| {
            ConfigOption::new(key, label)
                .about(about)
                .kind(OptionKind::text(placeholder))
        };
        vec![
            ConfigOption::new("advantage", "Advantage (DMO)").about(
                "The DMO: starts with columns A–D and chooses who takes the first turn, or defers",
            ),
            shape(
                "square_blast",
                "Square blast",
                "The square's blast shape: rows of # and . separated by /, centred on the piece",
                shapes::SQUARE,
            ),
            shape(
                "plus_blast",
                "Plus blast",
                "The plus's blast shape: rows of # and . separated by /, centred on the piece",
                shapes::PLUS,
            ),
            shape(
                "cross_blast",
                "Cross blast",
                "The cross's blast shape: rows of # and . separated by /, centred on the piece",
                shapes::CROSS,
            ),
            shape(
                "final_blast",
                "Final blast",
                "Every remaining piece's shape in the final blast",
                shapes::FINAL,
            ),
        ]
    }

    fn decision(&self) -> Decision {
        match self.phase {
            Phase::First if self.deferred => Decision::one(self.dmo.other(), "deferred-first"),
            Phase::First => Decision::one(self.dmo, "first"),
            Phase::Place => Seat::BOTH
                .into_iter()
                .filter(|&s| self.sealed[s] == Sealed::Waiting)
                .fold(Decision::over(), |d, s| {
                    d.with(
                        s,
                        Pending::new("place").step(self.round as u32).simultaneous(),
                    )
                }),
            Phase::Turns => match self.to_move() {
                Some(seat) => {
                    Decision::over().with(seat, Pending::new("turn").step(self.turn as u32 + 1))
                }
                None => Decision::over(),
            },
            Phase::Over => Decision::over(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), Illegal> {
        match (self.phase, *action) {
            (Phase::First, Action::First(first)) => self.choose_starter(seat, first, false),
            (Phase::First, Action::Defer) if !self.deferred => {
                self.deferred = true;
                self.last = Some(Event::Defer { by: seat });
            }
            (Phase::First, Action::Defer) => return Err(Illegal::CannotDefer),
            (Phase::Place, Action::Place(p)) => {
                self.check_placement(seat, &p)?;
                self.sealed[seat] = Sealed::Placed(p);
                self.land_round_if_done();
            }
            (Phase::Turns, Action::Turn(t)) => {
                self.board = self.check_turn(seat, &t)?;
                self.end_turn(seat, Some(t));
            }
            (_, a) => return Err(Illegal::WrongDecision(a.to_string(), self.expected(seat))),
        }
        Ok(())
    }

    /// The starter choice is listed; placements (tens of thousands) and
    /// turns (millions) are not: see [`BombDomain::placements`] and
    /// [`BombDomain::turns`] for the full lists.
    fn legal_actions(&self, seat: Seat) -> Option<impl Iterator<Item = Action> + '_> {
        let actions = match self.decision().kind(seat) {
            None => Vec::new(),
            Some("first") => vec![
                Action::First(Seat::P1),
                Action::First(Seat::P2),
                Action::Defer,
            ],
            Some("deferred-first") => vec![Action::First(Seat::P1), Action::First(Seat::P2)],
            Some(_) => return None,
        };
        Some(actions.into_iter())
    }

    fn sample_action<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Action> {
        use rand::RngExt;
        match self.decision().kind(seat)? {
            "place" => self.sample_placement(seat, rng).map(Action::Place),
            "turn" => Some(Action::Turn(self.sample_turn(seat, rng))),
            _ => {
                let listed: Vec<Action> = self.legal_actions(seat)?.collect();
                Some(listed[rng.random_range(0..listed.len())])
            }
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        view::build(self, viewer)
    }

    /// Only the other seat's sealed placement of the open round is hidden:
    /// a sample draws a legal placement for it.
    fn sample<R: Rng + ?Sized>(viewer: Viewer, view: &View, _: &(), rng: &mut R) -> Self {
        sample::from_view(viewer, view, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| self.result())
    }

    fn clock_policy(_: &Config) -> ClockPolicy {
        ClockPolicy::periods(3, 60_000)
    }

    fn turn_clock(&self, _: Seat) -> TurnClock {
        match self.phase {
            Phase::Turns => TurnClock::with_overtime(120_000),
            _ => TurnClock::fixed(90_000),
        }
    }

    fn timeout(&mut self, seat: Seat) -> Timeout {
        let what = match self.phase {
            Phase::First => {
                self.choose_starter(seat, seat, true);
                format!(
                    "starter choice lapsed: {seat} takes the first turn and counts as the chooser"
                )
            }
            Phase::Place => {
                let round = self.round;
                self.sealed[seat] = Sealed::Missed;
                self.lost[seat] += 1;
                self.land_round_if_done();
                format!("pieces lost: {seat}'s square, plus and cross of round {round}")
            }
            Phase::Turns => {
                let nth = self.turn / 2 + 1;
                self.end_turn(seat, None);
                format!("turn skipped: {seat}'s turn {nth} of {}", TURNS / 2)
            }
            Phase::Over => return Timeout::Lose,
        };
        Timeout::Applied(what)
    }
}

impl BombDomain {
    /// The result of a finished board: most cells, then the tie rule.
    fn result(&self) -> Outcome {
        let counts = self.cells();
        let scores = counts.map(|&c| c as i64);
        let neutral = GRID.all.count_ones() - counts.p1 - counts.p2;
        let held = format!(
            "P1 holds {} cells, P2 {} ({neutral} neutral)",
            counts.p1, counts.p2
        );
        if counts.p1 != counts.p2 {
            let winner = if counts.p1 > counts.p2 {
                Seat::P1
            } else {
                Seat::P2
            };
            return Outcome {
                winner: Some(winner),
                scores,
                decided_by: "cells".into(),
                reason: format!("{winner} wins with more cells: {held}"),
            };
        }
        let chooser = self.chooser.unwrap_or(self.dmo);
        let winner = chooser.other();
        let how = if self.deferred {
            format!("{} deferred and {chooser} chose the starter", self.dmo)
        } else {
            format!("{chooser} chose the starter")
        };
        Outcome {
            winner: Some(winner),
            scores,
            decided_by: "did not choose the starter".into(),
            reason: format!(
                "{winner} wins the tie as the seat that did not choose the starter ({how}): {held}"
            ),
        }
    }
}
