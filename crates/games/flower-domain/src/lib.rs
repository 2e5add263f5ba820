//! Battle of the Flower Domain: players move groups of two to four
//! differently coloured flowers from a 10×10 meadow into a 10×10 garden,
//! keeping each group's shape, and build the largest regions of the two
//! colours they drafted. Rules: `RULES.md` beside this crate.

mod board;
mod bot;
mod notation;
mod score;
mod search;
mod shapes;
mod view;

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use umpire_core::{
    Cell, ClockPolicy, ConfigError, ConfigOption, Decision, Game, OptionKind, Outcome, Pending,
    PerSeat, RuleViolation, Seat, Timeout, TurnClock, Viewer, seeded_rng,
};

use board::CENTRE;
pub use board::{BOARD, ByColour, CELLS, Colour, Flowers, SIZE};
pub use notation::Action;
pub use score::{Decider, compare, garden_regions};
pub use shapes::{Allowed, MoveGen, Placement, Placements};
pub use view::{Last, Phase, View};

/// Flower Domain's place in the catalogue: the game and its bots.
pub static REGISTRATION: umpire_core::Registration = umpire_core::Registration {
    game: umpire_core::erase::<FlowerDomain>(),
    bots: &bot::BOTS,
    commands: &[],
    words: &["flower", "flowers", "meadow", "garden"],
};

/// The first-move rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FirstMove {
    /// The amendment: exactly four flowers, covering E5, F5, E6 or F6.
    #[default]
    Amended,
    /// The rulebook's first rule: exactly two flowers, anywhere.
    Original,
}

/// Match options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The seat with the advantage, who names the first drafter.
    pub advantage: Seat,
    /// The first-move rule.
    pub first_move: FirstMove,
    /// A fixed meadow: 100 letters `R Y G B` (any case, whitespace
    /// ignored), A1…J1, then A2…J2 and so on, 25 of each colour. `null` or
    /// empty: shuffled from the match seed.
    pub meadow: Option<String>,
}

/// Why a Flower Domain action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the meadow is being studied: the only action now is `ready`")]
    Studying,
    #[error("the advantage seat must first name who drafts first (`first P1` or `first P2`)")]
    ChooseFirst,
    #[error("the colours are being drafted: pick {0}")]
    Drafting(String),
    #[error("{0} is already taken")]
    Taken(Colour),
    #[error("the draft is over: move flowers (like `A1-B1 to C3-C4`) or `pass`")]
    InPlay,
    #[error("the game is over")]
    Over,
    #[error("a move names one garden cell for each meadow flower")]
    Unmatched,
    #[error("a move takes 2 to 4 flowers, not {0}")]
    FlowerCount(usize),
    #[error("{0} is off the board (columns A–J, rows 1–10)")]
    OffBoard(Cell),
    #[error("{1} is named twice in the {0}: each flower and each garden cell once")]
    Twice(&'static str, Cell),
    #[error("the meadow has no flower on {0}")]
    NoFlower(Cell),
    #[error("{0} and {1} are both {2}: the flowers of a move must all differ in colour")]
    SameColour(Cell, Cell, Colour),
    #[error("the flowers on {0} are not orthogonally connected")]
    NotConnected(String),
    #[error("the first move of the game takes exactly {0} flowers, not {1}")]
    FirstMoveSize(&'static str, usize),
    #[error("the first move of the game must cover E5, F5, E6 or F6 in the garden")]
    FirstMoveCentre,
    #[error("garden cell {0} already holds a flower")]
    Occupied(Cell),
    #[error(
        "{1} is not {0} turned or flipped: the n-th meadow flower goes to the n-th garden cell, and a move keeps its shape"
    )]
    NotCongruent(String, String),
}

impl RuleViolation for Illegal {
    fn rule(&self) -> &'static str {
        match self {
            Illegal::Studying => "study-period",
            Illegal::ChooseFirst => "choose-first",
            Illegal::Drafting(_) => "draft-colour",
            Illegal::Taken(_) => "colour-taken",
            Illegal::InPlay => "in-play",
            Illegal::Over => "game-over",
            Illegal::Unmatched => "unmatched-cells",
            Illegal::FlowerCount(_) => "flower-count",
            Illegal::OffBoard(_) => "off-board",
            Illegal::Twice(..) => "cell-twice",
            Illegal::NoFlower(_) => "no-flower",
            Illegal::SameColour(..) => "same-colour",
            Illegal::NotConnected(_) => "not-connected",
            Illegal::FirstMoveSize(..) | Illegal::FirstMoveCentre => "first-move",
            Illegal::Occupied(_) => "occupied",
            Illegal::NotCongruent(..) => "not-congruent",
        }
    }
}

