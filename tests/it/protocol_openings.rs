//! The brain's opening steps as Yixin-Board sends them, by transcripts of the library's
//! session: `YXSWAP2STEP1` to `3` and `YXSOOSORVSTEP1` to `6`, each answered from the
//! engine's opening decisions, and bad steps answered `ERROR` with the game going on.
//! Searches are capped at a few plies.

use wuzi::engine::opening::offers::symmetric_pair;
use wuzi::protocol::{is_well_formed_answer, Options, Session};
use wuzi::types::Pos;

fn session() -> Session {
    Session::new(Options {
        depth_cap: Some(2),
        hash_cap_mb: 1,
        threads_cap: 1,
        write_records: false,
        ..Options::default()
    })
}

/// Sends `lines`; returns every answer line that is not a search's progress, each checked
/// to be well formed.
fn say(s: &mut Session, lines: &[&str]) -> Vec<String> {
    let mut all = Vec::new();
    for l in lines {
        let (answers, _) = s.answer(l);
        for a in &answers {
            assert!(is_well_formed_answer(a), "'{l}' answered '{a}'");
        }
        all.extend(
            answers
                .into_iter()
                .filter(|a| !a.starts_with("MESSAGE depth") && !a.starts_with("INFO ")),
        );
    }
    all
}

/// The point of an opening message's `x y` words.
fn point(words: &[&str]) -> Pos {
    let n: Vec<usize> = words.iter().map(|w| w.parse().unwrap()).collect();
    Pos::new(n[0], n[1])
}

/// The `x,y` lines of a stone block.
fn block(head: &str, stones: &[Pos]) -> Vec<String> {
    let mut lines = vec![head.to_string()];
    lines.extend(stones.iter().map(|p| p.to_string()));
    lines.push("done".into());
    lines
}

fn say_all(s: &mut Session, lines: &[String]) -> Vec<String> {
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    say(s, &refs)
}

#[test]
fn swap2_steps_place_three_then_choose() {
    let mut s = session();
    say(&mut s, &["START 15"]);
    // Step 1 places three stones whatever the board held.
    say(&mut s, &["BOARD", "7,7,1", "DONE"]);
    let a = say(&mut s, &["yxswap2step1"]);
    assert_eq!(a.len(), 3, "{a:?}");
    let mut three = Vec::new();
    for (i, line) in a.iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[..3], ["MESSAGE", "SWAP2", &format!("MOVE{}", i + 1)]);
        three.push(point(&words[3..]));
    }
    assert!(three[0] != three[1] && three[1] != three[2] && three[0] != three[2]);

    // Step 2: the brain (white, field 1) after three stones.
    let a = say(
        &mut s,
        &["YXBOARD", "7,7,2", "8,8,1", "6,8,2", "DONE", "yxswap2step2"],
    );
    let ok = a == ["MESSAGE SWAP2 SWAP1 YES"]
        || a == ["MESSAGE SWAP2 SWAP1 NO"]
        || (a.len() == 2 && a[0].starts_with("MESSAGE SWAP2 MOVE4 "));
    assert!(ok, "{a:?}");

    // A black stone left alone against white's four in a row: the brain keeps white.
    let a = say(
        &mut s,
        &[
            "YXBOARD",
            "0,0,2",
            "7,7,1",
            "0,14,2",
            "DONE",
            "yxswap2step2",
        ],
    );
    assert_eq!(a, ["MESSAGE SWAP2 SWAP1 NO"]);

    // Step 3: the brain chooses after five stones; black has an open three to win with.
    let a = say(
        &mut s,
        &[
            "YXBOARD",
            "7,7,2",
            "0,0,1",
            "8,7,2",
            "0,14,1",
            "9,7,2",
            "DONE",
            "yxswap2step3",
        ],
    );
    assert_eq!(a, ["MESSAGE SWAP2 SWAP2 YES"]);
}

