// The floe page: every game through one API (docs/web.md). The server holds the rules, the
// solver and the pictures; this script sends what the player does and shows what it answers.
"use strict";

const $ = (id) => document.getElementById(id);
const SETUPS = {
  boxoff: ["shuffled", "ltiles"],
  pretzel: ["shuffled", "sequential", "banded"],
  fujisan: ["shuffled", "piecepack", "engraved", "dominoes", "piecepack-spec"],
};

const ui = {
  games: {},        // name → floe games --json entry
  collections: [],  // GET /api/levels
  text: "",         // the current level's file text
  game: null,       // its game's name
  name: "",         // its name
  state: null,      // the play session's state
  optimum: null,    // fewest moves from the start, when the solver knows
  solution: null,   // the last solve's moves
  job: null,        // the running solve's job name
  tab: "play",
};

// ---------------------------------------------------------------------------------------
// Talking to the server

async function api(path, { body, query = {}, method = "POST" } = {}) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== "") qs.append(k, String(v));
  }
  const url = path + (qs.toString() ? "?" + qs : "");
  const r = await fetch(url, { method, body });
  const type = r.headers.get("content-type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  return { ok: r.ok, status: r.status, exit: r.headers.get("x-floe-exit"), data };
}

function say(text, bad = false) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("bad", bad);
}

// ---------------------------------------------------------------------------------------
// Levels: collections, files, pasted text, links

async function start() {
  const [games, levels] = await Promise.all([
    api("/api/games", { method: "GET" }),
    api("/api/levels", { method: "GET" }),
  ]);
  for (const g of games.data) ui.games[g.name] = g;
  ui.collections = levels.data;
  const sel = $("collection");
  for (const c of ui.collections) sel.add(new Option(`${c.file} (${c.levels.length})`, c.file));
  for (const g of Object.keys(ui.games)) $("new-game").add(new Option(ui.games[g].title, g));
  sel.onchange = () => fillLevels(true);
  $("level").onchange = () => pickLevel();
  setupSolitaire();
  wire();
  const shared = new URLSearchParams(location.hash.slice(1));
  if (shared.get("level")) {
    await load(shared.get("level"), shared.get("game"));
    fillLevels(false);
  } else {
    fillLevels(true);
  }
}

function fillLevels(pick) {
  const c = ui.collections.find((c) => c.file === $("collection").value);
  const sel = $("level");
  sel.innerHTML = "";
  if (!c) return;
  for (const l of c.levels) sel.add(new Option(`${l.index}. ${l.name} (${l.rows}×${l.cols})`, l.index));
  if (pick) pickLevel();
}

function pickLevel() {
  const c = ui.collections.find((c) => c.file === $("collection").value);
  const l = c && c.levels.find((l) => String(l.index) === $("level").value);
  if (l) load(l.text);
}

// Loads a level's text everywhere: a play session, the editor, the link.
async function load(text, game) {
  const r = await api("/api/play", { body: text, query: { game } });
  if (!r.ok) {
    say(r.data.error, true);
    return false;
  }
  ui.text = text;
  ui.game = r.data.game;
  ui.name = r.data.level;
  ui.optimum = null;
  ui.solution = null;
  for (const b of ["step", "step-back", "watch", "download-animation"]) $(b).disabled = true;
  $("solve-report").textContent = "";
  show(r.data);
  history.replaceState(null, "", "#" + new URLSearchParams({ level: text }).toString());
  $("text").value = text;
  buildEditor();
  fillAlgorithms();
  verdict();
  return true;
}

// ---------------------------------------------------------------------------------------
// Play

function show(st) {
  ui.state = st;
  $("board").innerHTML = st.svg;
  $("title").textContent = `${st.level} — ${ui.games[st.game].title}`;
  const word = st.length === 1 ? st.move_word : plural(st.move_word);
  let moves = `${st.length} ${word}`;
  if (ui.optimum !== null) moves += ` (optimum ${ui.optimum})`;
  if (st.solved) moves += " — solved!";
  $("moves").textContent = moves;
  $("moves").classList.toggle("solved", st.solved);
  if (st.verdict) showVerdict(st.verdict);
  say(st.message || "");
  $("keys-help").textContent = {
    "select-block": "Click a block (or tab) to select it, arrows push it; u undo, r redo, R restart, h hint, H play the hint.",
    walk: "Arrows (or a click beside the player) walk and push; u undo, r redo, R restart, h hint, H play the hint.",
    "pick-move": "Click a piece (or tab) to show a move through it, enter plays it; u undo, r redo, R restart, h hint, H play the hint.",
  }[st.keys];
  $("enter").hidden = st.keys !== "pick-move";
}