/// Passes in a row that end the game.
pub const PASSES_TO_END: u8 = 4;

/// A Flower Domain match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowerDomain {
    first_move: FirstMove,
    advantage: Seat,
    phase: Phase,
    ready: PerSeat<bool>,
    first_drafter: Option<Seat>,
    picks: Vec<Colour>,
    owners: ByColour<Option<Seat>>,
    meadow: Flowers,
    garden: Flowers,
    /// The seat to move, during play only.
    to_move: Option<Seat>,
    passes: u8,
    last: Option<(Seat, Action)>,
}

impl FlowerDomain {
    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn meadow(&self) -> &Flowers {
        &self.meadow
    }

    pub fn garden(&self) -> &Flowers {
        &self.garden
    }

    /// Who controls `colour`, once drafted.
    pub fn owner(&self, colour: Colour) -> Option<Seat> {
        self.owners[colour]
    }

    /// Passes in a row.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The seat that drafts the `pick`-th colour (A B B A).
    fn drafter(&self, pick: usize) -> Seat {
        let a = self.first_drafter.unwrap_or(self.advantage);
        if pick == 1 || pick == 2 { a.other() } else { a }
    }

    /// What the next move may be: the first move of the game is restricted.
    pub fn allowed(&self) -> Allowed {
        match (self.garden.occupied() == 0, self.first_move) {
            (false, _) => Allowed::Any,
            (true, FirstMove::Amended) => Allowed::FourInCentre,
            (true, FirstMove::Original) => Allowed::Two,
        }
    }

    /// The placements of this position, by shape.
    pub fn move_gen(&self) -> MoveGen {
        MoveGen::new(&self.meadow, &self.garden, self.allowed())
    }

    /// Every legal placement once (passing aside), in compact form.
    pub fn placements(&self) -> Placements {
        self.move_gen().iter()
    }

    /// The notation of a placement.
    pub fn action_of(p: &Placement) -> Action {
        Action::Move {
            from: p.pairs().map(|(f, _)| BOARD.cell_at(f)).collect(),
            to: p.pairs().map(|(_, t)| BOARD.cell_at(t)).collect(),
        }
    }

    /// Checks a move against every rule; returns it as a placement.
    pub fn check_move(&self, from: &[Cell], to: &[Cell]) -> Result<Placement, Illegal> {
        if from.len() != to.len() {
            return Err(Illegal::Unmatched);
        }
        let n = from.len();
        if !(2..=4).contains(&n) {
            return Err(Illegal::FlowerCount(n));
        }
        if let Some(&c) = from.iter().chain(to).find(|&&c| !BOARD.contains(c)) {
            return Err(Illegal::OffBoard(c));
        }
        for (board, cells) in [("meadow", from), ("garden", to)] {
            for (i, c) in cells.iter().enumerate() {
                if cells[..i].contains(c) {
                    return Err(Illegal::Twice(board, *c));
                }
            }
        }
        self.check_flowers(from)?;
        let allowed = self.allowed();
        match allowed {
            Allowed::FourInCentre if n != 4 => return Err(Illegal::FirstMoveSize("four", n)),
            Allowed::Two if n != 2 => return Err(Illegal::FirstMoveSize("two", n)),
            _ => {}
        }
        if let Some(&c) = to.iter().find(|&&c| self.garden.colour_at(c).is_some()) {
            return Err(Illegal::Occupied(c));
        }
        let xy = |cells: &[Cell]| -> Vec<(i32, i32)> {
            cells.iter().map(|c| (c.col as i32, c.row as i32)).collect()
        };
        if !shapes::congruent(&xy(from), &xy(to)) {
            return Err(Illegal::NotCongruent(
                notation::cell_list(from),
                notation::cell_list(to),
            ));
        }
        if allowed == Allowed::FourInCentre && to.iter().all(|&c| BOARD.bit(c) & CENTRE == 0) {
            return Err(Illegal::FirstMoveCentre);
        }
        let mut p = Placement {
            len: n as u8,
            from: [0; 4],
            to: [0; 4],
        };
        for i in 0..n {
            p.from[i] = from[i].index(SIZE) as u8;
            p.to[i] = to[i].index(SIZE) as u8;
        }
        Ok(p)
    }

