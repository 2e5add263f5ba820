//! Elo estimates from game results: the Bradley–Terry model fitted by
//! maximum likelihood, with 95% confidence intervals from the Fisher
//! information.
//!
//! - Model: bot i scores against bot j with probability
//!   `1 / (1 + 10^((r_j - r_i) / 400))`; a draw counts as half a win and
//!   half a loss.
//! - Anchor: the ratings' mean is 0, so only differences mean anything.
//! - Perfect records: every pair that played gets one virtual draw (half a
//!   win each way, the add-½ correction), so that a bot that won or lost
//!   every game still gets a finite rating. The correction pulls ratings a
//!   little toward each other (1 game in `n + 1`), and the interval of a
//!   100% (0%) record is wide and its upper (lower) end means only "at
//!   least (at most) about this": [`Rating::open_above`] and
//!   [`Rating::open_below`] say so.
//! - Interval: rating ± 1.96 standard errors, the standard errors from the
//!   inverse of the Fisher information at the fit (its pseudo-inverse, as
//!   the information does not see the common offset that the anchor fixes).
//!
//! The fit needs every bot linked to every other through games played
//! (a round robin always is).

/// Elo points per natural unit of the logistic model (400 / ln 10).
const ELO_PER_UNIT: f64 = 400.0 / std::f64::consts::LN_10;

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The games between two bots, from bot `a`'s side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Games {
    pub a: usize,
    pub b: usize,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Games {
    fn count(&self) -> f64 {
        (self.wins + self.draws + self.losses) as f64
    }

    /// Bot `a`'s score: wins plus half the draws.
    fn score(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
}

/// One bot's estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo, with the mean over all bots 0.
    pub elo: f64,
    /// The 95% confidence interval's ends.
    pub low: f64,
    pub high: f64,
    /// Games played (without the virtual draws).
    pub games: u64,
    /// Wins plus half the draws, over games (without the virtual draws).
    pub score: f64,
    /// It lost no game: the upper end bounds nothing.
    pub open_above: bool,
    /// It won no game: the lower end bounds nothing.
    pub open_below: bool,
}

