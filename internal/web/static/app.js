// td2048's page: the game lives here (board, seed, move number, score);
// the server answers moves, hints and the agent's choices (see package web).
"use strict";

// The games the page can draw. The rules are the server's; a game here
// says how its tiles look, which tiles its statistics count, and what it
// keeps besides the board (Threes!: the next tile and the bag, which every
// request carries back).
const GAMES = {
  "2048": {
    title: "2048",
    text: (v) => (v ? String(v) : ""),
    cls: (v) => (v ? "t" + Math.min(Math.round(Math.log2(v)), 16) : ""),
    rates: [2048, 4096, 8192],
    rules: "",
    // The tile-downgrades under way, as the server counts them (0 when
    // it plays without downgrading).
    fields: (st) => ({ downgrades: st.downgrades || 0 }),
  },
  threes: {
    title: "Threes!",
    text: (v) => (v ? String(v) : ""),
    // 1 blue, 2 red, 3 and up white, as the original game; long numbers smaller.
    cls: (v) => (v ? (v >= 3 ? "th3" : "th" + v) + (v >= 1000 ? " d4" : v >= 100 ? " d3" : "") : ""),
    rates: [1536, 3072, 6144],
    rules: "Threes!: a slide moves each tile one cell; 1+2 makes 3, equal tiles from 3 up merge. " +
      "The next tile (shown above) then appears on the edge opposite the slide.",
    fields: (st) => ({ next: st.next, bag: st.bag }),
  },
};

const game = () => GAMES[page.game] || GAMES["2048"];

// Delays between the agent's moves, slowest first.
const SPEEDS = [1000, 500, 250, 120, 60, 20, 0];

const $ = (id) => document.getElementById(id);

const page = {
  info: null,
  game: "2048",
  st: null, // {board, tiles, seed, over}, and in Threes! {next, bag, score}
  n: 0, // moves made
  score: 0,
  spawn: -1,
  agentMoves: 0, // moves of this game the agent made
  personMoves: 0, // and the person
  recorded: false,
  playing: false,
  runs: 0, // autoplay runs started
  busy: false,
  speed: 3,
  hintBusy: false,
  hintAgain: false,
  cells: [],
  stats: [],
  queue: [], // the person's moves waiting for the one under way
};