function plural(w) {
  return w === "push" ? "pushes" : w + "s";
}

function showVerdict(v) {
  const el = $("verdict");
  el.textContent = "still solvable: " + v.said;
  el.className = v.solvable === "yes" ? "yes" : v.solvable === "no" ? "no" : "unknown";
  if (ui.state && ui.state.length === 0 && v.solvable === "yes" && ui.optimum === null) {
    ui.optimum = v.to_go;
    show(ui.state);
  }
}

async function verdict() {
  const st = ui.state;
  if (!st) return;
  $("verdict").textContent = "still solvable: …";
  const r = await api(`/api/play/${st.session}/verdict`);
  if (r.ok && ui.state && ui.state.session === st.session) {
    if (r.data.length === ui.state.length) show(r.data);
  }
}

async function press(keys) {
  const st = ui.state;
  if (!st) return;
  const r = await api(`/api/play/${st.session}`, { query: { keys } });
  if (!r.ok) return say(r.data.error, true);
  const moved = r.data.length !== st.length || r.data.board !== st.board;
  show(r.data);
  if (moved && !r.data.verdict) verdict();
}

async function playMove(move) {
  const r = await api(`/api/play/${ui.state.session}`, { query: { move: JSON.stringify([move]) } });
  if (!r.ok) return say(r.data.error, true);
  show(r.data);
}

const KEYS = {
  ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
  Tab: "tab", Enter: "enter", " ": "tab", u: "u", r: "r", R: "R", h: "h", H: "H",
};

function onKey(e) {
  if (ui.tab !== "play" || e.target.matches("input, textarea, select")) return;
  let key = KEYS[e.key];
  if (e.key === "Tab" && e.shiftKey) key = "backtab";
  if (e.ctrlKey && e.key === "z") key = "u";
  if (e.ctrlKey && e.key === "y") key = "r";
  if (!key || (e.ctrlKey && !["u", "r"].includes(key))) return;
  e.preventDefault();
  press(key);
}

// A click on the board: the cell under it, then what it means in this game.
function onBoardClick(e) {
  const st = ui.state;
  const svg = $("board").querySelector("svg");
  if (!st || !svg || ui.tab !== "play") return;
  const box = svg.getBoundingClientRect();
  const scale = box.width / st.geometry.width;
  const col = Math.floor(((e.clientX - box.left) / scale - st.geometry.x) / st.geometry.cell);
  const row = Math.floor(((e.clientY - box.top) / scale - st.geometry.y) / st.geometry.cell);
  if (row < 0 || col < 0 || row >= st.rows || col >= st.cols) return;
  if (st.keys === "walk") {
    if (!st.actor) return;
    const dr = row - st.actor.row, dc = col - st.actor.col;
    if (dr === 0 && dc === 0) return;
    press(Math.abs(dr) >= Math.abs(dc) ? (dr < 0 ? "up" : "down") : dc < 0 ? "left" : "right");
  } else if (st.keys === "select-block" && st.selected &&
             (row === st.selected.row) !== (col === st.selected.col) &&
             !(row === st.selected.row && col === st.selected.col) &&
             !isBlockAt(row, col)) {
    const s = st.selected;
    press(row === s.row ? (col < s.col ? "left" : "right") : row < s.row ? "up" : "down");
  } else {
    press(`click:${row}:${col}`);
  }
}

function isBlockAt(row, col) {
  const lines = ui.state.board.split("\n");
  const ch = (lines[row] || "")[col];
  return ch === "$" || ch === "*";
}

// ---------------------------------------------------------------------------------------
// Edit: the board's text as a grid of the game's symbols, with a live verdict

function split(text) {
  const head = [], board = [];
  for (const line of text.split("\n")) {
    if (board.length === 0 && (line.startsWith(";") || /^[A-Za-z][A-Za-z ]*:/.test(line) || line.trim() === "")) {
      head.push(line);
    } else if (line.trim() !== "" || board.length === 0) {
      board.push(line);
    }
  }
  return { head, board };
}

function cellsOf(line, sep) {
  return sep ? line.split(sep) : Array.from(line);
}

let brush = null;
let painting = false;