    /// The meadow side of a move (on the board, each cell once): a flower on
    /// every cell, all of different colours, orthogonally connected.
    fn check_flowers(&self, from: &[Cell]) -> Result<(), Illegal> {
        let mut colours = Vec::with_capacity(from.len());
        for &c in from {
            let colour = self.meadow.colour_at(c).ok_or(Illegal::NoFlower(c))?;
            if let Some(i) = colours.iter().position(|&k| k == colour) {
                return Err(Illegal::SameColour(from[i], c, colour));
            }
            colours.push(colour);
        }
        let set = from.iter().fold(0, |acc, &c| acc | BOARD.bit(c));
        if board::regions(set).len() != 1 {
            return Err(Illegal::NotConnected(notation::cell_list(from)));
        }
        Ok(())
    }

    /// Moves a legal placement's flowers from the meadow to the garden.
    fn place(&mut self, seat: Seat, p: &Placement) {
        for (f, t) in p.pairs() {
            let colour = self.meadow.colour_at_index(f).expect("a checked move");
            self.meadow.take(f);
            self.garden.put(t, colour);
        }
        self.passes = 0;
        self.to_move = Some(seat.other());
    }

    fn pass(&mut self, seat: Seat) {
        self.passes += 1;
        self.last = Some((seat, Action::Pass));
        if self.passes >= PASSES_TO_END {
            self.phase = Phase::Over;
            self.to_move = None;
        } else {
            self.to_move = Some(seat.other());
        }
    }

    fn free_colours(&self) -> Vec<Colour> {
        Colour::ALL
            .into_iter()
            .filter(|&c| self.owners[c].is_none())
            .collect()
    }

    /// `seat` takes `colour`; after the third pick the last colour goes to
    /// the first drafter and play begins with red's controller.
    fn pick(&mut self, seat: Seat, colour: Colour) {
        self.owners[colour] = Some(seat);
        self.picks.push(colour);
        if self.picks.len() == 3 {
            let last = self.free_colours()[0];
            self.owners[last] = Some(self.drafter(3));
            self.phase = Phase::Play;
            self.to_move = self.owners.red;
        }
    }

    /// Each colour's controller, once the draft is over.
    fn controllers(&self) -> Option<ByColour<Seat>> {
        let o = self.owners;
        Some(ByColour {
            red: o.red?,
            yellow: o.yellow?,
            green: o.green?,
            blue: o.blue?,
        })
    }

    /// Rebuilds the exact state a view shows (every fact is public).
    pub fn from_view(view: &View) -> Result<FlowerDomain, String> {
        let meadow = Flowers::parse(&view.meadow.concat(), true)?;
        let garden = Flowers::parse(&view.garden.concat(), true)?;
        let last = match &view.last {
            Some(l) => Some((l.by, l.action.parse().map_err(|e| format!("{e}"))?)),
            None => None,
        };
        Ok(FlowerDomain {
            first_move: view.first_move,
            advantage: view.advantage,
            phase: view.phase,
            ready: view.ready,
            first_drafter: view.first_drafter,
            picks: view.picks.clone(),
            owners: view.owners,
            meadow,
            garden,
            to_move: view.to_move,
            passes: view.passes,
            last,
        })
    }
}

/// The meadow of a config, or one shuffled from the seed.
fn meadow(config: &Config, seed: u64) -> Result<Flowers, ConfigError> {
    let bad = |why: String| ConfigError(format!("flower-domain: bad meadow: {why}"));
    match config.meadow.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => {
            let flowers = Flowers::parse(text, false).map_err(bad)?;
            let counts = Colour::ALL.map(|c| flowers.of(c).count_ones());
            if counts != [25; 4] {
                return Err(bad(format!(
                    "it needs 25 flowers of each colour, not {} red, {} yellow, {} green, {} blue",
                    counts[0], counts[1], counts[2], counts[3]
                )));
            }
            Ok(flowers)
        }
        _ => {
            let mut letters: Vec<Colour> = Colour::ALL
                .iter()
                .flat_map(|&c| std::iter::repeat_n(c, 25))
                .collect();
            letters.shuffle(&mut seeded_rng(seed));
            let mut flowers = Flowers::default();
            for (i, c) in letters.into_iter().enumerate() {
                flowers.put(i, c);
            }
            Ok(flowers)
        }
    }
}

