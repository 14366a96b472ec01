//! The state machine against each rule text: legal and refused actions, who swaps when,
//! symmetric offers, the central squares, and whole opening stages up to normal play.

use super::*;
use crate::notation::parse_h8;
use crate::types::{Color, Pos, Rule};
use Player::{First, Second};

fn at(s: &str) -> Pos {
    parse_h8(s, 15).unwrap()
}

fn points(list: &str) -> Vec<Pos> {
    list.split_whitespace().map(at).collect()
}

fn stage(rule: &str) -> Opening {
    Opening::new(rule.parse().unwrap(), 15, Rule::Renju).unwrap()
}

fn place(o: &mut Opening, who: Player, p: &str) {
    o.apply(who, Action::Place(at(p)))
        .unwrap_or_else(|e| panic!("{p}: {e}"));
}

fn choose(o: &mut Opening, who: Player, c: Color) {
    o.apply(who, Action::Choose(c)).unwrap();
}

#[test]
fn swap_three_stones_anywhere_then_the_second_player_chooses() {
    let mut o = stage("swap");
    assert_eq!(o.to_act(), Some(First));
    place(&mut o, First, "a1");
    place(&mut o, First, "o15");
    assert_eq!(
        o.expect(),
        Expect::Stone {
            number: 3,
            colour: Color::Black,
            square: None
        }
    );
    place(&mut o, First, "c3");
    assert_eq!((o.to_act(), o.expect()), (Some(Second), Expect::Colour));
    // The first player may not choose; the second may not place a stone.
    assert_eq!(
        o.apply(First, Action::Choose(Color::White)),
        Err(OpeningError::OutOfTurn {
            to_act: Second,
            expected: Expect::Colour
        })
    );
    assert_eq!(
        o.apply(Second, Action::Place(at("h8"))),
        Err(OpeningError::Unexpected(Expect::Colour))
    );
    choose(&mut o, Second, Color::Black);
    assert!(o.is_over());
    assert_eq!(o.player_of(Color::Black), Second);
    assert_eq!(
        o.stones().len(),
        3,
        "white (the first player) plays the 4th"
    );
    assert_eq!(
        o.apply(First, Action::Place(at("h8"))),
        Err(OpeningError::Over)
    );
}

#[test]
fn swap_after_the_first_move() {
    let mut o = stage("swap-after-first");
    place(&mut o, First, "d4");
    assert_eq!((o.to_act(), o.expect()), (Some(Second), Expect::Colour));
    choose(&mut o, Second, Color::White);
    assert!(o.is_over());
    assert_eq!(o.player_of(Color::White), Second, "kept white");
}

#[test]
fn swap2_the_second_player_takes_a_colour_or_adds_two_stones() {
    // Take white: the second player plays the 4th as white.
    let mut o = stage("swap2");
    for p in ["h8", "i9", "j8"] {
        place(&mut o, First, p);
    }
    assert_eq!(
        (o.to_act(), o.expect()),
        (Some(Second), Expect::Swap2Choice)
    );
    choose(&mut o, Second, Color::White);
    assert!(o.is_over());
    assert_eq!(o.player_of(Color::White), Second);

    // Add two: a white then a black stone; the first player chooses.
    let mut o = stage("swap2");
    for p in ["h8", "i9", "j8"] {
        place(&mut o, First, p);
    }
    assert_eq!(
        o.apply(Second, Action::AddTwo(at("h8"), at("g7"))),
        Err(OpeningError::Occupied(at("h8")))
    );
    assert_eq!(
        o.apply(Second, Action::AddTwo(at("g7"), at("g7"))),
        Err(OpeningError::Occupied(at("g7")))
    );
    assert_eq!(o.stones().len(), 3, "a refused action changes nothing");
    o.apply(Second, Action::AddTwo(at("g7"), at("k8"))).unwrap();
    assert_eq!((o.to_act(), o.expect()), (Some(First), Expect::Colour));
    assert!(matches!(
        o.apply(Second, Action::Choose(Color::Black)),
        Err(OpeningError::OutOfTurn { to_act: First, .. })
    ));
    choose(&mut o, First, Color::White);
    assert!(o.is_over());
    assert_eq!(o.player_of(Color::Black), Second);
    assert_eq!(o.stones(), &points("h8 i9 j8 g7 k8")[..]);
}