async function api(path, body) {
  const opt = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, opt);
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    throw new Error(`${path}: ${res.status} ${res.statusText}`);
  }
  if (!res.ok) {
    const err = new Error(data && data.error ? data.error : `${path}: ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

function say(msg) {
  $("status").textContent = msg || "";
}

function depth() {
  return Number($("depth").value);
}

// ---- the board ----

function buildBoard() {
  const b = $("board");
  for (let i = 0; i < 16; i++) {
    const c = document.createElement("div");
    c.className = "tile";
    b.appendChild(c);
    page.cells.push(c);
  }
}

function render() {
  const g = game();
  const st = page.st;
  if (!st) return;
  let maxTile = 0;
  st.tiles.forEach((v, i) => {
    const c = page.cells[i];
    c.textContent = g.text(v);
    c.className = "tile " + g.cls(v) + (i === page.spawn ? " new" : "");
    c.dataset.value = v;
    maxTile = Math.max(maxTile, v);
  });
  const b = $("board");
  b.dataset.board = st.board;
  b.dataset.over = st.over ? "1" : "0";
  $("score").textContent = page.score;
  $("moves").textContent = page.n;
  $("maxtile").textContent = maxTile;
  const next = $("next");
  $("next-box").hidden = !st.next;
  if (st.next) {
    next.textContent = g.text(st.next);
    next.className = "tile mini " + g.cls(st.next);
    next.dataset.value = st.next;
    $("next-box").title = `next tile ${st.next}; left in the bag: ${(st.bag || []).join(", ")}`;
  } else {
    next.textContent = "";
    delete next.dataset.value;
  }
  $("over").hidden = !st.over;
  $("over-text").textContent = `Game over: ${page.score}`;
}

function maxTileOf(st) {
  return Math.max(...st.tiles);
}

// ---- games and moves ----

// position is what the server needs to know of the game on screen.
function position(st) {
  return { game: page.game, board: st.board, ...game().fields(st) };
}

// stateOf keeps what the page holds of a state the server sent.
function stateOf(res) {
  const st = { board: res.board, tiles: res.tiles, seed: res.seed, over: res.over, downgrades: res.downgrades || 0 };
  if (res.next) Object.assign(st, { next: res.next, bag: res.bag, score: res.score });
  return st;
}

// showGame marks the page with its game: colours, statistics, rules.
function showGame() {
  const g = game();
  document.body.dataset.game = page.game;
  $("game").value = page.game;
  const heads = $("stats").querySelectorAll("th.rate");
  g.rates.forEach((t, i) => (heads[i].textContent = t));
  $("rules").textContent = g.rules;
  $("rules").hidden = !g.rules;
  showInput();
}

// A touch screen (a coarse pointer) is told of swipes, a screen with a
// mouse or trackpad of keys; a tablet given a mouse changes its mind.
const coarse = window.matchMedia("(pointer: coarse)");

function showInput() {
  const touch = coarse.matches;
  document.body.dataset.input = touch ? "touch" : "keys";
  $("help-keys").hidden = touch;
  $("help-touch").hidden = !touch;
  $("board").setAttribute("aria-label", `${game().title} board, ${touch ? "swipe to move" : "use the arrow keys"}`);
}

async function newGame() {
  page.queue = [];
  const res = await api("/api/new", { game: page.game });
  const st = stateOf(res);
  Object.assign(page, { st, n: 0, score: st.score || 0, spawn: -1, agentMoves: 0, personMoves: 0, recorded: false });
  render();
  refreshHint();
}

// move plays dir on the current board; by says whose move it is.
async function move(dir, byAgent) {
  const st = page.st;
  const res = await api("/api/move", { ...position(st), dir, seed: st.seed, n: page.n });
  if (page.st !== st) return false; // a new game began meanwhile
  if (!res.legal) return false;
  page.n++;
  // Threes! states carry their score (the board's value, the placed
  // tile's included); 2048's is the sum of the rewards.
  page.score = res.score !== undefined ? res.score : page.score + res.reward;
  page.spawn = res.spawn;
  if (byAgent) page.agentMoves++;
  else page.personMoves++;
  page.st = stateOf(res);
  if (res.over) recordGame();
  render();
  refreshHint();
  return true;
}

// exclusive runs one action at a time: other actions asked for meanwhile
// are dropped, except the person's moves, a few of which wait their turn.
async function exclusive(fn) {
  if (page.busy) return;
  page.busy = true;
  document.body.dataset.busy = "1";
  try {
    await fn();
    say("");
  } catch (e) {
    say(e.message);
  } finally {
    page.busy = false;
    document.body.dataset.busy = "0";
  }
  const dir = page.queue.shift();
  if (dir) await personMove(dir);
}

async function agentMove() {
  const st = page.st;
  if (!st || st.over) return;
  const a = await api("/api/agent", { ...position(st), depth: depth() });
  if (page.st !== st) return;
  if (a.dir === null) {
    st.over = true;
    recordGame();
    render();
    return;
  }
  await move(a.dir, true);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// autoplay plays while its run lasts: a pause ends the run, and a play
// after it starts another, so a loop that slept through a pause and a
// play does not go on beside the new one (it would start a new game over
// the one the person began).
async function autoplay() {
  const run = ++page.runs;
  const live = () => page.playing && page.runs === run;
  while (live()) {
    const t0 = performance.now();
    if (!page.st || page.st.over) {
      await sleep(Math.min(1500, Math.max(300, 3 * SPEEDS[page.speed])));
      if (!live()) break;
      await exclusive(newGame);
      continue;
    }
    let failed = false;
    await exclusive(async () => {
      try {
        await agentMove();
      } catch (e) {
        failed = true;
        throw e;
      }
    });
    const wait = SPEEDS[page.speed] - (performance.now() - t0);
    await sleep(failed ? 1000 : Math.max(0, wait));
  }
}

function setPlaying(on) {
  if (page.playing === on) return;
  page.playing = on;
  const b = $("play");
  b.classList.toggle("on", on);
  b.setAttribute("aria-pressed", on ? "true" : "false");
  $("board").dataset.playing = on ? "1" : "0";
  if (on) autoplay();
}

function showSpeed() {
  const ms = SPEEDS[page.speed];
  $("speed").textContent = ms ? `${ms} ms/move` : "full speed";
  $("slower").disabled = page.speed === 0;
  $("faster").disabled = page.speed === SPEEDS.length - 1;
}

function changeSpeed(by) {
  page.speed = Math.max(0, Math.min(SPEEDS.length - 1, page.speed + by));
  showSpeed();
}

// ---- hints ----

function fmt(x) {
  return x.toLocaleString("en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 });
}

// refreshHint asks for the values of the current board; while one request
// is under way, later boards wait for it and only the newest is asked.
async function refreshHint() {
  if (!$("hints-on").checked) return;
  if (page.hintBusy) {
    page.hintAgain = true;
    return;
  }
  page.hintBusy = true;
  try {
    do {
      page.hintAgain = false;
      const st = page.st;
      try {
        const h = await api("/api/hint", { ...position(st), depth: depth() });
        if (page.st === st) showHint(h);
      } catch (e) {
        $("hint-note").textContent = e.message;
      }
    } while (page.hintAgain && $("hints-on").checked);
  } finally {
    page.hintBusy = false;
  }
}

function showHint(h) {
  const table = $("hint");
  table.dataset.board = h.board;
  for (const m of h.moves) {
    const row = table.querySelector(`tr[data-dir="${m.dir}"]`);
    row.classList.toggle("illegal", !m.legal);
    row.classList.toggle("best", h.best === m.dir);
    row.dataset.value = m.legal ? m.total : "";
    row.querySelector(".r").textContent = m.legal ? m.reward : "";
    row.querySelector(".v").textContent = m.legal ? fmt(m.value) : "illegal";
    row.querySelector(".t").textContent = m.legal ? fmt(m.total) : "";
  }
  let note = `depth ${h.depth}, ${(h.us / 1000).toFixed(1)} ms`;
  if (h.depth < h.requested) note = `depth ${h.depth} of ${h.requested} (the time budget ran out), ${(h.us / 1000).toFixed(1)} ms`;
  if (h.best === null) note = "no legal move";
  $("hint-note").textContent = note;
}

function clearHint() {
  const table = $("hint");
  delete table.dataset.board;
  for (const row of table.querySelectorAll("tbody tr")) {
    row.classList.remove("best", "illegal");
    row.dataset.value = "";
    for (const c of row.querySelectorAll(".r,.v,.t")) c.textContent = "";
  }
  $("hint-note").textContent = "";
}

// ---- statistics of the games played on this page ----

function statsKey() {
  return "td2048.stats." + page.game + "." + (page.info ? page.info.network + "." + page.info.episodes : "");
}

function loadStats() {
  try {
    page.stats = JSON.parse(localStorage.getItem(statsKey()) || "[]");
  } catch (e) {
    page.stats = [];
  }
  showStats();
}

// whose says whose game it is: the agent's if it made every move, the
// person's ("you") if they made every move, else "mixed".
function whose(agentMoves, personMoves) {
  if (personMoves === 0) return "agent";
  if (agentMoves === 0) return "you";
  return "mixed";
}

// whoOf is whose game a recorded one was. Records from before mixed games
// were told apart say only whether the agent made every move.
function whoOf(g) {
  return g.who || (g.agent ? "agent" : "you");
}

function recordGame() {
  if (page.recorded || page.n === 0) return;
  page.recorded = true;
  page.stats.push({ score: page.score, max: maxTileOf(page.st), moves: page.n, who: whose(page.agentMoves, page.personMoves) });
  if (page.stats.length > 10000) page.stats.shift();
  try {
    localStorage.setItem(statsKey(), JSON.stringify(page.stats));
  } catch (e) {
    // private mode: keep them in memory only
  }
  showStats();
}

function showStats() {
  const body = $("stats").querySelector("tbody");
  body.textContent = "";
  const rows = [
    ...["agent", "you", "mixed"].map((who) => [who, page.stats.filter((g) => whoOf(g) === who)]),
    ["all", page.stats],
  ];
  for (const [name, games] of rows) {
    const tr = document.createElement("tr");
    tr.dataset.who = name;
    const n = games.length;
    const rate = (t) => (n ? ((100 * games.filter((g) => g.max >= t).length) / n).toFixed(1) + "%" : "");
    const cells = [
      name, n,
      n ? Math.round(games.reduce((s, g) => s + g.score, 0) / n) : "",
      n ? Math.max(...games.map((g) => g.score)) : "",
      ...game().rates.map(rate),
    ];
    for (const v of cells) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

// ---- the training curve, drawn as SVG ----

const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// niceStep is 1, 2 or 5 times a power of ten, giving about n ticks to hi.
function niceStep(hi, n) {
  const raw = hi / n;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

function short(x) {
  if (x >= 1e6) return +(x / 1e6).toFixed(2) + "M";
  if (x >= 1e3) return +(x / 1e3).toFixed(1) + "k";
  return String(+x.toFixed(2));
}

// drawCurve draws the training curve: the average score of each block
// (solid, left axis) and the share of its games that reached the goal
// tile (dashed, right axis), with both axes' titles and a legend above
// the plot, so that all of it is seen at once.
function drawCurve(c) {
  const points = c.points;
  const box = $("curve");
  box.textContent = "";
  if (!points.length) {
    box.textContent = c.other
      ? `The log holds ${c.other} blocks of another game's training, none of ${game().title}.`
      : "The log has no blocks yet.";
    return;
  }
  const W = 520, H = 270, L = 66, R = 58, T = 34, B = 36;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `training curve: average score and ${c.goal} rate by episodes` });
  const xMax = Math.max(...points.map((p) => p.episodes), 1);
  const xs = niceStep(xMax, 5);
  const xTop = Math.ceil(xMax / xs) * xs;
  const yMax = Math.max(...points.map((p) => p.avg), 1);
  const ys = niceStep(yMax, 5);
  const yTop = Math.ceil(yMax / ys) * ys;
  const X = (v) => L + ((W - L - R) * v) / xTop;
  const Y = (v) => H - B - ((H - T - B) * v) / yTop;
  const Yr = (r) => H - B - (H - T - B) * r;
  // Ticks counted, not summed: a range too large to step through (a
  // score near the largest double) draws a few ticks, never loops.
  const ticks = (top, step) => Array.from({ length: Math.min(Math.round(top / step), 10) + 1 || 1 }, (_, i) => i * step);
  for (const v of ticks(yTop, ys)) {
    svg.appendChild(el("line", { class: "grid", x1: L, x2: W - R, y1: Y(v), y2: Y(v) }));
    svg.appendChild(el("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end" }, short(v)));
  }
  for (let r = 0; r <= 1.001; r += 0.25) {
    svg.appendChild(el("text", { x: W - R + 6, y: Yr(r) + 4 }, Math.round(r * 100) + "%"));
  }
  for (const v of ticks(xTop, xs)) {
    svg.appendChild(el("line", { class: "axis", x1: X(v), x2: X(v), y1: H - B, y2: H - B + 4 }));
    svg.appendChild(el("text", { x: X(v), y: H - B + 16, "text-anchor": "middle" }, short(v)));
  }
  // The axes' titles: episodes under, the score left, the rate right.
  const mid = (T + H - B) / 2;
  svg.appendChild(el("text", { class: "title", x: (L + W - R) / 2, y: H - 3, "text-anchor": "middle" }, "episodes"));
  svg.appendChild(el("text", { class: "title", x: 14, y: mid, "text-anchor": "middle", transform: `rotate(-90 14 ${mid})` }, "average score"));
  svg.appendChild(el("text", { class: "title", x: W - 10, y: mid, "text-anchor": "middle", transform: `rotate(90 ${W - 10} ${mid})` }, `${c.goal} rate`));
  svg.appendChild(el("line", { class: "axis", x1: L, x2: W - R, y1: H - B, y2: H - B }));
  svg.appendChild(el("line", { class: "axis", x1: L, x2: L, y1: T, y2: H - B }));
  const path = (f) => points.map((p, i) => (i ? "L" : "M") + X(p.episodes).toFixed(1) + " " + f(p).toFixed(1)).join(" ");
  svg.appendChild(el("path", { class: "avg", d: path((p) => Y(p.avg)) }));
  svg.appendChild(el("path", { class: "reach", d: path((p) => Yr(p.reach)) }));
  // The legend, above the plot.
  const legend = el("g", { class: "legend" });
  legend.appendChild(el("line", { class: "avg", x1: L, x2: L + 26, y1: 14, y2: 14 }));
  legend.appendChild(el("text", { x: L + 32, y: 18 }, "average score per block"));
  legend.appendChild(el("line", { class: "reach", x1: L + 200, x2: L + 226, y1: 14, y2: 14 }));
  legend.appendChild(el("text", { x: L + 232, y: 18 }, `${c.goal} rate (share of the block's games)`));
  svg.appendChild(legend);
  const last = points[points.length - 1];
  svg.appendChild(el("title", {}, `${last.episodes} episodes: avg ${Math.round(last.avg)}, ${c.goal} rate ${(100 * last.reach).toFixed(1)}%`));
  box.appendChild(svg);
}