function buildEditor() {
  const g = ui.games[ui.game];
  if (!g) return;
  const pal = $("palette");
  pal.innerHTML = "";
  g.cells.glyphs.forEach((gl, i) => {
    const b = document.createElement("button");
    b.className = "glyph g" + (i % 12);
    b.dataset.glyph = gl.text;
    b.title = gl.about;
    b.textContent = gl.text === " " ? "␣" : gl.text;
    b.onclick = () => {
      brush = gl.text;
      for (const x of pal.children) x.classList.toggle("on", x === b);
    };
    pal.appendChild(b);
  });
  if (!brush || !g.cells.glyphs.some((x) => x.text === brush)) brush = g.cells.glyphs[0].text;
  for (const x of pal.children) x.classList.toggle("on", x.dataset.glyph === brush);
  drawGrid();
}

function drawGrid() {
  const g = ui.games[ui.game];
  const { board } = split($("text").value);
  const rows = board.map((l) => cellsOf(l, g.cells.separator));
  const cols = Math.max(1, ...rows.map((r) => r.length));
  const grid = $("grid");
  grid.innerHTML = "";
  grid.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  const index = Object.fromEntries(g.cells.glyphs.map((x, i) => [x.text, i]));
  rows.forEach((r, ri) => {
    for (let ci = 0; ci < cols; ci++) {
      const v = r[ci] ?? "";
      const d = document.createElement("div");
      d.className = "cell" + (v in index ? " g" + (index[v] % 12) : " unknown");
      d.dataset.r = ri;
      d.dataset.c = ci;
      d.textContent = v === " " ? "" : v;
      d.onpointerdown = (e) => { painting = true; paint(d); e.preventDefault(); };
      d.onpointerenter = () => { if (painting) paint(d); };
      grid.appendChild(d);
    }
  });
}

document.addEventListener("pointerup", () => { painting = false; });

function setCell(r, c, v) {
  const g = ui.games[ui.game];
  const { head, board } = split($("text").value);
  const rows = board.map((l) => cellsOf(l, g.cells.separator));
  while (rows.length <= r) rows.push([]);
  const blank = g.cells.glyphs[0].text;
  while (rows[r].length <= c) rows[r].push(blank);
  rows[r][c] = v;
  writeBoard(head, rows);
}

function writeBoard(head, rows) {
  const sep = ui.games[ui.game].cells.separator;
  const text = [...head.filter((l) => l.trim() !== ""), ...rows.map((r) => r.join(sep))].join("\n") + "\n";
  $("text").value = text;
  drawGrid();
  editChanged();
}

function paint(d) {
  setCell(+d.dataset.r, +d.dataset.c, brush);
}

function reshape(dr, dc) {
  const g = ui.games[ui.game];
  const { head, board } = split($("text").value);
  let rows = board.map((l) => cellsOf(l, g.cells.separator));
  const blank = g.cells.glyphs[0].text;
  const cols = Math.max(1, ...rows.map((r) => r.length));
  if (dr > 0) rows.push(Array(cols).fill(blank));
  if (dr < 0 && rows.length > 1) rows.pop();
  if (dc > 0) rows = rows.map((r) => [...r, blank]);
  if (dc < 0 && cols > 1) rows = rows.map((r) => r.slice(0, cols - 1));
  writeBoard(head, rows);
}

function newBoard() {
  const game = $("new-game").value;
  const g = ui.games[game];
  const rows = Math.max(1, Math.min(40, +$("new-rows").value || 5));
  const cols = Math.max(1, Math.min(40, +$("new-cols").value || 5));
  ui.game = game;
  buildEditor();
  const blank = g.cells.glyphs[0].text;
  writeBoard([`Game: ${game}`, "Title: my level"], Array.from({ length: rows }, () => Array(cols).fill(blank)));
}

let editTimer = null;
let editAsked = 0;

function editChanged() {
  clearTimeout(editTimer);
  editTimer = setTimeout(editVerdict, 250);
}

async function editVerdict() {
  const text = $("text").value;
  const asked = ++editAsked;
  const el = $("edit-verdict");
  el.textContent = "checking…";
  el.className = "";
  const r = await api("/api/hint", { body: text, query: { game: ui.game } });
  if (asked !== editAsked) return;
  if (!r.ok) {
    el.textContent = r.data.error;
    el.className = "no";
    return;
  }
  const d = r.data;
  const word = ui.games[d.game].move_word;
  el.textContent = d.solvable === "yes"
    ? `solvable in ${d.to_go} ${d.to_go === 1 ? word : plural(word)}`
    : d.solvable === "no" ? "unsolvable"
    : d.solvable === "unknown" ? `unknown within the limits (${d.limit})`
    : `the solver failed: ${d.error}`;
  el.className = d.solvable === "yes" ? "yes" : d.solvable === "no" ? "no" : "unknown";
}

