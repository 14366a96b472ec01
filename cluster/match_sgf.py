#!/usr/bin/env python3
"""The result of a c-gomoku-cli match, read from its SGF (`-sgf FILE`), from the board.

  match_sgf.py GAMES.sgf [MORE.sgf ...] --engine wuzi [--clock SECONDS]
      [--sprt ELO0,ELO1] [--json]

c-gomoku-cli's own score credits a game in which an engine never answered START to
whoever was to move, and its RE tag is its judgement. This reads every game again: a
game is won by whoever made five on the board under the game's rule (RU: 0 freestyle,
five or more; 1 standard, exactly five; 4 renju, exactly five for black, five or more
for white); a game without five that ended in a loss on time, a crash, an illegal or a
forbidden move keeps c-gomoku-cli's verdict, counted apart; a game in which neither
engine moved is left out, with its opening's other game, and counted.

It prints the engine's W-L-D, as each colour, the score with its Elo (trinomial, 95%),
the pentanomial Elo over whole pairs (an opening's two games, one with each colour), the
terminations, and how each engine spent its time: each move's time is the comment
c-gomoku-cli writes after it (`C[123ms]`); with --clock (the game clock in seconds, the
MATCH of `tc=MATCH/TURN`) also the share of it spent a game. Several files (a match
played in parts, on other openings) are tallied as one. With --sprt, the sequential test
over the pairs (alpha = beta = 0.05): its log-likelihood ratio, bounds and decision.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from wuzicluster import stats  # noqa: E402

# c-gomoku-cli's rule codes (its `-rule`), as RU[...] in its SGF.
FREESTYLE, STANDARD, RENJU = 0, 1, 4

# The move-number buckets (each side's own moves, 1-based, inclusive) of the time table.
BUCKETS = [(1, 5), (6, 10), (11, 15), (16, 20), (21, 30), (31, 40), (41, 60), (61, 1000)]

DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


@dataclass
class Game:
    """One game of the file: its index, rule, size, players, c-gomoku-cli's result and
    termination, the opening stones and the engines' moves (colour, x, y, milliseconds)."""

    index: int
    rule: int
    size: int
    black: str
    white: str
    result: str
    termination: str
    opening: list[tuple[str, int, int]] = field(default_factory=list)
    moves: list[tuple[str, int, int, int]] = field(default_factory=list)

    def opening_key(self) -> str:
        return "".join(f"{c}{x},{y};" for c, x, y in self.opening)


PROP = re.compile(r"([A-Z]{1,2})\[([^\]]*)\]")


def parse(text: str) -> list[Game]:
    """Every game of a c-gomoku-cli SGF file, in order. Raises ValueError on a game whose
    header lacks a field this needs."""
    games = []
    for chunk in re.findall(r"\(;(.*?)\)", text, flags=re.S):
        nodes = chunk.split(";")
        head = dict(PROP.findall(nodes[0]))
        try:
            g = Game(
                index=int(head["GN"]),
                rule=int(head["RU"]),
                size=int(head["SZ"]),
                black=head["PB"],
                white=head["PW"],
                result=head.get("RE", ""),
                termination=head.get("TE", ""),
            )
        except KeyError as e:
            raise ValueError(f"a game without {e.args[0]}: {nodes[0][:80]!r}") from None
        for node in nodes[1:]:
            props = PROP.findall(node)
            stone = next(((k, v) for k, v in props if k in ("B", "W")), None)
            if stone is None or len(stone[1]) != 2:
                continue
            colour, xy = stone
            x, y = ord(xy[0]) - ord("a"), ord(xy[1]) - ord("a")
            comment = next((v for k, v in props if k == "C"), "")
            if comment == "opening move":
                g.opening.append((colour, x, y))
            else:
                m = re.fullmatch(r"(-?\d+)ms", comment.strip())
                g.moves.append((colour, x, y, int(m.group(1)) if m else 0))
        games.append(g)
    return games