#[test]
fn soosorv_steps_play_the_whole_opening_stage() {
    let mut s = session();
    say(&mut s, &["INFO rule 4", "START 15"]);
    let a = say(&mut s, &["yxsoosorvstep1"]);
    assert_eq!(a.len(), 3, "{a:?}");
    let opening: Vec<Pos> = a
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(
                words[..3],
                ["MESSAGE", "SOOSORV", &format!("MOVE{}", i + 1)]
            );
            point(&words[3..])
        })
        .collect();
    assert_eq!(opening[0], Pos::new(7, 7));
    assert!(opening[1].dist(opening[0]) <= 1 && opening[2].dist(opening[0]) <= 2);

    let a = say_all(&mut s, &block("yxsoosorvstep2", &opening));
    assert!(
        a == ["MESSAGE SOOSORV SWAP1 Y"] || a == ["MESSAGE SOOSORV SWAP1 N"],
        "{a:?}"
    );

    let a = say_all(&mut s, &block("yxsoosorvstep3", &opening));
    let words: Vec<&str> = a[0].split(' ').collect();
    assert_eq!(words[..3], ["MESSAGE", "SOOSORV", "MOVE4"], "{a:?}");
    let fourth = point(&words[3..5]);
    let n: usize = words[5].parse().unwrap();
    assert!((1..=8).contains(&n) && !opening.contains(&fourth), "{a:?}");

    let four: Vec<Pos> = [&opening[..], &[fourth]].concat();
    let a = say_all(&mut s, &block("yxsoosorvstep4 2", &four));
    assert!(
        a == ["MESSAGE SOOSORV SWAP2 Y"] || a == ["MESSAGE SOOSORV SWAP2 N"],
        "{a:?}"
    );

    let a = say_all(&mut s, &block("yxsoosorvstep5 3", &four));
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(a[3], "MESSAGE SOOSORV MOVE5 DONE");
    let offers: Vec<Pos> = a[..3]
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(words[..3], ["MESSAGE", "SOOSORV", "MOVE5"]);
            point(&words[3..])
        })
        .collect();
    assert!(offers.iter().all(|p| !four.contains(p)), "{offers:?}");
    assert_eq!(symmetric_pair(15, &four, &offers), None, "{offers:?}");

    let a = say_all(
        &mut s,
        &block("yxsoosorvstep6", &[&four[..], &offers].concat()),
    );
    let words: Vec<&str> = a[0].split(' ').collect();
    assert_eq!(words[..4], ["MESSAGE", "SOOSORV", "MOVE5", "C"], "{a:?}");
    let pick = point(&words[4..]);
    assert!(offers.contains(&pick), "{a:?}");

    // The game goes on: the brain (white) plays the 6th move.
    let mut board = vec!["BOARD".to_string()];
    for (i, p) in [&four[..], &[pick]].concat().iter().enumerate() {
        // Black's stones are the opponent's (2), white's the brain's (1).
        board.push(format!("{p},{}", if i % 2 == 0 { 2 } else { 1 }));
    }
    board.push("DONE".into());
    let a = say_all(&mut s, &board);
    let last = a.last().unwrap();
    assert!(last.contains(',') && !last.starts_with("MESSAGE"), "{a:?}");
}

#[test]
fn bad_steps_answer_error_and_the_game_goes_on() {
    let mut s = session();
    say(&mut s, &["INFO rule 4", "START 15"]);
    let c = Pos::new(7, 7);
    // Soosorv's third stone outside the central 5x5 square.
    let a = say_all(
        &mut s,
        &block("yxsoosorvstep2", &[c, Pos::new(7, 6), Pos::new(7, 3)]),
    );
    assert_eq!(a.len(), 1);
    assert!(
        a[0].starts_with("ERROR 7,3 is not within the central 5x5 square"),
        "{a:?}"
    );
    // Too many fifth moves declared.
    let four = [c, Pos::new(7, 6), Pos::new(7, 5), Pos::new(7, 10)];
    let a = say_all(&mut s, &block("yxsoosorvstep4 9", &four));
    assert!(
        a[0].starts_with("ERROR declare 1 to 8 fifth moves, not 9"),
        "{a:?}"
    );
    // Two fifth moves that mirror each other across the stones' line.
    let offered = [&four[..], &[Pos::new(6, 8), Pos::new(8, 8)]].concat();
    let a = say_all(&mut s, &block("yxsoosorvstep6", &offered));
    assert!(
        a[0].starts_with("ERROR ") && a[0].contains("symmetric"),
        "{a:?}"
    );
    // A step with the wrong number of stones, and swap2's step 2 on an empty board.
    let a = say_all(&mut s, &block("yxsoosorvstep3", &four));
    assert!(
        a[0].starts_with("ERROR YXSOOSORVSTEP3 takes 3 stones, not 4"),
        "{a:?}"
    );
    say(&mut s, &["YXBOARD", "DONE"]);
    let a = say(&mut s, &["yxswap2step2"]);
    assert!(
        a[0].starts_with("ERROR YXSWAP2STEP2 needs a board of 3 stones"),
        "{a:?}"
    );
    let a = say(&mut s, &["yxswap2step4"]);
    assert!(
        a[0].starts_with("ERROR yxswap2step4: steps run from 1 to 3"),
        "{a:?}"
    );
    // The game goes on: a good step is answered, then a move.
    let a = say_all(&mut s, &block("yxsoosorvstep4 2", &four));
    assert!(a[0].starts_with("MESSAGE SOOSORV SWAP2 "), "{a:?}");
    let a = say(&mut s, &["BOARD", "7,7,1", "DONE"]);
    assert!(a.last().unwrap().contains(','), "{a:?}");
}
