//! Late-move reductions: whole plies a late move loses, by depth and move index.
/// Whole plies a late move loses: `scale * ln(depth) * ln(i)`, for the move at index `i` of a
/// node with `depth` plies left.
pub(super) fn lmr_plies(scale: f32, depth: i32, i: usize) -> i32 {
    (scale * (depth as f32).ln() * (i as f32).ln()) as i32
}

/// Depths and move indices of [`LmrTable`].
pub(super) const LMR_DEPTHS: usize = 32;
pub(super) const LMR_MOVES: usize = 64;

/// [`lmr_plies`] of the search's scale for small depths and indices, looked up instead of
/// two logarithms a move (a percent of a search's time).
pub(super) struct LmrTable {
    scale: f32,
    plies: Box<[[i16; LMR_MOVES]; LMR_DEPTHS]>,
}

impl LmrTable {
    pub(super) fn new(scale: f32) -> LmrTable {
        let mut plies = Box::new([[0i16; LMR_MOVES]; LMR_DEPTHS]);
        for (d, row) in plies.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                *r = lmr_plies(scale, d as i32, i).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            }
        }
        LmrTable { scale, plies }
    }

    #[inline(always)]
    pub(super) fn get(&self, depth: i32, i: usize) -> i32 {
        match self.plies.get(depth as usize).and_then(|row| row.get(i)) {
            Some(&r) => r as i32,
            _ => lmr_plies(self.scale, depth, i),
        }
    }
}
