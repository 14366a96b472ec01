// The wuzi board page: draws the game the server keeps (one game per page, by id), sends
// the person's moves, and streams the engine's searches (server-sent events over fetch, so
// that errors keep their status and leaving the page stops the search). The HTTP API is
// described in docs/web.md. Plain JavaScript, no build step, nothing loaded from elsewhere.
'use strict';

const CELL = 32;        // SVG units between two lines
const MARGIN = 30;      // room for the coordinates
const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

const page = {
  game: null,           // the server's state of our game
  search: null,         // { controller, job } while a search streams
  progress: null,       // the last progress event
  nbest: null,          // the last N-best list (analysis)
  hint: null,           // a hinted point
  review: null,         // { controller, position, moves: Map number -> reviewed, shown }
  marks: [],            // points marked for an opening step (an offer, swap2's two stones)
};

// ---------------------------------------------------------------- points

function toXY(h8, size) {
  const x = h8.charCodeAt(0) - 97;
  const row = parseInt(h8.slice(1), 10);
  return [x, size - row];
}

function toH8(x, y, size) {
  return String.fromCharCode(97 + x) + (size - y);
}

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const r = await fetch(path, options);
  const text = await r.text();
  if (!r.ok) {
    let message = r.statusText;
    try { message = JSON.parse(text).error || message; } catch (_) { /* not JSON */ }
    throw new ApiError(r.status, message);
  }
  if (!text) return null;
  const type = r.headers.get('content-type') || '';
  return type.includes('json') ? JSON.parse(text) : text;
}

function gamePath(rest) {
  return `/api/games/${page.game.id}${rest || ''}`;
}

// Runs a request on our game; a game the server has forgotten (a restart, or let go after
// long idleness) is made again from the position shown, and the request tried once more.
async function onGame(method, rest, body) {
  try {
    return await api(method, gamePath(rest), body);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404 || !page.game) throw e;
    await recreate();
    return api(method, gamePath(rest), body);
  }
}

async function recreate() {
  const g = page.game;
  const state = await api('POST', '/api/games', {
    size: g.size, rule: g.rule, human: g.human, strength: g.strength, moves: g.position,
  });
  show(state);
  say('the server had let this game go: it was made again');
}

