// The floe page: every game through one API (docs/web.md). The server holds the rules, the
// solver and the pictures; this script sends what the player does and shows what it answers.
// No framework and no build step: the file is compiled into the binary as it is.
"use strict";

const $ = (id) => document.getElementById(id);
const SETUPS = {
  boxoff: ["shuffled", "ltiles"],
  pretzel: ["shuffled", "sequential", "banded"],
  fujisan: ["shuffled", "piecepack", "engraved", "dominoes", "piecepack-spec"],
};
const STORE = "floe.game";
const DRAFT = "floe.draft";
const OWN = "floe.file";
// Each level's progress in this browser: its moves, whether it was solved, the best.
const PROGRESS = "floe.progress";
const PROGRESS_MOST = 400;

const ui = {
  games: {},        // name → floe games --json entry
  collections: [],  // GET /api/levels
  own: null,        // the file opened or pasted, or the level alone: { key, file, game, levels }
  level: null,      // the level played: { text, game (a spec the file does not give, or null), name }
  draft: null,      // the editor's text when it differs from the level's
  state: null,      // the play session's state
  legend: [],       // the level's kinds of cells and pieces
  optimum: null,    // fewest moves from the start, when the solver knows
  replay: null,     // { moves, title, playing }: a solution or a shared game to step through
  job: null,        // the running solve's job name
  tab: "play",
  busy: Promise.resolve(), // the actions in flight, one after the other
};

const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// ---------------------------------------------------------------------------------------
// Talking to the server

async function api(path, { body, query = {}, method = "POST" } = {}) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== "") qs.append(k, String(v));
  }
  const url = path + (qs.toString() ? "?" + qs : "");
  let r;
  try {
    r = await fetch(url, { method, body });
  } catch (e) {
    return { ok: false, status: 0, data: { error: "the server does not answer (is floe serve still running?)" } };
  }
  const type = r.headers.get("content-type") || "";
  let data;
  try {
    data = type.includes("json") ? await r.json() : await r.text();
  } catch {
    data = { error: `the server's answer was cut off (${r.status})` };
  }
  if (!r.ok && typeof data !== "object") data = { error: String(data) };
  return { ok: r.ok, status: r.status, retry: +(r.headers.get("retry-after") || 1), data };
}

// The page's controls for the server's query parameters (its messages name those).
const CONTROLS = {
  max_states: "Positions at most", timeout: "Seconds at most", factor: "Block-change factor",
  algo: "Algorithm", rows: "Rows", cols: "Columns", targets: "Targets", max_blocks: "Blocks at most",
  min_pushes: "Pushes at least", min_difficulty: "Difficulty at least", seed: "Seed", setup: "Setup",
  level: "the level menu", game: "the game chooser",
};

// The server's words for the page: its messages name query parameters where the page has
// controls, and a level's line and column as people say them.
function plain(msg) {
  let m = String(msg || "")
    .replace(/; pick one with (--)?level N or (--)?level NAME \(.*\)$/, ": choose one in the level picker")
    .replace(/only with (--)?dynamic,/, "only under floe's dynamic rules (offered below),")
    .replace(/^([^:\n]+):(\d+):(\d+): /, (_, name, l, c) => `${name === "untitled" ? "" : name + ", "}line ${l}, column ${c}: `);
  // "invalid value '-5' for 'rows': …" → "Rows: invalid value '-5': …"
  m = m.replace(/^(.*?) for '([a-z_]+)'(: |$)/, (all, what, k, colon) => CONTROLS[k] ? `${CONTROLS[k]}: ${what}${colon}` : all);
  m = m.replace(/not provided: ([a-z_, ]+)$/, (all, ks) => "not given: " + ks.split(/,\s*/).map((k) => CONTROLS[k] || k).join(", "));
  for (const [k, label] of Object.entries(CONTROLS)) {
    m = m.replace(new RegExp(`(^|[^\\w-])--?${k.replace(/_/g, "[-_]")}\\b`, "g"), `$1“${label}”`);
  }
  return m;
}

// The form's fields checked before anything is sent: each named by its label, with the
// range it allows. Null when all are right; else the first wrong one's message (the field is
// marked and focused).
function checkFields(ids) {
  for (const id of ids) {
    const el = $(id);
    el.removeAttribute("aria-invalid");
  }
  for (const id of ids) {
    const el = $(id);
    if (el.closest("[hidden]")) continue;
    const label = (el.closest("label") ? el.closest("label").firstChild.textContent : id).trim();
    const v = el.value.trim();
    const min = el.min === "" ? null : +el.min, max = el.max === "" ? null : +el.max;
    const real = el.dataset.real !== undefined;
    const range = min !== null && max !== null ? `from ${min} to ${max}`
      : min !== null ? `${min} or more` : "";
    const want = `${real ? "a number" : "a whole number"}${range ? " " + range : ""}`;
    let bad = null;
    if (v === "" && el.validity.badInput) bad = `${label}: ${want} (what is typed is not a number)`;
    else if (v === "" && el.required) bad = `${label}: ${want} is needed`;
    else if (v !== "") {
      const ok = real ? /^\d+(\.\d+)?$/.test(v) : /^\d+$/.test(v);
      const n = +v;
      if (!ok || !Number.isFinite(n) || (min !== null && n < min) || (max !== null && n > max) || (!real && !Number.isSafeInteger(n))) {
        bad = `${label}: ${want} (not ${v})`;
      }
    }
    if (bad) {
      el.setAttribute("aria-invalid", "true");
      el.focus();
      return bad;
    }
  }
  return null;
}

function say(text, bad = false) {
  const m = $("message");
  m.textContent = bad ? plain(text) : text;
  m.classList.toggle("bad", bad);
  if (bad) announce(m.textContent);
}

// Says `text` to screen readers (the live region), once.
function announce(text) {
  const l = $("live");
  l.textContent = "";
  requestAnimationFrame(() => { l.textContent = text; });
}

// A notice above the board (a broken link, a level that needs a choice), with buttons.
function notice(text, actions = []) {
  const n = $("notice");
  n.replaceChildren(document.createTextNode(text));
  if (!text) { n.hidden = true; return; }
  const row = document.createElement("div");
  for (const [label, act] of actions) {
    const b = document.createElement("button");
    b.textContent = label;
    b.onclick = act;
    row.appendChild(b);
  }
  n.appendChild(row);
  n.hidden = false;
}

// ---------------------------------------------------------------------------------------
// Levels: collections, files, pasted text, links, what the browser kept

async function start() {
  const [games, levels] = await Promise.all([
    api("/api/games", { method: "GET" }),
    api("/api/levels", { method: "GET" }),
  ]);
  if (!games.ok || !levels.ok) {
    notice("The server did not answer as expected: " + ((games.data || {}).error || (levels.data || {}).error || "reload the page"));
    return;
  }
  for (const g of games.data) ui.games[g.name] = g;
  ui.collections = levels.data;
  ui.own = keptOwn();
  fillCollections();
  if (ui.own) $("collection").value = ui.collections[0].file;
  for (const g of Object.keys(ui.games)) $("new-game").add(new Option(ui.games[g].title, g));
  setupSolitaire();
  wire();
  fillLevels();
  await opening();
}

// What the page opens with: a link's level (and its moves), else the game this tab or this
// browser played last, else the first bundled level.
async function opening() {
  const link = readLink(location.hash);
  const kept = savedGame();
  if (link.level !== null) {
    const same = kept && kept.text === link.level && (kept.game || null) === link.game;
    if (link.cut || (link.damaged && !link.old)) {
      linkBroken(link, "");
      return;
    }
    // a shared game's moves are a replay of their own: the level starts from its start
    const fresh = link.moves ? { moves: [], replay: { moves: link.moves, title: `A shared game: ${link.moves.length} ${link.moves.length === 1 ? "move" : "moves"}` } } : {};
    if (!(await load(link.level, link.game, { ...fresh, quietFail: true, name: "shared level", history: "replace" }))) {
      linkBroken(link, ui.lastError);
      return;
    }
    if (link.moves) {
      ui.replay.title = `A shared game: ${link.moves.length} ${wordFor(link.moves.length)}`;
      showReplay();
    } else if (link.damaged) {
      notice("This link's moves are incomplete or damaged: the level is shown without them.");
    } else if (same) {
      restoreDraft();
    }
    return;
  }
  if (kept && (await load(kept.text, kept.game, { quietFail: true, optimum: kept.optimum, history: "replace" }))) {
    restoreDraft();
    return;
  }
  await pickLevel({ history: "replace" });
  restoreDraft();
}

// The editor's draft kept in the browser: back on the Edit tab after a reload, when it was
// drawn from the level now shown.
function restoreDraft() {
  let d = null;
  try { d = JSON.parse(localStorage.getItem(DRAFT) || "null"); } catch {}
  if (!d || typeof d.text !== "string" || !ui.level || d.base !== ui.level.text || d.text === ui.level.text) return;
  ui.draft = d.text;
  $("text").value = d.text;
  tab("edit");
}

function saveDraft() {
  try {
    if (ui.draft !== null && ui.level && ui.draft !== ui.level.text) {
      localStorage.setItem(DRAFT, JSON.stringify({ text: ui.draft, base: ui.level.text, at: Date.now() }));
    } else {
      localStorage.removeItem(DRAFT);
    }
  } catch {}
}

