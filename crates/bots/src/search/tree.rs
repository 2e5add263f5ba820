//! The search tree: one node per sequence of joint actions from the root,
//! and at each node every seat that acts there keeps its own statistics
//! (decoupled UCT: when both seats decide at once, each picks by its own
//! numbers, as neither sees the other's choice).

use umpire_core::{PerSeat, Seat};

/// One action a seat may take at a node, with what came of taking it.
pub(super) struct Arm<A> {
    pub action: A,
    pub visits: u32,
    /// The sum of rewards, from this seat's side.
    pub reward: f64,
}

impl<A> Arm<A> {
    fn mean(&self) -> f64 {
        self.reward / f64::from(self.visits.max(1))
    }
}

/// One seat's statistics at a node.
pub(super) struct SeatStats<A> {
    pub arms: Vec<Arm<A>>,
    /// Candidates not yet made arms, the next one last.
    pub waiting: Vec<A>,
    /// Iterations in which this seat acted here.
    pub visits: u32,
}

impl<A: PartialEq> SeatStats<A> {
    /// Statistics over `candidates`, most promising first.
    pub fn new(mut candidates: Vec<A>) -> SeatStats<A> {
        candidates.reverse();
        SeatStats {
            arms: Vec::new(),
            waiting: candidates,
            visits: 0,
        }
    }

    /// Counts a visit and widens: after n visits, `ceil(widen * sqrt(n))`
    /// arms may be tried (progressive widening), in the candidates' order.
    pub fn visit(&mut self, widen: f64) {
        self.visits += 1;
        let allowed = (widen * f64::from(self.visits).sqrt()).ceil() as usize;
        while self.arms.len() < allowed.max(1) {
            let Some(action) = self.waiting.pop() else {
                break;
            };
            self.add(action);
        }
    }

    /// Makes `action` an arm (if it is not one yet); returns its index.
    pub fn add(&mut self, action: A) -> usize {
        if let Some(i) = self.arms.iter().position(|a| a.action == action) {
            return i;
        }
        self.arms.push(Arm {
            action,
            visits: 0,
            reward: 0.0,
        });
        self.arms.len() - 1
    }

    /// The arms by UCB1 score, best first (untried arms first, in the
    /// candidates' order).
    pub fn ranked(&self, exploration: f64) -> Vec<usize> {
        let log_n = f64::from(self.visits.max(1)).ln();
        let score = |a: &Arm<A>| {
            if a.visits == 0 {
                f64::INFINITY
            } else {
                a.mean() + exploration * (log_n / f64::from(a.visits)).sqrt()
            }
        };
        let mut order: Vec<usize> = (0..self.arms.len()).collect();
        // A stable sort keeps the candidates' order among untried arms.
        order.sort_by(|&x, &y| score(&self.arms[y]).total_cmp(&score(&self.arms[x])));
        order
    }
}

/// The most visited arm, ties to the better mean.
pub(super) fn most_visited<A>(arms: &[Arm<A>]) -> Option<&Arm<A>> {
    arms.iter()
        .max_by(|a, b| a.visits.cmp(&b.visits).then(a.mean().total_cmp(&b.mean())))
}

/// The arms of several trees' roots, one per action, their visits and
/// rewards summed.
pub(super) fn sum_arms<A: PartialEq>(arms: impl IntoIterator<Item = Arm<A>>) -> Vec<Arm<A>> {
    let mut summed: Vec<Arm<A>> = Vec::new();
    for arm in arms {
        match summed.iter_mut().find(|s| s.action == arm.action) {
            Some(s) => {
                s.visits += arm.visits;
                s.reward += arm.reward;
            }
            None => summed.push(arm),
        }
    }
    summed
}

/// The arm each seat took, if it acted.
pub(super) type Joint = PerSeat<Option<usize>>;

pub(super) struct Node<A> {
    pub seats: PerSeat<Option<SeatStats<A>>>,
    pub children: Vec<(Joint, usize)>,
}

/// Nodes by index; the root is node 0.
pub(super) struct Tree<A> {
    pub nodes: Vec<Node<A>>,
}

impl<A: PartialEq> Tree<A> {
    pub fn new() -> Tree<A> {
        Tree {
            nodes: vec![Node::empty()],
        }
    }

    /// The child of `node` after `joint`, and whether it is new.
    pub fn child(&mut self, node: usize, joint: Joint) -> (usize, bool) {
        if let Some(&(_, c)) = self.nodes[node].children.iter().find(|(j, _)| *j == joint) {
            return (c, false);
        }
        let c = self.nodes.len();
        self.nodes.push(Node::empty());
        self.nodes[node].children.push((joint, c));
        (c, true)
    }

    /// Whether `seat` has one action to choose from at the root: a single
    /// candidate, tried. (The seat's own candidates at the root come from
    /// its own view, the same in every draw, so no draw adds another.)
    pub fn forced(&self, seat: Seat) -> bool {
        self.nodes[0].seats[seat]
            .as_ref()
            .is_some_and(|s| s.arms.len() == 1 && s.waiting.is_empty())
    }

    /// Adds `reward` (P1's, in [0, 1]) to every arm taken along `path`.
    pub fn back_up(&mut self, path: &[(usize, Joint)], reward: f64) {
        for &(node, joint) in path {
            for seat in Seat::BOTH {
                let (Some(arm), Some(stats)) = (joint[seat], self.nodes[node].seats[seat].as_mut())
                else {
                    continue;
                };
                let arm = &mut stats.arms[arm];
                arm.visits += 1;
                arm.reward += if seat == Seat::P1 {
                    reward
                } else {
                    1.0 - reward
                };
            }
        }
    }
}

impl<A> Node<A> {
    fn empty() -> Node<A> {
        Node {
            seats: PerSeat::new(None, None),
            children: Vec::new(),
        }
    }
}