// Reads a server-sent event stream from a POST; calls onEvent(name, data) for each event.
async function stream(path, onEvent, signal) {
  const r = await fetch(path, { method: 'POST', signal });
  if (!r.ok) {
    let message = r.statusText;
    try { message = (await r.json()).error || message; } catch (_) { /* not JSON */ }
    throw new ApiError(r.status, message);
  }
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const chunk = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      let data = '';
      for (const line of chunk.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

// ---------------------------------------------------------------- drawing

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

const at = (i) => MARGIN + i * CELL;

// The board in layers: lines, coordinates and click targets are drawn once per size (so a
// click is never lost to a redraw); stones and marks are redrawn at every change.
function drawBoard() {
  const g = page.game;
  const n = g.size;
  const svg = $('board');
  if (svg.dataset.size !== String(n)) drawGrid(svg, n);
  const layer = $('stones');
  layer.textContent = '';

  // Forbidden points (renju, black to move).
  for (const p of g.forbidden) {
    const [x, y] = toXY(p, n);
    const d = CELL * 0.2;
    const cross = el('g', { class: 'forbidden', 'data-move': p }, layer);
    el('line', { x1: at(x) - d, y1: at(y) - d, x2: at(x) + d, y2: at(y) + d }, cross);
    el('line', { x1: at(x) - d, y1: at(y) + d, x2: at(x) + d, y2: at(y) - d }, cross);
  }

  // Stones.
  const numbers = $('numbers').checked;
  g.moves.forEach((p, i) => {
    if (p === 'pass') return;
    const [x, y] = toXY(p, n);
    const colour = i % 2 === 0 ? 'black' : 'white';
    el('circle', {
      class: `stone ${colour}`, cx: at(x), cy: at(y), r: CELL * 0.45, 'data-move': p,
    }, layer);
    if (numbers) {
      el('text', { class: `num on-${colour}`, x: at(x), y: at(y) }, layer, String(i + 1));
    }
  });
  const last = g.moves[g.moves.length - 1];
  if (last && last !== 'pass') {
    const [x, y] = toXY(last, n);
    if (numbers) {
      el('circle', { class: 'last', cx: at(x) + CELL * 0.3, cy: at(y) - CELL * 0.3, r: 3.5 }, layer);
    } else {
      el('circle', { class: 'last', cx: at(x), cy: at(y), r: CELL * 0.12 }, layer);
    }
  }

  // The winning five.
  if (g.five.length) {
    const ends = [g.five[0], g.five[g.five.length - 1]].map((p) => toXY(p, n));
    el('line', {
      class: 'winline', x1: at(ends[0][0]), y1: at(ends[0][1]), x2: at(ends[1][0]), y2: at(ends[1][1]),
    }, layer);
    for (const p of g.five) {
      const [x, y] = toXY(p, n);
      el('circle', { class: 'win', cx: at(x), cy: at(y), r: CELL * 0.47, 'data-move': p }, layer);
    }
  }

  drawSearch(layer);
  drawReview(layer);
  drawOpening(layer);
}

// The opening stage: the central square a stone must stand in, the offered fifth moves
// (numbered rings), and the points marked for the person's next step.
function drawOpening(layer) {
  const g = page.game;
  const o = g.opening;
  if (!o || o.over) return;
  const n = g.size;
  if (o.square && o.square > 1) {
    const c = (n - 1) / 2;
    const h = (o.square - 1) / 2 + 0.5;
    el('rect', {
      class: 'square', x: at(c - h), y: at(c - h), width: 2 * h * CELL, height: 2 * h * CELL,
    }, layer);
  }
  o.offers.forEach((p, i) => {
    const [x, y] = toXY(p, n);
    el('circle', { class: 'offer', cx: at(x), cy: at(y), r: CELL * 0.42, 'data-move': p }, layer);
    el('text', { class: 'offernum', x: at(x), y: at(y) }, layer, String(i + 1));
  });
  for (const p of page.marks) {
    const [x, y] = toXY(p, n);
    el('circle', { class: 'mark', cx: at(x), cy: at(y), r: CELL * 0.35, 'data-move': p }, layer);
  }
}

// The opening panel: the rule, what is asked of whom, the buttons the step takes, and the
// steps so far.
function showOpening(g) {
  const o = g.opening;
  const panel = $('opening-panel');
  panel.hidden = !o;
  if (!o) return;
  $('opening-rule').textContent = `(${o.rule})`;
  const ask = $('opening-ask');
  ask.dataset.asks = o.asks;
  ask.dataset.yours = String(o.yours);
  ask.classList.toggle('yours', o.yours);
  if (o.over) {
    ask.textContent = `The opening stage is over: ${g.human === 'both' ? 'play on' : `you play ${g.human}`}.`;
  } else if (o.yours) {
    const who = o.you ? `You (the ${o.you})` : `The ${o.actor}`;
    ask.textContent = `${who}: ${o.expect}.`;
  } else {
    ask.textContent = `wuzi (the ${o.actor}) is to ${o.expect}.`;
  }
  const mine = o.yours && !o.over;
  const choose = mine && (o.asks === 'colour' || o.asks === 'fifth-or-offer');
  const show = (id, on) => { $(id).hidden = !on; };
  show('btn-swap', choose);
  show('btn-stay', choose);
  show('btn-take-black', mine && o.asks === 'swap2-choice');
  show('btn-take-white', mine && o.asks === 'swap2-choice');
  show('btn-add', mine && o.asks === 'swap2-choice');
  show('btn-offer', mine && (o.asks === 'offer' || o.asks === 'fifth-or-offer'));
  show('btn-clear-marks', mine && ['offer', 'fifth-or-offer', 'swap2-choice'].includes(o.asks));
  show('declare-label', mine && o.asks === 'stone-and-declare');
  if (o.max) $('declare-n').max = o.max;
  const list = $('opening-steps');
  list.textContent = '';
  for (const text of o.steps) {
    const item = document.createElement('li');
    item.textContent = text;
    list.appendChild(item);
  }
}

// Is the game in its opening stage?
function inOpening() {
  const o = page.game && page.game.opening;
  return !!o && !o.over;
}

// Sends the person's opening step; then the engine takes its steps, if any.
async function openingStep(body) {
  await stopSearch();
  const state = await onGame('POST', '/opening', body);
  page.marks = [];
  show(state);
  say('');
  await afterChange();
}

// A click on the board during the opening stage: a stone, a mark for an offer or swap2's
// two stones, or the pick of an offered fifth move.
async function openingClick(point) {
  const o = page.game.opening;
  if (!o.yours) { say(`it is wuzi's step: it is to ${o.expect}`); return; }
  switch (o.asks) {
    case 'stone':
      await openingStep({ action: 'place', points: [point] });
      break;
    case 'stone-and-declare':
      await openingStep({ action: 'place', points: [point], count: Number($('declare-n').value) || 1 });
      break;
    case 'pick':
      await openingStep({ action: 'pick', points: [point] });
      break;
    case 'offer':
    case 'fifth-or-offer':
    case 'swap2-choice': {
      const i = page.marks.indexOf(point);
      if (i >= 0) page.marks.splice(i, 1); else page.marks.push(point);
      const want = o.asks === 'swap2-choice' ? 2 : o.count;
      say(`marked ${page.marks.length} of ${want}: ${page.marks.join(' ')}`);
      drawBoard();
      break;
    }
    default:
      say(`choose a colour: ${o.expect}`);
  }
}

// A review's mistakes as red rings on their stones; the selected line's stops (green) and
// the forced win behind it (its first move, dashed).
function drawReview(layer) {
  const r = page.review;
  const g = page.game;
  if (!r || r.position !== g.position) return;
  const n = g.size;
  for (const m of r.moves.values()) {
    if (m.kind !== 'blunder' && m.kind !== 'missed-win') continue;
    const [x, y] = toXY(m.point, n);
    el('circle', { class: 'mistake', cx: at(x), cy: at(y), r: CELL * 0.5 }, layer);
  }
  const m = r.shown && r.moves.get(r.shown);
  if (!m) return;
  for (const p of m.stops) {
    const [x, y] = toXY(p, n);
    el('circle', { class: 'stop', cx: at(x), cy: at(y), r: CELL * 0.25 }, layer);
  }
  if (m.line.length) {
    const [x, y] = toXY(m.line[0], n);
    el('circle', { class: 'threat', cx: at(x), cy: at(y), r: CELL * 0.4 }, layer);
  }
}

function drawGrid(svg, n) {
  const extent = 2 * MARGIN + (n - 1) * CELL;
  svg.setAttribute('viewBox', `0 0 ${extent} ${extent}`);
  svg.textContent = '';
  svg.dataset.size = n;
  for (let i = 0; i < n; i++) {
    el('line', { class: 'grid', x1: at(0), y1: at(i), x2: at(n - 1), y2: at(i) }, svg);
    el('line', { class: 'grid', x1: at(i), y1: at(0), x2: at(i), y2: at(n - 1) }, svg);
    const letter = String.fromCharCode(97 + i);
    el('text', { class: 'coord', x: at(i), y: MARGIN / 2 - 2 }, svg, letter);
    el('text', { class: 'coord', x: at(i), y: extent - MARGIN / 2 + 2 }, svg, letter);
    el('text', { class: 'coord', x: MARGIN / 2 - 4, y: at(i) }, svg, String(n - i));
    el('text', { class: 'coord', x: extent - MARGIN / 2 + 4, y: at(i) }, svg, String(n - i));
  }
  if (n >= 9) {
    const q = n >= 13 ? 3 : 2;
    const c = (n - 1) / 2;
    const stars = [[q, q], [n - 1 - q, q], [q, n - 1 - q], [n - 1 - q, n - 1 - q]];
    if (Number.isInteger(c)) stars.push([c, c]);
    for (const [x, y] of stars) el('circle', { class: 'star', cx: at(x), cy: at(y), r: 3 }, svg);
  }
  el('g', { id: 'stones' }, svg);
  // Click targets on top of everything.
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const p = toH8(x, y, n);
      const hit = el('rect', {
        class: 'hit', x: at(x) - CELL / 2, y: at(y) - CELL / 2, width: CELL, height: CELL,
        'data-move': p,
      }, svg);
      el('title', {}, hit, p);
    }
  }
}