def run_length(board: dict, x: int, y: int, colour: str, dx: int, dy: int, size: int) -> int:
    """The length of `colour`'s run through (x, y) along (dx, dy)."""
    n = 1
    for sign in (1, -1):
        cx, cy = x + sign * dx, y + sign * dy
        while 0 <= cx < size and 0 <= cy < size and board.get((cx, cy)) == colour:
            n += 1
            cx, cy = cx + sign * dx, cy + sign * dy
    return n


def makes_five(rule: int, colour: str, length: int) -> bool:
    """Does a run of `length` win for `colour` under `rule`?"""
    if rule == FREESTYLE or (rule == RENJU and colour == "W"):
        return length >= 5
    return length == 5


def board_winner(g: Game) -> str | None:
    """The colour ("B" or "W") that made five first on the board, or None."""
    board: dict = {}
    for colour, x, y in g.opening:
        board[(x, y)] = colour
    for colour, x, y, _ in g.moves:
        board[(x, y)] = colour
        if any(makes_five(g.rule, colour, run_length(board, x, y, colour, dx, dy, g.size))
               for dx, dy in DIRECTIONS):
            return colour
    return None


def outcome(g: Game) -> tuple[str, str]:
    """The game's result for black ("B", "W" or "D" for a draw; "-" when no engine moved)
    and how it was decided ("board", "draw", or c-gomoku-cli's termination)."""
    if not g.moves:
        return "-", "no move"
    w = board_winner(g)
    if w:
        return w, "board"
    if g.result.startswith("B+"):
        return "B", g.termination or "result"
    if g.result.startswith("W+"):
        return "W", g.termination or "result"
    return "D", "draw"


def tally(games: list[Game], engine: str, clock_s: float | None = None) -> dict:
    """Everything the report prints, as a dict (see the module's doc)."""
    by_opening: dict[str, list[Game]] = {}
    for g in games:
        by_opening.setdefault(g.opening_key(), []).append(g)
    counted = {"W": 0, "L": 0, "D": 0}
    colour_stats = {"B": {"W": 0, "L": 0, "D": 0}, "W": {"W": 0, "L": 0, "D": 0}}
    terminations: dict[str, int] = {}
    left_out = 0
    time_losses = {engine: 0, "opponent": 0}
    pairs: list[float] = []
    spent: dict[str, list[int]] = {}
    per_bucket: dict[str, list[list[int]]] = {}
    for g in games:
        if engine not in (g.black, g.white):
            continue
        ours = "B" if g.black == engine else "W"
        res, how = outcome(g)
        if res == "-":
            left_out += 1
            continue
        terminations[how] = terminations.get(how, 0) + 1
        key = "D" if res == "D" else ("W" if res == ours else "L")
        counted[key] += 1
        colour_stats[ours][key] += 1
        if "time" in how.lower():
            loser = ours if key == "L" else ("W" if ours == "B" else "B")
            time_losses[engine if loser == ours else "opponent"] += 1
        for colour, name in (("B", g.black), ("W", g.white)):
            times = [t for c, _, _, t in g.moves if c == colour]
            who = engine if name == engine else "opponent"
            spent.setdefault(who, []).append(sum(times))
            rows = per_bucket.setdefault(who, [[] for _ in BUCKETS])
            for i, t in enumerate(times, start=1):
                for b, (lo, hi) in enumerate(BUCKETS):
                    if lo <= i <= hi:
                        rows[b].append(t)
    for group in by_opening.values():
        ours = [g for g in group if engine in (g.black, g.white)]
        if len(ours) != 2:
            continue
        score = 0.0
        whole = True
        for g in ours:
            res, _ = outcome(g)
            if res == "-":
                whole = False
                break
            side = "B" if g.black == engine else "W"
            score += 0.5 if res == "D" else (1.0 if res == side else 0.0)
        if whole:
            pairs.append(score)
    w, l, d = counted["W"], counted["L"], counted["D"]
    n = w + l + d
    report = {
        "engine": engine,
        "games": len(games),
        "counted": n,
        "left_out": left_out,
        "wins": w,
        "losses": l,
        "draws": d,
        "score": (w + 0.5 * d) / n if n else 0.0,
        "elo_trinomial": stats.trinomial_interval(w, l, d),
        "as_black": colour_stats["B"],
        "as_white": colour_stats["W"],
        "pairs": len(pairs),
        "pair_counts": {str(k): pairs.count(k) for k in (0.0, 0.5, 1.0, 1.5, 2.0)},
        "penta": stats.penta_of(pairs),
        "pair_score": sum(pairs) / (2 * len(pairs)) if pairs else 0.0,
        "elo_pentanomial": stats.elo_interval(stats.penta_of(pairs)),
        "terminations": terminations,
        "time_losses": time_losses,
        "time": {},
    }
    for who, totals in spent.items():
        entry = {
            "mean_ms_a_game": sum(totals) / len(totals),
            "max_ms_a_game": max(totals),
            "per_move_ms": {
                f"{lo}-{hi}" if hi < 1000 else f"{lo}+": (sum(r) / len(r) if r else None)
                for (lo, hi), r in zip(BUCKETS, per_bucket[who])
            },
        }
        if clock_s:
            entry["mean_share_of_clock"] = entry["mean_ms_a_game"] / (clock_s * 1000)
            entry["max_share_of_clock"] = entry["max_ms_a_game"] / (clock_s * 1000)
        report["time"][who] = entry
    return report


