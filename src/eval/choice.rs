//! Which evaluation a search uses: the net built into the binary where it plays, the
//! classical evaluation, or a net read from a file; and the reading of net files, for every
//! front end.

use super::net::{NetError, Network};
use crate::types::Rule;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// The built-in net's file (`nets/`, with its provenance in `nets/README.md`).
pub const BUILTIN_NET: &[u8] = include_bytes!("../../nets/freestyle15-h64.wznet");
/// The rules the built-in net evaluates under. It was trained on freestyle games alone,
/// yet it beat the classical evaluation under the other rules of 15x15 tournaments too
/// (docs/strength.md, session 33; both colours of each opening, 100 ms a move): under renju
/// 81-19 from the 50 KataGomo openings (+252 Elo [+179, +351]), under standard 241-152-7
/// over two runs from 100 balanced openings (+79; the run on a quiet machine +113
/// [+70, +161]). Caro uses the classical evaluation (not measured).
pub const BUILTIN_RULES: &[Rule] = &[Rule::Freestyle, Rule::Standard, Rule::Renju];
/// The board sizes the built-in net evaluates: its value layer reads a board sum over the
/// empty cells, which it learned on this size; other sizes use the classical evaluation.
pub const BUILTIN_SIZES: std::ops::RangeInclusive<usize> = 15..=15;

/// Does the built-in net evaluate games on a `size` board under `rule`?
pub fn builtin_plays(size: usize, rule: Rule) -> bool {
    BUILTIN_SIZES.contains(&size) && BUILTIN_RULES.contains(&rule)
}

/// The built-in net, read once.
pub fn builtin() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(BUILTIN_NET).expect("the built-in net is a valid file"))
}

/// The evaluation of a search.
#[derive(Clone, Debug, Default)]
pub enum Evaluation {
    /// The built-in net where it plays ([`builtin_plays`]), the classical evaluation
    /// elsewhere.
    #[default]
    Default,
    /// The classical evaluation everywhere (pattern weights over the board's counts).
    Classical,
    /// This net everywhere.
    Net(Arc<Network>),
}

impl Evaluation {
    /// The net a search on a `size` board under `rule` evaluates with; `None`: classical.
    pub fn network(&self, size: usize, rule: Rule) -> Option<&Network> {
        match self {
            Evaluation::Default => builtin_plays(size, rule).then(builtin),
            Evaluation::Classical => None,
            Evaluation::Net(net) => Some(net),
        }
    }

    /// Score units per unit of logit of the chance to win, for a search on a `size` board
    /// under `rule` ([`crate::search::win_chance`]).
    pub fn score_per_logit(&self, size: usize, rule: Rule) -> f64 {
        match self.network(size, rule) {
            Some(_) => super::net::SCORE_PER_LOGIT as f64,
            None => super::CLASSICAL_SCORE_PER_LOGIT,
        }
    }

    /// The evaluation's name on a `size` board under `rule`: `net HASH` or `classical`.
    pub fn describe(&self, size: usize, rule: Rule) -> String {
        match self.network(size, rule) {
            Some(net) => format!("net {:016x}", net.hash()),
            None => "classical".into(),
        }
    }

    /// The evaluation a command line names: `classical`, `default`, or a net file's path.
    pub fn from_arg(arg: &str) -> Result<Evaluation, NetFileError> {
        match arg {
            "classical" => Ok(Evaluation::Classical),
            "default" => Ok(Evaluation::Default),
            path => Ok(Evaluation::Net(Arc::new(read_net(Path::new(path))?))),
        }
    }
}

/// A net file that could not be read.
#[derive(Debug, Error)]
pub enum NetFileError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a usable net.
    #[error("{}: {source}", path.display())]
    Net {
        /// The file.
        path: PathBuf,
        /// Why.
        source: NetError,
    },
}

/// Reads the net file at `path`.
pub fn read_net(path: &Path) -> Result<Network, NetFileError> {
    let bytes = std::fs::read(path).map_err(|source| NetFileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Network::from_bytes(&bytes).map_err(|source| NetFileError::Net {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_uses_the_built_in_net_only_where_it_plays() {
        let d = Evaluation::Default;
        assert!(d.network(15, Rule::Freestyle).is_some());
        assert!(d.network(15, Rule::Renju).is_some());
        assert!(d.network(15, Rule::Standard).is_some());
        assert!(d.network(20, Rule::Freestyle).is_none());
        assert!(d.network(15, Rule::Caro { exact: false }).is_none());
        assert!(Evaluation::Classical.network(15, Rule::Freestyle).is_none());
        assert_eq!(
            Evaluation::Classical.describe(15, Rule::Freestyle),
            "classical"
        );
        assert!(d.describe(15, Rule::Freestyle).starts_with("net "));
    }

    #[test]
    fn net_files_are_read_or_refused_with_their_path() {
        let e = Evaluation::from_arg("/no/such/file.wznet").unwrap_err();
        assert!(e.to_string().starts_with("/no/such/file.wznet: "), "{e}");
        let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        let e = Evaluation::from_arg(readme).unwrap_err();
        assert!(e.to_string().contains("not a wuzi net file"), "{e}");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/freestyle15-h64.wznet");
        let Evaluation::Net(net) = Evaluation::from_arg(path).unwrap() else {
            panic!("a net");
        };
        assert_eq!(net.hash(), builtin().hash());
        assert!(matches!(
            Evaluation::from_arg("classical"),
            Ok(Evaluation::Classical)
        ));
    }
}