async function refreshCurve() {
  if (!page.info || !page.info.curve) return;
  try {
    const c = await api("/api/curve");
    $("curve-panel").hidden = false;
    drawCurve(c);
  } catch (e) {
    $("curve-panel").hidden = false;
    $("curve").textContent = e.message;
  }
}

// ---- input ----

const KEYS = {
  ArrowUp: "up", ArrowRight: "right", ArrowDown: "down", ArrowLeft: "left",
  k: "up", l: "right", j: "down", h: "left",
};

async function personMove(dir) {
  setPlaying(false);
  if (page.busy) {
    if (page.queue.length < 3) page.queue.push(dir);
    return;
  }
  if (page.st && !page.st.over) await exclusive(() => move(dir, false));
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target && e.target.tagName;
  if (tag === "SELECT" || tag === "INPUT") return;
  if (tag === "BUTTON" && (e.key === " " || e.key === "Enter")) return; // the button's own
  const dir = KEYS[e.key];
  if (dir) {
    e.preventDefault();
    personMove(dir);
    return;
  }
  switch (e.key) {
    case " ":
      e.preventDefault();
      setPlaying(!page.playing);
      break;
    case "s":
      setPlaying(false);
      exclusive(agentMove);
      break;
    case "n":
      exclusive(newGame);
      break;
    case "+": case "=":
      changeSpeed(1);
      break;
    case "-":
      changeSpeed(-1);
      break;
  }
}