// A check of a link's parts (FNV-1a, 32 bits, in hex): any cut or changed character shows.
function linkCheck(level, game, moves) {
  const s = `${level}\u0000${game || ""}\u0000${moves || ""}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

// A link's parts: `#level=TEXT&game=SPEC&moves=JSON&n=LENGTH&c=CHECK`. A link cut short or
// garbled says so (`cut`: its check is gone or does not match; `damaged`: an older link's
// moves do not read) instead of loading something else.
function readLink(hash) {
  const out = { level: null, game: null, moves: null, damaged: false, cut: false };
  if (!hash || hash.length < 2) return out;
  let p;
  try { p = new URLSearchParams(hash.slice(1)); } catch { out.damaged = true; return out; }
  out.level = p.get("level");
  out.game = p.get("game") || null;
  if (out.level === null) return out;
  const n = p.get("n"), c = p.get("c"), m0 = p.get("moves");
  if ([...p.keys()].some((k) => !["level", "game", "moves", "n", "c"].includes(k))) out.cut = true;
  if (c !== null) {
    // the page's links: the check covers the level, the game and the moves
    if (c !== linkCheck(out.level, p.get("game"), m0) || (n !== null && String(out.level.length) !== n)) out.cut = true;
  } else {
    // an older link (no check): it must read completely, its level's length right
    out.old = true;
    if (n !== null && String(out.level.length) !== n) out.cut = true;
    if (n === null && /[&?](game|moves)=/.test(hash)) out.cut = true;
    if (n === null && !out.level.endsWith("\n")) out.cut = true;
  }
  const m = m0;
  if (m !== null) {
    try {
      const v = JSON.parse(m);
      if (Array.isArray(v)) out.moves = v; else out.damaged = true;
    } catch { out.damaged = true; }
  }
  if (/%[0-9A-Fa-f]?$/.test(hash)) out.damaged = true;
  return out;
}

function linkBroken(link, why) {
  say("");
  $("title").textContent = "";
  notice(
    "This link is incomplete or damaged: " + (link.cut ? "it was cut short or changed" : "the level in it does not read") + (why ? ` (${plain(why)})` : "") +
      ". Choose a level from the Collection and Level menus above, or open a file.",
    [["Open the first level", () => { notice(""); pickLevel(); }]],
  );
  $("collection").focus();
}

function savedGame() {
  for (const store of [sessionStorage, localStorage]) {
    try {
      const v = JSON.parse(store.getItem(STORE) || "null");
      if (v && typeof v.text === "string" && Array.isArray(v.moves)) return v;
    } catch {}
  }
  return null;
}

// Keeps the level and the moves in this tab and in the browser (for a reload, or a server
// that dropped the session), and the level's own progress (its moves, solved, the best).
function saveGame() {
  if (!ui.level || !ui.state) return;
  const v = JSON.stringify({ text: ui.level.text, game: ui.level.game, moves: ui.state.moves, optimum: ui.optimum, at: Date.now() });
  for (const store of [sessionStorage, localStorage]) {
    try { store.setItem(STORE, v); } catch {}
  }
  const st = ui.state;
  // a replay shown on the board (a solution, a shared game) is not the player's game: the
  // level keeps the player's moves, and a replay played to its end solves nothing for them
  if (ui.replay && replayAt() !== null) return;
  const was = progressOf(ui.level.text, ui.level.game) || {};
  // a level solved as it starts (an empty board for counting positions) is not solved by
  // anyone
  const solved = was.solved || (st.solved && st.length > 0 && ui.optimum !== 0);
  const best = st.solved && st.length > 0 && ui.optimum !== 0 ? Math.min(st.length, was.best ?? Infinity) : was.best;
  const optimum = ui.optimum ?? was.optimum ?? null;
  if (solved && !was.solved) ui.justSolved = true;
  keepProgress(ui.level.text, ui.level.game, { moves: st.moves, solved: !!solved, best: best ?? null, optimum });
}

// A level's key in the progress kept: its text and game (a check and the length).
function levelKey(text, game) {
  return `${linkCheck(text, game, "")}:${text.length}`;
}

function allProgress() {
  try {
    const v = JSON.parse(localStorage.getItem(PROGRESS) || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch { return {}; }
}

// What this browser kept of a level: { moves, solved, best, optimum, at }, or null.
function progressOf(text, game) {
  const p = allProgress()[levelKey(text, game || null)];
  if (!p || typeof p !== "object" || !Array.isArray(p.moves)) return null;
  return p;
}

function keepProgress(text, game, entry) {
  const all = allProgress();
  all[levelKey(text, game || null)] = { ...entry, at: Date.now() };
  // the oldest go first when there are too many
  const keys = Object.keys(all);
  if (keys.length > PROGRESS_MOST) {
    keys.sort((a, b) => (all[a].at || 0) - (all[b].at || 0));
    for (const k of keys.slice(0, keys.length - PROGRESS_MOST)) delete all[k];
  }
  try { localStorage.setItem(PROGRESS, JSON.stringify(all)); } catch {}
}

// The collections of the menu: the file opened or pasted (or the level alone) first, then
// the bundled ones.
function collections() {
  return ui.own ? [ui.own, ...ui.collections] : ui.collections;
}

function collection() {
  return collections().find((c) => (c.key || c.file) === $("collection").value);
}

// The game a level of collection `c` is played as (a bundled file names its own).
const gameOf = (c) => (c.key ? c.game || null : null);

// How many levels of `c` this browser solved.
function solvedIn(c) {
  return c.levels.filter((l) => (progressOf(l.text, gameOf(c)) || {}).solved).length;
}

function fillCollections() {
  const sel = $("collection");
  const was = sel.value;
  sel.innerHTML = "";
  for (const c of collections()) {
    const n = solvedIn(c);
    sel.add(new Option(`${c.file} (${n ? `${n} of ${c.levels.length} solved` : c.levels.length})`, c.key || c.file));
  }
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
}

// The level menu: each level with ✓ once solved in this browser, and the best.
function fillLevels() {
  const c = collection();
  const sel = $("level");
  const was = sel.value;
  sel.innerHTML = "";
  if (!c) return;
  for (const l of c.levels) {
    const p = progressOf(l.text, gameOf(c)) || {};
    let label = `${p.solved ? "✓ " : ""}${l.index}. ${l.name}` + (l.rows ? ` (${l.rows}×${l.cols})` : "");
    if (p.solved && typeof p.best === "number") {
      label += ` — best ${p.best}` + (typeof p.optimum === "number" ? `, optimum ${p.optimum}` : "");
    }
    sel.add(new Option(label, l.index));
  }
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
}

// Another tab played the level shown here: the player chooses whose moves the level keeps
// (the last tab to move writes them otherwise).
function otherTab() {
  if (!ui.level || !ui.state || (ui.replay && replayAt() !== null)) return;
  const kept = progressOf(ui.level.text, ui.level.game);
  const same = !kept || JSON.stringify(kept.moves) === JSON.stringify(ui.state.moves);
  if (same) {
    if (ui.tabNotice) { ui.tabNotice = false; notice(""); }
    return;
  }
  const level = ui.level, moves = kept.moves;
  ui.tabNotice = true;
  notice(`This level was played in another tab: ${moves.length} ${wordFor(moves.length)} there, ${ui.state.length} here.`, [
    ["Take the other tab's moves", () => {
      ui.tabNotice = false;
      notice("");
      load(level.text, level.game, { moves, history: "replace" });
    }],
    ["Keep this tab's", () => { ui.tabNotice = false; notice(""); saveGame(); }],
  ]);
}

// The menus again with what was solved (here or in another tab).
function markSolved() {
  const lv = $("level").value;
  fillCollections();
  fillLevels();
  $("level").value = lv;
}

// The level after the one shown in its collection, else the first not solved yet there;
// null when every level of it is solved.
function nextLevel() {
  const c = collection();
  if (!c) return null;
  const at = c.levels.findIndex((l) => String(l.index) === $("level").value);
  if (at >= 0 && at + 1 < c.levels.length) return { c, l: c.levels[at + 1], wraps: false };
  const open = c.levels.find((l, i) => i !== at && !(progressOf(l.text, gameOf(c)) || {}).solved);
  return open ? { c, l: open, wraps: true } : null;
}

async function goNext() {
  const n = nextLevel();
  if (!n) {
    say(`every level of ${collection().file} is solved: choose another collection above`);
    $("collection").focus();
    return;
  }
  $("level").value = String(n.l.index);
  if (await pickLevel()) {
    $("board").focus();
    toStage();
    if (n.wraps) say(`that was the last level of ${n.c.file}: this is the first one not solved yet`);
  }
}

// The menus show the level on the board: a bundled level, a level of the file opened or
// pasted, else the level alone as an entry of its own.
function selectInMenus(text, name) {
  let at = null;
  for (const c of collections()) {
    const l = c.levels.find((l) => l.text === text);
    if (l) { at = [c, l]; break; }
  }
  if (!at) {
    const st = ui.state || {};
    ui.own = { key: "own", file: "this level", game: ui.level && ui.level.game, levels: [{ index: 1, name: name || "untitled", rows: st.rows, cols: st.cols, text }] };
    at = [ui.own, ui.own.levels[0]];
  }
  saveOwn();
  fillCollections();
  $("collection").value = at[0].key || at[0].file;
  fillLevels();
  $("level").value = String(at[1].index);
}

function saveOwn() {
  try {
    const v = JSON.stringify(ui.own);
    if (ui.own && v.length < 500000) localStorage.setItem(OWN, v); else localStorage.removeItem(OWN);
  } catch {}
}

function keptOwn() {
  try {
    const v = JSON.parse(localStorage.getItem(OWN) || "null");
    if (v && Array.isArray(v.levels) && v.levels.every((l) => typeof l.text === "string")) return v;
  } catch {}
  return null;
}

async function pickLevel(opts = {}) {
  const c = collection();
  const l = c && c.levels.find((l) => String(l.index) === $("level").value);
  if (l && (await load(l.text, c.key ? c.game || null : null, opts))) {
    notice("");
    return true;
  }
  return false;
}

// Loads a level: a play session after `moves` (by default the moves this browser kept for
// the level), the editor, the link. `history`: "push" makes the level change an entry of
// the browser's history (Back returns to the level before), "replace" does not.
async function load(text, game = null, { moves = null, quietFail = false, name = null, optimum = null, history: how = "push", replay = null } = {}) {
  const kept = progressOf(text, game);
  if (moves === null) moves = kept ? kept.moves : [];
  if (optimum === null && kept && typeof kept.optimum === "number") optimum = kept.optimum;
  const query = { game, name };
  if (moves && moves.length) query.moves = JSON.stringify(moves);
  // a level asked for after this one wins, whichever answer comes first
  const asked = (ui.loads = (ui.loads || 0) + 1);
  let r = await api("/api/play", { body: text, query });
  if (asked !== ui.loads) return false;
  if (!r.ok && query.moves && /^moves:/.test(r.data.error || "")) {
    // the moves kept do not replay on this level (it changed): the level without them
    r = await api("/api/play", { body: text, query: { game } });
    if (r.ok) r.data.message = "the moves kept for this level do not replay on it: it starts afresh";
  }
  if (!r.ok) {
    ui.lastError = r.data.error;
    if (r.data.levels) return (await openText(text, { game, name })) || false;
    if (/only with --dynamic/.test(r.data.error || "")) {
      notice(plain(r.data.error), [["Play it under floe's dynamic rules", () => { notice(""); load(text, "icetower(dynamic=true)"); }]]);
      return false;
    }
    if (!quietFail) say(r.data.error, true);
    return false;
  }
  ui.level = { text, game, name: r.data.level };
  ui.draft = null;
  // the draft kept stays for its own level (a reload), and goes when another is loaded
  try {
    const d = JSON.parse(localStorage.getItem(DRAFT) || "null");
    if (d && d.base !== text) localStorage.removeItem(DRAFT);
  } catch {}
  ui.optimum = typeof optimum === "number" ? optimum : null;
  // a replay that comes with the level (a shared game's) is there before it is shown, so
  // that the start shown is not taken for the player's game
  ui.replay = replay;
  ui.legend = r.data.legend || [];
  showReplay();
  $("solve-report").textContent = "";
  $("download-animation").disabled = true;
  show(r.data, { slide: false });
  drawLegend();
  showRules();
  const url = "#" + linkQuery(text, game);
  if (how === "push" && location.hash !== url && ui.shownOnce) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
  ui.shownOnce = true;
  ui.justSolved = false;
  closeShare();
  selectInMenus(text, r.data.level);
  $("text").value = text;
  if (ui.tab === "edit") { buildEditor(); editVerdict(); }
  fillAlgorithms();
  verdict();
  return true;
}

// The level the page acts on: the editor's, when it was changed there (loaded first).
async function current() {
  if (ui.draft !== null && ui.level && ui.draft !== ui.level.text) {
    if (!(await load(ui.draft, ui.level.game))) return null;
  }
  return ui.level;
}

// A file's or a paste's text: one level opens at once; several, or a file that does not
// say its game, open the picker.
async function openText(text, { game = null, name = null, focus = true } = {}) {
  if (!text.trim()) {
    say(`${name === "pasted text" ? "the pasted text" : name || "the text"} is empty: there is no level in it`, true);
    return false;
  }
  const r = await api("/api/levels", { body: text, query: { game, name } });
  if (!r.ok) {
    say(r.data.error, true);
    return false;
  }
  const d = r.data;
  const choose = !d.named && !game && (d.games.length > 1 || d.game !== "ice");
  if (d.levels.length === 1 && !choose) {
    const ok = await load(d.levels[0].text, game, { name });
    if (ok && focus) {
      focusBoard();
      toStage();
    }
    return ok;
  }
  showPicker(text, d, game, name);
  return true;
}

function showPicker(text, d, game, name = null) {
  const dlg = $("pick-dialog");
  $("pick-title").textContent = d.levels.length > 1 ? `Choose a level (${d.levels.length})` : "Choose the game";
  const g = ui.games[d.game];
  $("pick-about").textContent = d.named || game
    ? `A file of ${g ? g.title : d.game} levels.`
    : d.games.length
      ? "The file does not say its game: choose the one it is for."
      : "";
  const row = $("pick-game-row");
  const sel = $("pick-game");
  row.hidden = d.named || d.games.length === 0;
  sel.innerHTML = "";
  for (const name of d.games) sel.add(new Option((ui.games[name] || {}).title || name, name));
  sel.value = d.game;
  sel.onchange = async () => {
    const r = await api("/api/levels", { body: text, query: { game: sel.value, name } });
    if (r.ok) fillPicker({ ...r.data, named: false, games: d.games }, sel.value, name);
    else $("pick-about").textContent = plain(r.data.error);
  };
  fillPicker(d, d.named ? null : d.game, name);
  if (!dlg.open) dlg.showModal();
  const first = $("pick-list").querySelector("button");
  if (first) first.focus();
}

function fillPicker(d, game, file = null) {
  const list = $("pick-list");
  list.innerHTML = "";
  for (const l of d.levels) {
    const b = document.createElement("button");
    b.setAttribute("role", "listitem");
    const name = document.createElement("strong");
    name.textContent = `${l.index}. ${l.name}`;
    const about = document.createElement("span");
    about.className = "about";
    about.textContent = ` — ${l.description}`;
    b.append(name, about);
    b.onclick = async () => {
      $("pick-dialog").close();
      const spec = d.named ? null : game;
      if (d.levels.length > 1) {
        ui.own = { key: "own", file: file || "opened file", game: spec, levels: d.levels.map(({ index, name, rows, cols, text }) => ({ index, name, rows, cols, text })) };
      }
      if (await load(l.text, spec, { name: file })) {
        notice("");
        focusBoard();
        toStage();
      }
    };
    list.appendChild(b);
  }
}

// The keyboard's place after a level is opened: the board (arrows play), or on the Edit
// tab the editor's grid (arrows move between its cells).
function focusBoard() {
  if (ui.tab === "edit") {
    const cell = $("grid").querySelector(".cell[tabindex='0']") || $("grid").querySelector(".cell");
    if (cell) { cell.focus(); return; }
  }
  $("board").focus();
}

// ---------------------------------------------------------------------------------------
// Play

function wordFor(n, w) {
  w = w || (ui.state ? ui.state.move_word : "move");
  return n === 1 ? w : plural(w);
}

function plural(w) {
  return w === "push" ? "pushes" : w + "s";
}

function show(st, { slide = true, quiet = false } = {}) {
  const before = ui.state;
  ui.state = st;
  if (ui.tab === "edit") { saveGame(); return; }
  const board = $("board");
  // the same picture is left alone (a verdict that arrives mid-slide does not cut it short)
  if (!before || before.svg !== st.svg || !board.querySelector("svg")) {
    const old = slide && before && !reduced() ? pieces(board) : null;
    board.innerHTML = st.svg;
    fitBoard();
    drawWhy();
    if (old) slidePieces(old, pieces(board));
  }
  const g = ui.games[st.game];
  $("title").textContent = `${st.level} — ${g ? g.title : st.game}`;
  // solved at its start: the fewest moves are none
  if (st.solved && st.length === 0) ui.optimum = 0;
  const moves = movesText(st);
  $("moves").textContent = moves;
  $("moves").classList.toggle("solved", st.solved);
  if (st.solved) setVerdict("", "yes");
  else if (st.verdict) showVerdict(st.verdict);
  else if (!before || before.board !== st.board || before.session !== st.session) setVerdict("still solvable: …", "pending");
  if (!quiet) say(keyWords(st.message || ""));
  const next = $("next-level");
  const wasHidden = next.hidden;
  next.hidden = !st.solved || ui.tab === "edit";
  if (st.solved) {
    const n = nextLevel();
    next.textContent = !n ? "All solved: another collection" : n.wraps ? `Last level: on to ${n.l.index}. ${n.l.name}, not solved yet ▶` : "Next level ▶";
  }
  $("keys-help").textContent = {
    "select-block": "Click a block to select it (space or n selects the next), then an arrow key, a swipe or a click in line pushes it; u undo, r redo, R restart (u takes it back), h hint, H play the hint, ? help. Tab moves between the page's controls.",
    walk: `Arrow keys, a swipe or a click beside the player ${st.move_word === "push" ? "walk and push" : "slide him"}; u undo, r redo, R restart (u takes it back), h hint, H play the hint, ? help. Tab moves between the page's controls.`,
    "pick-move": "Click a piece (or space, n) to show a move through it, enter plays it or the hint shown; u undo, r redo, R restart (u takes it back), h hint, H play the hint, ? help. Tab moves between the page's controls.",
  }[st.keys];
  $("enter").hidden = st.keys !== "pick-move";
  $("pad-next").disabled = st.keys === "walk";
  $("pad-enter").disabled = st.keys !== "pick-move";
  const verb = st.keys === "pick-move" ? "" : st.keys === "walk" ? "walk or push " : "push ";
  for (const d of ["up", "down", "left", "right"]) {
    $("pad-" + d).setAttribute("aria-label", verb + d);
    $("pad-" + d).disabled = st.keys === "pick-move";
  }
  $("pad-next").setAttribute("aria-label", st.keys === "pick-move" ? "show the next move" : "select the next block");
  board.setAttribute("aria-label", `${st.level}: ${moves}. ${$("verdict").textContent}`);
  // the status line's new text may take another height: the board fits what is left
  if (narrow()) fitBoard();
  syncReplay();
  saveGame();
  if (ui.justSolved) {
    ui.justSolved = false;
    markSolved();
  }
  // a level just solved by a hand on the board: the way on is offered where the hand is
  if (st.solved && wasHidden && !next.hidden && before && before.session === st.session && document.activeElement === board && !quiet) {
    announce(`${moves}. Enter or the Next level button goes on.`);
  }
}

// The moves played, and once solved, against the fewest possible and the best so far.
function movesText(st) {
  const n = `${st.length} ${wordFor(st.length, st.move_word)}`;
  if (!st.solved) return ui.optimum !== null ? `${n} (optimum ${ui.optimum})` : n;
  if (st.length === 0 || ui.optimum === 0) return `${st.length ? n + ": " : ""}Solved as it starts: nothing to play here`;
  let t = `Solved in ${n}`;
  if (ui.optimum !== null) t += st.length <= ui.optimum ? ": the optimum!" : ` (optimum ${ui.optimum})`;
  const kept = ui.level ? progressOf(ui.level.text, ui.level.game) : null;
  if (kept && typeof kept.best === "number" && kept.best < st.length) t += `; your best ${kept.best}`;
  return t;
}

// The session's words for keys as the page has them: Tab moves the focus here, space (or n)
// shows the next move.
function keyWords(msg) {
  return msg.replace(/\btab shows\b/g, "space shows");
}

function setVerdict(text, cls) {
  const el = $("verdict");
  el.textContent = text;
  el.className = cls;
}

function showVerdict(v) {
  if (ui.state && ui.state.solved) setVerdict("", "yes");
  else if (v.solvable === "yes") setVerdict("still solvable: " + v.said, "yes");
  else if (v.solvable === "no") {
    setVerdict(v.said, "no");
    whyLost();
  } else setVerdict("still solvable? " + v.said, "unknown");
  if (ui.state && ui.state.length === 0 && v.solvable === "yes" && ui.optimum === null) {
    ui.optimum = v.to_go;
    saveGame();
    $("moves").textContent = movesText(ui.state);
  }
}

// Why the position is lost: the server's explanation (`/api/explain`), its dead core's cells
// outlined on the board and its sentence (which names the push that lost it) after the
// verdict. Asked once per position; an answer for a position no longer shown is dropped.
async function whyLost() {
  const st = ui.state;
  if (!st || !ui.level) return;
  const key = `${st.session}:${st.length}:${st.board}`;
  if (ui.why && ui.why.key === key) return drawWhy();
  ui.why = { key, data: null };
  const r = await api("/api/explain", {
    body: ui.level.text,
    query: { game: ui.level.game, moves: st.moves.length ? JSON.stringify(st.moves) : undefined, timeout: "10s" },
  });
  if (!ui.why || ui.why.key !== key) return;
  if (!r.ok || r.data.standing !== "lost") {
    ui.why = null;
    return;
  }
  ui.why.data = r.data;
  drawWhy();
  announce($("verdict").textContent);
}

// The explanation of the position shown, if it has one: the core outlined, the sentence said.
function drawWhy() {
  const st = ui.state;
  const d = ui.why && ui.why.data;
  const svg = $("board").querySelector("svg");
  if (!st || !d || !svg || ui.why.key !== `${st.session}:${st.length}:${st.board}`) return;
  for (const old of svg.querySelectorAll(".dead-core")) old.remove();
  const g = st.geometry;
  const ns = "http://www.w3.org/2000/svg";
  const group = document.createElementNS(ns, "g");
  group.setAttribute("class", "dead-core");
  for (const c of (d.core && d.core.cells) || []) {
    const r = document.createElementNS(ns, "rect");
    const inset = g.cell * 0.06;
    r.setAttribute("x", String(g.x + c.col * g.cell + inset));
    r.setAttribute("y", String(g.y + c.row * g.cell + inset));
    r.setAttribute("width", String(g.cell - 2 * inset));
    r.setAttribute("height", String(g.cell - 2 * inset));
    r.setAttribute("rx", String(g.cell * 0.12));
    r.setAttribute("stroke-width", String(Math.max(2, g.cell * 0.08)));
    r.dataset.row = c.row;
    r.dataset.col = c.col;
    group.appendChild(r);
  }
  svg.appendChild(group);
  // the sentence says the loss; the outline is named where the sentence names the pieces
  const n = ((d.core && d.core.cells) || []).length;
  const said = n ? d.sentence.replace(/^(Th(?:is|ese) [^(]*?)( \(perhaps| can| cannot| alone| already)/, "$1 (outlined)$2") : d.sentence;
  setVerdict(said, "no");
  $("board").setAttribute("aria-label", `${st.level}: ${movesText(st)}. ${said}`);
}

// Asks whether the position is still solvable; a busy server is asked again, a dropped
// session started again.
async function verdict(depth = 0) {
  const st = ui.state;
  if (!st) return;
  for (let attempt = 0; attempt < 6; attempt++) {
    const r = await api(`/api/play/${st.session}/verdict`);
    const now = ui.state;
    if (!now || now.session !== st.session && !(r.status === 404)) return;
    if (r.ok) {
      if (r.data.length === now.length && r.data.board === now.board) {
        show(r.data, { slide: false, quiet: true });
        announce(`${$("message").textContent} ${$("verdict").textContent}`.trim());
      }
      return;
    }
    if (r.status === 503) {
      setVerdict("still solvable: … (the server is busy; asking again)", "pending");
      await sleep(1000 * Math.min(4, r.retry || 1));
      continue;
    }
    if (r.status === 404 && depth < 2 && (await revive())) return verdict(depth + 1);
    setVerdict("still solvable? not known (" + plain(r.data.error) + ")", "unknown");
    return;
  }
  setVerdict("still solvable? not known (the server stayed busy; it will be asked after your next move)", "unknown");
}

// A new session of the level with the moves played, when the server dropped the old one.
async function revive() {
  if (!ui.level || !ui.state) return false;
  const moves = ui.state.moves;
  const r = await api("/api/play", { body: ui.level.text, query: { game: ui.level.game, moves: moves.length ? JSON.stringify(moves) : undefined } });
  if (!r.ok) return false;
  ui.state = r.data;
  return true;
}

// Sends keys (one action after the other: a second key waits for the first's answer).
function press(keys) {
  ui.busy = ui.busy.then(() => send({ keys }), () => send({ keys }));
  return ui.busy;
}

function playMoves(moves) {
  ui.busy = ui.busy.then(() => send({ moves: JSON.stringify(moves) }), () => send({ moves: JSON.stringify(moves) }));
  return ui.busy;
}

async function send(query) {
  let st = ui.state;
  if (!st) return;
  let r = await api(`/api/play/${st.session}`, { query });
  if (r.status === 404 && (await revive())) {
    st = ui.state;
    r = await api(`/api/play/${st.session}`, { query });
  }
  if (!r.ok) {
    say(r.data.error, true);
    return;
  }
  const moved = r.data.length !== st.length || r.data.board !== st.board;
  show(r.data, { slide: moved });
  const v = $("verdict").textContent;
  announce(`${keyWords(r.data.message || "")} ${moved ? $("moves").textContent + "." : ""} ${r.data.verdict ? v : ""}`.trim());
  if (moved && !r.data.verdict) verdict();
}

const KEYS = {
  ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
  u: "u", r: "r", R: "R", h: "h", H: "H", n: "tab", p: "backtab",
};

// The game's keys, wherever the focus is but in a field, a menu or a dialog; Tab moves the
// focus, and Enter and Space press a focused button.
function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.metaKey || e.isComposing) return;
  const t = e.target;
  if (e.key === "?" && t.closest && t.closest("select") && !$("help-dialog").open) {
    e.preventDefault();
    openHelp();
    return;
  }
  if (t.closest && t.closest("input, textarea, select, dialog, [contenteditable], #grid")) return;
  if (e.key === "?" && !e.ctrlKey) {
    e.preventDefault();
    openHelp();
    return;
  }
  if (e.key === "Escape" && !$("share-panel").hidden) {
    e.preventDefault();
    closeShare({ focus: true });
    return;
  }
  if (t.getAttribute && t.getAttribute("role") === "tab") return;
  if (ui.tab !== "play" && ui.tab !== "solve") return;
  if (e.key === "Tab") return;
  const onControl = t !== $("board") && t.closest && t.closest("button, a, summary, [tabindex]") !== null;
  let key;
  if (e.key === "Enter" || e.key === " ") {
    if (onControl) return;
    key = e.key === "Enter" ? "enter" : e.shiftKey ? "backtab" : "tab";
  } else {
    key = KEYS[e.key];
  }
  if (e.ctrlKey) key = { z: "u", y: "r" }[e.key];
  if (!key) return;
  e.preventDefault();
  if (key === "enter" && ui.state && ui.state.solved && !$("next-level").hidden) {
    goNext();
    return;
  }
  press(key);
}

// The cell under a point of the board, or null.
function cellAt(x, y) {
  const st = ui.state;
  const svg = $("board").querySelector("svg");
  if (!st || !svg) return null;
  const box = svg.getBoundingClientRect();
  const scale = box.width / st.geometry.width;
  const col = Math.floor(((x - box.left) / scale - st.geometry.x) / st.geometry.cell);
  const row = Math.floor(((y - box.top) / scale - st.geometry.y) / st.geometry.cell);
  if (row < 0 || col < 0 || row >= st.rows || col >= st.cols) return null;
  return { row, col };
}

// A pointer on the board: a tap (or a click) acts on the cell; a swipe pushes or walks.
let swipe = null;

function onBoardDown(e) {
  if (!ui.state || ui.tab !== "play" && ui.tab !== "solve") return;
  if (e.button !== undefined && e.button !== 0) return;
  swipe = { id: e.pointerId, x: e.clientX, y: e.clientY, cell: cellAt(e.clientX, e.clientY) };
  try { e.currentTarget.setPointerCapture(e.pointerId); } catch {}
}

function onBoardUp(e) {
  if (!swipe || swipe.id !== e.pointerId) return;
  const s = swipe;
  swipe = null;
  const dx = e.clientX - s.x, dy = e.clientY - s.y;
  const far = Math.hypot(dx, dy);
  const st = ui.state;
  if (!st) return;
  if (far < 14) return tap(e.clientX, e.clientY);
  if (st.keys === "pick-move") return;
  const dir = Math.abs(dx) >= Math.abs(dy) ? (dx < 0 ? "left" : "right") : dy < 0 ? "up" : "down";
  if (st.keys === "select-block" && s.cell && isBlockAt(s.cell.row, s.cell.col)) {
    press(`click:${s.cell.row}:${s.cell.col} ${dir}`);
  } else {
    press(dir);
  }
}

function tap(x, y) {
  const st = ui.state;
  const at = cellAt(x, y);
  if (!at) return;
  const { row, col } = at;
  if (st.keys === "walk") {
    if (!st.actor) return;
    const dr = row - st.actor.row, dc = col - st.actor.col;
    if (dr === 0 && dc === 0) return;
    press(Math.abs(dr) >= Math.abs(dc) ? (dr < 0 ? "up" : "down") : dc < 0 ? "left" : "right");
  } else if (st.keys === "select-block" && st.selected &&
             (row === st.selected.row) !== (col === st.selected.col) &&
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

const narrow = () => window.matchMedia("(max-width: 720px)").matches;

// The board as large as the window lets it be: the whole board in view, cells at most
// 72 pixels. On a phone the stage (its title and status line, the board, the message and
// the pad) fits the screen once the menus above it are scrolled away (`toStage`).
function fitBoard() {
  if (ui.tab === "edit") return fitDraft();
  const svg = $("board").querySelector("svg");
  const st = ui.state;
  if (!svg || !st) return;
  const w = st.geometry.width, h = st.geometry.height;
  const stage = $("stage");
  const cs = getComputedStyle(stage);
  const room = stage.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  if (!(room > 0)) return;
  const padH = getComputedStyle($("pad")).display === "none" ? 0 : $("pad").offsetHeight + 16;
  let tall;
  if (narrow()) {
    const above = $("board").getBoundingClientRect().top - stage.getBoundingClientRect().top;
    const message = Math.max($("message").offsetHeight, 40) + 16;
    tall = Math.max(120, window.innerHeight - above - message - padH - 8);
  } else {
    const top = $("board").getBoundingClientRect().top + window.scrollY;
    tall = Math.max(220, window.innerHeight - Math.min(top, window.innerHeight * 0.35) - padH - 56);
  }
  const scale = Math.max(0.2, Math.min(room / w, tall / h, 72 / st.geometry.cell));
  svg.setAttribute("width", String(Math.floor(w * scale)));
  svg.setAttribute("height", String(Math.floor(h * scale)));
}

// On a phone, the stage brought to the top of the screen (the menus scroll away above it),
// so that the status line, the board and the pad are in view together.
function toStage() {
  if (!narrow() || ui.tab === "edit") return;
  fitBoard();
  const top = $("stage").getBoundingClientRect().top + window.scrollY;
  window.scrollTo({ top, behavior: "instant" });
}

// Where each piece of the board is: its kind and its place in the picture.
function pieces(board) {
  const out = [];
  for (const g of board.querySelectorAll("svg g.piece")) {
    const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(g.getAttribute("transform") || "");
    if (m) out.push({ el: g, kind: g.getAttribute("class"), x: +m[1], y: +m[2] });
  }
  return out;
}

// Slides the pieces that moved from where they were (each to its nearest old place of its
// kind); pieces that went away fade out where they were.
function slidePieces(before, after) {
  const key = (p) => `${p.kind}@${p.x},${p.y}`;
  const stayed = new Set(before.map(key).filter((k) => after.some((p) => key(p) === k)));
  const from = before.filter((p) => !stayed.has(key(p)));
  const to = after.filter((p) => !stayed.has(key(p)));
  const cell = ui.state.geometry.cell;
  for (const p of to) {
    let best = -1, dist = Infinity;
    from.forEach((q, i) => {
      if (q.kind !== p.kind) return;
      const d = Math.abs(q.x - p.x) + Math.abs(q.y - p.y) + (q.x !== p.x && q.y !== p.y ? cell * 100 : 0);
      if (d < dist) { dist = d; best = i; }
    });
    if (best < 0) continue;
    const q = from.splice(best, 1)[0];
    const cells = (Math.abs(q.x - p.x) + Math.abs(q.y - p.y)) / cell;
    const ms = Math.max(120, Math.min(450, 70 * cells));
    p.el.animate(
      [{ transform: `translate(${q.x}px, ${q.y}px)` }, { transform: `translate(${p.x}px, ${p.y}px)` }],
      { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
  }
  const svg = $("board").querySelector("svg");
  for (const q of from) {
    const ghost = q.el.cloneNode(true);
    svg.appendChild(ghost);
    const a = ghost.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 350, easing: "ease-in" });
    a.onfinish = () => ghost.remove();
  }
}

// The game's goal and moves, from the game itself (`floe games` says the same).
function showRules() {
  const g = ui.state && ui.games[ui.state.game];
  $("rules").textContent = g && g.rules ? g.rules : "";
}

// The help: the game's rules, its keys and the page's own.
function openHelp() {
  const dlg = $("help-dialog");
  if (dlg.open) return;
  const g = ui.state && ui.games[ui.state.game];
  $("help-title").textContent = g ? `How to play ${g.title}` : "How to play";
  $("help-rules").textContent = g && g.rules ? g.rules : "";
  $("help-keys").textContent = $("keys-help").textContent;
  ui.helpFrom = document.activeElement;
  dlg.showModal();
  $("help-close").focus();
}

function drawLegend() {
  const ul = $("legend");
  ul.innerHTML = "";
  for (const item of ui.legend) {
    const li = document.createElement("li");
    const img = document.createElement("img");
    img.alt = "";
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(item.svg);
    const span = document.createElement("span");
    span.textContent = item.name;
    li.append(img, span);
    ul.appendChild(li);
  }
}

// ---------------------------------------------------------------------------------------
// Replay: a solution or a shared game, stepped through, played, paused, scrubbed

function showReplay() {
  const r = ui.replay;
  $("replay").hidden = !r;
  if (!r) return;
  $("replay-title").textContent = r.title;
  const ol = $("solution");
  ol.innerHTML = "";
  r.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = moveText(m);
    li.onclick = () => replayTo(i + 1);
    ol.appendChild(li);
  });
  $("scrub").max = String(r.moves.length);
  syncReplay();
}

// How many of the replay's moves the board shows (null: the player left the replay).
function replayAt() {
  const r = ui.replay, st = ui.state;
  if (!r || !st) return null;
  if (st.moves.length > r.moves.length) return null;
  for (let i = 0; i < st.moves.length; i++) {
    if (JSON.stringify(st.moves[i]) !== JSON.stringify(r.moves[i])) return null;
  }
  return st.moves.length;
}

function syncReplay() {
  const r = ui.replay;
  if (!r) return;
  const at = replayAt();
  const n = r.moves.length;
  $("scrub").value = String(at ?? 0);
  $("scrub").setAttribute("aria-valuetext", at === null ? "off the replay" : `move ${at} of ${n}`);
  // off the replay (the player's own game on the board) Step, Play and End start it from
  // the beginning: a restart, which Undo takes back
  $("step").disabled = at !== null && at >= n;
  $("replay-end").disabled = at !== null && at >= n;
  $("step-back").disabled = at === null || at === 0;
  $("replay-start").disabled = at === 0;
  $("replay-title").textContent = at === null ? `${r.title} (your game is on the board: Step or Play starts the replay from the start; « Start then Undo brings your game back)` : r.title;
  // the pause sign drawn (fonts lack ⏸), the button's content changed only with the state
  if ($("watch").dataset.playing !== String(!!r.playing)) {
    $("watch").dataset.playing = String(!!r.playing);
    $("watch").innerHTML = r.playing
      ? '<svg class="icon" viewBox="0 0 10 12" width="10" height="12" aria-hidden="true"><rect width="3.5" height="12"/><rect x="6.5" width="3.5" height="12"/></svg> Pause'
      : "▶ Play";
  }
  $("watch").setAttribute("aria-label", r.playing ? "Pause the replay" : "Play the replay");
  $("watch").disabled = !r.playing && at !== null && at >= n;
  ui.replayAt = at;
  $("solution").querySelectorAll("li").forEach((li, i) => {
    const cur = at !== null && i === at - 1;
    li.classList.toggle("current", cur);
    if (cur) {
      li.setAttribute("aria-current", "step");
      li.scrollIntoView({ block: "nearest" });
    } else {
      li.removeAttribute("aria-current");
    }
  });
}

async function replayTo(k) {
  const r = ui.replay;
  if (!r) return;
  k = Math.max(0, Math.min(r.moves.length, k));
  let at = replayAt();
  if (at === null || k < at) {
    if (k < at && at - k <= 20) {
      await press(Array(at - k).fill("u").join(" "));
      return;
    }
    await press("R");
    at = 0;
  }
  if (k > at) await playMoves(r.moves.slice(at, k));
}

async function step() {
  const at = replayAt();
  if (!ui.replay || (at !== null && at >= ui.replay.moves.length)) return false;
  await replayTo((at ?? 0) + 1);
  // the player moved off the replay meanwhile (a key, a click): it stops there
  return replayAt() !== null;
}

async function watch() {
  const r = ui.replay;
  if (!r) return;
  if (r.playing) { r.playing = false; syncReplay(); return; }
  r.playing = true;
  syncReplay();
  while (ui.replay === r && r.playing && (await step())) {
    await sleep(500 / (+$("speed").value || 1));
  }
  r.playing = false;
  syncReplay();
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
let brushGame = null;

function editGame() {
  const m = /^Game:\s*([a-z]+)/m.exec($("text").value);
  const spec = (m && m[1]) || (ui.level && ui.level.game && ui.level.game.replace(/\(.*$/, "")) || (ui.state && ui.state.game) || "ice";
  return ui.games[spec] ? spec : "ice";
}

function buildEditor() {
  const g = ui.games[editGame()];
  if (!g) return;
  const pal = $("palette");
  pal.innerHTML = "";
  g.cells.glyphs.forEach((gl) => {
    const b = document.createElement("button");
    b.className = "glyph";
    b.dataset.glyph = gl.text;
    b.title = `${gl.text === " " ? "space" : gl.text}: ${gl.about}`;
    b.setAttribute("role", "radio");
    b.setAttribute("aria-label", `${gl.text === " " ? "space" : gl.text}: ${gl.about}`);
    // the cell as the board draws it (the server's picture of it), with its symbol
    if (gl.svg) {
      const img = document.createElement("img");
      img.alt = "";
      img.src = swatchUrl(gl);
      b.appendChild(img);
    }
    const sym = document.createElement("span");
    sym.textContent = gl.text === " " ? "␣" : gl.text;
    b.appendChild(sym);
    // the brush is taken as the finger or the button goes down (a tap after a stroke on
    // some touch screens brings no click), and by click for the keyboard
    b.onpointerdown = () => setBrush(gl.text);
    b.onclick = () => setBrush(gl.text);
    pal.appendChild(b);
  });
  // a brush is a symbol of its game: another game's board starts with its own first one
  if (!brush || brushGame !== g.name || !g.cells.glyphs.some((x) => x.text === brush)) brush = g.cells.glyphs[0].text;
  brushGame = g.name;
  if (ui.games[g.name]) $("new-game").value = g.name;
  setBrush(brush);
  drawGrid();
}

function setBrush(text) {
  brush = text;
  for (const x of $("palette").children) {
    const on = x.dataset.glyph === brush;
    x.classList.toggle("on", on);
    x.setAttribute("aria-checked", String(on));
    // one Tab stop for the whole palette: the brush; arrows move inside it
    x.tabIndex = on ? 0 : -1;
  }
}

// The palette by keyboard (a radio group): arrows, Home and End choose the brush.
function onPaletteKey(e) {
  const items = [...$("palette").children];
  const i = items.indexOf(e.target.closest && e.target.closest(".glyph"));
  if (i < 0) return;
  const perRow = Math.max(1, items.filter((b) => b.offsetTop === items[0].offsetTop).length);
  const j = { ArrowRight: i + 1, ArrowDown: i + perRow, ArrowLeft: i - 1, ArrowUp: i - perRow,
    Home: 0, End: items.length - 1 }[e.key];
  if (j === undefined) return;
  e.preventDefault();
  const to = items[Math.max(0, Math.min(items.length - 1, j))];
  setBrush(to.dataset.glyph);
  to.focus();
}

const swatchUrl = (gl) => "data:image/svg+xml;charset=utf-8," + encodeURIComponent(gl.svg);

// The editor's model: the header lines and the rows of cells, from the text box.
function model() {
  const g = ui.games[editGame()];
  const { head, board } = split($("text").value);
  return { g, head, rows: board.map((l) => cellsOf(l, g.cells.separator)) };
}

function drawGrid() {
  const { g, rows } = model();
  const cols = Math.max(1, ...rows.map((r) => r.length));
  const grid = $("grid");
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#grid .cell");
  const keep = focused ? [focused.dataset.r, focused.dataset.c] : null;
  grid.innerHTML = "";
  grid.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  rows.forEach((r, ri) => {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.style.display = "contents";
    for (let ci = 0; ci < cols; ci++) {
      const d = document.createElement("div");
      d.setAttribute("role", "gridcell");
      d.dataset.r = ri;
      d.dataset.c = ci;
      d.tabIndex = ri === 0 && ci === 0 ? 0 : -1;
      paintLook(d, r[ci] ?? "", g);
      row.appendChild(d);
    }
    grid.appendChild(row);
  });
  if (keep) {
    const d = grid.querySelector(`.cell[data-r='${keep[0]}'][data-c='${keep[1]}']`);
    if (d) { grid.querySelectorAll(".cell").forEach((c) => (c.tabIndex = -1)); d.tabIndex = 0; d.focus(); }
  }
}

function paintLook(d, v, g) {
  const i = g.cells.glyphs.findIndex((x) => x.text === v);
  const gl = i >= 0 ? g.cells.glyphs[i] : null;
  // the cell drawn as the board draws it; its symbol over it only where no picture says it
  // games written a word a cell (cards, numbers) keep the word over the picture: the small
  // picture's own figures are too small to read
  const word = !!g.cells.separator;
  d.className = "cell" + (!gl ? " unknown" : gl.svg ? " drawn" + (word ? " labelled" : "") : " g" + (i % 12));
  d.style.backgroundImage = gl && gl.svg ? `url("${swatchUrl(gl)}")` : "";
  d.textContent = gl && gl.svg && !word ? "" : v === " " ? "" : v;
  const about = i >= 0 ? g.cells.glyphs[i].about : v === "" ? "empty" : `'${v}', not a cell of this game`;
  d.setAttribute("aria-label", `row ${+d.dataset.r + 1}, column ${+d.dataset.c + 1}: ${about}`);
}

// Sets one cell to the brush, in the text and on the grid (the grid is not rebuilt: the
// pointer painting it stays on its cell).
function paintCell(d) {
  const r = +d.dataset.r, c = +d.dataset.c;
  const { g, head, rows } = model();
  while (rows.length <= r) rows.push([]);
  const blank = g.cells.glyphs[0].text;
  while (rows[r].length <= c) rows[r].push(blank);
  if (rows[r][c] === brush) return;
  rows[r][c] = brush;
  writeText(head, rows, g);
  paintLook(d, brush, g);
}

function writeText(head, rows, g) {
  const sep = g.cells.separator;
  $("text").value = [...head.filter((l) => l.trim() !== ""), ...rows.map((r) => r.join(sep))].join("\n") + "\n";
  editChanged();
}

function writeBoard(head, rows) {
  writeText(head, rows, ui.games[editGame()]);
  drawGrid();
}

// Painting: a pointer pressed on the grid paints every cell it crosses until it is lifted
// (the grid holds the pointer, so a mouse released outside it or a finger stops painting).
let painting = null;

function gridCell(x, y) {
  const el = document.elementFromPoint(x, y);
  const d = el && el.closest ? el.closest("#grid .cell") : null;
  return d;
}

function onGridDown(e) {
  if (e.button !== undefined && e.button !== 0) return;
  const d = gridCell(e.clientX, e.clientY);
  if (!d) return;
  e.preventDefault();
  try { $("grid").setPointerCapture(e.pointerId); } catch {}
  painting = { id: e.pointerId, last: d };
  paintCell(d);
}

function onGridMove(e) {
  if (!painting || painting.id !== e.pointerId) return;
  if (e.pointerType === "mouse" && e.buttons === 0) { painting = null; return; }
  const d = gridCell(e.clientX, e.clientY);
  if (!d || d === painting.last) return;
  // every cell on the line from the last one: a quick stroke skips none
  const r0 = +painting.last.dataset.r, c0 = +painting.last.dataset.c, r1 = +d.dataset.r, c1 = +d.dataset.c;
  const n = Math.max(Math.abs(r1 - r0), Math.abs(c1 - c0));
  for (let i = 1; i <= n; i++) {
    const r = Math.round(r0 + ((r1 - r0) * i) / n), c = Math.round(c0 + ((c1 - c0) * i) / n);
    const cell = $("grid").querySelector(`.cell[data-r='${r}'][data-c='${c}']`);
    if (cell) paintCell(cell);
  }
  painting.last = d;
}

function onGridUp(e) {
  if (painting && painting.id === e.pointerId) painting = null;
}

// The grid by keyboard: arrows move between cells, space or enter paints.
function onGridKey(e) {
  const d = e.target.closest && e.target.closest("#grid .cell");
  if (!d) return;
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (step) {
    const n = $("grid").querySelector(`.cell[data-r='${+d.dataset.r + step[0]}'][data-c='${+d.dataset.c + step[1]}']`);
    if (n) { d.tabIndex = -1; n.tabIndex = 0; n.focus(); }
    e.preventDefault();
  } else if (e.key === " " || e.key === "Enter") {
    paintCell(d);
    e.preventDefault();
  }
}

function reshape(dr, dc) {
  const { g, head, rows: r0 } = model();
  let rows = r0;
  const blank = g.cells.glyphs[0].text;
  const cols = Math.max(1, ...rows.map((r) => r.length));
  if (dr > 0) rows.push(Array(cols).fill(blank));
  if (dr < 0 && rows.length > 1) rows.pop();
  if (dc > 0) rows = rows.map((r) => [...r, blank]);
  if (dc < 0 && cols > 1) rows = rows.map((r) => r.slice(0, cols - 1));
  writeBoard(head, rows);
}

// A level's text put in the editor as a draft (the level played stays as it is).
function editText(text) {
  $("text").value = text;
  ui.draft = text;
  saveDraft();
  tab("edit");
  const first = $("grid").querySelector(".cell");
  if (first) first.focus();
}

function newBoard() {
  closeShare();
  if (!$("message").classList.contains("bad")) say("");
  const game = $("new-game").value;
  const g = ui.games[game];
  const rows = Math.max(1, Math.min(40, Math.floor(+$("new-rows").value) || 5));
  const cols = Math.max(1, Math.min(40, Math.floor(+$("new-cols").value) || 5));
  const blank = g.cells.glyphs[0].text;
  $("text").value = `Game: ${game}\nTitle: my level\n`;
  buildEditor();
  writeBoard([`Game: ${game}`, "Title: my level"], Array.from({ length: rows }, () => Array(cols).fill(blank)));
}

let editTimer = null;
let editAsked = 0;

function editChanged() {
  ui.draft = $("text").value;
  saveDraft();
  clearTimeout(editTimer);
  editTimer = setTimeout(editVerdict, 250);
}

// Whether the editor's text is a level file rather than one level: header lines (`Title:`)
// after a board's rows, that is several levels.
function looksLikeFile(text) {
  let board = false;
  for (const line of text.split("\n")) {
    if (/^(Title|Game|Author|Comment|Level|Rules)\s*:/i.test(line)) {
      if (board) return true;
    } else if (line.trim() !== "" && !line.startsWith(";")) {
      board = true;
    }
  }
  return false;
}

// A file's text typed or pasted into the editor is read as Paste… reads it: its header
// lines understood, the picker for several levels, the game chooser when it does not say.
// One level of a file that names its game becomes the editor's text.
async function editorFile() {
  const text = $("text").value;
  if (!text.trim()) { drawGrid(); editChanged(); return; }
  const r = await api("/api/levels", { body: text, query: { name: "the editor's text" } });
  if ($("text").value !== text) return;
  if (!r.ok) { drawGrid(); editChanged(); return; }
  const d = r.data;
  const choose = !d.named && (d.games.length > 1 || d.game !== editGame());
  if (d.levels.length === 1 && !choose) {
    $("text").value = d.levels[0].text;
    buildEditor();
    editChanged();
    return;
  }
  drawGrid();
  editChanged();
  showPicker(text, d, null, "the editor's text");
}

async function editVerdict() {
  const text = $("text").value;
  const asked = ++editAsked;
  const el = $("edit-verdict");
  el.textContent = "checking…";
  el.className = "pending";
  const game = /^Game:/m.test(text) ? null : ui.level && ui.level.game;
  if (ui.tab === "edit") stageDraft("checking…", "pending");
  const [r, pic] = await Promise.all([
    api("/api/hint", { body: text, query: { game } }),
    ui.tab === "edit" ? api("/api/render", { body: text, query: { game } }) : null,
  ]);
  if (asked !== editAsked) return;
  if (pic && ui.tab === "edit") {
    const board = $("board");
    if (pic.ok && typeof pic.data === "string") {
      board.innerHTML = pic.data;
      fitDraft();
    } else {
      board.innerHTML = "";
    }
  }
  if (!r.ok) {
    el.textContent = plain(r.data.error);
    el.className = "no";
    if (ui.tab === "edit") stageDraft(el.textContent, "no");
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
  if (ui.tab === "edit") stageDraft(el.textContent, el.className);
}

// The stage on the Edit tab: the edited level as it starts, and the editor's verdict.
function stageDraft(said, cls) {
  const g = ui.games[editGame()];
  const title = /^Title:\s*(.+)$/m.exec($("text").value);
  $("title").textContent = `${title ? title[1].trim() : "untitled"} — ${g ? g.title : ""} (editing)`;
  $("moves").textContent = "as it starts:";
  $("moves").classList.remove("solved");
  setVerdict(said, cls);
  $("board").setAttribute("aria-label", `${$("title").textContent}: as it starts, ${said}`);
}

function fitDraft() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const stage = $("stage");
  const cs = getComputedStyle(stage);
  const room = stage.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  // The picture's own size (its viewBox), not the size of an earlier fit: fitting twice
  // must give the same board. A stage not laid out yet (no room) leaves the board as it is.
  const box = svg.viewBox && svg.viewBox.baseVal;
  const w = (box && box.width) || +svg.getAttribute("width"), h = (box && box.height) || +svg.getAttribute("height");
  if (!w || !h || !(room > 0)) return;
  const scale = Math.max(0.2, Math.min(1.5, room / w, Math.max(200, window.innerHeight * 0.45) / h));
  svg.setAttribute("width", String(Math.floor(w * scale)));
  svg.setAttribute("height", String(Math.floor(h * scale)));
}

// ---------------------------------------------------------------------------------------
// Solve: any algorithm, a stop button, the solution replayed

function fillAlgorithms() {
  const g = ui.games[ui.state ? ui.state.game : "ice"];
  if (!g) return;
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
  const bad = checkFields(["factor", "max-states", "timeout"]);
  if (bad) {
    $("solve-report").textContent = bad;
    return;
  }
  const level = await current();
  if (!level) {
    $("solve-report").textContent = "the level in the editor does not read: " + $("message").textContent;
    return;
  }
  ui.job = "solve-" + Math.random().toString(36).slice(2, 10);
  $("solve").disabled = true;
  $("stop").disabled = false;
  $("solve-report").textContent = "solving…";
  const g = ui.games[ui.state.game];
  const query = {
    algo: $("algo").value,
    max_states: $("max-states").value,
    timeout: $("timeout").value,
    job: ui.job,
    game: level.game,
  };
  if (g.capabilities.block_changes) query.factor = $("factor").value;
  // the replay of an earlier run goes: what is shown below is this run's
  ui.replay = null;
  ui.solution = null;
  showReplay();
  const r = await api("/api/solve", { body: level.text, query });
  $("solve").disabled = false;
  $("stop").disabled = true;
  ui.job = null;
  if (!r.ok && !r.data.status) {
    $("solve-report").textContent = plain(r.data.error);
    return;
  }
  $("solve-report").textContent = solveReport(r.data);
  const d = r.data;
  const solved = d.status === "solved" && Array.isArray(d.moves) && d.moves.length > 0 && ui.level === level;
  $("download-animation").disabled = !solved;
  if (solved) {
    // the replay waits under the board: the player's game stays until they step into it
    // (from the start, by a restart that Undo takes back)
    ui.replay = { moves: d.moves, title: `The solution: ${d.moves.length} ${wordFor(d.moves.length, ui.games[d.game].move_word)}` };
    ui.solution = d.moves;
    showReplay();
  }
}

// A solver's answer in words; a field the answer lacks is left out, never shown as null.
function solveReport(d) {
  const num = (x) => typeof x === "number" && Number.isFinite(x);
  const g = ui.games[d.game] || ui.games[ui.state ? ui.state.game : "ice"];
  const words = plural(g ? g.move_word : "move");
  const guess = d.algorithm === "random" || d.algorithm === "mc";
  const status = { solved: "solved",
    unsolvable: guess ? "no solution found (random play proves nothing)" : "unsolvable: no solution exists",
    limit: "no answer: the search stopped",
    "gave-up": "no solution found: the random player gave up",
    stuck: "no solution found: the random player got stuck" }[d.status] || String(d.status || "no answer").replace(/-/g, " ");
  const lines = [status + (num(d.length) ? `: ${d.length} ${words}` : "")];
  if (d.difficulty && num(d.difficulty.value)) {
    lines.push(`difficulty ${round(d.difficulty.value)}` + (num(d.difficulty.factor) ? ` (block-change factor ${round(d.difficulty.factor)})` : ""));
  }
  if (d.limit) {
    const why = { "max-states": "at the positions limit", timeout: "at the time limit",
      "max-memory": "at the memory limit", interrupted: "by the stop button",
      "max-moves": "at the move cap" }[d.limit] || `at the ${d.limit} limit`;
    const bound = num(d.lower_bound) && d.lower_bound > 0 ? `; at least ${d.lower_bound} ${d.lower_bound === 1 ? (g ? g.move_word : "move") : words} needed` : "";
    lines.push(`stopped ${why}${bound}`);
  }
  if (d.note) lines.push(String(d.note));
  const counted = [];
  if (num(d.states)) counted.push(`${d.states.toLocaleString()} positions`);
  if (num(d.seconds)) counted.push(`in ${d.seconds < 10 ? d.seconds.toFixed(2) : d.seconds.toFixed(1)} s`);
  if (counted.length) lines.push(counted.join(" "));
  return lines.join("\n");
}

// A number as people read it: at most two decimals.
function round(x) {
  return Number.isInteger(x) ? x.toLocaleString() : (+x.toFixed(2)).toLocaleString();
}

// A move as people read it: a push "(row, col) dir", else its fields.
// A move as people read it, as the games' own words write it: a push "(row, col) dir", a
// slide "down", a card "4D (1,1) → (0,2)", a pair "remove (0,0) (0,1)", a priest
// "(0,-1) → (0,1)"; else its fields.
function moveText(m) {
  if (!m || typeof m !== "object") return String(m);
  const at = (p) => (Array.isArray(p) ? `(${p.join(",")})` : String(p));
  if (m.dir !== undefined && m.row !== undefined) return `(${m.row}, ${m.col}) ${m.dir}`;
  if (m.dir !== undefined && Object.keys(m).length === 1) return String(m.dir);
  if (Array.isArray(m.remove)) return `remove ${m.remove.map(at).join(" ")}`;
  if (m.card !== undefined) return [m.card, m.from ? at(m.from) : null, m.to ? "→ " + at(m.to) : null].filter(Boolean).join(" ");
  if (m.from !== undefined && m.to !== undefined) return `${at(m.from)} → ${at(m.to)}`;
  return Object.entries(m).map(([k, v]) => `${k} ${Array.isArray(v) ? at(v) : v}`).join(", ");
}

async function stop() {
  if (ui.job) await api("/api/stop", { query: { job: ui.job } });
}

// ---------------------------------------------------------------------------------------
// Generate

async function preview(li, text, game) {
  const r = await api("/api/render", { body: text, query: { game } });
  if (!r.ok || typeof r.data !== "string") return;
  const img = document.createElement("img");
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(r.data);
  const title = /^Title:\s*(.+)$/m.exec(text);
  img.alt = "preview of " + (title ? title[1].trim() : li.firstChild.textContent.trim());
  li.insertBefore(img, li.firstChild);
}

// One generation at a time: both Generate buttons wait while one runs.
async function generating(fn) {
  if (ui.generating) return;
  ui.generating = true;
  for (const id of ["gen-ice", "gen-solitaire"]) $(id).disabled = true;
  $("gen-results").setAttribute("aria-busy", "true");
  try {
    await fn();
  } finally {
    ui.generating = false;
    for (const id of ["gen-ice", "gen-solitaire"]) $(id).disabled = false;
    $("gen-results").removeAttribute("aria-busy");
  }
}

async function generateIce() {
  const out = $("gen-results");
  const bad = checkFields(["g-rows", "g-cols", "g-targets", "g-blocks", "g-pushes", "g-difficulty", "g-seed"]);
  if (bad) {
    out.innerHTML = "";
    return addResult(bad).classList.add("bad");
  }
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
  if (!r.ok) return addResult(plain(r.data.error)).classList.add("bad");
  if (!r.data.levels.length) return addResult("no level within the limits: ask for fewer pushes or a larger board");
  for (const l of r.data.levels) {
    const v = l.verified;
    const li = addResult(`${v.pushes} pushes, difficulty ${v.difficulty}${v.unique ? ", unique" : ""} (verified: ${v.states} positions)`, l.level);
    preview(li, l.level);
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
  const bad = checkFields(["s-seed"]);
  if (bad) {
    out.innerHTML = "";
    return addResult(bad).classList.add("bad");
  }
  out.innerHTML = "<li>generating…</li>";
  const game = $("s-game").value;
  const r = await api("/api/experiment", {
    query: { game, setup: $("s-setup").value, seed: $("s-seed").value, generate: 1 },
  });
  out.innerHTML = "";
  if (!r.ok) return addResult(plain(r.data.error));
  for (const c of r.data) {
    const text = `Game: ${game}\n${c.text.replace(/^Game:.*\n/, "")}`;
    const s = await api("/api/hint", { body: text });
    const said = !s.ok ? plain(s.data.error)
      : s.data.solvable === "yes" ? `solvable in ${s.data.to_go} moves`
      : s.data.solvable === "no" ? "unsolvable: not offered to play (Edit opens it in the editor)" : "unknown within the limits";
    const lost = s.ok && s.data.solvable === "no";
    const li = addResult(`${c.title}: ${said}`, text, { edit: lost });
    if (lost) li.classList.add("bad");
    preview(li, text);
  }
}

function addResult(what, text, { edit = false } = {}) {
  const li = document.createElement("li");
  li.append(document.createTextNode(what + " "));
  if (text && edit) {
    // a challenge with no solution is a designer's matter: the editor, not a lost game
    const b = document.createElement("button");
    b.textContent = "Edit";
    b.className = "edit-result";
    b.onclick = () => editText(text);
    li.appendChild(b);
  } else if (text) {
    const b = document.createElement("button");
    b.textContent = "Play";
    b.className = "load-result";
    b.onclick = async () => {
      if (await load(text)) {
        tab("play");
        $("board").focus();
      }
    };
    li.appendChild(b);
  }
  $("gen-results").appendChild(li);
  return li;
}

// ---------------------------------------------------------------------------------------
// Files, links, tabs

function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function fileName(ext) {
  return ((ui.level && ui.level.name) || "level").replace(/[^A-Za-z0-9_-]+/g, "-") + ext;
}

// A link's query: the level, its game if the file does not say it, the moves for a replay,
// and last the level's length (a link cut short anywhere then says so: `n` is gone or
// wrong).
function linkQuery(text, game, moves) {
  const q = { level: text };
  if (game) q.game = game;
  if (moves && moves.length) q.moves = JSON.stringify(moves);
  q.n = String(text.length);
  q.c = linkCheck(text, game, q.moves);
  return new URLSearchParams(q).toString();
}

function shareLink(withMoves) {
  const moves = withMoves && ui.state ? ui.state.moves : null;
  return location.origin + location.pathname + "#" + linkQuery(ui.level.text, ui.level.game, moves);
}

async function share() {
  const level = await current();
  if (!level) return;
  const panel = $("share-panel");
  const n = ui.state ? ui.state.length : 0;
  $("share-moves").parentElement.lastChild.textContent = n
    ? ` with the ${n} ${wordFor(n)} played (a replay)`
    : " with the moves played (none yet)";
  $("share-moves").disabled = n === 0;
  $("share-link").value = shareLink($("share-moves").checked);
  panel.hidden = false;
  $("share").setAttribute("aria-expanded", "true");
  await copyLink();
}

async function copyLink() {
  const link = $("share-link").value;
  try {
    await navigator.clipboard.writeText(link);
    say($("share-moves").checked ? "link copied: opening it replays these moves on this level" : "link copied: opening it shows this level");
  } catch {
    $("share-link").select();
    say("the link to this level is selected beside the Share button: copy it from there");
  }
}

function closeShare({ focus = false } = {}) {
  const was = !$("share-panel").hidden;
  $("share-panel").hidden = true;
  $("share").setAttribute("aria-expanded", "false");
  if (was && /^link copied|^the link to this level/.test($("message").textContent)) say("");
  if (was && focus) $("share").focus();
}

// A message about something done before (a paste that failed) goes with the next action.
function clearBad() {
  if ($("message").classList.contains("bad")) say("");
}

function tab(name, { focus = false } = {}) {
  const was = ui.tab;
  ui.tab = name;
  document.body.dataset.shownTab = name;
  if (was !== name) clearBad();
  for (const b of document.querySelectorAll("#tabs [role=tab]")) {
    const on = b.dataset.tab === name;
    b.classList.toggle("on", on);
    b.setAttribute("aria-selected", String(on));
    b.tabIndex = on ? 0 : -1;
    if (on && focus) b.focus();
  }
  for (const t of document.querySelectorAll(".tab")) t.hidden = t.id !== "tab-" + name;
  // the way on is the player's: not over the editor
  $("next-level").hidden = name === "edit" || !(ui.state && ui.state.solved);
  if (name === "edit") {
    if (ui.draft === null && ui.level) $("text").value = ui.level.text;
    buildEditor();
    editVerdict();
  } else if (was === "edit" && ui.state) {
    // the played level again, as it was left
    editAsked++;
    $("board").innerHTML = "";
    const st = ui.state;
    ui.state = null;
    show(st, { slide: false, quiet: true });
    if (!st.verdict) verdict();
  }
  fitBoard();
}

function onTabKey(e) {
  const tabs = [...document.querySelectorAll("#tabs [role=tab]")];
  const i = tabs.indexOf(e.target);
  if (i < 0) return;
  const j = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
  if (j === undefined) return;
  e.preventDefault();
  tab(tabs[(j + tabs.length) % tabs.length].dataset.tab, { focus: true });
}

// A button that acts as the finger lifts from it (a tap right after a swipe brings no
// click on some touch screens), or on its click (a mouse, the keyboard).
function onTap(el, fn) {
  let tapped = 0;
  el.addEventListener("pointerup", (e) => {
    if (e.pointerType === "mouse" || el.disabled) return;
    const r = el.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) return;
    tapped = Date.now();
    fn();
  });
  el.addEventListener("click", () => {
    if (Date.now() - tapped > 800) fn();
  });
}

function wire() {
  document.addEventListener("keydown", onKey);
  $("tabs").addEventListener("keydown", onTabKey);
  const board = $("board");
  board.addEventListener("pointerdown", onBoardDown);
  board.addEventListener("pointerup", onBoardUp);
  board.addEventListener("pointercancel", () => { swipe = null; });
  window.addEventListener("resize", fitBoard);
  // a status line or a message that grows (a verdict, a long hint) leaves the board less
  // room on a phone: it is fitted again
  if (window.ResizeObserver) {
    // (fitting is idempotent: a board fitted again to the same room keeps its size)
    new ResizeObserver(() => { if (narrow()) fitBoard(); }).observe($("stage"));
  }
  for (const b of document.querySelectorAll("#tabs [role=tab]")) b.onclick = () => tab(b.dataset.tab);
  // a choice by pointer or Enter hands the focus to the board; arrow keys on a menu only
  // change it (the next arrow is the menu's, not a push)
  for (const id of ["collection", "level"]) {
    const sel = $(id);
    sel.addEventListener("keydown", (e) => {
      sel.dataset.key = e.key;
      if (e.key === "Enter" && !e.altKey) board.focus();
    });
    sel.addEventListener("pointerdown", () => { delete sel.dataset.key; });
    sel.onchange = async () => {
      const byKey = sel.dataset.key && sel.dataset.key !== "Enter";
      delete sel.dataset.key;
      if (id === "collection") fillLevels();
      const ok = await pickLevel();
      if (!byKey) board.focus();
      if (ok && !byKey) toStage();
    };
  }
  $("undo").onclick = () => press("u");
  $("redo").onclick = () => press("r");
  $("restart").onclick = () => press("R");
  $("hint").onclick = () => press("h");
  $("follow").onclick = () => press("H");
  $("enter").onclick = () => press("enter");
  for (const b of $("pad").querySelectorAll("button")) onTap(b, () => press(b.dataset.key));
  $("open-file").onclick = () => $("file").click();
  $("file").onchange = async () => {
    const f = $("file").files[0];
    $("file").value = "";
    if (f) await openText(await f.text(), { name: f.name });
  };
  $("paste").onclick = () => { clearBad(); $("paste-dialog").showModal(); };
  $("paste-dialog").onclose = () => {
    if ($("paste-dialog").returnValue === "load") openText($("paste-text").value, { name: "pasted text" });
  };
  $("pick-cancel").onclick = () => $("pick-dialog").close();
  $("share").onclick = share;
  $("share-copy").onclick = copyLink;
  $("share-close").onclick = () => closeShare({ focus: true });
  $("share-panel").addEventListener("keydown", (e) => {
    if (e.key === "Escape") { e.preventDefault(); closeShare({ focus: true }); }
  });
  $("help").onclick = openHelp;
  $("help-close").onclick = () => $("help-dialog").close();
  $("help-dialog").addEventListener("close", () => {
    const back = ui.helpFrom;
    ui.helpFrom = null;
    if (back && back.isConnected && back !== document.body) back.focus();
  });
  $("next-level").onclick = goNext;
  $("share-moves").onchange = () => { $("share-link").value = shareLink($("share-moves").checked); };
  $("download-level").onclick = async () => {
    const level = await current();
    if (level) download(fileName(".txt"), level.text, "text/plain");
  };
  $("download-svg").onclick = async () => {
    const level = await current();
    if (!level) return;
    const r = await api("/api/render", { body: level.text, query: { game: level.game } });
    if (r.ok) download(fileName(".svg"), r.data, "image/svg+xml");
    else say(r.data.error, true);
  };
  $("download-animation").onclick = async () => {
    if (!ui.solution) return;
    const r = await api("/api/picture", { body: ui.level.text, query: { game: ui.level.game, moves: JSON.stringify(ui.solution), style: "animate" } });
    if (r.ok) download(fileName("-solution.svg"), r.data, "image/svg+xml");
    else say(r.data.error, true);
  };
  $("text").oninput = (e) => {
    if (e.inputType === "insertFromPaste" || e.inputType === "insertFromDrop" || looksLikeFile($("text").value)) {
      editorFile();
      return;
    }
    drawGrid();
    editChanged();
  };
  const grid = $("grid");
  grid.addEventListener("pointerdown", onGridDown);
  grid.addEventListener("pointermove", onGridMove);
  grid.addEventListener("pointerup", onGridUp);
  grid.addEventListener("pointercancel", onGridUp);
  grid.addEventListener("lostpointercapture", onGridUp);
  grid.addEventListener("keydown", onGridKey);
  $("palette").addEventListener("keydown", onPaletteKey);
  $("add-row").onclick = () => reshape(1, 0);
  $("del-row").onclick = () => reshape(-1, 0);
  $("add-col").onclick = () => reshape(0, 1);
  $("del-col").onclick = () => reshape(0, -1);
  $("new-board").onclick = newBoard;
  $("edit-play").onclick = async () => {
    if (await current()) { tab("play"); board.focus(); }
  };
  $("solve").onclick = solve;
  $("stop").onclick = stop;
  $("step").onclick = step;
  $("step-back").onclick = () => { const at = replayAt(); if (at) replayTo(at - 1); };
  $("replay-start").onclick = () => replayTo(0);
  $("replay-end").onclick = () => ui.replay && replayTo(ui.replay.moves.length);
  $("watch").onclick = watch;
  $("scrub").oninput = () => replayTo(+$("scrub").value);
  $("gen-ice").onclick = () => generating(generateIce);
  $("gen-solitaire").onclick = () => generating(generateSolitaire);
  // Back and Forward (and a link typed into the address bar) move between levels inside
  // the page; each level comes back with the moves kept for it
  const followLink = () => {
    const link = readLink(location.hash);
    if (link.level !== null && (!ui.level || link.level !== ui.level.text || (link.game || null) !== (ui.level.game || null))) {
      if (link.cut) return linkBroken(link, "");
      // Back fires popstate and hashchange both: one load
      if (ui.following === location.hash) return;
      ui.following = location.hash;
      load(link.level, link.game, { quietFail: true, history: "replace" }).then((ok) => {
        ui.following = null;
        if (!ok) linkBroken(link, ui.lastError);
      });
    }
  };
  window.addEventListener("hashchange", followLink);
  window.addEventListener("popstate", followLink);
  // another tab solved a level: the menus say so here too
  window.addEventListener("storage", (e) => {
    if (e.key !== PROGRESS) return;
    markSolved();
    otherTab();
  });
}

start();
