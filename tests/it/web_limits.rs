//! The web board under misuse, through the HTTP API: searches nobody waits for are stopped
//! and the search slots bounded, bad requests get a status and a message while the game
//! goes on, idle games are let go and bodies and tables capped.

use super::web::{agent, done, quick, server, strings, Api};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};
use wuzi::web::{Options, Server};

#[test]
fn a_search_nobody_waits_for_is_stopped_and_slots_are_bounded() {
    let srv = server(1, 60.0);
    let api = Api::new(&srv);
    let g = api.create(json!({ "human": "both" }));
    let id = g["id"].as_str().unwrap().to_string();
    let other = api.create(json!({}))["id"].as_str().unwrap().to_string();
    // A long analysis holds the only slot; its reader goes away after the first event.
    let mut r = api
        .agent
        .post(format!("{}/api/games/{id}/analyse", api.base))
        .send_empty()
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let mut first = String::new();
    let mut reader = BufReader::new(r.body_mut().as_reader());
    reader.read_line(&mut first).unwrap();
    assert!(first.starts_with("event:"), "{first}");
    assert_eq!(api.get(&format!("/api/games/{id}")).1["thinking"], true);
    // The same game is busy; another game finds no slot.
    let (status, e) = api.post(&format!("/api/games/{id}/play"), json!({"move": "h8"}));
    assert_eq!(status, 409, "{e}");
    let (status, e) = api.post_empty(&format!("/api/games/{other}/think"));
    assert_eq!(status, 503, "{e}");
    assert!(e["error"].as_str().unwrap().contains("busy"), "{e}");
    // The refusal says when to try again.
    let busy = api
        .agent
        .post(format!("{}/api/games/{other}/think", api.base))
        .send_empty()
        .unwrap();
    assert_eq!(busy.status().as_u16(), 503);
    assert_eq!(busy.headers().get("retry-after").unwrap(), "1");
    drop(reader);
    drop(r);
    // The server notices at its next tick and stops the search.
    let left = Instant::now();
    while api.get(&format!("/api/games/{id}")).1["thinking"] == true {
        assert!(
            left.elapsed() < Duration::from_secs(5),
            "the search was not stopped"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("stopped {:?} after the reader left", left.elapsed());
    // The slot is free again, and the game is whole.
    let (status, s) = api.post(&format!("/api/games/{id}/play"), json!({"move": "h8"}));
    assert_eq!((status, s["position"].as_str()), (200, Some("h8")));
    // `stop` ends a move search at once, and its move is played.
    api.post(
        &format!("/api/games/{other}/settings"),
        json!({"strength": {"level": "full", "time": 60.0, "vary": 0}}),
    );
    api.post(&format!("/api/games/{other}/play"), json!({"move": "h8"}));
    let base = api.base.clone();
    let other2 = other.clone();
    let search = std::thread::spawn(move || {
        let api = Api {
            base,
            agent: agent(),
        };
        api.stream(&format!("/api/games/{other2}/think"))
    });
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    let (status, s) = api.post_empty(&format!("/api/games/{other}/stop"));
    assert_eq!(status, 200, "{s}");
    assert!(asked.elapsed() < Duration::from_secs(2));
    let (_, events) = search.join().unwrap();
    let d = done(&events);
    assert_eq!(
        (d["played"].as_bool(), d["stopped"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
}

#[test]
fn bad_requests_get_a_status_and_a_message_and_keep_the_game() {
    let srv = server(2, 1.0);
    let api = Api::new(&srv);
    // Black to move; j8 makes two open threes (i8 h8 and j7 j6).
    let g = api.create(json!({ "rule": "renju", "human": "both", "moves": "h8a1i8a3j7a5j6a15" }));
    let id = g["id"].as_str().unwrap();
    assert!(strings(&g["forbidden"]).contains(&"j8".to_string()), "{g}");
    let before = api.get(&format!("/api/games/{id}")).1;
    let path = format!("/api/games/{id}/play");
    let cases: Vec<(u16, (u16, Value))> = vec![
        (400, api.post_raw(&path, "application/json", "{\"move\": ")),
        (422, api.post(&path, json!({"point": "h9"}))),
        (422, api.post(&path, json!({"move": 7}))),
        (415, api.post_raw(&path, "text/plain", "{\"move\": \"h9\"}")),
        (400, api.post(&path, json!({"move": "p1"}))),
        (400, api.post(&path, json!({"move": "40,2"}))),
        (400, api.post(&path, json!({"move": "zz"}))),
        (422, api.post(&path, json!({"move": "h8"}))),
        (422, api.post(&path, json!({"move": "j8"}))),
        (413, api.post(&path, json!({"move": "h".repeat(200_000)}))),
        (413, api.post(&path, json!({"move": "h".repeat(70_000)}))),
        (
            404,
            api.post("/api/games/nosuchgame/play", json!({"move": "h9"})),
        ),
        (404, api.get("/api/games/nosuchgame")),
        (404, api.get("/no/such/page")),
        (405, api.get("/api/games")),
        (
            400,
            api.post(
                &format!("/api/games/{id}/position"),
                json!({"moves": "h8h9é"}),
            ),
        ),
        (
            422,
            api.post(
                &format!("/api/games/{id}/position"),
                json!({"moves": "h8h8"}),
            ),
        ),
        (
            400,
            api.post(&format!("/api/games/{id}/undo?count=-1"), json!({})),
        ),
        (
            400,
            api.post(
                &format!("/api/games/{id}/settings"),
                json!({"strength": {"level": "hard", "time": 1, "vary": 0}}),
            ),
        ),
        (
            400,
            api.post(
                &format!("/api/games/{id}/settings"),
                json!({"human": "green"}),
            ),
        ),
        (400, api.get(&format!("/api/games/{id}/record?format=pdf"))),
        (
            400,
            api.post_empty(&format!("/api/games/{id}/think?job=dance")),
        ),
        (400, api.post("/api/games", json!({"size": 40}))),
        (400, api.post("/api/games", json!({"rule": "chess"}))),
        (400, api.post("/api/games", json!({"moves": "h8h9z"}))),
        (422, api.post("/api/games", json!({"colour": "black"}))),
    ];
    for (want, (status, body)) in cases {
        assert_eq!(status, want, "{body}");
        let message = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no message: {body}"));
        assert!(!message.is_empty());
    }
    let (status, e) = api.post(&path, json!({"move": "j8"}));
    assert!(
        e["error"].as_str().unwrap().contains("forbidden"),
        "{status} {e}"
    );
    assert_eq!(api.get(&format!("/api/games/{id}")).1, before);
    // The game plays on.
    let (status, s) = api.post(&path, json!({"move": "k8"}));
    assert_eq!((status, s["moves"].as_array().unwrap().len()), (200, 9));
    // Deleted games are unknown.
    let deleted = api
        .agent
        .delete(format!("{}/api/games/{id}", api.base))
        .call()
        .unwrap();
    assert_eq!(deleted.status().as_u16(), 204);
    assert_eq!(api.get(&format!("/api/games/{id}")).0, 404);
}

#[test]
fn idle_games_are_let_go_and_bodies_and_tables_are_capped() {
    let options = Options {
        host: "127.0.0.1".into(),
        port: 0,
        max_searches: 1,
        max_games: 4,
        idle: Duration::from_millis(300),
        max_body: 1024,
        max_tables: 1,
        ..Options::default()
    };
    let srv = Server::start(&options).expect("a free port");
    let api = Api::new(&srv);
    let kept = api.create(json!({ "strength": quick() }))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let left = api.create(json!({ "strength": quick() }))["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Searches on both games: one table is kept between searches, the other game's freed
    // (its next search starts a fresh one); both still play.
    for id in [&kept, &left, &kept] {
        let (status, events) = api.stream(&format!("/api/games/{id}/think?job=hint"));
        assert_eq!(status, 200);
        assert!(done(&events)["best"].is_string());
    }
    // A body over the limit is refused with the limit in the message.
    let big = format!("{{\"move\": \"{}\"}}", "h".repeat(2000));
    let (status, e) = api.post_raw(&format!("/api/games/{kept}/play"), "application/json", &big);
    assert_eq!(status, 413, "{e}");
    assert!(e["error"].as_str().unwrap().contains("at most 1 KB"), "{e}");
    // A game in use stays; one left alone past the idle time is let go, even with no new
    // game made (the server looks every 100 ms at this idle time).
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(900) {
        assert_eq!(api.get(&format!("/api/games/{kept}")).0, 200);
        std::thread::sleep(Duration::from_millis(100));
    }
    let (status, e) = api.get(&format!("/api/games/{left}"));
    assert_eq!(status, 404, "{e}");
}
