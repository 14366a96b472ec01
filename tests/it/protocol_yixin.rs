//! The brain as Yixin-Board drives it, by transcripts of the library's session: the live
//! lines it asks for with `INFO show_detail` (`MESSAGE REALTIME ...`, `INFO PV` blocks), its
//! `START W H`, `YXSHOWINFO`, and the analysis commands of its menus (`YXNBEST`, `YXBLOCK`,
//! `YXBALANCEONE`/`TWO`, `YXSEARCHDEFEND`). Searches are capped at a few plies.

use wuzi::protocol::{is_well_formed_answer, Options, Session};

fn session() -> Session {
    Session::new(Options {
        depth_cap: Some(3),
        hash_cap_mb: 1,
        threads_cap: 1,
        write_records: false,
        ..Options::default()
    })
}

/// Sends `lines`; returns every answer line, each checked to be well formed.
fn say(s: &mut Session, lines: &[&str]) -> Vec<String> {
    let mut all = Vec::new();
    for l in lines {
        let (answers, _) = s.answer(l);
        for a in &answers {
            assert!(is_well_formed_answer(a), "'{l}' answered '{a}'");
        }
        all.extend(answers);
    }
    all
}

/// The answer: the last line that is not MESSAGE or INFO.
fn answer(lines: &[String]) -> String {
    lines
        .iter()
        .rev()
        .find(|l| !l.starts_with("MESSAGE") && !l.starts_with("INFO"))
        .cloned()
        .unwrap_or_default()
}

/// A position with black (ours after YXBOARD: field 1) to move: 7,7 theirs, 8,8 ours.
const OPENING: [&str; 5] = ["YXBOARD", "7,7,2", "8,8,1", "8,6,2", "DONE"];

/// The `INFO PV` blocks in `lines`: each a list of `(key, value)` from `INFO PV i` to
/// `INFO PV DONE`.
fn blocks(lines: &[String]) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut cur: Option<Vec<(String, String)>> = None;
    for l in lines.iter().filter_map(|l| l.strip_prefix("INFO ")) {
        let (k, v) = l.split_once(' ').unwrap_or((l, ""));
        if (k, v) == ("PV", "DONE") {
            out.push(cur.take().expect("INFO PV DONE without INFO PV"));
        } else if k == "PV" {
            assert!(cur.is_none(), "a block inside a block");
            cur = Some(Vec::new());
        } else {
            cur.as_mut()
                .expect("INFO line outside a block")
                .push((k.to_string(), v.to_string()));
        }
    }
    assert!(cur.is_none(), "an unfinished block");
    out
}

fn value<'a>(block: &'a [(String, String)], key: &str) -> &'a str {
    &block.iter().find(|(k, _)| k == key).unwrap().1
}

#[test]
fn start_with_width_and_height_and_show_info() {
    let mut s = session();
    assert_eq!(say(&mut s, &["START 15 15"]), ["OK"]);
    let e = say(&mut s, &["START 20 15"]);
    assert!(
        e[0].starts_with("ERROR rectangular boards (20x15)"),
        "{e:?}"
    );
    assert_eq!(
        say(&mut s, &["YXSHOWINFO"]),
        [
            "MESSAGE INFO MAX_THREAD_NUM 1",
            "MESSAGE INFO MAX_HASH_SIZE 10"
        ]
    );
    let about = say(&mut s, &["ABOUT"]);
    assert!(about[0].contains("square boards"), "{about:?}");
}

/// Without `show_detail` only the MESSAGE progress lines; with bit 1 the realtime best
/// move after every iteration; with bit 2 an `INFO PV` block an iteration.
#[test]
fn live_lines_follow_show_detail() {
    let mut s = session();
    say(&mut s, &["START 15"]);
    let plain = say(&mut s, &["BOARD", "7,7,2", "8,8,1", "DONE"]);
    assert!(plain
        .iter()
        .all(|l| !l.contains("REALTIME") && !l.starts_with("INFO")));
    let depth_lines = plain
        .iter()
        .filter(|l| l.starts_with("MESSAGE depth"))
        .count();
    assert!(depth_lines >= 1, "{plain:?}");
    assert!(plain[0].contains(" winrate "), "{plain:?}");

    let mut s = session();
    let lines = say(
        &mut s,
        &[
            "INFO show_detail 3",
            "START 15",
            "BOARD",
            "7,7,2",
            "8,8,1",
            "DONE",
        ],
    );
    let refresh = lines
        .iter()
        .filter(|l| *l == "MESSAGE REALTIME REFRESH")
        .count();
    let best: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE REALTIME BEST "))
        .collect();
    assert_eq!(refresh, depth_lines, "{lines:?}");
    assert_eq!(best.len(), depth_lines);
    let b = blocks(&lines);
    assert_eq!(b.len(), depth_lines);
    for (i, block) in b.iter().enumerate() {
        let keys: Vec<&str> = block.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "NUMPV",
                "DEPTH",
                "SELDEPTH",
                "NODES",
                "TOTALNODES",
                "TOTALTIME",
                "SPEED",
                "EVAL",
                "WINRATE",
                "BESTLINE"
            ]
        );
        assert_eq!(value(block, "DEPTH"), (i + 1).to_string());
        // The line starts with the realtime best move.
        assert!(value(block, "BESTLINE").starts_with(best[i]), "{block:?}");
        let w: f64 = value(block, "WINRATE").parse().unwrap();
        assert!((0.0..=1.0).contains(&w));
    }
    // The move played is the last iteration's best.
    assert_eq!(answer(&lines), *best.last().unwrap());
}

