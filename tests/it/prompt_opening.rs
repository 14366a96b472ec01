//! The prompt's opening stages played through, one whole game per opening rule with the
//! player on either side: a player that reads what the prompt asks ("place the 4th stone
//! (white) anywhere and declare 1 to 8 fifth moves", "choose one of the offered fifth
//! moves") and answers it, retrying another answer when one is refused, then plays a few
//! moves of the game that follows and takes them back. The engine's steps come from its
//! opening decisions.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, Write};
use std::rc::Rc;
use wuzi::prompt::input::{Input, Read};
use wuzi::prompt::{Io, Prompt};

/// The prompt's output, shared with the scripted player who reads it.
#[derive(Clone, Default)]
struct Screen(Rc<RefCell<Vec<u8>>>);

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Screen {
    /// Everything shown so far, lines joined (a message broken at 80 columns reads whole).
    fn flat(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).replace('\n', " ")
    }
}

/// Twenty points (the most fifth moves a stage may ask for) outside the central 7x7 square,
/// whose distances from the centre all differ, so that no symmetry of the board maps one
/// onto another: fifth moves that can always be offered together.
const FAR: [&str; 20] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "b3", "b4", "c4", "c5", "c6", "c7", "d5", "d6",
    "d7", "b5", "b6", "b7",
];

/// The points of the central `side` x `side` square of 15x15, nearest the centre first.
fn square(side: usize) -> Vec<String> {
    let r = side as i32 / 2;
    let mut cells: Vec<(i32, i32)> = (-r..=r)
        .flat_map(|y| (-r..=r).map(move |x| (x, y)))
        .collect();
    cells.sort_by_key(|&(x, y)| (x.abs().max(y.abs()), x * x + y * y, y, x));
    cells
        .into_iter()
        .map(|(x, y)| format!("{}{}", (b'h' as i32 + x) as u8 as char, 8 + y))
        .collect()
}

/// A player answering what the prompt asks.
struct Scripted {
    screen: Screen,
    /// Lines sent before any answer.
    start: Vec<String>,
    /// Answers given to each question so far (a refused one is followed by the next).
    tries: HashMap<String, usize>,
    /// Moves answered after the opening stage.
    moves: usize,
    /// A file to save the game to once the stage is over and three moves are played.
    save_to: Option<String>,
    reads: usize,
}

impl Scripted {
    fn answer(&mut self) -> String {
        let text = self.screen.flat();
        if let Some(over) = text.rfind("The opening stage is over") {
            // The game that follows: a few moves anywhere free, then take them all back
            // (undo keeps the opening's stones), then leave.
            if text[over..].contains("wins") || self.moves >= 8 {
                return "quit".into();
            }
            if self.moves >= 3 {
                if let Some(file) = self.save_to.take() {
                    return format!("save {file}");
                }
                self.moves += 1;
                return "undo".into();
            }
            self.moves += 1;
            let n = self.tries.entry("move".into()).or_default();
            *n += 1;
            return square(15)[*n % 225].clone();
        }
        let Some(at) = text.rfind("for now): ") else {
            return "board".into();
        };
        let ask = text[at + 10..]
            .split(". ")
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        let n = {
            let n = self.tries.entry(ask.clone()).or_default();
            *n += 1;
            *n - 1
        };
        let number_after = |word: &str| -> usize {
            ask.split(word)
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .and_then(|w| w.parse().ok())
                .unwrap_or(1)
        };
        if ask.starts_with("place") {
            let points = if ask.contains("on the centre point") {
                vec!["h8".to_string()]
            } else if let Some(rest) = ask.split("central ").nth(1) {
                let side: usize = rest.split('x').next().unwrap().parse().unwrap();
                square(side)
            } else {
                FAR.iter()
                    .map(|s| s.to_string())
                    .chain(square(15))
                    .collect()
            };
            let p = points[n % points.len()].clone();
            if ask.contains("declare") {
                format!("{p} 2")
            } else {
                p
            }
        } else if ask.starts_with("choose a colour:") {
            ["swap", "keep"][n % 2].into()
        } else if ask.starts_with("choose black") {
            ["add k11 e5", "add l12 d4", "white"][n % 3].into()
        } else if ask.starts_with("choose a colour (then") {
            if n == 0 {
                format!("offer {}", FAR[..number_after("offer ")].join(" "))
            } else {
                "keep".into()
            }
        } else if ask.starts_with("offer") {
            let k = number_after("offer ");
            format!("offer {}", FAR[..k].join(" "))
        } else if ask.starts_with("choose one of the offered") {
            let offered = text
                .rfind("Offered fifth moves: ")
                .map(|i| text[i + 21..].split('.').next().unwrap_or("").to_string())
                .unwrap_or_default();
            let list: Vec<&str> = offered.split_whitespace().collect();
            format!("pick {}", list[n % list.len().max(1)])
        } else {
            panic!("unexpected question: {ask}")
        }
    }
}