// The principal variation as faint numbered stones, the N-best moves as ranked dots, a
// hint as a dashed ring.
function drawSearch(layer) {
  const g = page.game;
  const n = g.size;
  const taken = new Set(g.moves);
  if (page.nbest && $('analysis').checked) {
    page.nbest.moves.forEach((m, i) => {
      const [x, y] = toXY(m.move, n);
      el('circle', { class: 'best', cx: at(x), cy: at(y), r: CELL * 0.3, 'data-move': m.move }, layer);
      el('text', { class: 'bestnum', x: at(x), y: at(y) }, layer, String(i + 1));
    });
  } else if (page.progress && page.progress.pv.length && (page.search || page.progress.forced)) {
    // While a search runs, and after it for a proven win (its line stays until the
    // position changes). Numbered as the moves they would be when move numbers are shown.
    const first = $('numbers').checked ? g.moves.length + 1 : 1;
    let colour = g.to_move;
    page.progress.pv.slice(0, 12).forEach((p, i) => {
      if (taken.has(p)) return;
      const [x, y] = toXY(p, n);
      el('circle', { class: `stone pv ${colour}`, cx: at(x), cy: at(y), r: CELL * 0.42 }, layer);
      el('text', { class: `pvnum num on-${colour}`, x: at(x), y: at(y) }, layer, String(first + i));
      colour = colour === 'black' ? 'white' : 'black';
    });
  }
  if (page.hint && !taken.has(page.hint)) {
    const [x, y] = toXY(page.hint, n);
    el('circle', { class: 'hint', cx: at(x), cy: at(y), r: CELL * 0.4, 'data-move': page.hint }, layer);
  }
}

