"""The match reader (`cluster/match_sgf.py`) on games written as c-gomoku-cli writes them:
the result read from the board under each rule, games with no engine move left out with
their pair, losses on time kept, and the time a move read from the comments."""

from __future__ import annotations

import json

import match_sgf

HEAD = "(;FF[4]GM[4]GN[{n}]EV[x]DT[2026.12.04 19:00:00]RO[1.{r}]RU[{rule}]SZ[15]PB[{b}]PW[{w}]RE[{re}]TE[{te}]\n"
OPENING = ";B[hh]C[opening move];W[ih]C[opening move];B[hi]C[opening move]\n"


def game(n: int, rule: int, black: str, white: str, re: str, te: str, moves: list[str]) -> str:
    """A game after the three opening stones; `moves` alternate from white."""
    out = HEAD.format(n=n, r=n + 1, rule=rule, b=black, w=white, re=re, te=te) + OPENING
    colours = "WB"
    for i, m in enumerate(moves):
        out += f";{colours[i % 2]}[{m}]C[{100 * (i + 1)}ms]"
    return out + ")\n\n"


# Black (hh, hi already) fills column h downwards: hj, hk, hl make five at h8..h12.
BLACK_FIVE = ["aa", "hj", "ab", "hk", "ac", "hl"]
# Black stones at hg, hk and hl first; hj then joins hg..hl, an overline at once.
BLACK_SIX = ["aa", "hg", "ab", "hk", "ac", "hl", "ad", "hj"]
# White makes five along row a after black's overline: aa..ae.
BLACK_SIX_THEN_WHITE = BLACK_SIX + ["ae"]


def test_board_decides_by_rule() -> None:
    sgf = (
        game(0, 0, "wuzi", "rapfi", "B+1", "five", BLACK_FIVE)
        + game(1, 0, "rapfi", "wuzi", "B+1", "five", BLACK_SIX)
        + game(2, 4, "wuzi", "rapfi", "W+1", "five", BLACK_SIX_THEN_WHITE)
    )
    games = match_sgf.parse(sgf)
    assert [match_sgf.outcome(g)[0] for g in games] == ["B", "B", "W"]
    # Freestyle: the overline wins for black; renju: it does not, white's five does.
    assert match_sgf.outcome(games[1]) == ("B", "board")
    assert match_sgf.board_winner(games[2]) == "W"


def test_standard_overline_is_no_five() -> None:
    g = match_sgf.parse(game(0, 1, "wuzi", "rapfi", "B+1", "five", BLACK_SIX))[0]
    assert match_sgf.board_winner(g) is None


def test_left_out_and_pairs() -> None:
    sgf = (
        # Opening one: both games played; wuzi wins as black, loses as white.
        game(0, 0, "wuzi", "rapfi", "B+1", "five", BLACK_FIVE)
        + game(1, 0, "rapfi", "wuzi", "B+1", "five", BLACK_FIVE)
        # Opening two (another third stone): no engine moved in the first game.
        + game(2, 0, "wuzi", "rapfi", "W+1", "crash", []).replace("B[hi]", "B[gi]")
        + game(3, 0, "rapfi", "wuzi", "W+1", "time forfeit", ["aa"]).replace("B[hi]", "B[gi]")
    )
    r = match_sgf.tally(match_sgf.parse(sgf), "wuzi", clock_s=10)
    assert (r["wins"], r["losses"], r["draws"], r["left_out"]) == (2, 1, 0, 1)
    # The loss on time is black's (rapfi's): c-gomoku-cli's verdict, W+1, kept.
    assert r["time_losses"] == {"wuzi": 0, "opponent": 1}
    assert r["as_black"] == {"W": 1, "L": 0, "D": 0}
    assert r["as_white"] == {"W": 1, "L": 1, "D": 0}
    # Only the first opening's pair is whole.
    assert r["pairs"] == 1 and r["pair_score"] == 0.5
    # wuzi's moves as black in game 0: 200, 400, 600 ms (white moves first after the opening).
    assert r["time"]["wuzi"]["max_ms_a_game"] == 1200
    assert "wuzi: " in match_sgf.text(r)


def test_files_together_and_the_sequential_test(tmp_path, capsys) -> None:
    # Two parts of a renju match, one opening each: wuzi wins both games of the first
    # and splits the second; tallied together, two whole pairs.
    part1 = game(0, 4, "wuzi", "rapfi", "B+1", "five", BLACK_FIVE) + game(
        1, 4, "rapfi", "wuzi", "W+1", "five", BLACK_SIX_THEN_WHITE)
    part2 = (game(0, 4, "wuzi", "rapfi", "B+1", "five", BLACK_FIVE)
             + game(1, 4, "rapfi", "wuzi", "B+1", "five", BLACK_FIVE)).replace("B[hi]", "B[gi]")
    files = []
    for i, text in enumerate((part1, part2)):
        f = tmp_path / f"part{i}.sgf"
        f.write_text(text)
        files.append(str(f))
    assert match_sgf.main([*files, "--engine", "wuzi", "--sprt", "0,10", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["pairs"] == 2 and r["penta"] == [0, 0, 1, 0, 1]
    assert r["sprt"]["decision"] is None and r["sprt"]["llr"] > 0
    assert match_sgf.main([files[0], "--engine", "wuzi", "--sprt", "ten"]) == 2
    assert match_sgf.main([str(tmp_path / "missing.sgf"), "--engine", "wuzi"]) == 2