/// Ratings of `bots` bots from the games between them, in bot order.
pub fn fit(bots: usize, results: &[Games]) -> Vec<Rating> {
    // Per pair (with the virtual draw): games and a's score.
    let pairs: Vec<(usize, usize, f64, f64)> = results
        .iter()
        .filter(|g| g.count() > 0.0 && g.a != g.b)
        .map(|g| (g.a, g.b, g.count() + 1.0, g.score() + 0.5))
        .collect();
    let mut scores = vec![0.0; bots];
    for &(a, b, n, s) in &pairs {
        scores[a] += s;
        scores[b] += n - s;
    }
    // Minorisation–maximisation (Hunter 2004): gamma_i = 10^(r_i / 400),
    // each step gamma_i = score_i / sum_j n_ij / (gamma_i + gamma_j). It
    // raises the likelihood every step and converges to the maximum.
    let mut gamma = vec![1.0f64; bots];
    for _ in 0..100_000 {
        let mut sums = vec![0.0; bots];
        for &(a, b, n, _) in &pairs {
            let d = n / (gamma[a] + gamma[b]);
            sums[a] += d;
            sums[b] += d;
        }
        let mut next: Vec<f64> = (0..bots)
            .map(|i| {
                if sums[i] > 0.0 {
                    scores[i] / sums[i]
                } else {
                    1.0
                }
            })
            .collect();
        // Rescale so the log-ratings average 0.
        let mean = next.iter().map(|g| g.ln()).sum::<f64>() / bots.max(1) as f64;
        next.iter_mut().for_each(|g| *g /= mean.exp());
        let change = next
            .iter()
            .zip(&gamma)
            .map(|(x, y)| (x.ln() - y.ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    let theta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    // Fisher information (a graph Laplacian weighted by n p (1 - p)).
    let mut info = vec![vec![0.0; bots]; bots];
    for &(a, b, n, _) in &pairs {
        let p = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
        let w = n * p * (1.0 - p);
        info[a][a] += w;
        info[b][b] += w;
        info[a][b] -= w;
        info[b][a] -= w;
    }
    let variance = laplacian_pseudo_inverse_diagonal(info);
    // Games and score per bot, without the virtual draws.
    let mut played = vec![(0u64, 0.0f64); bots];
    for g in results.iter().filter(|g| g.a != g.b) {
        let n = g.wins + g.draws + g.losses;
        played[g.a].0 += n;
        played[g.a].1 += g.score();
        played[g.b].0 += n;
        played[g.b].1 += n as f64 - g.score();
    }
    (0..bots)
        .map(|i| {
            let elo = theta[i] * ELO_PER_UNIT;
            let half = Z95 * variance[i].max(0.0).sqrt() * ELO_PER_UNIT;
            let (games, score) = played[i];
            Rating {
                elo,
                low: elo - half,
                high: elo + half,
                games,
                score: if games > 0 { score / games as f64 } else { 0.0 },
                open_above: games > 0 && score == games as f64,
                open_below: games > 0 && score == 0.0,
            }
        })
        .collect()
}

/// The diagonal of the pseudo-inverse of a connected graph's Laplacian `l`:
/// `(l + J/k)^-1 - J/k`, with J all ones, as l's null space is the ones.
fn laplacian_pseudo_inverse_diagonal(mut l: Vec<Vec<f64>>) -> Vec<f64> {
    let k = l.len();
    let j = 1.0 / k as f64;
    for row in &mut l {
        row.iter_mut().for_each(|x| *x += j);
    }
    // Gauss–Jordan elimination with partial pivoting on [l | I].
    let mut inv: Vec<Vec<f64>> = (0..k)
        .map(|r| (0..k).map(|c| f64::from(u8::from(r == c))).collect())
        .collect();
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&x, &y| l[x][col].abs().total_cmp(&l[y][col].abs()))
            .expect("a row");
        l.swap(col, pivot);
        inv.swap(col, pivot);
        let p = l[col][col];
        if p.abs() < 1e-300 {
            // Not connected: no finite interval.
            return vec![f64::INFINITY; k];
        }
        for c in 0..k {
            l[col][c] /= p;
            inv[col][c] /= p;
        }
        for r in 0..k {
            if r != col {
                let f = l[r][col];
                if f != 0.0 {
                    for c in 0..k {
                        l[r][c] -= f * l[col][c];
                        inv[r][c] -= f * inv[col][c];
                    }
                }
            }
        }
    }
    (0..k).map(|i| inv[i][i] - j).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(a: usize, b: usize, wins: u64, draws: u64, losses: u64) -> Games {
        Games {
            a,
            b,
            wins,
            draws,
            losses,
        }
    }

    fn close(x: f64, y: f64, tolerance: f64) -> bool {
        (x - y).abs() <= tolerance
    }

    #[test]
    fn equal_results_give_equal_ratings() {
        let r = fit(2, &[games(0, 1, 40, 20, 40)]);
        assert!(close(r[0].elo, 0.0, 1e-9) && close(r[1].elo, 0.0, 1e-9));
        assert!(close(r[0].low, -r[0].high, 1e-9) && r[0].high > 0.0);
        assert_eq!((r[0].games, r[0].score), (100, 0.5));
        // Three bots that each beat the next as often as they lose.
        let r = fit(
            3,
            &[
                games(0, 1, 30, 0, 30),
                games(1, 2, 5, 50, 5),
                games(0, 2, 7, 1, 7),
            ],
        );
        assert!(r.iter().all(|x| close(x.elo, 0.0, 1e-6)), "{r:?}");
    }

    #[test]
    fn a_76_percent_score_is_about_200_elo() {
        let r = fit(2, &[games(0, 1, 760, 0, 240)]);
        let gap = r[0].elo - r[1].elo;
        // 400 log10(0.76 / 0.24) = 200.2; the virtual draw takes a little.
        assert!(close(gap, 200.0, 1.0), "{gap}");
        assert!(close(r[0].elo, -r[1].elo, 1e-9));
        // Draws count half: 52 wins and 48 draws of 100 is 76% too.
        let r = fit(2, &[games(0, 1, 520, 480, 0)]);
        assert!(close(r[0].elo - r[1].elo, 200.0, 1.0));
        // The interval: the gap's standard error is
        // 400 / ln 10 / sqrt(n p (1 - p)) = 12.7 Elo, each bot's half that.
        let r = fit(2, &[games(0, 1, 760, 0, 240)]);
        let half = r[0].high - r[0].elo;
        assert!(close(half, 1.96 * 12.7 / 2.0, 0.3), "{half}");
        assert!(r[0].low < r[0].elo && r[0].elo < r[0].high);
    }

    #[test]
    fn ratings_are_symmetric_and_ordered() {
        let forward = fit(2, &[games(0, 1, 70, 10, 20)]);
        let backward = fit(2, &[games(1, 0, 20, 10, 70)]);
        for (f, b) in forward.iter().zip(&backward) {
            assert!(close(f.elo, b.elo, 1e-9) && close(f.high, b.high, 1e-9));
        }
        assert!(close(forward[0].elo, -forward[1].elo, 1e-9));
        // A beats B beats C: ratings in that order, mean 0.
        let r = fit(
            3,
            &[
                games(0, 1, 60, 0, 40),
                games(1, 2, 60, 0, 40),
                games(0, 2, 70, 0, 30),
            ],
        );
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo, "{r:?}");
        assert!(close(r.iter().map(|x| x.elo).sum::<f64>(), 0.0, 1e-6));
        // More games, narrower intervals.
        let few = fit(2, &[games(0, 1, 6, 0, 4)]);
        let many = fit(2, &[games(0, 1, 600, 0, 400)]);
        assert!(few[0].high - few[0].low > 5.0 * (many[0].high - many[0].low));
    }

    #[test]
    fn perfect_records_get_finite_ratings_and_open_intervals() {
        let r = fit(2, &[games(0, 1, 100, 0, 0)]);
        assert!(r.iter().all(|x| x.elo.is_finite() && x.high.is_finite()));
        // 100.5 of 101: 400 log10(100.5 / 0.5) = 921 Elo apart.
        assert!(close(r[0].elo - r[1].elo, 921.3, 0.5), "{r:?}");
        assert!(r[0].open_above && !r[0].open_below);
        assert!(r[1].open_below && !r[1].open_above);
        assert!(r[0].high - r[0].low > 400.0, "a wide interval: {r:?}");
        assert_eq!((r[0].score, r[1].score), (1.0, 0.0));
        // All draws bound nothing open.
        let r = fit(2, &[games(0, 1, 0, 10, 0)]);
        assert!(!r[0].open_above && !r[0].open_below);
    }
}
