//! The web board's opening rules through the HTTP API: a game's opening stage chosen at
//! New game, the person's steps (`POST /opening`), the engine's steps (`/think`), wuzi on
//! either side, and bad steps answered 4xx with a reason while the game goes on.

use super::web::{done, quick, server, strings, Api};
use serde_json::{json, Value};
use wuzi::engine::opening::offers::symmetric_pair;
use wuzi::notation::{format_h8, parse_h8};
use wuzi::types::Pos;

fn h8(s: &str) -> Pos {
    parse_h8(s, 15).unwrap()
}

/// The engine's step: one `think`, which must take a step of the stage.
fn engine_step(api: &Api, id: &str) -> Value {
    let (status, events) = api.stream(&format!("/api/games/{id}/think"));
    assert_eq!(status, 200);
    let d = done(&events);
    assert_eq!(d["played"], true, "{d}");
    assert!(d["step"].as_str().unwrap().starts_with("wuzi "), "{d}");
    d["state"].clone()
}

fn step(api: &Api, id: &str, body: Value) -> (u16, Value) {
    api.post(&format!("/api/games/{id}/opening"), body)
}

/// The person's step at whatever the stage asks, chosen plainly: a stone as near the
/// centre as the square allows, 2 fifth moves declared, the colour held kept, fifth moves
/// none symmetric to another, the first offer picked.
fn my_step(api: &Api, g: &Value) -> Value {
    let id = g["id"].as_str().unwrap();
    let o = &g["opening"];
    let taken: Vec<Pos> = strings(&g["moves"]).iter().map(|m| h8(m)).collect();
    let free = |n: usize| -> Vec<Pos> {
        let mut cells: Vec<Pos> = (0..15)
            .flat_map(|y| (0..15).map(move |x| Pos::new(x, y)))
            .filter(|p| !taken.contains(p))
            .collect();
        cells.sort_by_key(|p| (p.dist(Pos::new(7, 7)), p.0));
        let mut list: Vec<Pos> = Vec::new();
        for p in cells {
            let with: Vec<Pos> = list.iter().copied().chain([p]).collect();
            if list.len() < n && symmetric_pair(15, &taken, &with).is_none() {
                list.push(p);
            }
        }
        list
    };
    let names = |ps: &[Pos]| -> Vec<String> { ps.iter().map(|&p| format_h8(p, 15)).collect() };
    let body = match o["asks"].as_str().unwrap() {
        "stone" => json!({ "action": "place", "points": names(&free(1)) }),
        "stone-and-declare" => json!({ "action": "place", "points": names(&free(1)), "count": 2 }),
        "colour" | "swap2-choice" => json!({ "action": "stay" }),
        "offer" | "fifth-or-offer" => {
            let n = o["count"].as_u64().unwrap() as usize;
            json!({ "action": "offer", "points": names(&free(n)) })
        }
        "pick" => json!({ "action": "pick", "points": [o["offers"][0]] }),
        other => panic!("asks {other}"),
    };
    let (status, state) = step(api, id, body.clone());
    assert_eq!(status, 200, "{body} -> {state}");
    state
}

/// Plays the stage through, the person's steps by [`my_step`], wuzi's by `think`; returns
/// the state once it is over and how many steps each took.
fn play_stage(api: &Api, mut g: Value) -> (Value, usize, usize) {
    let id = g["id"].as_str().unwrap().to_string();
    let (mut mine, mut wuzis) = (0, 0);
    while g["opening"]["over"] == false {
        if g["opening"]["yours"] == true {
            g = my_step(api, &g);
            mine += 1;
        } else {
            g = engine_step(api, &id);
            wuzis += 1;
        }
        assert!(mine + wuzis < 20, "the stage does not end: {g}");
    }
    (g, mine, wuzis)
}

#[test]
fn every_opening_rule_is_played_with_wuzi_on_either_side() {
    let srv = server(2, 1.0);
    let api = Api::new(&srv);
    let rules = [
        "swap",
        "swap2",
        "swap-after-first",
        "soosorv 8",
        "taraguchi 10",
        "yamaguchi",
    ];
    for (opening, human) in rules.iter().flat_map(|&r| [(r, "black"), (r, "white")]) {
        let g = api.create(json!({
            "opening": opening, "human": human, "strength": quick(),
        }));
        let o = &g["opening"];
        assert_eq!(o["over"], false, "{g}");
        let first = human == "black";
        assert_eq!(o["yours"], first, "{opening} {human}: {g}");
        assert_eq!(
            o["you"],
            if first {
                "first player"
            } else {
                "second player"
            }
        );
        let (g, mine, wuzis) = play_stage(&api, g);
        assert!(mine > 0 && wuzis > 0, "{opening} {human}: {mine} {wuzis}");
        let stones = g["moves"].as_array().unwrap().len();
        let ends: &[usize] = match opening {
            "swap" => &[3],
            "swap2" => &[3, 5],
            "swap-after-first" => &[1],
            _ => &[5],
        };
        assert!(ends.contains(&stones), "{opening}: {g}");
        let o = &g["opening"];
        assert_eq!(o["asks"], "nothing");
        assert!(o["steps"].as_array().unwrap().len() >= 2, "{o}");
        // The person plays the colour their seat ended with; the game goes on move by move.
        let you = g["human"].as_str().unwrap();
        assert!(you == "black" || you == "white");
        let id = g["id"].as_str().unwrap();
        if g["to_move"] == you {
            let (status, after) = api.post(&format!("/api/games/{id}/play"), json!({"move": "a1"}));
            assert_eq!(status, 200, "{after}");
        } else {
            let (status, events) = api.stream(&format!("/api/games/{id}/think"));
            assert_eq!(status, 200);
            assert_eq!(done(&events)["played"], true);
        }
        // The record keeps the stage: its stones as the opening, its steps as the comment.
        let (status, sgf) = api.get(&format!("/api/games/{id}/record?format=sgf"));
        assert_eq!(status, 200);
        let sgf = sgf.as_str().unwrap();
        assert!(sgf.contains(&format!("Opening rule {opening}")), "{sgf}");
    }
}