// ---------------------------------------------------------------- the panel

function say(text) {
  $('message').textContent = text || '';
}

function engineSide() {
  const h = page.game.human;
  if (h === 'both') return null;
  return h === 'black' ? 'white' : 'black';
}

function show(state) {
  // A search's line belongs to the position it searched.
  if (page.game && state.position !== page.game.position && !page.search) page.progress = null;
  page.game = state;
  if (!inOpening()) page.marks = [];
  drawBoard();
  const g = state;
  showOpening(g);
  $('you').value = g.human;
  const result = $('result');
  if (g.status !== 'ongoing') {
    result.hidden = false;
    // What the position database learned from the game, if the server has one.
    result.textContent = [g.result, ...(g.memory || [])].join(' ');
    $('turn').textContent = 'game over';
  } else {
    result.hidden = true;
    result.textContent = '';
    const who = g.to_move === engineSide() && !$('analysis').checked ? ' (wuzi)' : '';
    $('turn').textContent = inOpening()
      ? `opening (${g.opening.rule}): ${g.opening.yours ? 'your step' : "wuzi's step"}`
      : `${g.to_move}${who} to move, move ${g.moves.length + 1}`;
  }
  if (page.search) $('turn').textContent += page.search.job === 'analyse' ? ' · analysing' : ' · thinking';
  $('position').value = g.position;
  $('btn-redo').disabled = g.redo === 0;
  $('btn-stop').disabled = !page.search;
  // The URL carries the position and settings, so that a link reopens it.
  const s = g.strength;
  const params = new URLSearchParams({
    rule: g.rule, size: g.size, you: g.human, level: s.level, time: s.time, vary: s.vary,
  });
  if (s.depth) params.set('depth', s.depth);
  // A game under an opening rule is linked as a new game under that rule.
  if (g.opening) params.set('opening', g.opening.rule);
  else if (g.position) params.set('moves', g.position);
  history.replaceState(null, '', `#${params}`);
}

const EMPTY_PROGRESS = {
  depth: 0, seldepth: 0, score: 0, score_text: '-', black_win: 0.5, nodes: 0, nps: 0,
  elapsed_ms: 0, pv: [], forced: null,
};

function showProgress(p) {
  page.progress = p;
  $('depth').textContent = p.depth ? `${p.depth}/${p.seldepth}` : '-';
  $('eval').textContent = p.depth ? p.score_text : '-';
  $('nodes').textContent = p.nodes.toLocaleString('en');
  $('nps').textContent = p.nps.toLocaleString('en');
  $('elapsed').textContent = `${(p.elapsed_ms / 1000).toFixed(1)} s`;
  $('winpct').textContent = `${Math.round(p.black_win * 100)}%`;
  $('winbar-black').style.width = `${(p.black_win * 100).toFixed(1)}%`;
  $('pv').textContent = p.pv.length ? p.pv.join(' ') : '-';
  const forced = $('forced');
  if (p.forced) {
    forced.hidden = false;
    forced.textContent =
      `forced win for ${p.forced.winner} in ${p.forced.plies} plies: ${p.pv.join(' ')}`;
  } else {
    forced.hidden = true;
  }
}

