//! The opening stage as a state machine: at each step it says who acts and what it waits for
//! ([`Expect`]), takes that action from that player, and refuses anything else with an
//! [`OpeningError`], unchanged. Where each rule text is followed:
//! - Swap: the first player places black, white, black anywhere; the second player chooses
//!   a colour; white plays the 4th move in the game that follows.
//! - Swap2 (Gomocup's description): as swap, but the second player may instead add a white
//!   and a black stone anywhere, after which the first player chooses the colour; white
//!   plays the next move.
//! - Swap after the first move: the first player places the first stone anywhere; the
//!   second player chooses a colour.
//! - Soosorv-N (RIF): the first player places one of the 26 canonical openings (the 1st
//!   stone on the centre point, the 2nd within the central 3x3 square, the 3rd within the
//!   5x5 square); the white player may swap; the white player places the 4th stone anywhere
//!   and declares 1 to N fifth moves; the black player may swap; the black player offers
//!   that many fifth moves, none symmetric to another; the white player picks one and plays
//!   the 6th move in the game that follows.
//! - Taraguchi-N (RIF): each of the first four stones is placed by the player of its colour
//!   within the central 1x1, 3x3, 5x5 and 7x7 square, and after each the other player may
//!   swap. Then the black player either takes the first choice (the swap decision comes
//!   first: choosing a colour; then black places the 5th within the 9x9 square, white may
//!   swap, and white plays the 6th) or the second (offering N fifth moves anywhere, none
//!   symmetric to another, without a swap; white picks one and plays the 6th).
//! - Yamaguchi (RIF): the first player places one of the 26 canonical openings and declares
//!   the number of fifth moves with its 3rd stone; the white player may swap; the white
//!   player places the 4th stone anywhere; the black player offers the declared number of
//!   fifth moves, none symmetric to another; the white player picks one.
//!
//! A swap is a choice of colour: the player who may swap chooses the colour to play on with.
//! Under renju a black stone or offer on a point forbidden for black is refused (a guard:
//! with two black stones before it, no 5th stone of these rules can make a double three).

use super::action::{Action, Expect, Player};
use super::error::OpeningError;
use super::offers::symmetric_pair;
use super::rule::{OpeningRule, RuleError, MAX_FIFTHS};
use super::square;
use crate::board::Board;
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};

/// An opening stage in progress, or over.
#[derive(Clone, Debug)]
pub struct Opening {
    rule: OpeningRule,
    size: usize,
    game: Rule,
    stones: Vec<Pos>,
    black: Player,
    actor: Player,
    expect: Expect,
    declared: Option<u8>,
    offers: Vec<Pos>,
    history: Vec<(Player, Action)>,
}

/// The colour of the `number`th stone (from 1): black first, then in turn.
pub(super) fn colour(number: usize) -> Color {
    if number % 2 == 1 {
        Color::Black
    } else {
        Color::White
    }
}