#[test]
fn bad_steps_get_4xx_with_a_reason_and_the_stage_goes_on() {
    let srv = server(2, 1.0);
    let api = Api::new(&srv);
    // The person plays both seats: every step is theirs.
    let g = api.create(json!({
        "opening": "soosorv 8", "human": "both", "strength": quick(),
    }));
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["opening"]["you"], Value::Null);
    let bad = |body: Value, want: u16, says: &str| {
        let before = api.get(&format!("/api/games/{id}")).1;
        let (status, answer) = step(&api, &id, body.clone());
        assert_eq!(status, want, "{body} -> {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(says), "{body} -> {error}");
        assert_eq!(
            api.get(&format!("/api/games/{id}")).1,
            before,
            "{body} changed the game"
        );
    };
    let good = |body: Value| {
        let (status, answer) = step(&api, &id, body.clone());
        assert_eq!(status, 200, "{body} -> {answer}");
        answer
    };
    bad(
        json!({"action": "place", "points": ["a1"]}),
        422,
        "a1 is not on the centre point",
    );
    bad(
        json!({"action": "swap"}),
        409,
        "not now: place the 1st stone (black) on the centre point",
    );
    bad(json!({"action": "jump"}), 400, "action wants place");
    bad(json!({"action": "place", "points": ["z99"]}), 400, "");
    good(json!({"action": "place", "points": ["h8"]}));
    good(json!({"action": "place", "points": ["h9"]}));
    bad(
        json!({"action": "place", "points": ["h12"]}),
        422,
        "h12 is not within the central 5x5 square",
    );
    good(json!({"action": "place", "points": ["h10"]}));
    // Moves, hints and undo wait for the stage's end.
    let (status, answer) = api.post(&format!("/api/games/{id}/play"), json!({"move": "a1"}));
    assert_eq!(status, 409, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("the opening stage is under way"));
    assert_eq!(
        api.stream(&format!("/api/games/{id}/think?job=hint")).0,
        409
    );
    assert_eq!(api.post_empty(&format!("/api/games/{id}/undo")).0, 409);
    good(json!({"action": "stay"}));
    bad(
        json!({"action": "place", "points": ["h4"], "count": 9}),
        422,
        "declare 1 to 8 fifth moves, not 9",
    );
    bad(
        json!({"action": "place", "points": ["h4"]}),
        409,
        "declare 1 to 8 fifth moves",
    );
    // Every stone on the h file: g7 and j7 mirror each other across it.
    let g = good(json!({"action": "place", "points": ["h4"], "count": 2}));
    assert_eq!(g["opening"]["declared"], 2);
    good(json!({"action": "stay"}));
    bad(
        json!({"action": "offer", "points": ["g7", "i7"]}),
        422,
        "g7 and i7 are symmetric",
    );
    bad(
        json!({"action": "offer", "points": ["g7"]}),
        422,
        "offer 2 fifth moves, not 1",
    );
    bad(
        json!({"action": "offer", "points": ["g7", "h8"]}),
        422,
        "h8 is already occupied",
    );
    let g = good(json!({"action": "offer", "points": ["g7", "i6"]}));
    assert_eq!(strings(&g["opening"]["offers"]), ["g7", "i6"]);
    assert_eq!(g["opening"]["asks"], "pick");
    bad(
        json!({"action": "pick", "points": ["j9"]}),
        422,
        "j9 is not one of the offered fifth moves",
    );
    let g = good(json!({"action": "pick", "points": ["i6"]}));
    assert_eq!(g["opening"]["over"], true);
    assert_eq!(strings(&g["moves"]), ["h8", "h9", "h10", "h4", "i6"]);
    bad(
        json!({"action": "stay"}),
        409,
        "no opening stage is under way",
    );
    // The game goes on; undo stops at the stage's stones.
    let (status, _) = api.post(&format!("/api/games/{id}/play"), json!({"move": "a1"}));
    assert_eq!(status, 200);
    assert_eq!(
        api.post_empty(&format!("/api/games/{id}/undo?count=3")).0,
        200
    );
    let (status, answer) = api.post_empty(&format!("/api/games/{id}/undo"));
    assert_eq!(status, 409, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("the opening stage's stones stay"));

    // A swap out of turn: after the person's canonical opening it is wuzi's choice.
    let g = api.create(json!({"opening": "soosorv", "human": "black", "strength": quick()}));
    let id = g["id"].as_str().unwrap().to_string();
    for p in ["h8", "i9", "j10"] {
        assert_eq!(
            step(&api, &id, json!({"action": "place", "points": [p]})).0,
            200
        );
    }
    let (status, answer) = step(&api, &id, json!({"action": "swap"}));
    assert_eq!(status, 409, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .starts_with("it is wuzi's turn to choose a colour"));
    engine_step(&api, &id);

    // Bad rules at New game.
    let (status, answer) = api.post("/api/games", json!({"opening": "swap3"}));
    assert_eq!(status, 400);
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("unknown opening rule 'swap3'"));
    let (status, answer) = api.post("/api/games", json!({"opening": "soosorv", "size": 16}));
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("odd size"),
        "{answer}"
    );
    let (status, _) = api.post("/api/games", json!({"opening": "swap2", "moves": "h8"}));
    assert_eq!(status, 400);
}