// ---------------------------------------------------------------------------------------
// Solve: any algorithm, a stop button, the solution stepped through or animated

function fillAlgorithms() {
  const g = ui.games[ui.game];
  const sel = $("algo");
  const was = sel.value;
  sel.innerHTML = "";
  for (const a of g.algorithms) sel.add(new Option(`${a.name} — ${a.about}`, a.name));
  sel.add(new Option("random — random play (Kluiver)", "random"));
  sel.add(new Option("mc — BasicMC (Kluiver)", "mc"));
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
  $("factor-label").hidden = !g.capabilities.block_changes;
}

async function solve() {
  ui.job = "solve-" + Math.random().toString(36).slice(2, 10);
  $("solve").disabled = true;
  $("stop").disabled = false;
  $("solve-report").textContent = "solving…";
  const g = ui.games[ui.game];
  const query = {
    algo: $("algo").value,
    max_states: $("max-states").value,
    timeout: $("timeout").value,
    job: ui.job,
  };
  if (g.capabilities.block_changes) query.factor = $("factor").value;
  const r = await api("/api/solve", { body: ui.text, query });
  $("solve").disabled = false;
  $("stop").disabled = true;
  ui.job = null;
  if (!r.ok && !r.data.status) {
    $("solve-report").textContent = r.data.error;
    return;
  }
  const d = r.data;
  const lines = [`${d.status}${d.length !== null ? `: ${d.length} ${plural(ui.games[d.game].move_word)}` : ""}`];
  if (d.difficulty) lines.push(`difficulty ${d.difficulty.value} (factor ${d.difficulty.factor})`);
  const why = { "max-states": "at the positions limit", timeout: "at the time limit",
    "max-memory": "at the memory limit", interrupted: "by the stop button",
    "max-moves": "at the move cap" }[d.limit] || d.limit;
  if (d.limit) lines.push(`stopped ${why}; at least ${d.lower_bound} needed`);
  if (d.note) lines.push(d.note);
  lines.push(`${d.states.toLocaleString()} positions in ${d.seconds.toFixed(3)} s`);
  if (d.moves && d.moves.length) lines.push("", ...d.moves.map((m, i) => `${i + 1}. ${moveText(m)}`));
  $("solve-report").textContent = lines.join("\n");
  ui.solution = d.status === "solved" ? d.moves : null;
  for (const b of ["step", "step-back", "watch", "download-animation"]) $(b).disabled = !ui.solution;
  if (ui.solution) await press("R");
}

// A move as people read it: a push "(row, col) dir", else its fields.
function moveText(m) {
  if (m && m.dir !== undefined && m.row !== undefined) return `(${m.row}, ${m.col}) ${m.dir}`;
  if (m && typeof m === "object") return Object.entries(m).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ");
  return String(m);
}

async function stop() {
  if (ui.job) await api("/api/stop", { query: { job: ui.job } });
}

async function step() {
  const st = ui.state;
  if (!ui.solution || st.length >= ui.solution.length) return false;
  await playMove(ui.solution[st.length]);
  return true;
}

async function watch() {
  await press("R");
  while (ui.tab === "solve" && (await step())) {
    await new Promise((ok) => setTimeout(ok, 450));
  }
  if (ui.state.solved) verdict();
}

// ---------------------------------------------------------------------------------------
// Generate

async function generateIce() {
  const out = $("gen-results");
  out.innerHTML = "<li>generating…</li>";
  const r = await api("/api/generate", {
    query: {
      rows: $("g-rows").value, cols: $("g-cols").value, targets: $("g-targets").value,
      max_blocks: $("g-blocks").value, min_pushes: $("g-pushes").value,
      min_difficulty: $("g-difficulty").value, unique: $("g-unique").checked ? "true" : "",
      seed: $("g-seed").value, count: 3, timeout: 20,
    },
  });
  out.innerHTML = "";
  if (!r.ok) return addResult(r.data.error);
  if (!r.data.levels.length) return addResult("no level within the limits: ask for fewer pushes or a larger board");
  for (const l of r.data.levels) {
    const v = l.verified;
    addResult(`${v.pushes} pushes, difficulty ${v.difficulty}${v.unique ? ", unique" : ""} (verified: ${v.states} positions)`, l.level);
  }
}