#[test]
fn soosorv_stage_to_normal_play() {
    let mut o = stage("soosorv 8");
    // The first player places a canonical opening: the central squares are enforced.
    assert_eq!(
        o.apply(First, Action::Place(at("h9"))),
        Err(OpeningError::OutsideSquare {
            pos: at("h9"),
            side: 1
        })
    );
    place(&mut o, First, "h8");
    assert_eq!(
        o.apply(First, Action::Place(at("h10"))),
        Err(OpeningError::OutsideSquare {
            pos: at("h10"),
            side: 3
        })
    );
    place(&mut o, First, "i9");
    assert_eq!(
        o.apply(First, Action::Place(at("k8"))),
        Err(OpeningError::OutsideSquare {
            pos: at("k8"),
            side: 5
        })
    );
    place(&mut o, First, "j8"); // I3 Kosei
    let three: [Pos; 3] = o.stones().try_into().unwrap();
    assert_eq!(
        Canonical::recognise(15, three).unwrap().to_string(),
        "I3 Kosei"
    );
    // The white player may swap.
    assert_eq!((o.to_act(), o.expect()), (Some(Second), Expect::Colour));
    choose(&mut o, Second, Color::Black);
    assert_eq!(o.player_of(Color::White), First);
    // The white player (now the first) places the 4th anywhere and declares 1 to 8.
    assert_eq!(o.to_act(), Some(First));
    assert_eq!(
        o.expect().to_string(),
        "place the 4th stone (white) anywhere and declare 1 to 8 fifth moves"
    );
    assert_eq!(
        o.apply(First, Action::PlaceAndDeclare(at("a1"), 9)),
        Err(OpeningError::Declared { got: 9, max: 8 })
    );
    assert_eq!(
        o.apply(First, Action::PlaceAndDeclare(at("a1"), 0)),
        Err(OpeningError::Declared { got: 0, max: 8 })
    );
    assert_eq!(
        o.apply(First, Action::Place(at("a1"))),
        Err(OpeningError::Unexpected(o.expect()))
    );
    o.apply(First, Action::PlaceAndDeclare(at("g9"), 2))
        .unwrap();
    // The black player may swap.
    assert_eq!((o.to_act(), o.expect()), (Some(Second), Expect::Colour));
    choose(&mut o, Second, Color::Black);
    assert_eq!(o.player_of(Color::Black), Second, "kept black");
    // Black offers exactly two fifth moves.
    assert_eq!(o.expect(), Expect::Offer { count: 2 });
    assert_eq!(
        o.apply(Second, Action::Offer(points("g8"))),
        Err(OpeningError::OfferCount {
            got: 1,
            expected: 2
        })
    );
    assert_eq!(
        o.apply(Second, Action::Offer(points("g8 g8"))),
        Err(OpeningError::OfferedTwice(at("g8")))
    );
    assert_eq!(
        o.apply(Second, Action::Offer(points("g8 i9"))),
        Err(OpeningError::Occupied(at("i9")))
    );
    o.apply(Second, Action::Offer(points("g8 j10"))).unwrap();
    // White picks one and plays the 6th in the game.
    assert_eq!((o.to_act(), o.expect()), (Some(First), Expect::Pick));
    assert_eq!(
        o.apply(First, Action::Pick(at("k10"))),
        Err(OpeningError::NotOffered(at("k10")))
    );
    o.apply(First, Action::Pick(at("j10"))).unwrap();
    assert!(o.is_over());
    assert_eq!(o.stones(), &points("h8 i9 j8 g9 j10")[..]);
    assert_eq!(o.player_of(Color::White), First, "white plays the 6th");
}