function showNBest(list) {
  page.nbest = list;
  const table = $('nbest');
  const body = table.querySelector('tbody');
  body.textContent = '';
  list.moves.forEach((m, i) => {
    const row = document.createElement('tr');
    for (const text of [i + 1, m.move, m.score_text, `${Math.round(m.black_win * 100)}%`]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.appendChild(cell);
    }
    body.appendChild(row);
  });
  table.hidden = list.moves.length === 0;
  if (list.moves.length) {
    $('winbar-black').style.width = `${(list.moves[0].black_win * 100).toFixed(1)}%`;
    $('winpct').textContent = `${Math.round(list.moves[0].black_win * 100)}%`;
  }
}

// ---------------------------------------------------------------- searches

// Runs a search (job: 'move', 'hint' or 'analyse') to its end; resolves with its `done`.
async function search(job) {
  if (page.search) return null;
  const controller = new AbortController();
  page.search = { controller, job };
  showProgress(EMPTY_PROGRESS);
  page.progress = null;
  if (job !== 'hint') page.hint = null;
  show(page.game);
  const path = job === 'analyse'
    ? gamePath(`/analyse?n=${$('nbest-n').value}`)
    : gamePath(`/think?job=${job}`);
  let done = null;
  try {
    await stream(path, (name, data) => {
      if (name === 'progress') {
        showProgress(data);
        if (job !== 'analyse') drawBoard();
      } else if (name === 'nbest') {
        showNBest(data);
        drawBoard();
      } else if (name === 'done') {
        done = data;
      } else if (name === 'error') {
        say(data.error);
      }
    }, controller.signal);
  } catch (e) {
    if (e.name !== 'AbortError') {
      if (e instanceof ApiError && e.status === 404) {
        page.search = null;
        await recreate();
      } else {
        say(e.message);
      }
    }
  } finally {
    page.search = null;
  }
  if (done) {
    if (job === 'hint' && done.best) {
      page.hint = done.best;
      say(`hint: ${done.best} (${done.score_text})`);
    } else if (job === 'move' && done.played && done.step) {
      say(done.step);
    } else if (job === 'move' && done.played) {
      say(`wuzi plays ${done.best} (depth ${done.depth}, ${done.score_text}, ${(done.elapsed_ms / 1000).toFixed(2)} s)`);
    }
    show(done.state);
  } else if (page.game) {
    show(page.game);
  }
  return done;
}

// Ends the running search, if any, and waits until the server has ended it.
async function stopSearch() {
  const s = page.search;
  if (!s) return;
  try {
    const state = await onGame('POST', '/stop');
    if (state) page.game = state;
  } catch (e) {
    say(e.message);
  }
  s.controller.abort();
  while (page.search) await new Promise((r) => setTimeout(r, 10));
}

// Reviews the game so far (streamed: one event per move), listing what the report shows.
async function review() {
  if (page.review && page.review.controller) {
    page.review.controller.abort();
    return;
  }
  const controller = new AbortController();
  const r = { controller, position: page.game.position, moves: new Map(), shown: null };
  page.review = r;
  const list = $('review-list');
  list.textContent = '';
  const status = $('review-status');
  const total = page.game.moves.filter((p) => p !== 'pass').length;
  status.textContent = `reviewing ${total} moves…`;
  $('btn-review').textContent = 'Stop review';
  try {
    await stream(gamePath(`/review?ms=${$('review-ms').value}`), (name, data) => {
      if (name === 'reviewed') {
        r.moves.set(data.number, data);
        status.textContent = `reviewed move ${data.number} of ${total}`;
        if (data.text) {
          const item = document.createElement('li');
          item.className = data.kind || '';
          item.textContent = data.text;
          list.appendChild(item);
          item.addEventListener('click', () => {
            for (const li of list.children) li.classList.remove('selected');
            item.classList.add('selected');
            r.shown = data.number;
            drawBoard();
          });
        }
        if (data.kind === 'blunder' || data.kind === 'missed-win') drawBoard();
      } else if (name === 'done') {
        const time = (data.elapsed_ms / 1000).toFixed(1);
        const of = data.stopped ? ` (stopped after ${data.reviewed} of ${data.moves} moves)` : '';
        status.textContent = `${data.summary}${of}; ${time} s`;
      } else if (name === 'error') {
        status.textContent = data.error;
      }
    }, controller.signal);
  } catch (e) {
    status.textContent = e.name === 'AbortError' ? 'review stopped' : e.message;
  } finally {
    r.controller = null;
    $('btn-review').textContent = 'Review game';
  }
}

