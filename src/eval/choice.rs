//! Which evaluation a search uses: the net built into the binary where it plays, the
//! classical evaluation, or a net read from a file; and the reading of net files, for every
//! front end.

use super::net::{NetError, Network};
use crate::types::Rule;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// The built-in net of 15x15 freestyle, standard and caro: `nets/freestyle15-results.wznet`,
/// a version-6 net (its provenance and its results against the nets before it:
/// `nets/README.md`). It was trained on freestyle games alone; it plays standard and caro
/// because it beats the classical evaluation there (`docs/strength.md`).
pub const BUILTIN_NET: &[u8] = include_bytes!("../../nets/freestyle15-results.wznet");
/// The built-in net of 15x15 renju: `nets/renju15-s1to7.wznet`, a version-8 net (pair rows
/// for each colour to move) trained on renju games, among them games from wide openings
/// (`nets/README.md`).
pub const BUILTIN_RENJU_NET: &[u8] = include_bytes!("../../nets/renju15-s1to7.wznet");
/// The built-in net of 20x20 freestyle: `nets/freestyle20-gen2.wznet`, a version-6 net, the
/// 15x15 freestyle net trained on 20x20 games (`nets/README.md`).
pub const BUILTIN_20_NET: &[u8] = include_bytes!("../../nets/freestyle20-gen2.wznet");

/// The built-in net of a `size` board under `rule`, read once; `None` where the classical
/// evaluation plays. A net's value layer reads a board sum over the empty cells, which it
/// learned on one size, so other sizes play classical.
pub fn builtin(size: usize, rule: Rule) -> Option<&'static Network> {
    const FILES: [&[u8]; 3] = [BUILTIN_NET, BUILTIN_RENJU_NET, BUILTIN_20_NET];
    static NETS: [OnceLock<Network>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = match (size, rule) {
        (15, Rule::Freestyle | Rule::Standard | Rule::Caro { .. }) => 0,
        (15, Rule::Renju) => 1,
        (20, Rule::Freestyle) => 2,
        _ => return None,
    };
    Some(
        NETS[i]
            .get_or_init(|| Network::from_bytes(FILES[i]).expect("a built-in net is a valid file")),
    )
}

/// The evaluation of a search.
#[derive(Clone, Debug, Default)]
pub enum Evaluation {
    /// The built-in net of the board's size and rule where one plays ([`builtin`]), the
    /// classical evaluation elsewhere.
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
            Evaluation::Default => builtin(size, rule),
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
        assert!(d.network(20, Rule::Freestyle).is_some());
        assert!(d.network(19, Rule::Freestyle).is_none());
        assert!(d.network(20, Rule::Renju).is_none());
        assert!(d.network(15, Rule::Caro { exact: false }).is_some());
        assert!(d.network(15, Rule::Caro { exact: true }).is_some());
        assert!(d.network(19, Rule::Caro { exact: false }).is_none());
        assert!(Evaluation::Classical.network(15, Rule::Freestyle).is_none());
        assert_eq!(
            Evaluation::Classical.describe(15, Rule::Freestyle),
            "classical"
        );
        assert!(d.describe(15, Rule::Freestyle).starts_with("net "));
        // Renju and 20x20 have nets of their own; standard plays with freestyle's.
        let hash = |size, rule| d.network(size, rule).unwrap().hash();
        let freestyle = hash(15, Rule::Freestyle);
        assert_eq!(hash(15, Rule::Standard), freestyle);
        assert_ne!(hash(15, Rule::Renju), freestyle);
        assert_ne!(hash(20, Rule::Freestyle), freestyle);
        assert_ne!(hash(20, Rule::Freestyle), hash(15, Rule::Renju));
    }

    #[test]
    fn net_files_are_read_or_refused_with_their_path() {
        let e = Evaluation::from_arg("/no/such/file.wznet").unwrap_err();
        assert!(e.to_string().starts_with("/no/such/file.wznet: "), "{e}");
        let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        let e = Evaluation::from_arg(readme).unwrap_err();
        assert!(e.to_string().contains("not a wuzi net file"), "{e}");
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/nets/freestyle15-results.wznet"
        );
        let Evaluation::Net(net) = Evaluation::from_arg(path).unwrap() else {
            panic!("a net");
        };
        assert_eq!(net.hash(), builtin(15, Rule::Freestyle).unwrap().hash());
        // Every net file of nets/ is read, of the version its magic names.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/nets");
        let mut versions = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "wznet") {
                let bytes = std::fs::read(&path).unwrap();
                let net = Network::from_bytes(&bytes).unwrap();
                assert_eq!(bytes[7], b'0' + net.version() as u8, "{path:?}");
                versions.push(net.version());
            }
        }
        assert!([1, 6].iter().all(|v| versions.contains(v)), "{versions:?}");
        assert!(matches!(
            Evaluation::from_arg("classical"),
            Ok(Evaluation::Classical)
        ));
    }
}