#[test]
fn symmetric_fifth_moves_are_refused() {
    // D1 Kansei with the 4th on the h line keeps the mirror across that line.
    let mut o = stage("soosorv 4");
    for p in ["h8", "h9", "h10"] {
        place(&mut o, First, p);
    }
    choose(&mut o, Second, Color::White);
    o.apply(Second, Action::PlaceAndDeclare(at("h7"), 3))
        .unwrap();
    choose(&mut o, First, Color::Black);
    assert_eq!(
        o.apply(First, Action::Offer(points("j12 g8 i8"))),
        Err(OpeningError::Symmetric(at("g8"), at("i8")))
    );
    assert_eq!(
        o.apply(First, Action::Offer(points("g11 i11 h6"))),
        Err(OpeningError::Symmetric(at("g11"), at("i11")))
    );
    // Points on the axis, and points at different places, are different positions.
    o.apply(First, Action::Offer(points("h6 h11 i8"))).unwrap();
    assert_eq!(o.expect(), Expect::Pick);
}

#[test]
fn offers_off_the_board_are_refused() {
    let mut o = stage("yamaguchi");
    place(&mut o, First, "h8");
    place(&mut o, First, "i9");
    o.apply(First, Action::PlaceAndDeclare(at("h6"), 1))
        .unwrap(); // I10 Myojo
    choose(&mut o, Second, Color::White);
    place(&mut o, Second, "g9");
    assert_eq!(o.expect(), Expect::Offer { count: 1 });
    assert_eq!(
        o.apply(First, Action::Offer(vec![Pos::new(15, 3)])),
        Err(OpeningError::OffBoard(Pos::new(15, 3)))
    );
    assert_eq!(
        o.apply(First, Action::Offer(vec![Pos::NONE])),
        Err(OpeningError::OffBoard(Pos::NONE))
    );
    o.apply(First, Action::Offer(points("e5"))).unwrap();
    o.apply(Second, Action::Pick(at("e5"))).unwrap();
    assert!(o.is_over());
}

#[test]
fn taraguchi_stage_with_the_second_choice() {
    let mut o = stage("taraguchi 10");
    // 1st on the centre point by the first player; then the other player may swap.
    place(&mut o, First, "h8");
    assert_eq!((o.to_act(), o.expect()), (Some(Second), Expect::Colour));
    // The second player takes black; white (now the first player) places the 2nd within
    // the 3x3 square.
    choose(&mut o, Second, Color::Black);
    assert_eq!(o.to_act(), Some(First));
    assert_eq!(
        o.apply(First, Action::Place(at("h10"))),
        Err(OpeningError::OutsideSquare {
            pos: at("h10"),
            side: 3
        })
    );
    place(&mut o, First, "h9");
    // Black (the second player) may swap.
    assert_eq!((o.to_act(), o.expect()), (Some(Second), Expect::Colour));
    choose(&mut o, Second, Color::Black);
    place(&mut o, Second, "j10"); // within 5x5
    assert_eq!((o.to_act(), o.expect()), (Some(First), Expect::Colour));
    choose(&mut o, First, Color::White);
    assert_eq!(
        o.apply(First, Action::Place(at("l8"))),
        Err(OpeningError::OutsideSquare {
            pos: at("l8"),
            side: 7
        })
    );
    place(&mut o, First, "k8"); // within 7x7

    // Black chooses between the two choices.
    assert_eq!(
        (o.to_act(), o.expect()),
        (Some(Second), Expect::FifthOrOffer { count: 10 })
    );
    assert!(matches!(
        o.apply(Second, Action::Offer(points("a1 b2"))),
        Err(OpeningError::OfferCount { .. })
    ));
    let ten = points("a1 a2 a3 a4 a5 a6 a7 a8 a9 a10");
    o.apply(Second, Action::Offer(ten)).unwrap();
    // No swap in the second choice: white picks one.
    assert_eq!((o.to_act(), o.expect()), (Some(First), Expect::Pick));
    o.apply(First, Action::Pick(at("a5"))).unwrap();
    assert!(o.is_over());
    assert_eq!(o.player_of(Color::White), First);
}

