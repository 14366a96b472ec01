#!/usr/bin/env python3
"""The web board in a real browser: `wuzi serve` on a free port, the page in headless
Chromium driven through WebDriver.

Python with Selenium rather than a Rust client crate: Debian ships Selenium
(python3-selenium) beside chromium and chromium-driver, so CI installs the three with one
apt-get and builds nothing more; a Rust WebDriver or DevTools crate would add an async
client stack (and its build time) to the test build for one test.

Plays a game to its end (the person's stones along the top edge, the engine's answers
until its five), checks the result banner and the highlighted five, undoes, runs the
analysis view until it lists moves, checks a 20x20 renju board with its forbidden points,
a pasted position and a link that reopens it, a game's review, whole games under swap2,
Soosorv-8, Taraguchi-10 and Yamaguchi with wuzi on either side (the opening stage through
its buttons and the board, then play to the engine's five), and saves screenshots under
target/web-screenshots/.

Usage: tests/browser/board.py [path/to/wuzi]   (default: target/release/wuzi)
"""

import os
import re
import subprocess
import sys
import time
from urllib.parse import quote

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = os.path.join(ROOT, "target", "web-screenshots")
DOWNLOADS = os.path.join(ROOT, "target", "web-downloads")


def start_server(wuzi):
    """`wuzi serve --port 0`; returns the process and the address it printed."""
    proc = subprocess.Popen(
        [wuzi, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = proc.stdout.readline()
    found = re.search(r"http://\S+/", line)
    if not found:
        proc.kill()
        sys.exit(f"wuzi serve printed no address: {line!r}")
    return proc, found.group(0)


def browser():
    options = webdriver.ChromeOptions()
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1280,1000", "--disable-gpu"]:
        options.add_argument(arg)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    driver_path = "/usr/bin/chromedriver"
    service = Service(driver_path) if os.path.exists(driver_path) else Service()
    return webdriver.Chrome(service=service, options=options)


class Page:
    def __init__(self, driver):
        self.d = driver
        self.wait = WebDriverWait(driver, 30, poll_frequency=0.05)

    def stones(self):
        return len(self.d.find_elements(By.CSS_SELECTOR, "circle.stone:not(.pv)"))

    def stone_at(self, point):
        return self.d.find_elements(By.CSS_SELECTOR, f'circle.stone[data-move="{point}"]:not(.pv)')

    def text(self, element_id):
        return self.d.find_element(By.ID, element_id).text

    def click_point(self, point):
        self.d.find_element(By.CSS_SELECTOR, f'rect.hit[data-move="{point}"]').click()

    def open(self, url, fragment):
        """Loads the page anew (a change of the fragment alone would not reload it)."""
        self.d.get("about:blank")
        self.d.get(f"{url}#{fragment}")

    def click(self, element_id):
        self.d.find_element(By.ID, element_id).click()

    def idle(self):
        """Waits until no search runs (the Stop button is disabled)."""
        self.wait.until(lambda d: not d.find_element(By.ID, "btn-stop").is_enabled())

    def shot(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        path = os.path.join(SHOTS, name)
        self.d.save_screenshot(path)
        print(f"screenshot {os.path.relpath(path, ROOT)}")


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def play_a_game(page, url):
    # The engine at depth 2, a fifth of a second a move, always its best move.
    page.open(url, "rule=freestyle&size=15&you=black&level=depth&depth=2&time=0.2&vary=0")
    page.wait.until(lambda d: page.text("turn").startswith("black to move"))
    check(page.stones() == 0, "the board starts empty")
    check(len(page.d.find_elements(By.CSS_SELECTOR, "rect.hit")) == 225, "225 points")
    # The person's stones go along the top edge, a point apart, so they never make a line;
    # the engine builds its five in the middle.
    mine = [f"{c}15" for c in "acegikmo"] + [f"{c}13" for c in "acegikmo"]
    played = 0
    for point in mine:
        if page.d.find_elements(By.ID, "result") and page.d.find_element(By.ID, "result").is_displayed():
            break
        if page.stone_at(point):
            continue
        before = page.stones()
        page.click_point(point)
        # The person's stone, then the engine's.
        page.wait.until(lambda d: page.stones() >= before + 1)
        page.wait.until(lambda d: page.stones() == before + 2 or page.d.find_element(By.ID, "result").is_displayed())
        page.idle()
        played += 1
    banner = page.d.find_element(By.ID, "result")
    check(banner.is_displayed(), f"the game ended within {played} moves")
    check("wins" in banner.text, f"banner: {banner.text!r}")
    five = page.d.find_elements(By.CSS_SELECTOR, "circle.win")
    check(len(five) == 5, f"five stones highlighted, not {len(five)}")
    check(page.text("turn") == "game over", "the turn line says the game is over")
    print(f"game over after {played} moves of the person's: {banner.text}")
    page.shot("game-over.png")

    # Undo: the engine's five and the person's last stone go, the banner too.
    stones = page.stones()
    page.click("btn-undo")
    page.wait.until(lambda d: page.stones() == stones - 2)
    check(not banner.is_displayed(), "no banner after undo")
    check(page.text("turn").startswith("black to move"), "the person's move again")
    # Redo puts them back.
    page.click("btn-redo")
    page.wait.until(lambda d: page.stones() == stones)
    page.wait.until(lambda d: banner.is_displayed())
    page.click("btn-undo")
    page.wait.until(lambda d: page.stones() == stones - 2)


def analyse(page):
    # An opening, pasted; then analysis mode: the engine keeps thinking and lists its best
    # moves.
    field = page.d.find_element(By.ID, "position")
    field.clear()
    field.send_keys("h8i9i8g8j9k10h10")
    page.click("btn-set")
    page.wait.until(lambda d: page.stones() == 7)
    page.d.find_element(By.ID, "analysis").click()
    page.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#nbest tbody tr")) >= 2)
    check(page.text("depth") != "-", "a depth is shown")
    times = set()
    end = time.time() + 1.2
    while time.time() < end:
        times.add(page.text("elapsed"))
        time.sleep(0.05)
    check(len(times) >= 3, f"the search time counts on while it thinks: {sorted(times)}")
    # The list and the board are redrawn together at each round: read both in one go.
    rows, marks, best = page.d.execute_script(
        "const rows = document.querySelectorAll('#nbest tbody tr');"
        "return [rows.length, document.querySelectorAll('circle.best').length,"
        " rows[0].textContent];")
    check(rows == marks, f"each listed move is marked on the board ({rows} rows, {marks} marks)")
    print(f"analysis lists {rows} moves; best {best!r}; eval {page.text('eval')}")
    page.shot("analysis.png")
    # A click in analysis mode plays for the side to move; the analysis goes on.
    stones = page.stones()
    point = next(p for p in ["a1", "b1", "c1", "d1"] if not page.stone_at(p))
    page.click_point(point)
    page.wait.until(lambda d: page.stones() == stones + 1)
    page.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#nbest tbody tr")) >= 1)
    page.d.find_element(By.ID, "analysis").click()
    page.idle()


def renju_and_positions(page, url):
    # A position from a link on 20x20 renju: black to move, and j13 makes two open threes
    # (h13 i13 and j12 j11); the server's forbidden points are drawn as crosses.
    page.open(url, "rule=renju&size=20&you=both&level=depth&depth=2&time=0.2&vary=0"
              "&moves=h13a1i13a3j12a5j11t20")
    page.wait.until(lambda d: page.stones() == 8)
    check(page.d.find_element(By.ID, "board").get_attribute("data-size") == "20", "a 20x20 board")
    check(len(page.d.find_elements(By.CSS_SELECTOR, "rect.hit")) == 400, "400 points")
    crosses = page.d.find_elements(By.CSS_SELECTOR, "g.forbidden")
    check(any(c.get_attribute("data-move") == "j13" for c in crosses),
          f"j13 is marked forbidden: {[c.get_attribute('data-move') for c in crosses]}")
    page.click_point("j13")
    page.wait.until(lambda d: "forbidden" in page.text("message"))
    check(page.stones() == 8, "a forbidden click plays nothing")
    page.shot("renju-20.png")
    # Paste a position; the URL follows it, and opening the URL again shows it.
    field = page.d.find_element(By.ID, "position")
    field.clear()
    field.send_keys("k11 l12 k12")
    page.click("btn-set")
    page.wait.until(lambda d: page.stones() == 3)
    check(field.get_attribute("value") == "k11l12k12", "the position string is shown")
    check("moves=k11l12k12" in page.d.current_url, f"the URL carries it: {page.d.current_url}")
    page.open(url, "rule=renju&size=20&you=both&moves=k11l12k12")
    page.wait.until(lambda d: page.stones() == 3)
    check(page.stone_at("l12"), "the link reopens the position")
    # A bad request is answered with a message; the game stays.
    field = page.d.find_element(By.ID, "position")
    field.clear()
    field.send_keys("k11k11")
    page.click("btn-set")
    page.wait.until(lambda d: "taken" in page.text("message"))
    check(page.stones() == 3, "the game is kept")


def records(page, url):
    """Saves a game as files (real downloads), loads them into a fresh game, and loads an SGF
    as c-gomoku-cli writes it."""
    os.makedirs(DOWNLOADS, exist_ok=True)
    for name in os.listdir(DOWNLOADS):
        os.remove(os.path.join(DOWNLOADS, name))
    page.d.execute_cdp_cmd("Page.setDownloadBehavior",
                           {"behavior": "allow", "downloadPath": DOWNLOADS})
    page.open(url, "rule=freestyle&size=15&you=both&moves=h8i9j10")
    page.wait.until(lambda d: page.stones() == 3)
    saved = {}
    for button, name in [("btn-save-psq", "wuzi-game.psq"), ("btn-save-sgf", "wuzi-game.sgf"),
                         ("btn-save-txt", "wuzi-game.txt")]:
        path = os.path.join(DOWNLOADS, name)
        page.click(button)
        page.wait.until(lambda d: os.path.exists(path) and os.path.getsize(path) > 0)
        with open(path) as f:
            saved[name] = f.read()
    check(saved["wuzi-game.psq"].startswith("Piskvorky 15x15"), f"a .psq: {saved['wuzi-game.psq']!r}")
    check("SZ[15]" in saved["wuzi-game.sgf"] and ";B[hh]" in saved["wuzi-game.sgf"],
          f"an SGF: {saved['wuzi-game.sgf']!r}")
    check("h8 i9 j10" in saved["wuzi-game.txt"], f"a text record: {saved['wuzi-game.txt']!r}")
    for name in saved:
        page.open(url, "rule=freestyle&size=15&you=both")
        page.wait.until(lambda d: page.stones() == 0)
        page.d.find_element(By.ID, "load").send_keys(os.path.join(DOWNLOADS, name))
        page.wait.until(lambda d: page.stones() == 3)
        check(page.stone_at("j10") and page.stone_at("i9"), f"{name} loads the game back")
        check(f"loaded {name}" in page.text("message"), f"message: {page.text('message')!r}")
    # c-gomoku-cli's SGF: 15x15, columns and rows from the top left.
    sgf = os.path.join(DOWNLOADS, "runner.sgf")
    with open(sgf, "w") as f:
        f.write("(;FF[4]GM[4]SZ[15]RE[B+];B[hh];W[ii];B[gg];W[jj])\n")
    page.d.find_element(By.ID, "load").send_keys(sgf)
    page.wait.until(lambda d: page.stones() == 4)
    check(page.d.find_element(By.ID, "position").get_attribute("value") == "h8i7g9j6",
          f"the SGF's moves: {page.d.find_element(By.ID, 'position').get_attribute('value')}")
    # A file that is no record is refused with a message; the game stays.
    bad = os.path.join(DOWNLOADS, "bad.txt")
    with open(bad, "w") as f:
        f.write("not a record at all\n")
    page.d.find_element(By.ID, "load").send_keys(bad)
    page.wait.until(lambda d: "record" in page.text("message") and "loaded" not in page.text("message"))
    check(page.stones() == 4, "the game is kept after a bad file")
    page.shot("records.png")


def review(page, url):
    """Reviews a short game: white leaves black's open three (move 6), black then plays away
    from its win (move 7)."""
    page.open(url, "rule=freestyle&size=15&you=both&moves=h8a15i8a1j8o15d12")
    page.wait.until(lambda d: page.stones() == 7)
    page.click("btn-review")
    page.wait.until(lambda d: page.text("review-status").startswith("first mistake: move 6"))
    marks = len(page.d.find_elements(By.CSS_SELECTOR, "circle.mistake"))
    check(marks == 2, f"the two mistakes are ringed on the board, not {marks}")
    items = page.d.find_elements(By.CSS_SELECTOR, "#review-list li")
    check(len(items) == 2, f"two report lines: {[i.text for i in items]}")
    check("would have stopped it" in items[0].text, f"the blunder's line: {items[0].text!r}")
    items[0].click()
    stops = len(page.d.find_elements(By.CSS_SELECTOR, "circle.stop"))
    check(stops >= 2, f"the blunder's stops are shown on the board ({stops})")
    check(page.stones() == 7, "the review leaves the game as it was")
    print(f"review: {page.text('review-status')}")
    page.shot("review.png")


def two_tabs(page, url):
    # Each tab has its own game on the server.
    first = page.d.current_window_handle
    page.open(url, "rule=freestyle&size=15&you=both&moves=h8")
    page.wait.until(lambda d: page.stones() == 1)
    page.d.switch_to.new_window("tab")
    page.open(url, "rule=standard&size=19&you=both&moves=a1b2")
    page.wait.until(lambda d: page.stones() == 2)
    page.click_point("c3")
    page.wait.until(lambda d: page.stones() == 3)
    page.d.close()
    page.d.switch_to.window(first)
    check(page.stones() == 1, "the first tab keeps its game")
    page.click_point("i9")
    page.wait.until(lambda d: page.stones() == 2)
    check(page.d.find_element(By.ID, "position").get_attribute("value") == "h8i9",
          "the first tab's game went on from its own position")


def game(page):
    """The page's copy of the server's state."""
    return page.d.execute_script("return page.game")


def settled(page):
    """Waits until no search runs and the person is to act (or the game is over); returns
    the state."""
    script = ("return !page.search && !!page.game && (page.game.status !== 'ongoing' ||"
              " (page.game.opening && !page.game.opening.over ? page.game.opening.yours"
              " : page.game.to_move === page.game.human))")
    page.wait.until(lambda d: d.execute_script(script))
    return game(page)


def free_points(g, count, within=None):
    """`count` empty points nearest the centre (within the central square of side
    `within`), each at its own distance from the centre: no symmetry of the board maps one
    onto another, so they are never symmetric fifth moves."""
    n = g["size"]
    c = n // 2
    taken = set(g["moves"])
    cells = sorted(((x - c) ** 2 + (y - c) ** 2, x, y) for x in range(n) for y in range(n))
    out, seen = [], set()
    for d, x, y in cells:
        name = chr(97 + x) + str(n - y)
        if name in taken or d in seen:
            continue
        if within and max(abs(x - c), abs(y - c)) > within // 2:
            continue
        out.append(name)
        seen.add(d)
        if len(out) == count:
            break
    return out


def opening_step(page, g, swap, add):
    """The person's step at what the stage asks: a stone near the centre (2 fifth moves
    declared with it), `swap` or stay at a choice of colour, swap2's two more stones if
    `add`, Taraguchi's second choice (fifth moves offered) if `add` else its first (a
    colour), fifth moves each at its own distance from the centre, the first offer
    picked."""
    o = g["opening"]
    asks = o["asks"]
    check(page.d.find_element(By.ID, "opening-ask").get_attribute("data-asks") == asks,
          f"the panel shows the step asked: {asks}")
    if asks == "stone":
        page.click_point(free_points(g, 1, o["square"])[0])
    elif asks == "stone-and-declare":
        field = page.d.find_element(By.ID, "declare-n")
        field.clear()
        field.send_keys("2")
        page.click_point(free_points(g, 1, o["square"])[0])
    elif asks == "colour" or (asks == "fifth-or-offer" and not add):
        page.click("btn-swap" if swap else "btn-stay")
    elif asks == "swap2-choice":
        if add:
            for p in free_points(g, 2):
                page.click_point(p)
            page.click("btn-add")
        else:
            page.click("btn-take-white" if swap else "btn-take-black")
    elif asks in ("offer", "fifth-or-offer"):
        for p in free_points(g, o["count"]):
            page.click_point(p)
        marks = len(page.d.find_elements(By.CSS_SELECTOR, "circle.mark"))
        check(marks == o["count"], f"{o['count']} points marked, not {marks}")
        page.click("btn-offer")
    elif asks == "pick":
        drawn = [c.get_attribute("data-move") for c in page.d.find_elements(By.CSS_SELECTOR, "circle.offer")]
        check(drawn == o["offers"], f"the offers are drawn: {drawn} against {o['offers']}")
        page.shot("opening-offers.png")
        page.click_point(o["offers"][0])
    else:
        raise AssertionError(f"asks {asks}")


def play_opening_game(page, url, rule, opening, you, swap=False, add=False):
    """A whole game under `opening`: the stage through the panel's buttons and the board
    (wuzi's steps by itself), then the person's stones along the edges until the engine's
    five."""
    page.open(url, f"rule={rule}&size=15&you={you}&opening={quote(opening)}"
                   "&level=depth&depth=2&time=0.2&vary=0")
    page.wait.until(lambda d: d.find_element(By.ID, "opening-panel").is_displayed())
    mine = wuzis = 0
    seen = 0
    while True:
        g = settled(page)
        o = g["opening"]
        check(o is not None and o["rule"] == opening, f"the game's opening: {o}")
        wuzis += sum(1 for t in o["steps"][seen:] if t.startswith("wuzi "))
        seen = len(o["steps"])
        if o["over"]:
            break
        if opening.startswith("soosorv") and you == "black" and not g["moves"]:
            # A bad step is refused with the rule's reason; the stage goes on.
            page.click_point("a1")
            page.wait.until(lambda d: "not on the centre point" in page.text("message"))
            check(page.stones() == 0, "the refused stone is not on the board")
        opening_step(page, g, swap and mine == 0, add)
        mine += 1
        page.wait.until(lambda d: len(game(page)["opening"]["steps"]) > seen or page.text("message").startswith("4"))
        check(len(game(page)["opening"]["steps"]) > seen, f"the step was taken: {page.text('message')}")
        seen += 1
        check(mine < 12, "the opening stage ends")
    check(mine > 0 and wuzis > 0, f"both took steps: you {mine}, wuzi {wuzis}")
    ask = page.text("opening-ask")
    check("The opening stage is over" in ask, f"the panel says the stage is over: {ask!r}")
    human = g["human"]
    check(human in ("black", "white"), f"the person plays a colour after the stage: {human}")
    edge = [f"{c}{r}" for r in (15, 13, 1, 3) for c in "acegikmo"]
    played = 0
    while True:
        g = settled(page)
        if g["status"] != "ongoing":
            break
        point = next(p for p in edge if p not in g["moves"])
        page.click_point(point)
        page.wait.until(lambda d: len(game(page)["moves"]) > len(g["moves"]))
        played += 1
        check(played < len(edge), "the game ends")
    banner = page.d.find_element(By.ID, "result")
    check(banner.is_displayed() and "wins" in banner.text, f"banner: {banner.text!r}")
    print(f"{opening} with you {you}: the stage in {mine} steps of yours and {wuzis} of wuzi's,"
          f" you played {human}; {banner.text}")
    page.shot(f"opening-{opening.split()[0]}-{you}.png")


def opening_games(page, url):
    play_opening_game(page, url, "freestyle", "swap2", "black", swap=True)
    play_opening_game(page, url, "freestyle", "swap2", "white", add=True)
    play_opening_game(page, url, "renju", "soosorv 8", "black")
    play_opening_game(page, url, "renju", "soosorv 8", "white", swap=True)
    play_opening_game(page, url, "renju", "taraguchi 10", "black", add=True)
    play_opening_game(page, url, "renju", "taraguchi 10", "white", swap=True)
    play_opening_game(page, url, "renju", "yamaguchi", "black")
    play_opening_game(page, url, "renju", "yamaguchi", "white", swap=True)


def main():
    wuzi = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "wuzi")
    started = time.time()
    proc, url = start_server(wuzi)
    driver = None
    try:
        driver = browser()
        page = Page(driver)
        play_a_game(page, url)
        analyse(page)
        renju_and_positions(page, url)
        records(page, url)
        review(page, url)
        two_tabs(page, url)
        opening_games(page, url)
        print(f"browser test passed in {time.time() - started:.1f} s")
        print("1 passed, 0 failed")
    except Exception:
        if driver is not None:
            try:
                Page(driver).shot("failure.png")
                print("page text at the failure:\n" + driver.find_element(By.TAG_NAME, "body").text)
            except Exception:
                pass
        raise
    finally:
        if driver is not None:
            driver.quit()
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