impl Input for Scripted {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> io::Result<Read> {
        write!(out, "{prompt}")?;
        self.reads += 1;
        assert!(self.reads < 300, "no end: {}", self.screen.flat());
        let line = if self.start.is_empty() {
            self.answer()
        } else {
            self.start.remove(0)
        };
        writeln!(out, "{line}")?;
        Ok(Read::Line(line.into_bytes()))
    }
}

/// Plays `rule` (after `rule renju`) at the prompt with the player beginning as `side`;
/// returns what the prompt showed.
fn play(rule: &str, side: &str) -> String {
    play_and_save(rule, side, None)
}

/// As [`play`], saving the game to `save_to` after the stage and three moves.
fn play_and_save(rule: &str, side: &str, save_to: Option<String>) -> String {
    let screen = Screen::default();
    let mut player = Scripted {
        screen: screen.clone(),
        start: vec![
            "vary off".into(),
            "level depth 2".into(),
            format!("side {side}"),
            format!("rule renju {rule}"),
            // Out of turn or out of place, whatever the stage asks first.
            "pick a1".into(),
        ],
        tries: HashMap::new(),
        moves: 0,
        save_to,
        reads: 0,
    };
    let (mut out, mut err) = (screen.clone(), Vec::new());
    let mut io = Io {
        out: &mut out,
        err: &mut err,
        err_tty: false,
        color: false,
    };
    let mut prompt = Prompt::new().unwrap();
    prompt.run(&mut player, &mut io).unwrap();
    screen.flat()
}

#[test]
fn every_opening_rule_is_played_through_with_wuzi_on_either_side() {
    for rule in [
        "swap",
        "swap2",
        "swap-after-first",
        "soosorv 8",
        "taraguchi 10",
        "yamaguchi",
    ] {
        for side in ["black", "white"] {
            let out = play(rule, side);
            let first = if side == "black" { "first" } else { "second" };
            assert!(
                out.contains(&format!("you begin as the {first} player")),
                "{rule} {side}: {out}"
            );
            assert!(out.contains("Not allowed: "), "{rule} {side}: {out}");
            assert!(
                out.contains("The opening stage is over: you play"),
                "{rule} {side}: {out}"
            );
            assert!(
                out.contains("wuzi plays"),
                "{rule} {side}: no game after: {out}"
            );
        }
    }
}

#[test]
fn soosorv_asks_for_the_4th_stone_with_its_declaration() {
    // The player begins as the first player and places D1 Kansei; whoever holds white
    // after wuzi's choice is asked for the 4th stone and the number of fifth moves.
    let file = std::env::temp_dir().join(format!("wuzi-opening-{}.sgf", std::process::id()));
    let out = play_and_save("soosorv 8", "black", Some(file.display().to_string()));
    assert!(out.contains("You (black for now): place the 1st stone (black) on the centre point."));
    assert!(
        out.contains("Not allowed: not now: place the 1st stone"),
        "{out}"
    );
    assert!(out.contains("place the 4th stone (white) anywhere and declare 1 to 8 fifth moves"));
    // The record keeps the stage: its five stones marked as the opening, its steps in GC.
    let sgf = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(
        sgf.contains("GC[Opening rule soosorv 8 (you: the first player, wuzi: the second player). first player places h8."),
        "{sgf}"
    );
    assert!(
        sgf.contains("declares 2 fifth moves.") && sgf.contains(" picks "),
        "{sgf}"
    );
    assert_eq!(sgf.matches("C[opening move]").count(), 5, "{sgf}");
}
