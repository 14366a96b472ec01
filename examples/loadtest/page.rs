//! One simulated page of the load test: a browser's game against the server, its actions
//! drawn from a seed, every answer checked against the one it must get.

use super::{agent, Tally};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The strings of a JSON array (none where it is not an array; its other elements
/// skipped): a state's moves or forbidden points, checked by the caller.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// SplitMix64: the pages' draws.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// An answer: status, `Retry-After` if any, and the body as JSON (a string if not JSON).
struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

/// One simulated page.
pub(crate) struct Page {
    index: usize,
    base: String,
    rng: Rng,
    tally: Arc<Tally>,
    agent: ureq::Agent,
    id: String,
    size: usize,
    rule: &'static str,
    /// The moves as the page sent them (h8), black first.
    moves: Vec<String>,
    /// Black's forbidden points as the server last said.
    forbidden: Vec<String>,
    over: bool,
    nodes: u64,
    stop_within: Duration,
    deadline: Instant,
}

/// What a page may do next.
#[derive(Copy, Clone, Debug)]
enum Action {
    Play,
    EngineMove,
    Hint,
    Analyse,
    DropSearch,
    Undo,
    Bad,
}

impl Page {
    /// Page `index` of the server at `base` (`http://127.0.0.1:PORT`), its draws from
    /// `seed`, searches of `nodes` nodes that must stop within `stop_within` once dropped,
    /// and nothing started after `deadline`.
    pub(crate) fn new(
        index: usize,
        base: String,
        seed: u64,
        tally: Arc<Tally>,
        nodes: u64,
        stop_within: Duration,
        deadline: Instant,
    ) -> Page {
        Page {
            index,
            base,
            rng: Rng(seed),
            tally,
            agent: agent(),
            id: String::new(),
            size: 15,
            rule: "freestyle",
            moves: Vec::new(),
            forbidden: Vec::new(),
            over: false,
            nodes,
            stop_within,
            deadline,
        }
    }

    pub(crate) fn run(mut self, actions: usize) {
        if !self.new_game() {
            return;
        }
        for _ in 0..actions {
            if Instant::now() > self.deadline {
                break;
            }
            if self.over {
                self.delete();
                if !self.new_game() {
                    return;
                }
            }
            let action = match self.rng.below(20) {
                0..=6 => Action::Play,
                7..=9 => Action::EngineMove,
                10 => Action::Hint,
                11 => Action::Analyse,
                12..=13 => Action::DropSearch,
                14 => Action::Undo,
                _ => Action::Bad,
            };
            self.act(action);
        }
        self.check_moves("at the end");
        // Most pages are closed with their game deleted; the others' games are let go idle.
        if self.rng.below(5) != 0 {
            self.delete();
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn answer(
        &self,
        what: &str,
        r: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Answer {
        self.tally.requests.fetch_add(1, Ordering::Relaxed);
        let mut r = match r {
            Ok(r) => r,
            Err(e) => {
                self.tally
                    .fail(self.index, format!("{what}: no answer ({e})"));
                self.tally.count(what, 0);
                return Answer {
                    status: 0,
                    retry_after: None,
                    body: Value::Null,
                };
            }
        };
        let status = r.status().as_u16();
        self.tally.count(what, status);
        let retry_after = r
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let text = r.body_mut().read_to_string().unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            retry_after,
            body,
        }
    }

    /// Checks a refusal: `want` and a sentence; a 503 also needs `Retry-After`.
    fn refused(&self, what: &str, a: &Answer, want: u16) {
        let reason = a.body.get("error").and_then(Value::as_str).unwrap_or("");
        if a.status != want {
            self.tally.fail(
                self.index,
                format!("{what}: {} where {want} was due ({})", a.status, a.body),
            );
        } else if reason.is_empty() {
            self.tally
                .fail(self.index, format!("{what}: {want} without a reason"));
        }
    }

    /// A 503 for a full server: it must carry `Retry-After` and a reason. Returns whether
    /// the answer was one.
    fn busy(&self, what: &str, a: &Answer) -> bool {
        if a.status != 503 {
            return false;
        }
        self.tally.busy.fetch_add(1, Ordering::Relaxed);
        if a.retry_after.is_none() {
            self.tally
                .fail(self.index, format!("{what}: 503 without Retry-After"));
        }
        self.refused(what, a, 503);
        true
    }

    /// Takes in a state: the server's moves must be the page's.
    fn take(&mut self, what: &str, state: &Value) {
        let moves = strings(&state["moves"]);
        if moves != self.moves {
            self.tally.fail(
                self.index,
                format!(
                    "{what}: the server's moves {:?} differ from the page's {:?}",
                    moves, self.moves
                ),
            );
            self.moves = moves;
        }
        self.forbidden = strings(&state["forbidden"]);
        self.over = state["status"].as_str() != Some("ongoing");
    }

    fn check_moves(&mut self, what: &str) {
        let a = self.answer(
            "show",
            self.agent
                .get(self.url(&format!("/api/games/{}", self.id)))
                .call(),
        );
        if a.status == 200 {
            self.take(what, &a.body);
        } else {
            self.tally.fail(
                self.index,
                format!("{what}: the game answered {}", a.status),
            );
        }
    }

    fn strength(&self) -> Value {
        json!({ "level": "depth", "depth": 4, "time": 5.0, "vary": 30, "nodes": self.nodes })
    }

    fn new_game(&mut self) -> bool {
        let rules = ["freestyle", "standard", "renju", "caro"];
        let sizes = [15, 15, 15, 19, 20, 9];
        self.rule = rules[self.rng.below(rules.len())];
        self.size = sizes[self.rng.below(sizes.len())];
        self.moves.clear();
        self.over = false;
        let body = json!({ "size": self.size, "rule": self.rule, "human": "both",
                           "strength": self.strength() });
        for _ in 0..20 {
            let a = self.answer(
                "create",
                self.agent.post(self.url("/api/games")).send_json(&body),
            );
            if a.status == 201 {
                self.id = a.body["id"].as_str().unwrap_or("").to_string();
                self.tally.games.fetch_add(1, Ordering::Relaxed);
                self.take("create", &a.body);
                return true;
            }
            if !self.busy("create", &a) {
                self.tally
                    .fail(self.index, format!("create: {} {}", a.status, a.body));
                return false;
            }
            self.wait_retry();
        }
        false
    }

    fn delete(&mut self) {
        let a = self.answer(
            "delete",
            self.agent
                .delete(self.url(&format!("/api/games/{}", self.id)))
                .call(),
        );
        if a.status != 204 {
            self.tally.fail(self.index, format!("delete: {}", a.status));
        }
    }

    /// Waits a little before trying a refused search again: less than `Retry-After`'s
    /// second, to keep the slots busy.
    fn wait_retry(&mut self) {
        std::thread::sleep(Duration::from_millis(50 + self.rng.below(250) as u64));
    }

    fn h8(&self, x: usize, y: usize) -> String {
        format!("{}{}", (b'a' + x as u8) as char, self.size - y)
    }

    /// An empty point near the centre (not forbidden for black).
    fn free_point(&mut self) -> Option<String> {
        let n = self.size;
        for _ in 0..200 {
            let r = (n / 3).max(2);
            let x = (n / 2 + self.rng.below(2 * r + 1))
                .saturating_sub(r)
                .min(n - 1);
            let y = (n / 2 + self.rng.below(2 * r + 1))
                .saturating_sub(r)
                .min(n - 1);
            let p = self.h8(x, y);
            if !self.moves.contains(&p) && !self.forbidden.contains(&p) {
                return Some(p);
            }
        }
        None
    }

    fn act(&mut self, action: Action) {
        let id = self.id.clone();
        match action {
            Action::Play => {
                let Some(p) = self.free_point() else {
                    self.over = true;
                    return;
                };
                let t = Instant::now();
                let a = self.answer(
                    "play",
                    self.agent
                        .post(self.url(&format!("/api/games/{id}/play")))
                        .send_json(json!({ "move": p })),
                );
                self.tally
                    .move_ms
                    .lock()
                    .unwrap()
                    .push(t.elapsed().as_secs_f64() * 1e3);
                if a.status == 200 {
                    self.moves.push(p);
                    self.take("play", &a.body);
                } else {
                    self.tally
                        .fail(self.index, format!("play {p}: {} {}", a.status, a.body));
                }
            }
            Action::EngineMove => self.search("think?job=move", "engine move", None),
            Action::Hint => self.search("think?job=hint", "hint", None),
            Action::Analyse => self.search("analyse?n=3", "analyse", Some(3)),
            Action::DropSearch => {
                let path = if self.rng.below(2) == 0 {
                    "analyse?n=2"
                } else {
                    "think?job=move"
                };
                self.search(path, "dropped search", Some(1));
            }
            Action::Undo => {
                let a = self.answer(
                    "undo",
                    self.agent
                        .post(self.url(&format!("/api/games/{id}/undo")))
                        .send_empty(),
                );
                if self.moves.is_empty() {
                    self.refused("undo with no moves", &a, 409);
                } else if a.status == 200 {
                    self.moves.pop();
                    self.take("undo", &a.body);
                } else {
                    self.tally
                        .fail(self.index, format!("undo: {} {}", a.status, a.body));
                }
            }
            Action::Bad => self.bad(),
        }
    }

    /// A search: read to `done`, or (`drop_after` events) drop the stream and check that
    /// the game stops thinking. An engine move read to the end is the page's move.
    fn search(&mut self, path: &str, what: &str, drop_after: Option<usize>) {
        let id = self.id.clone();
        for _ in 0..10 {
            let t = Instant::now();
            let r = self
                .agent
                .post(self.url(&format!("/api/games/{id}/{path}")))
                .send_empty();
            self.tally.requests.fetch_add(1, Ordering::Relaxed);
            let mut r = match r {
                Ok(r) => r,
                Err(e) => {
                    self.tally
                        .fail(self.index, format!("{what}: no answer ({e})"));
                    return;
                }
            };
            let status = r.status().as_u16();
            self.tally.count(what, status);
            if status != 200 {
                let retry_after = r
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                let text = r.body_mut().read_to_string().unwrap_or_default();
                let a = Answer {
                    status,
                    retry_after,
                    body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
                };
                if self.busy(what, &a) {
                    self.wait_retry();
                    continue;
                }
                self.tally
                    .fail(self.index, format!("{what}: {status} {}", a.body));
                return;
            }
            let mut reader = BufReader::new(r.body_mut().as_reader());
            let mut name = String::new();
            let mut events = 0;
            let mut done: Option<Value> = None;
            let mut line = String::new();
            loop {
                line.clear();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let l = line.trim_end();
                if let Some(n) = l.strip_prefix("event: ") {
                    name = n.to_string();
                } else if let Some(d) = l.strip_prefix("data: ") {
                    events += 1;
                    if events == 1 {
                        self.tally
                            .first_event_ms
                            .lock()
                            .unwrap()
                            .push(t.elapsed().as_secs_f64() * 1e3);
                    }
                    if name == "done" {
                        done = serde_json::from_str(d).ok();
                        break;
                    }
                    if name == "error" {
                        self.tally
                            .fail(self.index, format!("{what}: error event {d}"));
                        break;
                    }
                    if drop_after.is_some_and(|n| events >= n) {
                        break;
                    }
                }
            }
            if drop_after.is_some() && done.is_none() {
                // The connection goes with the reader, as a closed tab's does.
                drop(reader);
                drop(r);
                self.tally.dropped.fetch_add(1, Ordering::Relaxed);
                self.wait_stopped(what);
                return;
            }
            match done {
                Some(d) => {
                    if d["played"].as_bool() == Some(true) {
                        if let Some(m) = d["best"].as_str() {
                            self.moves.push(m.to_string());
                        }
                    }
                    self.take(what, &d["state"]);
                }
                None => self
                    .tally
                    .fail(self.index, format!("{what}: the stream ended without done")),
            }
            return;
        }
    }

    /// After a dropped search: the game must stop thinking within `stop_within`. A move
    /// search that ended before its reader left may have played its move: the page takes
    /// it as the browser would on reload.
    fn wait_stopped(&mut self, what: &str) {
        let t = Instant::now();
        let mut late = false;
        loop {
            let a = self.answer(
                "show",
                self.agent
                    .get(self.url(&format!("/api/games/{}", self.id)))
                    .call(),
            );
            if a.status != 200 {
                self.tally.fail(
                    self.index,
                    format!("{what}: the game answered {}", a.status),
                );
                return;
            }
            if a.body["thinking"].as_bool() != Some(true) {
                if late {
                    self.tally.fail(
                        self.index,
                        format!(
                            "{what}: stopped {} ms after its reader left",
                            t.elapsed().as_millis()
                        ),
                    );
                }
                self.tally
                    .stop_ms
                    .lock()
                    .unwrap()
                    .push(t.elapsed().as_secs_f64() * 1e3);
                let server: Vec<&str> = a.body["moves"]
                    .as_array()
                    .map(|m| m.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if server.len() == self.moves.len() + 1
                    && server[..self.moves.len()] == self.moves[..]
                {
                    self.moves.push(server[self.moves.len()].to_string());
                }
                self.take(what, &a.body);
                return;
            }
            if t.elapsed() > self.stop_within && !late {
                late = true;
                self.tally.fail(
                    self.index,
                    format!(
                        "{what}: still thinking {} ms after its reader left",
                        t.elapsed().as_millis()
                    ),
                );
            }
            if late && t.elapsed() > self.stop_within * 30 {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// A bad request drawn from a list, each with the status it must get; the game is
    /// unchanged after it.
    fn bad(&mut self) {
        let id = self.id.clone();
        let play = self.url(&format!("/api/games/{id}/play"));
        let (what, a, want) = match self.rng.below(11) {
            0 => (
                "bad move string",
                self.answer(
                    "bad",
                    self.agent.post(&play).send_json(json!({"move": "zz99"})),
                ),
                400,
            ),
            1 => (
                "unknown field",
                self.answer(
                    "bad",
                    self.agent.post(&play).send_json(json!({"mvoe": "h8"})),
                ),
                422,
            ),
            2 => (
                "broken JSON",
                self.answer(
                    "bad",
                    self.agent
                        .post(&play)
                        .header("Content-Type", "application/json")
                        .send("{\"move\": "),
                ),
                400,
            ),
            3 => (
                "not JSON",
                self.answer(
                    "bad",
                    self.agent
                        .post(&play)
                        .header("Content-Type", "text/plain")
                        .send("h8"),
                ),
                415,
            ),
            4 => (
                "no such game",
                self.answer(
                    "bad",
                    self.agent.get(self.url("/api/games/000000000000")).call(),
                ),
                404,
            ),
            5 => (
                "wrong method",
                self.answer("bad", self.agent.delete(&play).call()),
                405,
            ),
            6 => (
                "bad count",
                self.answer(
                    "bad",
                    self.agent
                        .post(self.url(&format!("/api/games/{id}/undo?count=x")))
                        .send_empty(),
                ),
                400,
            ),
            7 => (
                "too many n",
                self.answer(
                    "bad",
                    self.agent
                        .post(self.url(&format!("/api/games/{id}/analyse?n=99")))
                        .send_empty(),
                ),
                400,
            ),
            8 => {
                let big = format!("{{\"move\": \"{}\"}}", "h".repeat(70 * 1024));
                (
                    "body too large",
                    self.answer(
                        "bad",
                        self.agent
                            .post(&play)
                            .header("Content-Type", "application/json")
                            .send(big.as_bytes()),
                    ),
                    413,
                )
            }
            9 => (
                "board too large",
                self.answer(
                    "bad",
                    self.agent
                        .post(self.url("/api/games"))
                        .send_json(json!({"size": 99})),
                ),
                400,
            ),
            _ => match self.moves.first().cloned() {
                Some(p) if !self.over => (
                    "occupied point",
                    self.answer("bad", self.agent.post(&play).send_json(json!({"move": p}))),
                    422,
                ),
                _ => (
                    "off the board",
                    self.answer(
                        "bad",
                        self.agent.post(&play).send_json(json!({"move": "26,3"})),
                    ),
                    400,
                ),
            },
        };
        self.refused(what, &a, want);
        self.check_moves(what);
    }
}