function setupSolitaire() {
  const fill = () => {
    const sel = $("s-setup");
    sel.innerHTML = "";
    for (const s of SETUPS[$("s-game").value]) sel.add(new Option(s, s));
  };
  $("s-game").onchange = fill;
  fill();
}

async function generateSolitaire() {
  const out = $("gen-results");
  out.innerHTML = "<li>generating…</li>";
  const game = $("s-game").value;
  const r = await api("/api/experiment", {
    query: { game, setup: $("s-setup").value, seed: $("s-seed").value, generate: 1 },
  });
  out.innerHTML = "";
  if (!r.ok) return addResult(r.data.error);
  for (const c of r.data) {
    const text = `Game: ${game}\n${c.text.replace(/^Game:.*\n/, "")}`;
    const s = await api("/api/hint", { body: text });
    const said = !s.ok ? s.data.error
      : s.data.solvable === "yes" ? `solvable in ${s.data.to_go} moves`
      : s.data.solvable === "no" ? "unsolvable" : "unknown within the limits";
    addResult(`${c.title}: ${said}`, text);
  }
}

function addResult(what, text) {
  const li = document.createElement("li");
  li.textContent = what + " ";
  if (text) {
    const b = document.createElement("button");
    b.textContent = "Play";
    b.className = "load-result";
    b.onclick = async () => { if (await load(text)) tab("play"); };
    li.appendChild(b);
  }
  $("gen-results").appendChild(li);
}

// ---------------------------------------------------------------------------------------
// Files, links, tabs

function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function fileName(ext) {
  return (ui.name || "level").replace(/[^A-Za-z0-9_-]+/g, "-") + ext;
}

function tab(name) {
  ui.tab = name;
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("on", b.dataset.tab === name);
  for (const t of document.querySelectorAll(".tab")) t.hidden = t.id !== "tab-" + name;
  if (name === "edit") { buildEditor(); editVerdict(); }
}

function wire() {
  document.addEventListener("keydown", onKey);
  $("board").addEventListener("click", onBoardClick);
  for (const b of document.querySelectorAll("#tabs button")) b.onclick = () => tab(b.dataset.tab);
  $("undo").onclick = () => press("u");
  $("redo").onclick = () => press("r");
  $("restart").onclick = () => press("R");
  $("hint").onclick = () => press("h");
  $("follow").onclick = () => press("H");
  $("enter").onclick = () => press("enter");
  $("open-file").onclick = () => $("file").click();
  $("file").onchange = async () => {
    const f = $("file").files[0];
    if (f) await load(await f.text());
  };
  $("paste").onclick = () => $("paste-dialog").showModal();
  $("paste-dialog").onclose = () => {
    if ($("paste-dialog").returnValue === "load") load($("paste-text").value);
  };
  $("share").onclick = async () => {
    const link = location.href;
    try { await navigator.clipboard.writeText(link); say("link copied: opening it shows this level"); }
    catch { say("the link to this level is the page's address"); }
  };
  $("download-level").onclick = () => download(fileName(".txt"), ui.text, "text/plain");
  $("download-svg").onclick = async () => {
    const r = await api("/api/render", { body: ui.text });
    if (r.ok) download(fileName(".svg"), r.data, "image/svg+xml");
  };
  $("download-animation").onclick = async () => {
    const r = await api("/api/picture", { body: ui.text, query: { moves: JSON.stringify(ui.solution), style: "animate" } });
    if (r.ok) download(fileName("-solution.svg"), r.data, "image/svg+xml");
  };
  $("text").oninput = () => { drawGrid(); editChanged(); };
  $("add-row").onclick = () => reshape(1, 0);
  $("del-row").onclick = () => reshape(-1, 0);
  $("add-col").onclick = () => reshape(0, 1);
  $("del-col").onclick = () => reshape(0, -1);
  $("new-board").onclick = newBoard;
  $("edit-play").onclick = async () => { if (await load($("text").value, ui.game)) tab("play"); };
  $("solve").onclick = solve;
  $("stop").onclick = stop;
  $("step").onclick = step;
  $("step-back").onclick = () => press("u");
  $("watch").onclick = watch;
  $("gen-ice").onclick = generateIce;
  $("gen-solitaire").onclick = generateSolitaire;
  window.addEventListener("hashchange", () => {
    const t = new URLSearchParams(location.hash.slice(1)).get("level");
    if (t && t !== ui.text) load(t);
  });
}

start();