/// The actions of a phase other than play: few enough to list.
fn small_list(state: &FlowerDomain) -> Vec<Action> {
    match state.phase {
        Phase::Study => vec![Action::Ready],
        Phase::First => Seat::BOTH.map(Action::First).to_vec(),
        Phase::Draft => state
            .free_colours()
            .into_iter()
            .map(Action::Draft)
            .collect(),
        Phase::Play => vec![Action::Pass],
        Phase::Over => Vec::new(),
    }
}

impl Game for FlowerDomain {
    umpire_core::game_header!(
        "flower-domain",
        "Battle of the Flower Domain",
        include_str!("../RULES.md")
    );

    fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        Ok(FlowerDomain {
            first_move: config.first_move,
            advantage: config.advantage,
            phase: Phase::Study,
            ready: PerSeat::default(),
            first_drafter: None,
            picks: Vec::new(),
            owners: ByColour::default(),
            meadow: meadow(config, seed)?,
            garden: Flowers::default(),
            to_move: None,
            passes: 0,
            last: None,
        })
    }

    fn options() -> Vec<ConfigOption> {
        vec![
            ConfigOption::new("advantage", "Advantage").about("The seat that names who drafts first"),
            ConfigOption::new("first_move", "First move")
                .about("Amended: four flowers covering a centre cell; original: two flowers anywhere")
                .kind(OptionKind::choice(&["amended", "original"])),
            ConfigOption::new("meadow", "Meadow")
                .about("100 letters R Y G B, row by row from A1, 25 of each; empty: shuffled from the seed")
                .kind(OptionKind::text("RYGBRYGB… (100 letters)")),
        ]
    }

    fn decision(&self) -> Decision {
        match self.phase {
            Phase::Study => Seat::BOTH
                .into_iter()
                .filter(|&s| !self.ready[s])
                .fold(Decision::over(), |d, s| {
                    d.with(s, Pending::new("study").simultaneous())
                }),
            Phase::First => Decision::one(self.advantage, "first"),
            Phase::Draft => {
                let n = self.picks.len();
                Decision::over().with(self.drafter(n), Pending::new("draft").step(n as u32))
            }
            Phase::Play => match self.to_move {
                Some(seat) => Decision::one(seat, "move"),
                None => Decision::over(),
            },
            Phase::Over => Decision::over(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Study, Action::Ready) => {
                self.ready[seat] = true;
                if self.ready.p1 && self.ready.p2 {
                    self.phase = Phase::First;
                }
            }
            (Phase::Study, _) => return Err(Illegal::Studying),
            (Phase::First, Action::First(first)) => {
                self.first_drafter = Some(*first);
                self.phase = Phase::Draft;
            }
            (Phase::First, _) => return Err(Illegal::ChooseFirst),
            (Phase::Draft, Action::Draft(colour)) => {
                if self.owners[*colour].is_some() {
                    return Err(Illegal::Taken(*colour));
                }
                self.pick(seat, *colour);
            }
            (Phase::Draft, _) => {
                let free: Vec<&str> = self.free_colours().iter().map(|c| c.name()).collect();
                return Err(Illegal::Drafting(free.join(", ")));
            }
            (Phase::Play, Action::Pass) => self.pass(seat),
            (Phase::Play, Action::Move { from, to }) => {
                let p = self.check_move(from, to)?;
                self.place(seat, &p);
                self.last = Some((seat, action.clone()));
            }
            (Phase::Play, _) => return Err(Illegal::InPlay),
            (Phase::Over, _) => return Err(Illegal::Over),
        }
        Ok(())
    }

    /// The fourth colour, written by the seat it went to before the first
    /// move or pass: a record may hold the forced pick or leave it out.
    fn given(&self, seat: Seat, action: &Action) -> bool {
        match action {
            Action::Draft(colour) => {
                self.phase == Phase::Play
                    && self.last.is_none()
                    && !self.picks.contains(colour)
                    && self.owners[*colour] == Some(seat)
            }
            _ => false,
        }
    }

    fn legal_actions(&self, seat: Seat) -> Option<impl Iterator<Item = Action> + '_> {
        let mine = self.decision().get(seat).is_some();
        let simple = if mine { small_list(self) } else { Vec::new() };
        let moves = (mine && self.phase == Phase::Play).then(|| self.placements());
        Some(
            simple
                .into_iter()
                .chain(moves.into_iter().flatten().map(|p| Self::action_of(&p))),
        )
    }

    /// Uniform over the legal actions; during play without listing the
    /// moves: each shape's count of placements is known from bitboards.
    fn sample_action<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Action> {
        self.decision().get(seat)?;
        if self.phase != Phase::Play {
            let list = small_list(self);
            return Some(list[rng.random_range(0..list.len())].clone());
        }
        let moves = self.move_gen();
        let weights = moves.weights();
        let total: u64 = weights.iter().sum();
        let n = rng.random_range(0..=total);
        if n == total {
            return Some(Action::Pass);
        }
        moves.nth(n, &weights).map(|p| Self::action_of(&p))
    }

    fn view(&self, _: Viewer) -> View {
        let regions = garden_regions(&self.garden);
        let score = PerSeat::from_fn(|seat| {
            Colour::ALL
                .iter()
                .filter(|&&c| self.owners[c] == Some(seat))
                .map(|&c| regions[c].first().map_or(0, |r| r.count_ones()))
                .sum()
        });
        View {
            phase: self.phase,
            advantage: self.advantage,
            first_move: self.first_move,
            meadow: self.meadow.rows(),
            garden: self.garden.rows(),
            ready: self.ready,
            first_drafter: self.first_drafter,
            picks: self.picks.clone(),
            owners: self.owners,
            to_move: self.to_move,
            passes: self.passes,
            restriction: (self.phase == Phase::Play && self.allowed() != Allowed::Any)
                .then_some(self.first_move),
            last: self.last.as_ref().map(|(by, a)| Last {
                by: *by,
                action: a.to_string(),
            }),
            regions: ByColour::from_fn(|c| {
                regions[c]
                    .iter()
                    .map(|&r| BOARD.cells_of(r).collect())
                    .collect()
            }),
            score,
        }
    }

    /// Nothing is hidden: the view rebuilds the exact state.
    fn sample<R: Rng + ?Sized>(_: Viewer, view: &View, _: &(), _: &mut R) -> Self {
        FlowerDomain::from_view(view).unwrap_or_else(|_| {
            // A view no match shows (a client's garbage): empty boards.
            let empty = View {
                meadow: vec![".".repeat(CELLS)],
                garden: vec![".".repeat(CELLS)],
                last: None,
                ..view.clone()
            };
            FlowerDomain::from_view(&empty).expect("empty boards parse")
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        Some(score::outcome(&self.garden, &self.controllers()?))
    }

    fn clock_policy(_: &Config) -> ClockPolicy {
        ClockPolicy::bank(5 * 60_000)
    }

    /// 3 minutes to study the meadow, not drawn from the reserve; then 90 s
    /// per decision (first drafter, picks, moves), with the 5-minute reserve.
    fn turn_clock(&self, _: Seat) -> TurnClock {
        match self.phase {
            Phase::Study => TurnClock::fixed(3 * 60_000),
            _ => TurnClock::with_overtime(90_000),
        }
    }

    fn timeout(&mut self, seat: Seat) -> Timeout {
        match self.phase {
            Phase::Study => {
                self.ready[seat] = true;
                if self.ready.p1 && self.ready.p2 {
                    self.phase = Phase::First;
                }
                Timeout::Applied("ready (study time is up)".into())
            }
            Phase::First => {
                self.first_drafter = Some(self.advantage);
                self.phase = Phase::Draft;
                Timeout::Applied(format!(
                    "{} drafts first (no choice in time)",
                    self.advantage
                ))
            }
            Phase::Draft => {
                let colour = self.free_colours()[0];
                self.pick(seat, colour);
                Timeout::Applied(format!("took {colour} (no pick in time)"))
            }
            Phase::Play => {
                self.pass(seat);
                Timeout::Applied("passed".into())
            }
            Phase::Over => Timeout::Lose,
        }
    }
}