impl Opening {
    /// The opening stage of `rule` on an empty board of side `size`, for a game under
    /// `game` (renju refuses black stones on forbidden points).
    pub fn new(rule: OpeningRule, size: usize, game: Rule) -> Result<Opening, RuleError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RuleError::Size(size));
        }
        rule.check_size(size)?;
        let square = rule.has_central_squares().then_some(1);
        let expect = match rule {
            OpeningRule::Free => Expect::Nothing,
            _ => Expect::Stone {
                number: 1,
                colour: Color::Black,
                square,
            },
        };
        Ok(Opening {
            rule,
            size,
            game,
            stones: Vec::new(),
            black: Player::First,
            actor: Player::First,
            expect,
            declared: None,
            offers: Vec::new(),
            history: Vec::new(),
        })
    }

    /// The rule.
    pub fn rule(&self) -> OpeningRule {
        self.rule
    }
    /// The board size.
    pub fn size(&self) -> usize {
        self.size
    }
    /// The stones placed, in order (black, white, black...).
    pub fn stones(&self) -> &[Pos] {
        &self.stones
    }
    /// What the stage waits for.
    pub fn expect(&self) -> Expect {
        self.expect
    }
    /// Who acts next; `None` once the stage is over.
    pub fn to_act(&self) -> Option<Player> {
        (!self.is_over()).then_some(self.actor)
    }
    /// Is the stage over (the colours settled, the game going on move by move)?
    pub fn is_over(&self) -> bool {
        self.expect == Expect::Nothing
    }
    /// The colour `player` holds (tentatively, until the stage is over).
    pub fn colour_of(&self, player: Player) -> Color {
        if player == self.black {
            Color::Black
        } else {
            Color::White
        }
    }
    /// The player who holds `colour` (tentatively, until the stage is over).
    pub fn player_of(&self, colour: Color) -> Player {
        match colour {
            Color::Black => self.black,
            Color::White => !self.black,
        }
    }
    /// The number of fifth moves declared, once it is.
    pub fn declared(&self) -> Option<u8> {
        self.declared
    }
    /// The fifth moves offered, once they are.
    pub fn offers(&self) -> &[Pos] {
        &self.offers
    }
    /// Every action taken, in order, with who took it.
    pub fn history(&self) -> &[(Player, Action)] {
        &self.history
    }

    /// Takes `action` from `player`, or refuses it and changes nothing.
    pub fn apply(&mut self, player: Player, action: Action) -> Result<(), OpeningError> {
        if self.is_over() {
            return Err(OpeningError::Over);
        }
        if player != self.actor {
            return Err(OpeningError::OutOfTurn {
                to_act: self.actor,
                expected: self.expect,
            });
        }
        match (self.expect, &action) {
            (Expect::Stone { square, .. }, &Action::Place(p)) => {
                self.check_stone(&[], p, square)?;
                self.stones.push(p);
                self.after_stone();
            }
            (Expect::StoneAndDeclare { square, max, .. }, &Action::PlaceAndDeclare(p, n)) => {
                if !(1..=max).contains(&n) {
                    return Err(OpeningError::Declared { got: n, max });
                }
                self.check_stone(&[], p, square)?;
                self.stones.push(p);
                self.declared = Some(n);
                self.after_stone();
            }
            (
                Expect::Colour | Expect::Swap2Choice | Expect::FifthOrOffer { .. },
                &Action::Choose(c),
            ) => {
                if self.colour_of(player) != c {
                    self.black = !self.black;
                }
                self.after_colour();
            }
            (Expect::Swap2Choice, &Action::AddTwo(w, b)) => {
                self.check_stone(&[], w, None)?;
                self.check_stone(&[w], b, None)?;
                self.stones.extend([w, b]);
                self.actor = Player::First;
                self.expect = Expect::Colour;
            }
            (Expect::Offer { count } | Expect::FifthOrOffer { count }, Action::Offer(list)) => {
                self.check_offers(list, count)?;
                self.offers = list.clone();
                self.actor = self.player_of(Color::White);
                self.expect = Expect::Pick;
            }
            (Expect::Pick, &Action::Pick(p)) => {
                if !self.offers.contains(&p) {
                    return Err(OpeningError::NotOffered(p));
                }
                self.stones.push(p);
                self.expect = Expect::Nothing;
            }
            (expect, _) => return Err(OpeningError::Unexpected(expect)),
        }
        self.history.push((player, action));
        Ok(())
    }

    /// Where the stage goes once a stone is placed.
    fn after_stone(&mut self) {
        let n = self.stones.len();
        let next = |square: Option<u8>| Expect::Stone {
            number: n + 1,
            colour: colour(n + 1),
            square,
        };
        let (actor, expect) = match self.rule {
            OpeningRule::Free => (self.actor, Expect::Nothing),
            OpeningRule::Swap | OpeningRule::Swap2 if n < 3 => (Player::First, next(None)),
            OpeningRule::Swap | OpeningRule::SwapAfterFirst => {
                (self.player_of(Color::White), Expect::Colour)
            }
            OpeningRule::Swap2 => (self.player_of(Color::White), Expect::Swap2Choice),
            OpeningRule::Soosorv { .. } if n < 3 => {
                (Player::First, next(Some(square::CANONICAL[n])))
            }
            // After the opening the white player may swap; after the 4th, the black player.
            OpeningRule::Soosorv { .. } => (self.player_of(!colour(n)), Expect::Colour),
            OpeningRule::Yamaguchi => match n {
                1 => (Player::First, next(Some(square::CANONICAL[1]))),
                2 => (
                    Player::First,
                    Expect::StoneAndDeclare {
                        number: 3,
                        colour: Color::Black,
                        square: Some(square::CANONICAL[2]),
                        max: MAX_FIFTHS,
                    },
                ),
                3 => (self.player_of(Color::White), Expect::Colour),
                _ => (
                    self.player_of(Color::Black),
                    Expect::Offer {
                        count: self.declared.unwrap_or(1),
                    },
                ),
            },
            OpeningRule::Taraguchi { fifths } => match n {
                4 => (
                    self.player_of(Color::Black),
                    Expect::FifthOrOffer { count: fifths },
                ),
                // After stones 1 to 3 and the single 5th, the other player may swap.
                _ => (self.player_of(!colour(n)), Expect::Colour),
            },
        };
        self.actor = actor;
        self.expect = expect;
    }

    /// Where the stage goes once a colour is chosen.
    fn after_colour(&mut self) {
        let n = self.stones.len();
        let holder = |me: &Opening, number: usize| me.player_of(colour(number));
        let (actor, expect) = match (self.rule, n) {
            (OpeningRule::Soosorv { max_fifths }, 3) => (
                holder(self, 4),
                Expect::StoneAndDeclare {
                    number: 4,
                    colour: Color::White,
                    square: None,
                    max: max_fifths,
                },
            ),
            (OpeningRule::Soosorv { .. }, _) => (
                self.player_of(Color::Black),
                Expect::Offer {
                    count: self.declared.unwrap_or(1),
                },
            ),
            (OpeningRule::Yamaguchi, _) => (
                holder(self, 4),
                Expect::Stone {
                    number: 4,
                    colour: Color::White,
                    square: None,
                },
            ),
            (OpeningRule::Taraguchi { .. }, 1..=4) => (
                holder(self, n + 1),
                Expect::Stone {
                    number: n + 1,
                    colour: colour(n + 1),
                    square: Some(square::TARAGUCHI[n]),
                },
            ),
            _ => (self.actor, Expect::Nothing),
        };
        self.actor = actor;
        self.expect = expect;
    }

    /// Checks a stone of the next colour on `p` (with `before` placed first): on the
    /// board, empty, within the central `square`, not forbidden for black.
    fn check_stone(&self, before: &[Pos], p: Pos, square: Option<u8>) -> Result<(), OpeningError> {
        if p.is_none() || !p.on_board(self.size) {
            return Err(OpeningError::OffBoard(p));
        }
        if self.stones.contains(&p) || before.contains(&p) {
            return Err(OpeningError::Occupied(p));
        }
        if let Some(side) = square {
            if !square::within(self.size, p, side) {
                return Err(OpeningError::OutsideSquare { pos: p, side });
            }
        }
        if colour(self.stones.len() + before.len() + 1) == Color::Black && self.forbidden(before, p)
        {
            return Err(OpeningError::Forbidden(p));
        }
        Ok(())
    }

    /// Is `p` forbidden for black after the stones and `before`?
    fn forbidden(&self, before: &[Pos], p: Pos) -> bool {
        if !self.game.has_forbidden() {
            return false;
        }
        let mut board = Board::new(self.size, self.game);
        for &q in self.stones.iter().chain(before) {
            board.make(q);
        }
        board.is_forbidden(p)
    }

    /// Checks `count` fifth moves offered after the stones.
    fn check_offers(&self, list: &[Pos], count: u8) -> Result<(), OpeningError> {
        if list.len() != count as usize {
            return Err(OpeningError::OfferCount {
                got: list.len(),
                expected: count,
            });
        }
        for (i, &p) in list.iter().enumerate() {
            if list[..i].contains(&p) {
                return Err(OpeningError::OfferedTwice(p));
            }
            self.check_stone(&[], p, None)?;
        }
        match symmetric_pair(self.size, &self.stones, list) {
            Some((a, b)) => Err(OpeningError::Symmetric(a, b)),
            None => Ok(()),
        }
    }
}