def text(r: dict) -> str:
    """The report as lines of text."""
    e = r["elo_trinomial"]
    p = r["elo_pentanomial"]
    b, w = r["as_black"], r["as_white"]
    lines = [
        f"{r['engine']}: {r['wins']}-{r['losses']}-{r['draws']} of {r['counted']} on the board "
        f"({100 * r['score']:.1f}%), Elo {e[0]:+.0f} [{e[1]:+.0f}, {e[2]:+.0f}] (trinomial); "
        f"{r['left_out']} of {r['games']} left out (no engine moved)",
        f"as black {b['W']}-{b['L']}-{b['D']}, as white {w['W']}-{w['L']}-{w['D']}",
        f"{r['pairs']} whole pairs, score {100 * r['pair_score']:.1f}%, Elo {p[0]:+.0f} "
        f"[{p[1]:+.0f}, {p[2]:+.0f}] (pentanomial; pairs scoring 0/0.5/1/1.5/2: "
        + "/".join(str(v) for v in r["pair_counts"].values()) + ")",
        "ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(r["terminations"].items())),
        f"lost on time: {r['engine']} {r['time_losses'][r['engine']]}, "
        f"opponent {r['time_losses']['opponent']}",
    ]
    if "sprt" in r:
        lines.append(stats.sprt_text(r["sprt"]))
    for who, t in r["time"].items():
        share = ""
        if "mean_share_of_clock" in t:
            share = (f" ({100 * t['mean_share_of_clock']:.0f}% of the clock; at most "
                     f"{100 * t['max_share_of_clock']:.0f}%)")
        lines.append(f"{who}: {t['mean_ms_a_game'] / 1000:.1f} s a game on average, at most "
                     f"{t['max_ms_a_game'] / 1000:.1f} s{share}")
        lines.append("  ms a move by its own move number: " + ", ".join(
            f"{k} {v:.0f}" for k, v in t["per_move_ms"].items() if v is not None))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sgf", nargs="+", help="the match's SGF files (c-gomoku-cli -sgf)")
    ap.add_argument("--engine", required=True, help="the engine's name in the match")
    ap.add_argument("--clock", type=float, help="the game clock in seconds (tc=MATCH/TURN)")
    ap.add_argument("--sprt", metavar="ELO0,ELO1",
                    help="the sequential test over the pairs, e.g. 20,50")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    a = ap.parse_args(argv)
    try:
        test = stats.parse_test(a.sprt) if a.sprt is not None else None
    except ValueError as e:
        print(f"match_sgf.py: {e}", file=sys.stderr)
        return 2
    games: list[Game] = []
    for path in a.sgf:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                games += parse(f.read())
        except (OSError, ValueError) as e:
            print(f"match_sgf.py: {path}: {e}", file=sys.stderr)
            return 2
    r = tally(games, a.engine, a.clock)
    if test is not None:
        r["sprt"] = stats.sprt_report(r["penta"], *test)
    print(json.dumps(r, indent=1) if a.json else text(r), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