function onSwipe() {
  const b = $("board");
  let x0 = 0, y0 = 0, on = false;
  b.addEventListener("touchstart", (e) => {
    if (e.touches.length !== 1) return;
    on = true;
    x0 = e.touches[0].clientX;
    y0 = e.touches[0].clientY;
  }, { passive: true });
  b.addEventListener("touchend", (e) => {
    if (!on) return;
    on = false;
    const t = e.changedTouches[0];
    const dx = t.clientX - x0, dy = t.clientY - y0;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 30) return;
    personMove(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up"));
  });
}

// ---- start ----

async function start() {
  buildBoard();
  showSpeed();
  document.addEventListener("keydown", onKey);
  onSwipe();
  coarse.addEventListener("change", showInput);
  showInput();
  // A clicked button gives the keys back to the board, so that space
  // toggles the agent rather than clicking the button again.
  const button = (id, fn) => $(id).addEventListener("click", (e) => {
    fn();
    if (e.detail > 0) $("board").focus();
  });
  button("new", () => exclusive(newGame));
  button("over-new", () => exclusive(newGame));
  button("play", () => setPlaying(!page.playing));
  button("step", () => {
    setPlaying(false);
    exclusive(agentMove);
  });
  button("slower", () => changeSpeed(-1));
  button("faster", () => changeSpeed(1));
  $("depth").addEventListener("change", () => refreshHint());
  $("hints-on").addEventListener("change", () => ($("hints-on").checked ? refreshHint() : clearHint()));
  $("game").addEventListener("change", () => {
    page.game = $("game").value;
    showGame();
    loadStats();
    exclusive(newGame);
  });
  try {
    page.info = await api("/api/info");
    const i = page.info;
    // The server plays the game of its weights: the others are shown,
    // but cannot be chosen.
    if (i.games.length && !i.games.includes(page.game)) page.game = i.games[0];
    for (const o of [...$("game").options]) {
      const ok = i.games.includes(o.value);
      o.disabled = !ok;
      if (!ok) {
        const t = (GAMES[o.value] || { title: o.value }).title;
        o.textContent = `${t} (needs ${t} weights)`;
        o.title = `this server's weights are for ${i.games.map((g) => (GAMES[g] || { title: g }).title).join(", ")}`;
      }
    }
    $("net").textContent = `network ${i.network} for ${i.games.map((g) => (GAMES[g] || { title: g }).title).join(", ")}, ${i.learner === "state" ? "state-value" : "after-state"} TD(0), ` +
      `${i.episodes.toLocaleString("en-US")} episodes trained; search up to depth ${i.maxDepth}, ${i.moveTimeMs} ms per search`;
    for (const o of [...$("depth").options]) if (Number(o.value) > i.maxDepth) o.remove();
  } catch (e) {
    say(e.message);
  }
  showGame();
  loadStats();
  await exclusive(newGame);
  $("board").focus();
  document.body.dataset.ready = "1";
  refreshCurve();
  setInterval(refreshCurve, 30000);
}

start();