// After a change of position: the engine moves if it is its turn, or the analysis restarts.
async function afterChange() {
  // The opening stage: the engine takes its steps until the person's or the stage's end
  // (when the person plays both sides, only when asked: Engine move).
  while (inOpening() && !page.game.opening.yours && page.game.human !== 'both') {
    const done = await search('move');
    if (!done || !done.played) return;
  }
  if (inOpening()) return;
  const g = page.game;
  if ($('analysis').checked) {
    if (g.status === 'ongoing') search('analyse');
    return;
  }
  if (g.status === 'ongoing' && g.to_move === engineSide()) await search('move');
}

// ---------------------------------------------------------------- actions

async function act(work) {
  try {
    await work();
  } catch (e) {
    say(e.message);
  }
}

function onBoardClick(event) {
  const target = event.target.closest('.hit');
  if (!target) return;
  const point = target.dataset.move;
  act(async () => {
    const g = page.game;
    if (g.status !== 'ongoing') { say('the game is over: undo, or start a new game'); return; }
    if (inOpening()) {
      if (page.search) { say('wuzi is thinking: wait, or press Stop'); return; }
      await openingClick(point);
      return;
    }
    const analysing = page.search && page.search.job === 'analyse';
    if (page.search && !analysing) { say('wuzi is thinking: wait, or press Stop'); return; }
    if (!$('analysis').checked && g.human !== 'both' && g.to_move !== g.human) {
      say(`it is wuzi's move`);
      return;
    }
    if (analysing) await stopSearch();
    say('');
    page.hint = null;
    show(await onGame('POST', '/play', { move: point }));
    await afterChange();
  });
}

async function newGame(moves) {
  await stopSearch();
  const level = $('level').value;
  const strength = {
    level,
    time: Number($('time').value) || 1,
    vary: $('vary').checked ? 30 : 0,
  };
  if (level === 'depth') strength.depth = Number($('depth-n').value) || 4;
  const old = page.game;
  const opening = $('opening').value;
  const state = await api('POST', '/api/games', {
    size: Number($('size').value),
    rule: $('rule').value,
    human: $('you').value,
    strength,
    moves: moves || undefined,
    opening: opening && opening !== 'free' ? opening : undefined,
  });
  page.marks = [];
  if (old) api('DELETE', `/api/games/${old.id}`).catch(() => {});
  page.nbest = null;
  page.hint = null;
  page.progress = null;
  say('');
  show(state);
  await afterChange();
}

async function undo() {
  await stopSearch();
  const g = page.game;
  let count = 1;
  if (g.human !== 'both' && !$('analysis').checked) {
    // Back to the person's last move, which is taken back too (as the prompt's undo).
    count = g.to_move === g.human ? 2 : 1;
    const first = g.human === 'black' ? 0 : 1;
    if (g.moves.length <= first) { say('nothing to undo'); return; }
    count = Math.min(count, g.moves.length - first);
  }
  page.hint = null;
  show(await onGame('POST', `/undo?count=${count}`));
  if ($('analysis').checked) await afterChange();
}

async function redo() {
  await stopSearch();
  const g = page.game;
  const count = g.human === 'both' || $('analysis').checked ? 1 : Math.min(2, g.redo);
  show(await onGame('POST', `/redo?count=${count}`));
  if ($('analysis').checked) await afterChange();
}

function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say(`${what} copied`);
  } catch (_) {
    say(`${what}: ${text}`);
  }
}

