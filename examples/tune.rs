//! Fits the evaluation weights to labelled positions (Texel-style tuning).
//!
//! `tune FILE [sym|asym] [nomates] [k=K] [t=T] [l2=L]`, or `tune FILE order` for the
//! move-ordering weights (FILE then needs the judge's move in its fourth column).
//!
//! FILE has one position per line: a 15x15 freestyle move list (`x,y` points separated by
//! spaces), a tab, and a score for the side to move from some stronger judge (a deeper search,
//! another engine), in centi-stones where `T` (default 200) is the judge's sigmoid scale; mate
//! scores as +-20000. Positions where either side has a four are skipped (the search answers
//! those before it evaluates). The model is wuzi's evaluation: per side, a weight per threat
//! class of the empty cells and per line pattern of the empty cells; `sym` ties the pattern
//! weights of the two sides (the board's single pattern score), `asym` fits them apart.
//!
//! The fit minimises the cross-entropy between sigmoid(judge / T) and sigmoid(eval / K) by
//! Newton's method; K is first fitted to the current weights, so the fitted weights keep the
//! scale the search's margins were measured in. It prints the loss of the current and the
//! fitted weights on a held-out tenth, and the fitted weights.
// Matrix code: index loops read closer to the formulas than iterator chains.
#![allow(clippy::needless_range_loop)]
use wuzi::board::Board;
use wuzi::eval::EvalWeights;
use wuzi::threat::{Threat, THREATS};
use wuzi::types::Rule;

const CLASSES: std::ops::Range<usize> = 2..THREATS - 1;
const PATTERNS: std::ops::Range<usize> = 2..10;
const NF: usize = 2 * (THREATS - 3) + 2 * 8;

fn features(b: &Board) -> [f64; NF] {
    let me = b.to_move();
    let c = b.threat_counts();
    let mut f = [0.0; NF];
    let mut i = 0;
    for (side, sign) in [(me, 1.0), (!me, -1.0)] {
        for t in CLASSES {
            f[i] = sign * c[side.index()][t] as f64;
            i += 1;
        }
    }
    let n = b.pattern_counts();
    for (side, sign) in [(me, 1.0), (!me, -1.0)] {
        for p in PATTERNS {
            f[i] = sign * n[side.index()][p] as f64;
            i += 1;
        }
    }
    f
}

fn current() -> [f64; NF] {
    let w = EvalWeights::default();
    let mut x = [0.0; NF];
    let mut i = 0;
    for t in CLASSES {
        x[i] = w.own[t] as f64;
        i += 1;
    }
    for t in CLASSES {
        x[i] = w.opp[t] as f64;
        i += 1;
    }
    for _ in 0..2 {
        for p in PATTERNS {
            x[i] = w.pattern[p] as f64;
            i += 1;
        }
    }
    x
}

/// The 15x15 freestyle board after a label file's `x,y` move list, if it parses and plays.
fn board_after(moves: &str) -> Option<Board> {
    let moves = wuzi::notation::parse_move_list(moves).ok()?;
    let mut b = Board::new(15, Rule::Freestyle);
    b.play_all(&moves).ok()?;
    Some(b)
}

/// The scale in `from..to` (geometric steps of `step`) where `loss` is least, and that loss.
fn best_scale(from: f64, to: f64, step: f64, loss: impl Fn(f64) -> f64) -> (f64, f64) {
    let (mut best, mut bl) = (from, f64::MAX);
    let mut x = from;
    while x < to {
        let l = loss(x);
        if l < bl {
            (best, bl) = (x, l);
        }
        x *= step;
    }
    (best, bl)
}

