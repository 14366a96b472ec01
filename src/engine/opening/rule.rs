//! The opening rules and their parameters, with their names at the front ends (`soosorv 8`,
//! `taraguchi-10`, `swap2`...).

use crate::types::{MAX_SIZE, MIN_SIZE};
use std::fmt;
use std::str::FromStr;

/// The most fifth moves any rule here asks for or lets a player declare. The rule texts set
/// no bound for Yamaguchi and let Soosorv-N and Taraguchi-N name any N; wuzi plays N up to
/// this (the rules in use name 8 and 10), which keeps every offer a short list.
pub const MAX_FIFTHS: u8 = 20;

/// N of Soosorv-N when a front end names the rule without it: Soosorv-8, the rule of the
/// Renju World Championship.
pub const SOOSORV_DEFAULT: u8 = 8;

/// N of Taraguchi-N when a front end names the rule without it: Taraguchi-10, the rule
/// RIF certified and the online and youth events play.
pub const TARAGUCHI_DEFAULT: u8 = 10;

/// How a game's first stones are placed and who takes which colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningRule {
    /// No opening stage: black begins anywhere and the players alternate.
    Free,
    /// Swap: the first player places three stones (black, white, black) anywhere; the
    /// second player chooses a colour.
    Swap,
    /// Swap2, as Gomocup plays it: the first player places three stones (black, white,
    /// black) anywhere; the second player takes black, takes white, or places a white and a
    /// black stone and lets the first player choose the colour.
    Swap2,
    /// Swap after the first move: the first player places the first (black) stone anywhere;
    /// the second player chooses a colour.
    SwapAfterFirst,
    /// Soosorv-N (RIF): one of the 26 canonical openings, a swap, the 4th stone with 1 to N
    /// fifth moves declared, a swap, that many fifth moves offered, white's pick.
    Soosorv {
        /// N: the most fifth moves white may declare.
        max_fifths: u8,
    },
    /// Taraguchi-N (RIF): the first four stones one by one within growing central squares,
    /// each followed by a swap; then one 5th stone in the central 9x9 square (with swaps
    /// around it), or N fifth moves offered for white to pick from.
    Taraguchi {
        /// N: the fifth moves black offers in the second choice.
        fifths: u8,
    },
    /// Yamaguchi (RIF): one of the 26 canonical openings with a number of fifth moves
    /// declared, a swap, the 4th stone anywhere, that many fifth moves offered, white's
    /// pick.
    Yamaguchi,
}

/// A rule that cannot be played as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// Not the name of an opening rule.
    #[error(
        "unknown opening rule '{0}' (free, swap, swap2, swap-after-first, soosorv N, \
         taraguchi N, yamaguchi)"
    )]
    Unknown(String),
    /// N of Soosorv-N or Taraguchi-N out of range.
    #[error("N of {rule} runs from 1 to {MAX_FIFTHS}, not {got}")]
    BadN {
        /// The rule's name.
        rule: &'static str,
        /// The N asked for, as written.
        got: String,
    },
    /// A board size the engine does not play.
    #[error("board size {0} is not supported (sizes {MIN_SIZE} to {MAX_SIZE})")]
    Size(usize),
    /// A rule with central squares on a board without a centre point.
    #[error("{rule} needs a board with a centre point (an odd size), not {size}x{size}")]
    NoCentre {
        /// The rule.
        rule: OpeningRule,
        /// The board size.
        size: usize,
    },
}

impl OpeningRule {
    /// The rule's name as the front ends write it (`soosorv 8`).
    pub fn name(self) -> String {
        match self {
            OpeningRule::Free => "free".into(),
            OpeningRule::Swap => "swap".into(),
            OpeningRule::Swap2 => "swap2".into(),
            OpeningRule::SwapAfterFirst => "swap-after-first".into(),
            OpeningRule::Soosorv { max_fifths } => format!("soosorv {max_fifths}"),
            OpeningRule::Taraguchi { fifths } => format!("taraguchi {fifths}"),
            OpeningRule::Yamaguchi => "yamaguchi".into(),
        }
    }

