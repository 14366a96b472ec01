//! The protocol handler at library level, fed many generated lines (well-formed, malformed
//! and garbage): it never panics, every answer is one well-formed line, and a command
//! answered only by `ERROR`/`UNKNOWN` leaves the position as it was.

use wuzi::protocol::{Flow, Options, Session};

fn options() -> Options {
    Options {
        depth_cap: Some(2),
        hash_cap_mb: 1,
        threads_cap: 1,
        write_records: false,
        ..Options::default()
    }
}

/// A small deterministic generator (xorshift) so that failures reproduce.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn coord(&mut self) -> String {
        match self.below(10) {
            0 => "-1".into(),
            1 => "99".into(),
            2 => "x".into(),
            3 => "".into(),
            _ => self.below(16).to_string(),
        }
    }
    fn line(&mut self) -> String {
        let (a, b) = (self.coord(), self.coord());
        let f = self.below(5);
        match self.below(24) {
            0 => format!("START {}", [5, 15, 20, 4, 23, 0][self.below(6) as usize]),
            1 => "RESTART".into(),
            2 => "BEGIN".into(),
            3..=6 => format!("TURN {a},{b}"),
            7 => "BOARD".into(),
            8 => "YXBOARD".into(),
            9 => "SWAP2BOARD".into(),
            10..=12 => format!("{a},{b},{f}"),
            13 => format!("{a},{b}"),
            14 => "DONE".into(),
            15 => format!("TAKEBACK {a},{b}"),
            16 => format!("PLAY {a},{b}"),
            17 => format!(
                "INFO {} {}",
                [
                    "rule",
                    "timeout_turn",
                    "max_memory",
                    "hash_size",
                    "thread_num",
                    "zzz"
                ][self.below(6) as usize],
                [0, 1, 4, 9, 7, -5, 100][self.below(7) as usize]
            ),
            18 => "YXSHOWFORBID".into(),
            19 => format!("YXNBEST {}", self.below(4)),
            20 => "yxstop".into(),
            21 => "ABOUT".into(),
            22 => "RECTSTART 15,15".into(),
            _ => (0..self.below(12))
                .map(|_| (self.below(95) as u8 + 32) as char)
                .collect(),
        }
    }
}

/// Three games of 160 generated lines (the first three of
/// [`over_a_thousand_generated_lines`]).
#[test]
fn hundreds_of_generated_lines() {
    generated_lines(3);
}

#[test]
#[ignore = "long: eight games of 160 lines"]
fn over_a_thousand_generated_lines() {
    generated_lines(8);
}

/// `games` games of 160 generated lines, each game from `START 15`.
fn generated_lines(games: usize) {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    for game in 0..games {
        let mut s = Session::new(options());
        s.answer("START 15");
        for _ in 0..160 {
            let line = g.line();
            let before = s.engine().board().moves().to_vec();
            let (answers, flow) = s.answer(&line);
            for a in &answers {
                assert!(
                    wuzi::protocol::is_well_formed_answer(a),
                    "game {game}: '{line}' gave '{a}'"
                );
            }
            let refused = !answers.is_empty()
                && answers
                    .iter()
                    .all(|a| a.starts_with("ERROR") || a.starts_with("UNKNOWN"));
            let upper = line.to_ascii_uppercase();
            // TURN and DONE may be refused after the opponent's stones went down (a game
            // already over): only the other commands must leave the position alone.
            if refused && !upper.starts_with("TURN") && !upper.starts_with("DONE") {
                assert_eq!(s.engine().board().moves(), &before[..], "'{line}'");
            }
            assert_eq!(flow, Flow::Continue);
        }
    }
}

#[test]
fn end_quits() {
    let mut s = Session::new(options());
    assert_eq!(s.answer("end").1, Flow::Quit);
}

/// `TAKEBACK` with nothing to take back, or `-1,-1` when the last move was no pass, is an
/// error that leaves the game; an answer that quotes its input is one short printable line.
#[test]
fn takeback_of_nothing_and_long_or_binary_input() {
    let mut s = Session::new(options());
    assert_eq!(s.answer("START 15").0, ["OK"]);
    for bad in ["TAKEBACK -1,-1", "TAKEBACK 7,7"] {
        let (lines, _) = s.answer(bad);
        assert!(lines[0].starts_with("ERROR"), "{bad}: {lines:?}");
    }
    assert!(s.answer("TURN 7,7").0[0].contains(','));
    let (lines, _) = s.answer("TAKEBACK -1,-1");
    assert!(lines[0].starts_with("ERROR"), "{lines:?}");
    assert_eq!(s.engine().board().moves().len(), 2);
    // A megabyte of garbage with control bytes comes back cut and escaped.
    let long = format!("\u{1}\u{1b}[2J{}", "x".repeat(1 << 20));
    for line in [
        long.clone(),
        format!("TURN {long}"),
        format!("INFO timeout_turn {long}"),
    ] {
        let (lines, _) = s.answer(&line);
        assert_eq!(lines.len(), 1);
        let a = &lines[0];
        assert!(a.len() < 300, "{} bytes", a.len());
        assert!(!a.chars().any(|c| c.is_control()), "{a}");
        // INFO gets no answer a manager could take for another's: a bad value is a MESSAGE.
        assert!(
            a.starts_with("UNKNOWN") || a.starts_with("ERROR") || a.starts_with("MESSAGE"),
            "{a}"
        );
    }
    assert_eq!(s.engine().board().moves().len(), 2);
}