/// The positions split into a held-out tenth (first) and the training rest.
fn held_out<T>(data: &[T]) -> (&[T], &[T]) {
    let (test, train) = data.split_at(data.len() / 10);
    eprintln!(
        "{} training, {} held-out positions",
        train.len(),
        test.len()
    );
    (test, train)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(a: &[f64; NF], b: &[f64; NF]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn loss(data: &[([f64; NF], f64)], w: &[f64; NF], k: f64) -> f64 {
    let mut l = 0.0;
    for (f, t) in data {
        let p = sigmoid(dot(f, w) / k).clamp(1e-9, 1.0 - 1e-9);
        l -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
    }
    l / data.len() as f64
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        a.swap(col, piv);
        b.swap(col, piv);
        let d = a[col][col];
        if d.abs() < 1e-12 {
            continue;
        }
        for r in col + 1..n {
            let m = a[r][col] / d;
            if m != 0.0 {
                for c in col..n {
                    a[r][c] -= m * a[col][c];
                }
                b[r] -= m * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|c| a[r][c] * x[c]).sum();
        x[r] = if a[r][r].abs() < 1e-12 {
            0.0
        } else {
            (b[r] - s) / a[r][r]
        };
    }
    x
}

/// Move-ordering features of `p` for the side to move: one-hot own class, one-hot opponent
/// class, own pattern counts, opponent pattern counts (14 + 14 + 16 + 16).
const NO: usize = 60;

fn order_features(b: &Board, p: wuzi::Pos) -> [f32; NO] {
    let me = b.to_move();
    let mut f = [0.0; NO];
    f[b.threat(p, me) as usize] = 1.0;
    f[14 + b.threat(p, !me) as usize] = 1.0;
    for d in wuzi::Dir::ALL {
        f[28 + b.pattern(p, me, d) as usize] += 1.0;
        f[44 + b.pattern(p, !me, d) as usize] += 1.0;
    }
    f
}

fn current_order() -> [f64; NO] {
    let d = wuzi::eval::OrderWeights::DEFAULT;
    let mut w = [0.0; NO];
    for t in 0..THREATS {
        w[t] = d.attack[t] as f64;
        w[14 + t] = d.defend[t] as f64;
    }
    for p in 0..16 {
        w[28 + p] = d.own[p] as f64;
        w[44 + p] = d.opp[p] as f64;
    }
    w
}

/// `tune FILE order`: how often the judge's move (third column) is among the first k of
/// wuzi's ordering, and a conditional-logit fit of the ordering weights to the judge's moves.
fn order(text: &str) {
    use wuzi::movegen::{generate, GenKind, MoveList};
    // Per position: candidate features and the index of the judge's move.
    let mut data: Vec<(Vec<[f32; NO]>, usize)> = Vec::new();
    let mut outside = 0;
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 4 {
            continue;
        }
        let (Some(mut b), Ok(best)) = (board_after(cols[0]), wuzi::notation::parse_xy(cols[3]))
        else {
            continue;
        };
        let c = b.threat_counts();
        let me = b.to_move().index();
        // Quiet positions only: no four on the board, no open three to answer.
        if c[0][Threat::Five as usize] > 0
            || c[1][Threat::Five as usize] > 0
            || c[1 - me][Threat::Flex4 as usize] > 0
            || c[me][Threat::Flex4 as usize] > 0
        {
            continue;
        }
        let mut list = MoveList::new();
        generate(&mut b, GenKind::Candidates, &mut list);
        let cand: Vec<wuzi::Pos> = list.iter().collect();
        let Some(i) = cand.iter().position(|&p| p == best) else {
            outside += 1;
            continue;
        };
        data.push((cand.iter().map(|&p| order_features(&b, p)).collect(), i));
    }
    eprintln!(
        "{} quiet positions, {outside} with the judge's move outside the candidates",
        data.len()
    );
    let split = data.len() / 10;
    let (test, train) = data.split_at(split);
    let score =
        |f: &[f32; NO], w: &[f64; NO]| -> f64 { f.iter().zip(w).map(|(&x, y)| x as f64 * y).sum() };
    let report = |name: &str, w: &[f64; NO], set: &[(Vec<[f32; NO]>, usize)]| {
        let mut hits = [0usize; 4];
        let ks = [1, 3, 5, 8];
        for (cands, i) in set {
            let s0 = score(&cands[*i], w);
            // Rank: moves scoring higher (ties count against: the worst case).
            let rank = cands.iter().filter(|f| score(f, w) >= s0).count() - 1;
            for (h, k) in hits.iter_mut().zip(ks) {
                *h += (rank < k) as usize;
            }
        }
        let pct: Vec<String> = hits
            .iter()
            .zip(ks)
            .map(|(h, k)| format!("top{k} {:.1}%", 100.0 * *h as f64 / set.len() as f64))
            .collect();
        println!("{name}: {}", pct.join(", "));
    };
    let nll = |w: &[f64; NO], t: f64, set: &[(Vec<[f32; NO]>, usize)]| -> f64 {
        let mut l = 0.0;
        for (cands, i) in set {
            let s: Vec<f64> = cands.iter().map(|f| score(f, w) / t).collect();
            let m = s.iter().cloned().fold(f64::MIN, f64::max);
            let z: f64 = s.iter().map(|x| (x - m).exp()).sum();
            l -= s[*i] - m - z.ln();
        }
        l / set.len() as f64
    };
    let cur = current_order();
    report("current ordering, held-out", &cur, test);
    let (t, bl) = best_scale(10.0, 10000.0, 1.1, |t| nll(&cur, t, train));
    println!(
        "T {t:.0}: current nll train {bl:.4} held-out {:.4}",
        nll(&cur, t, test)
    );
    let mut w = cur;
    for it in 0..20 {
        let mut grad = vec![0.0; NO];
        let mut hess = vec![vec![0.0; NO]; NO];
        for (cands, i) in train {
            let s: Vec<f64> = cands.iter().map(|f| score(f, &w) / t).collect();
            let m = s.iter().cloned().fold(f64::MIN, f64::max);
            let e: Vec<f64> = s.iter().map(|x| (x - m).exp()).collect();
            let z: f64 = e.iter().sum();
            let mut mean = [0.0f64; NO];
            for (f, ej) in cands.iter().zip(&e) {
                let pj = ej / z;
                for k in 0..NO {
                    mean[k] += pj * f[k] as f64;
                }
            }
            for k in 0..NO {
                grad[k] += (mean[k] - cands[*i][k] as f64) / t;
            }
            for (f, ej) in cands.iter().zip(&e) {
                let pj = ej / z;
                if pj < 1e-7 {
                    continue;
                }
                let dv: Vec<f64> = (0..NO).map(|k| f[k] as f64 - mean[k]).collect();
                for a in 0..NO {
                    if dv[a] == 0.0 {
                        continue;
                    }
                    for c in 0..NO {
                        hess[a][c] += pj * dv[a] * dv[c] / (t * t);
                    }
                }
            }
        }
        let n = train.len() as f64;
        for a in 0..NO {
            grad[a] /= n;
            for c in 0..NO {
                hess[a][c] /= n;
            }
            hess[a][a] += 1e-6;
        }
        let step = solve(hess, grad);
        for k in 0..NO {
            w[k] -= step[k];
        }
        let size: f64 = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        eprintln!(
            "iteration {it}: nll train {:.4} held-out {:.4} largest step {size:.2}",
            nll(&w, t, train),
            nll(&w, t, test)
        );
        if size < 0.05 {
            break;
        }
    }
    // Every move has one class and four patterns per side: shift each group so that a
    // move making and stopping nothing scores 0 (no change to any ranking).
    for (base, len, n) in [(0, 14, 1.0), (14, 14, 1.0), (28, 16, 4.0), (44, 16, 4.0)] {
        let zero = w[base];
        for k in 0..len {
            w[base + k] -= zero;
        }
        let _ = n;
    }
    // Overlines (exact-five rules) keep the dead weight; fives and straight fours never
    // occur in quiet positions and keep the current weights.
    w[29] = 0.0;
    w[45] = 0.0;
    for k in 12..16 {
        w[28 + k] = 0.0;
        w[44 + k] = 0.0;
    }
    for k in [12, 13] {
        w[k] = cur[k];
        w[14 + k] = cur[14 + k];
    }
    report("fitted ordering, held-out", &w, test);
    let fmt = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{:.0}", x))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("attack  [{}]", fmt(&w[..14]));
    println!("defend  [{}]", fmt(&w[14..28]));
    println!("own pat [{}]", fmt(&w[28..44]));
    println!("opp pat [{}]", fmt(&w[44..]));
    let ints = |v: &[f64]| {
        let mut l = [0i64; 16];
        for (j, x) in v.iter().enumerate() {
            l[j] = x.round() as i64;
        }
        l.map(|x| x.to_string()).join(" ")
    };
    for (a, b) in [(0, 14), (14, 28), (28, 44), (44, 60)] {
        println!("{}", ints(&w[a..b]));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "order") {
        order(&std::fs::read_to_string(&args[1]).expect("read FILE"));
        return;
    }
    let file = args
        .get(1)
        .expect("usage: tune FILE [sym|asym] [nomates] [k=K] [t=T]");
    let sym = !args.iter().any(|a| a == "asym");
    let nomates = args.iter().any(|a| a == "nomates");
    let arg = |name: &str, default: f64| {
        args.iter()
            .find_map(|a| a.strip_prefix(name).and_then(|v| v.parse().ok()))
            .unwrap_or(default)
    };
    let judge_scale = arg("t=", 200.0);
    let l2 = arg("l2=", 1e-7);
    let text = std::fs::read_to_string(file).expect("read FILE");
    let mut data = Vec::new();
    for line in text.lines() {
        let mut cols = line.split('\t');
        let (Some(moves), Some(score)) = (cols.next(), cols.next()) else {
            continue;
        };
        let Ok(score) = score.trim().parse::<f64>() else {
            continue;
        };
        if nomates && score.abs() >= 20000.0 {
            continue;
        }
        let Some(b) = board_after(moves) else {
            continue;
        };
        let c = b.threat_counts();
        if c[0][Threat::Five as usize] > 0 || c[1][Threat::Five as usize] > 0 {
            continue;
        }
        let f = features(&b);
        let e = wuzi::eval::evaluate(&b, &EvalWeights::default());
        assert_eq!(
            dot(&f, &current()).round() as i32,
            e,
            "features reproduce evaluate()"
        );
        data.push((f, sigmoid(score / judge_scale)));
    }
    let (test, train) = held_out(&data);
    let cur = current();
    // Scale of the current weights.
    let mut k = arg("k=", 0.0);
    if k == 0.0 {
        k = best_scale(50.0, 5000.0, 1.05, |k| loss(train, &cur, k)).0;
    }
    println!(
        "K {k:.0}: current weights loss train {:.5} held-out {:.5}",
        loss(train, &cur, k),
        loss(test, &cur, k)
    );
    // Newton iterations on the (tied or free) parameters.
    let tie = |w: &mut [f64; NF]| {
        if sym {
            let base = 2 * (THREATS - 3);
            for j in 0..8 {
                w[base + 8 + j] = w[base + j];
            }
        }
    };
    // The free parameter vector maps onto the weights: with `sym` the second side's pattern
    // weights are the first side's.
    let np = if sym { NF - 8 } else { NF };
    let expand = |f: &[f64; NF]| -> Vec<f64> {
        let mut g = f[..np].to_vec();
        if sym {
            let base = 2 * (THREATS - 3);
            for j in 0..8 {
                g[base + j] += f[base + 8 + j];
            }
        }
        g
    };
    let mut w = cur;
    for it in 0..30 {
        let mut grad = vec![0.0; np];
        let mut hess = vec![vec![0.0; np]; np];
        for (f, t) in train {
            let x = expand(f);
            let p = sigmoid(dot(f, &w) / k);
            let g = (p - t) / k;
            let h = (p * (1.0 - p)).max(1e-6) / (k * k);
            for i in 0..np {
                grad[i] += g * x[i];
                for j in 0..np {
                    hess[i][j] += h * x[i] * x[j];
                }
            }
        }
        let n = train.len() as f64;
        for i in 0..np {
            grad[i] = grad[i] / n + l2 * (w[i] - cur[i]);
            for j in 0..np {
                hess[i][j] /= n;
            }
            hess[i][i] += l2;
        }
        let step = solve(hess, grad);
        for i in 0..np {
            w[i] -= step[i];
        }
        tie(&mut w);
        let size: f64 = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        eprintln!(
            "iteration {it}: train {:.5} held-out {:.5} largest step {size:.3}",
            loss(train, &w, k),
            loss(test, &w, k)
        );
        if size < 0.01 {
            break;
        }
    }
    let names = [
        "flex2",
        "block3",
        "2xflex2",
        "block3+",
        "flex3",
        "flex3+",
        "2xflex3",
        "block4",
        "block4+",
        "block4+flex3",
        "flex4",
    ];
    let pats = ["B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4"];
    let fmt = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{:.0}", x))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let m = THREATS - 3;
    println!("classes {}", names.join(", "));
    println!("own      [{}]", fmt(&w[..m]));
    println!("opp      [{}]", fmt(&w[m..2 * m]));
    println!("patterns {}", pats.join(", "));
    println!("me       [{}]", fmt(&w[2 * m..2 * m + 8]));
    println!("other    [{}]", fmt(&w[2 * m + 8..]));
    // The weights as `selfplay eval=FILE` reads them: own, opp, pattern, 16 lanes each.
    let lanes = |v: &[f64], from: usize| {
        let mut l = [0i64; 16];
        for (j, x) in v.iter().enumerate() {
            l[from + j] = x.round() as i64;
        }
        l.map(|x| x.to_string()).join(" ")
    };
    println!("{}", lanes(&w[..m], 2));
    println!("{}", lanes(&w[m..2 * m], 2));
    println!("{}", lanes(&w[2 * m..2 * m + 8], 2));
}