#[test]
fn nbest_reports_one_block_a_move() {
    let mut s = session();
    say(&mut s, &["INFO show_detail 1", "START 15"]);
    say(&mut s, &OPENING);
    let lines = say(&mut s, &["YXNBEST 3"]);
    let listed: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE NBEST "))
        .map(|r| r.split(' ').nth(1).unwrap())
        .collect();
    assert_eq!(listed.len(), 3, "{lines:?}");
    let b = blocks(&lines);
    assert_eq!(b.len(), 3);
    for (block, point) in b.iter().zip(&listed) {
        assert_eq!(value(block, "NUMPV"), "3");
        assert_eq!(value(block, "BESTLINE"), *point);
    }
    assert!(lines.contains(&format!("MESSAGE REALTIME BEST {}", listed[0])));
    assert_eq!(answer(&lines), listed[0]);
}

/// `YXBLOCK` points are left out of the search until `YXBLOCKUNDO` or `YXBLOCKRESET`.
#[test]
fn blocked_points_are_left_out() {
    let mut s = session();
    say(&mut s, &["START 15"]);
    say(&mut s, &OPENING);
    let best = answer(&say(&mut s, &["YXNBEST 1"]));
    say(&mut s, &["YXBLOCK", &best, "DONE"]);
    let lines = say(&mut s, &["YXNBEST 5"]);
    assert!(
        !lines.iter().any(|l| l.contains(&format!(" {best} "))),
        "{lines:?}"
    );
    let other = answer(&lines);
    assert_ne!(other, best);
    // A move asked for leaves the point out too.
    let played = answer(&say(&mut s, &["BOARD", "7,7,2", "8,8,1", "8,6,2", "DONE"]));
    assert_ne!(played, best);
    say(&mut s, &["YXBLOCKUNDO", &best, "DONE"]);
    say(&mut s, &OPENING);
    assert_eq!(answer(&say(&mut s, &["YXNBEST 1"])), best);
    say(&mut s, &["YXBLOCK", &best, "DONE", "YXBLOCKRESET"]);
    assert_eq!(answer(&say(&mut s, &["YXNBEST 1"])), best);
    let e = say(&mut s, &["YXBLOCK", "99,1", "DONE"]);
    assert!(e[0].starts_with("ERROR"), "{e:?}");
}

#[test]
fn balancing_moves_are_one_or_two_empty_points() {
    let mut s = session();
    say(&mut s, &["START 15"]);
    say(&mut s, &OPENING);
    let taken = ["7,7", "8,8", "8,6"];
    let one = say(&mut s, &["YXBALANCEONE 0"]);
    let p = answer(&one);
    assert!(!taken.contains(&p.as_str()) && p.contains(','), "{one:?}");
    assert!(one
        .iter()
        .any(|l| l.starts_with(&format!("MESSAGE BALANCE {p} "))));
    let two = say(&mut s, &["YXBALANCETWO 0"]);
    let pair: Vec<String> = answer(&two).split(' ').map(str::to_string).collect();
    assert_eq!(pair.len(), 2, "{two:?}");
    assert_ne!(pair[0], pair[1]);
    assert!(pair.iter().all(|q| !taken.contains(&q.as_str())));
    // Nothing was played: the position is as it was.
    assert_eq!(s.engine().board().moves().len(), 3);
}

/// Against an open four every block loses: both are marked, none holds.
#[test]
fn search_defend_marks_the_losing_moves() {
    let mut s = session();
    say(&mut s, &["START 15"]);
    let stones = [
        "5,5,2", "6,5,2", "7,5,2", "8,5,2", "0,0,1", "0,2,1", "0,4,1",
    ];
    let mut block = vec!["YXBOARD"];
    block.extend(stones);
    block.push("DONE");
    say(&mut s, &block);
    let lines = say(&mut s, &["YXSEARCHDEFEND"]);
    let mut lost: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE REALTIME LOSE "))
        .collect();
    lost.sort();
    assert_eq!(lost, ["4,5", "9,5"], "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("MESSAGE DEFEND 0 moves hold")));
    assert!(["4,5", "9,5"].contains(&answer(&lines).as_str()));
    for b in blocks(&lines) {
        assert!(value(&b, "EVAL").starts_with("-M"), "{b:?}");
    }
}