#[test]
fn taraguchi_stage_with_the_first_choice() {
    let mut o = stage("taraguchi 10");
    place(&mut o, First, "h8");
    choose(&mut o, Second, Color::White);
    place(&mut o, Second, "i9");
    choose(&mut o, First, Color::Black);
    place(&mut o, First, "j8");
    choose(&mut o, Second, Color::White);
    place(&mut o, Second, "g9");
    // Black swaps (choice 1): the second player becomes black and places the 5th in 9x9.
    assert_eq!(o.to_act(), Some(First));
    choose(&mut o, First, Color::White);
    assert_eq!(
        (o.to_act(), o.expect()),
        (
            Some(Second),
            Expect::Stone {
                number: 5,
                colour: Color::Black,
                square: Some(9)
            }
        )
    );
    assert_eq!(
        o.apply(Second, Action::Place(at("c8"))),
        Err(OpeningError::OutsideSquare {
            pos: at("c8"),
            side: 9
        })
    );
    place(&mut o, Second, "d4");
    // The white player may swap once more; then white plays the 6th.
    assert_eq!((o.to_act(), o.expect()), (Some(First), Expect::Colour));
    choose(&mut o, First, Color::Black);
    assert!(o.is_over());
    assert_eq!(o.player_of(Color::White), Second);
    assert_eq!(o.stones().len(), 5);
}

#[test]
fn yamaguchi_stage_to_normal_play() {
    let mut o = stage("yamaguchi");
    place(&mut o, First, "h8");
    place(&mut o, First, "h9");
    // The 3rd stone comes with the declaration.
    assert!(matches!(
        o.expect(),
        Expect::StoneAndDeclare {
            number: 3,
            square: Some(5),
            ..
        }
    ));
    assert_eq!(
        o.apply(First, Action::PlaceAndDeclare(at("h11"), 2)),
        Err(OpeningError::OutsideSquare {
            pos: at("h11"),
            side: 5
        })
    );
    o.apply(First, Action::PlaceAndDeclare(at("i9"), 2))
        .unwrap(); // D4 Kagetsu
    assert_eq!(o.declared(), Some(2));
    // The white player may swap, then places the 4th anywhere.
    assert_eq!((o.to_act(), o.expect()), (Some(Second), Expect::Colour));
    choose(&mut o, Second, Color::Black);
    assert_eq!(o.to_act(), Some(First));
    place(&mut o, First, "o1");
    // Black (the second player) offers two, no swap; white picks.
    assert_eq!(
        (o.to_act(), o.expect()),
        (Some(Second), Expect::Offer { count: 2 })
    );
    o.apply(Second, Action::Offer(points("g7 j10"))).unwrap();
    o.apply(First, Action::Pick(at("g7"))).unwrap();
    assert!(o.is_over());
    assert_eq!(o.stones(), &points("h8 h9 i9 o1 g7")[..]);
    assert_eq!(o.history().len(), 7);
}

#[test]
fn non_canonical_openings_are_refused_where_the_texts_ask_for_the_26() {
    for rule in ["soosorv 8", "yamaguchi", "taraguchi 10"] {
        let mut o = stage(rule);
        place(&mut o, First, "h8");
        if o.expect() == Expect::Colour {
            choose(&mut o, Second, Color::White);
        }
        let who = o.to_act().unwrap();
        // The second stone two points away is no canonical opening.
        assert!(
            matches!(
                o.apply(who, Action::Place(at("h10"))),
                Err(OpeningError::OutsideSquare { side: 3, .. })
            ),
            "{rule}"
        );
    }
    // Under swap and swap2 any three stones will do.
    let mut o = stage("swap2");
    for p in ["a1", "o15", "a15"] {
        place(&mut o, First, p);
    }
    assert_eq!(o.expect(), Expect::Swap2Choice);
}

#[test]
fn the_free_rule_has_no_stage_and_even_boards_have_no_centre() {
    let o = stage("free");
    assert!(o.is_over());
    assert_eq!(o.to_act(), None);
    assert!(matches!(
        Opening::new(OpeningRule::Yamaguchi, 14, Rule::Renju),
        Err(RuleError::NoCentre { .. })
    ));
    assert!(matches!(
        Opening::new(OpeningRule::Swap, 40, Rule::Renju),
        Err(RuleError::Size(40))
    ));
    assert!(Opening::new(OpeningRule::Swap2, 20, Rule::Freestyle).is_ok());
}