function wire() {
  const sizes = $('size');
  for (let n = 5; n <= 22; n++) {
    const o = document.createElement('option');
    o.value = n;
    o.textContent = `${n}×${n}`;
    if (n === 15) o.selected = true;
    sizes.appendChild(o);
  }
  $('board').addEventListener('click', onBoardClick);
  $('new-game').addEventListener('submit', (e) => { e.preventDefault(); act(() => newGame()); });
  $('btn-undo').addEventListener('click', () => act(undo));
  $('btn-redo').addEventListener('click', () => act(redo));
  $('btn-hint').addEventListener('click', () => act(async () => {
    if (page.search) await stopSearch();
    if (page.game.status !== 'ongoing') { say('the game is over'); return; }
    await search('hint');
    if ($('analysis').checked) afterChange();
  }));
  $('btn-move').addEventListener('click', () => act(async () => {
    if (page.search) await stopSearch();
    if (page.game.status !== 'ongoing') { say('the game is over'); return; }
    await search('move');
    // In an opening stage wuzi's own steps follow the one it took.
    if ($('analysis').checked || inOpening()) afterChange();
  }));
  $('btn-stop').addEventListener('click', () => act(stopSearch));
  $('btn-swap').addEventListener('click', () => act(() => openingStep({ action: 'swap' })));
  $('btn-stay').addEventListener('click', () => act(() => openingStep({ action: 'stay' })));
  $('btn-take-black').addEventListener('click', () => act(() => openingStep({ action: 'black' })));
  $('btn-take-white').addEventListener('click', () => act(() => openingStep({ action: 'white' })));
  $('btn-add').addEventListener('click', () => act(() => openingStep({ action: 'add', points: page.marks })));
  $('btn-offer').addEventListener('click', () => act(() => openingStep({ action: 'offer', points: page.marks })));
  $('btn-clear-marks').addEventListener('click', () => { page.marks = []; say(''); drawBoard(); });
  $('btn-review').addEventListener('click', () => act(review));
  $('numbers').addEventListener('change', () => drawBoard());
  $('analysis').addEventListener('change', () => act(async () => {
    await stopSearch();
    page.nbest = null;
    $('nbest').hidden = true;
    show(page.game);
    await afterChange();
  }));
  $('nbest-n').addEventListener('change', () => act(async () => {
    if ($('analysis').checked) { await stopSearch(); await afterChange(); }
  }));
  for (const id of ['level', 'time', 'depth-n', 'vary', 'you']) {
    $(id).addEventListener('change', () => act(applySettings));
  }
  $('btn-set').addEventListener('click', () => act(async () => {
    await stopSearch();
    page.hint = null;
    show(await onGame('POST', '/position', { moves: $('position').value }));
    say('position set');
    if ($('analysis').checked) await afterChange();
  }));
  $('btn-copy').addEventListener('click', () => copy(page.game.position, 'position'));
  $('btn-link').addEventListener('click', () => copy(location.href, 'link'));
  $('btn-save-txt').addEventListener('click', () => act(async () => {
    download('wuzi-game.txt', await onGame('GET', '/record?format=text'));
  }));
  $('btn-save-psq').addEventListener('click', () => act(async () => {
    download('wuzi-game.psq', await onGame('GET', '/record?format=psq'));
  }));
  $('btn-save-sgf').addEventListener('click', () => act(async () => {
    download('wuzi-game.sgf', await onGame('GET', '/record?format=sgf'));
  }));
  $('load').addEventListener('change', (e) => act(async () => {
    const file = e.target.files[0];
    e.target.value = '';
    if (!file) return;
    await stopSearch();
    show(await onGame('POST', '/record', { text: await file.text(), rule: $('rule').value }));
    say(`loaded ${file.name}`);
    await afterChange();
  }));
}

// The strength and colour controls apply to the game at once.
async function applySettings() {
  const level = $('level').value;
  const strength = {
    level, time: Number($('time').value) || 1, vary: $('vary').checked ? 30 : 0,
  };
  if (level === 'depth') strength.depth = Number($('depth-n').value) || 4;
  await stopSearch();
  show(await onGame('POST', '/settings', { human: $('you').value, strength }));
  await afterChange();
}

// The settings and position of the URL (`#rule=renju&size=15&you=black&moves=h8i9`), if any.
function fromUrl() {
  const q = new URLSearchParams(location.hash.slice(1));
  const set = (id, key) => { if (q.has(key)) $(id).value = q.get(key); };
  set('rule', 'rule');
  set('size', 'size');
  set('opening', 'opening');
  set('you', 'you');
  set('level', 'level');
  set('depth-n', 'depth');
  set('time', 'time');
  if (q.has('vary')) $('vary').checked = q.get('vary') !== '0';
  return q.get('moves') || '';
}

wire();
act(async () => {
  const moves = fromUrl();
  try {
    await newGame(moves);
  } catch (e) {
    // A bad link: start from the empty board with the same settings.
    say(`${e.message}; starting from an empty board`);
    await newGame('');
  }
});