    /// Does the rule place stones within central squares (the renju rules of RIF)? Those
    /// need a centre point, so an odd board size.
    pub fn has_central_squares(self) -> bool {
        matches!(
            self,
            OpeningRule::Soosorv { .. } | OpeningRule::Taraguchi { .. } | OpeningRule::Yamaguchi
        )
    }

    /// Checks that the rule can be played on a board of side `size`.
    pub fn check_size(self, size: usize) -> Result<(), RuleError> {
        if self.has_central_squares() && size % 2 == 0 {
            return Err(RuleError::NoCentre { rule: self, size });
        }
        Ok(())
    }

    /// Parses a rule from its words: `soosorv 8`, `soosorv-8`, `soosorv` (Soosorv-8),
    /// `taraguchi 10`, `yamaguchi`, `swap`, `swap2`, `swap-after-first`, `free`; any case.
    pub fn parse(text: &str) -> Result<OpeningRule, RuleError> {
        let lower = text.trim().to_ascii_lowercase();
        let (word, n) = match lower.split_once([' ', '-']) {
            Some((w, rest)) if w == "soosorv" || w == "taraguchi" => (w, Some(rest.trim())),
            _ => (lower.as_str(), None),
        };
        let number = |rule: &'static str, default: u8| -> Result<u8, RuleError> {
            let Some(n) = n else { return Ok(default) };
            match n.parse::<u8>() {
                Ok(k) if (1..=MAX_FIFTHS).contains(&k) => Ok(k),
                _ => Err(RuleError::BadN {
                    rule,
                    got: n.into(),
                }),
            }
        };
        Ok(match word {
            "free" | "none" => OpeningRule::Free,
            "swap" | "swap1" => OpeningRule::Swap,
            "swap2" => OpeningRule::Swap2,
            "swap-after-first" | "swapfirst" => OpeningRule::SwapAfterFirst,
            "soosorv" => OpeningRule::Soosorv {
                max_fifths: number("soosorv", SOOSORV_DEFAULT)?,
            },
            "taraguchi" => OpeningRule::Taraguchi {
                fifths: number("taraguchi", TARAGUCHI_DEFAULT)?,
            },
            "yamaguchi" => OpeningRule::Yamaguchi,
            _ => return Err(RuleError::Unknown(text.trim().into())),
        })
    }
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for OpeningRule {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<OpeningRule, RuleError> {
        OpeningRule::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_their_rules() {
        for rule in [
            OpeningRule::Free,
            OpeningRule::Swap,
            OpeningRule::Swap2,
            OpeningRule::SwapAfterFirst,
            OpeningRule::Soosorv { max_fifths: 8 },
            OpeningRule::Soosorv { max_fifths: 3 },
            OpeningRule::Taraguchi { fifths: 10 },
            OpeningRule::Yamaguchi,
        ] {
            assert_eq!(OpeningRule::parse(&rule.name()), Ok(rule));
        }
    }

    #[test]
    fn the_rules_in_use_are_the_defaults_and_n_is_checked() {
        assert_eq!(
            "Soosorv-8".parse(),
            Ok(OpeningRule::Soosorv { max_fifths: 8 })
        );
        assert_eq!(
            "soosorv".parse(),
            Ok(OpeningRule::Soosorv { max_fifths: 8 })
        );
        assert_eq!(
            "taraguchi".parse(),
            Ok(OpeningRule::Taraguchi { fifths: 10 })
        );
        assert_eq!(
            "TARAGUCHI 5".parse(),
            Ok(OpeningRule::Taraguchi { fifths: 5 })
        );
        assert!(matches!(
            OpeningRule::parse("soosorv 0"),
            Err(RuleError::BadN { .. })
        ));
        assert!(matches!(
            OpeningRule::parse("taraguchi 21"),
            Err(RuleError::BadN { .. })
        ));
        assert!(matches!(
            OpeningRule::parse("swap3"),
            Err(RuleError::Unknown(_))
        ));
    }

    #[test]
    fn central_squares_need_an_odd_board() {
        assert!(OpeningRule::Yamaguchi.check_size(15).is_ok());
        assert!(OpeningRule::Yamaguchi.check_size(16).is_err());
        assert!(OpeningRule::Swap2.check_size(20).is_ok());
    }
}
