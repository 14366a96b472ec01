//! Lazy SMP: the main thread and its helpers search the same root at the same depths and
//! spread over the tree through the shared transposition table, the shared VCF table and
//! the moves each defers while another thread searches their child (`busy`).

use super::{mate_distance, Info, Outcome, RootScores, Searcher, Shared};
use crate::board::Board;
use std::sync::atomic::Ordering;

/// Searches `board` with `threads` threads (at least one) and returns the main thread's
/// outcome, or a helper's when it finished a deeper iteration. `root`: which root moves the
/// main thread scores exactly. Only the main thread reports to `on_info`. The shared stop
/// flag is raised when the main thread ends, to end the helpers, and by a helper that
/// finished the depth limit, to end the main thread (unless it keeps exact root scores).
pub fn run(
    board: &Board,
    shared: &Shared,
    threads: usize,
    root: RootScores,
    on_info: &mut dyn FnMut(&Info),
) -> Outcome {
    let exact_root = root != RootScores::Best;
    let mut out = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads.max(1))
            .map(|id| {
                s.spawn(move || {
                    let mut helper = Searcher::new(board, shared, id);
                    helper.ends_at_limit = !exact_root;
                    helper.think(&mut |_| {})
                })
            })
            .collect();
        let mut main = Searcher::new(board, shared, 0);
        main.root = root;
        let mut out = main.think(on_info);
        shared.stop.store(true, Ordering::Relaxed);
        // The deepest finished iteration of any thread gives the move, unless the main
        // thread proved a win (its root threat solve) or must keep exact root scores.
        let proven = mate_distance(out.score).is_some_and(|m| m > 0);
        for h in helpers {
            if let Ok(o) = h.join() {
                if !proven
                    && !exact_root
                    && !o.best.is_none()
                    && o.depth > out.depth
                    && !out.dropped.contains(&o.best)
                {
                    out.best = o.best;
                    out.score = o.score;
                    out.depth = o.depth;
                    out.pv = o.pv;
                }
            }
        }
        out
    });
    out.nodes = shared.nodes.load(Ordering::Relaxed);
    out
}
