// The page as people use it: a designer's mouse and finger on the editor, a keyboard player,
// a second browser, a reload, a truncated link, files of many levels, a page of another site,
// a board far too large. Each test is what a person did when the page failed them.
//
// Run by scripts/test.sh; alone: `npm ci && node --test --test-concurrency=1` here after
// `cargo build --release`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import {
  setup, startServer, newPage, until, shown, text, centre, fingerDrag, line, boardRows,
  request, sleep, shot, root, PHONE, opened, closed, counted,
} from "./lib.mjs";

const env = setup();

const cell = (r, c) => `#grid .cell[data-r='${r}'][data-c='${c}']`;

async function newBoard(p, game, rows, cols) {
  await p.click("[data-tab=edit]");
  await p.selectOption("#new-game", game);
  await p.fill("#new-rows", String(rows));
  await p.fill("#new-cols", String(cols));
  await p.click("#new-board");
  await p.waitForSelector(cell(rows - 1, cols - 1));
}

const rows = async (p) => boardRows(await p.inputValue("#text"));

test("the editor's brush paints while the mouse button is down, and only then", async () => {
  const p = await opened(env);
  await newBoard(p, "ice", 3, 5);
  await p.click("#palette .glyph[data-glyph='#']");
  // a click on one cell paints it
  let at = await centre(p, cell(0, 0));
  await p.mouse.move(at.x, at.y);
  await p.mouse.down();
  await p.mouse.up();
  await until(p, () => document.querySelector("#text").value.includes("#----"));
  // the mouse then crosses the bottom row with no button held: nothing is painted
  for (let c = 0; c < 5; c++) {
    at = await centre(p, cell(2, c));
    await p.mouse.move(at.x, at.y, { steps: 4 });
  }
  await sleep(300);
  assert.deepEqual(await rows(p), ["#----", "-----", "-----"], "moving the mouse with no button held painted cells");
  // a drag along the middle row paints every cell it crosses
  at = await centre(p, cell(1, 0));
  await p.mouse.move(at.x, at.y);
  await p.mouse.down();
  for (let c = 1; c < 5; c++) {
    at = await centre(p, cell(1, c));
    await p.mouse.move(at.x, at.y, { steps: 4 });
  }
  await p.mouse.up();
  at = await centre(p, cell(2, 4));
  await p.mouse.move(at.x, at.y, { steps: 4 });
  await sleep(300);
  assert.deepEqual(await rows(p), ["#----", "#####", "-----"]);
  await closed(p);
});

test("on a touch screen a finger drawn across the grid paints every cell it crosses", async () => {
  const p = await opened(env, { size: PHONE });
  await newBoard(p, "ice", 3, 4);
  await p.tap("#palette .glyph[data-glyph='#']");
  const from = await centre(p, cell(1, 0));
  const to = await centre(p, cell(1, 3));
  await fingerDrag(p, line(from, to, 12));
  await until(p, () => document.querySelector("#text").value.includes("####"), undefined, { timeout: 3000 });
  assert.deepEqual(await rows(p), ["----", "####", "----"]);
  // a tap paints one cell
  await p.tap("#palette .glyph[data-glyph='$']");
  await p.tap(cell(0, 0));
  await until(p, () => document.querySelector("#text").value.includes("$---"));
  await closed(p);
});

test("Share, Level file, SVG and Solve act on the level the editor shows", async () => {
  const p = await newPage(env.browser, env.server.base);
  await p.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.base.replace(/\/$/, "") });
  await p.goto(env.server.base);
  await shown(p, "OOTIC");
  await newBoard(p, "ice", 2, 4);
  await p.click("#palette .glyph[data-glyph='$']");
  await p.click(cell(0, 0));
  await p.click("#palette .glyph[data-glyph='.']");
  await p.click(cell(1, 3));
  await until(p, () => document.querySelector("#edit-verdict").textContent === "solvable in 2 pushes");
  const drawn = await p.inputValue("#text");
  const found = {};
  // Share: the link opens the drawn level
  await p.click("#share");
  await until(p, () => /link/.test(document.querySelector("#message").textContent));
  const link = await p.evaluate(() => navigator.clipboard.readText());
  found.share = new URLSearchParams(new URL(link).hash.slice(1)).get("level");
  // Level file and SVG: the drawn level
  let download = p.waitForEvent("download");
  await p.click("#download-level");
  found.file = readFileSync(await (await download).path(), "utf8");
  download = p.waitForEvent("download");
  await p.click("#download-svg");
  found.svg = /<title>([^<]*)<\/title>/.exec(readFileSync(await (await download).path(), "utf8"))[1];
  // Solve: the drawn level
  await p.click("[data-tab=solve]");
  await p.click("#solve");
  await until(p, () => /^(solved|unsolvable|stopped)/.test(document.querySelector("#solve-report").textContent) ||
    document.querySelector("#solve-report").textContent.includes(":"));
  found.solve = (await text(p, "#solve-report")).split("\n")[0];
  assert.deepEqual(found, { share: drawn, file: drawn, svg: "my level", solve: "solved: 2 pushes" });
  await closed(p);
});

test("after choosing a level in the menu, the arrows play it", async () => {
  const p = await opened(env);
  await p.focus("#level");
  await p.keyboard.press("ArrowDown");
  await shown(p, "OOTGCIR");
  // Enter hands the focus to the board: the block at (1, 2) slides right along its row
  await p.keyboard.press("Enter");
  await until(p, () => document.activeElement.id === "board");
  await p.keyboard.press("ArrowRight");
  await counted(p, /^1 push\b/);
  assert.match(await text(p, "#title"), /^OOTGCIR/);
  await closed(p);
});

test("Tab moves the focus; Enter and Space press the focused button", async () => {
  const p = await opened(env);
  await p.focus("#board");
  const before = await text(p, "#message");
  await p.keyboard.press("Tab");
  const focused = await p.evaluate(() => document.activeElement.id || document.activeElement.tagName);
  assert.notEqual(focused, "board", "Tab left the focus on the board");
  assert.equal(await text(p, "#message"), before, "Tab played a game key");
  // a push, then Enter on the focused Undo button takes it back
  await p.focus("#board");
  await p.keyboard.press("ArrowLeft");
  await counted(p, /^1 push\b/);
  await p.focus("#undo");
  await p.keyboard.press("Enter");
  await until(p, () => /^0 pushes/.test(document.querySelector("#moves").textContent), undefined, { timeout: 3000 });
  // and Space on the focused Restart button restarts
  await p.focus("#board");
  await p.keyboard.press("ArrowLeft");
  await counted(p, /^1 push\b/);
  await p.focus("#restart");
  await p.keyboard.press(" ");
  await until(p, () => /^0 pushes/.test(document.querySelector("#moves").textContent), undefined, { timeout: 3000 });
  await closed(p);
});

test("a reload keeps the level and the moves played", async () => {
  const p = await opened(env);
  await p.selectOption("#collection", "pushpush.txt");
  await shown(p, "hardest-4x4-a");
  await p.click("#follow");
  await counted(p, /^1 push\b/);
  const board = await p.innerHTML("#board");
  await p.reload();
  await shown(p, "hardest-4x4-a");
  await counted(p, /^1 push\b/);
  assert.equal(await p.innerHTML("#board"), board);
  await closed(p);
});

test("another browser playing cannot end a player's game", async () => {
  const s = await startServer(["--sessions", "4"]);
  const a = await newPage(env.browser, s.base);
  await a.goto(s.base);
  await shown(a, "OOTIC");
  // OOTIC's block at (0, 6) slides left to (0, 4), then right back
  await a.keyboard.press("ArrowLeft");
  await until(a, () => /^1 push\b/.test(document.querySelector("#moves").textContent));
  // someone else opens the page six times (a context of its own: other cookies)
  const other = await env.browser.newContext();
  for (let i = 0; i < 6; i++) {
    const q = await newPage(env.browser, s.base, { context: other });
    await q.goto(s.base);
    await shown(q, "OOTIC");
  }
  await other.close();
  await a.keyboard.press("ArrowRight");
  await until(a, () => /^2 pushes/.test(document.querySelector("#moves").textContent) ||
    document.querySelector("#message").classList.contains("bad"));
  assert.match(await text(a, "#moves"), /^2 pushes/, await text(a, "#message"));
  assert.deepEqual(a.errors, []);
  await a.context().close();
  await s.stop();
});

test("a game whose session the server dropped goes on where it was", async () => {
  // one session at most: a second tab of the same browser takes the first one's place
  const s = await startServer(["--sessions", "1"]);
  const a = await newPage(env.browser, s.base);
  await a.goto(s.base);
  await shown(a, "OOTIC");
  // OOTIC's block at (0, 6) slides left to (0, 4), then right back
  await a.keyboard.press("ArrowLeft");
  await until(a, () => /^1 push\b/.test(document.querySelector("#moves").textContent));
  const b = await newPage(env.browser, s.base, { context: a.context() });
  await b.goto(s.base + "#" + new URLSearchParams({ level: "Title: other\n$-.\n" }));
  await shown(b, "other");
  await a.bringToFront();
  await a.keyboard.press("ArrowRight");
  await until(a, () => /^2 pushes/.test(document.querySelector("#moves").textContent) ||
    document.querySelector("#message").classList.contains("bad"));
  assert.match(await text(a, "#moves"), /^2 pushes/, await text(a, "#message"));
  assert.match(await text(a, "#title"), /^OOTIC/);
  assert.deepEqual(a.errors, []);
  await a.context().close();
  await s.stop();
});

test("a truncated share link says so and offers the level list", async () => {
  const p = await opened(env);
  await p.selectOption("#collection", "icepath.txt");
  await p.selectOption("#level", "2");
  await shown(p, "rocky");
  const link = p.url();
  const q = await newPage(env.browser, env.server.base);
  await q.goto(link.slice(0, Math.floor(link.length * 0.6)));
  await until(q, () => /incomplete|damaged/.test(document.body.textContent));
  assert.deepEqual(q.errors, [], "the page failed on the link");
  // the level list is there to choose from
  await q.selectOption("#collection", "pushpush.txt");
  await shown(q, "hardest-4x4-a");
  assert.deepEqual(q.errors, []);
  await p.context().close();
  await q.context().close();
});

test("a file of several levels opens a level picker; a pasted pack too", async () => {
  const p = await opened(env);
  await p.setInputFiles("#file", path.join(root, "levels/pushpush.txt"));
  await p.waitForSelector("#pick-dialog[open]");
  assert.equal(await p.locator("#pick-list button").count(), 6);
  await p.click("#pick-list button:has-text('walled')");
  await shown(p, "walled");
  // a pack pasted: the picker again
  const pack = readFileSync(path.join(root, "levels/zelda.txt"), "utf8").split("Title: OOSSAS")[0];
  await p.click("#paste");
  await p.fill("#paste-text", pack);
  await p.click("#paste-load");
  await p.waitForSelector("#pick-dialog[open]");
  assert.equal(await p.locator("#pick-list button").count(), 2);
  await p.click("#pick-list button:has-text('OOTGCIR')");
  await shown(p, "OOTGCIR");
  assert.doesNotMatch(await text(p, "#message"), /--/);
  await closed(p);
});

test("a map without a Game: line is offered to the games that read it", async () => {
  const p = await opened(env);
  const map = readFileSync(path.join(root, "levels/icetower/golden-path.txt"), "utf8").replace(/^Game:.*\n/m, "");
  await p.click("#paste");
  await p.fill("#paste-text", map);
  await p.click("#paste-load");
  await p.waitForSelector("#pick-dialog[open]");
  const games = await p.$$eval("#pick-game option", (o) => o.map((x) => x.value));
  assert.ok(games.includes("icetower"), games.join(" "));
  await p.selectOption("#pick-game", "icetower");
  await p.click("#pick-list button");
  await shown(p, "golden path");
  assert.match(await text(p, "#title"), /Ice Tower/);
  await closed(p);
});

test("hints and verdicts answer while two long solves run", async () => {
  const s = await startServer(["--jobs", "2", "--max-states", "2000000000", "--timeout", "60s"]);
  const room = "Title: open room\n$$$$$$$$\n--------\n--------\n----=---\n---=.=--\n----=---\n--------\n--------\n";
  const solvers = [];
  for (let i = 0; i < 2; i++) {
    const q = await newPage(env.browser, s.base);
    await q.goto(s.base + "#" + new URLSearchParams({ level: room }));
    await shown(q, "open room");
    await q.click("[data-tab=solve]");
    await q.fill("#max-states", "2000000000");
    await q.fill("#timeout", "60");
    await q.click("#solve");
    solvers.push(q);
  }
  const t0 = Date.now();
  while ((await request(s.base, "/api/health", { method: "GET" })).data.searches < 2) {
    assert.ok(Date.now() - t0 < 10000, "the two solves never ran");
    await sleep(50);
  }
  const p = await newPage(env.browser, s.base);
  const began = Date.now();
  await p.goto(s.base);
  await p.selectOption("#collection", "pushpush.txt");
  await shown(p, "hardest-4x4-a");
  const verdictMs = Date.now() - began;
  const h0 = Date.now();
  await p.keyboard.press("h");
  await until(p, () => document.querySelector("#message").textContent.startsWith("hint: push"));
  const hintMs = Date.now() - h0;
  console.log(`under two long solves: page and first verdict after ${verdictMs} ms, a hint after ${hintMs} ms`);
  assert.ok(verdictMs < 4000 && hintMs < 2000, `verdict ${verdictMs} ms, hint ${hintMs} ms`);
  assert.equal((await request(s.base, "/api/health", { method: "GET" })).data.searches, 2, "the solves still run");
  for (const q of solvers) {
    await q.click("#stop");
    await until(q, () => /stopped by the stop button/.test(document.querySelector("#solve-report").textContent));
    await q.context().close();
  }
  await closed(p);
  await s.stop();
});

test("a page of another site cannot make the server work", async () => {
  const room = "Title: open room\n$$$$$$$$\n--------\n--------\n----=---\n---=.=--\n----=---\n--------\n--------\n";
  const api = env.server.base + "api/solve?job=evil&timeout=20s";
  const evil = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><title>a game site</title><script>
      fetch(${JSON.stringify(api)}, { method: "POST", mode: "no-cors", body: ${JSON.stringify(room)} }).catch(() => {});
      fetch(${JSON.stringify(env.server.base + "api/play")}, { method: "POST", mode: "no-cors", body: "$-.\\n" }).catch(() => {});
    </script>`);
  });
  await new Promise((ok) => evil.listen(0, "127.0.0.1", ok));
  const p = await newPage(env.browser, env.server.base);
  await p.goto(`http://127.0.0.1:${evil.address().port}/`);
  await sleep(1500);
  const stop = await request(env.server.base, "/api/stop?job=evil");
  assert.equal(stop.status, 404, "the other site's solve ran on the server");
  await p.context().close();
  await new Promise((ok) => evil.close(ok));
});

test("a board far too large is refused with a clear message", async () => {
  const p = await opened(env);
  const row = "-".repeat(1000);
  const huge = "Title: huge\n$" + row.slice(1) + "\n" + Array(998).fill(row).join("\n") + "\n" + row.slice(1) + ".\n";
  await p.click("#paste");
  // Chromium lays out the megabyte in the text area (6 to 9 s on 2 busy cores): the browser's
  // time, not the page's, so the refusal is timed from the click on Load
  await p.fill("#paste-text", huge);
  const t0 = Date.now();
  await p.click("#paste-load");
  await until(p, () => /cells/.test(document.querySelector("#message").textContent) &&
    document.querySelector("#message").classList.contains("bad"), undefined, { timeout: 10000 });
  const ms = Date.now() - t0;
  assert.match(await text(p, "#message"), /1,000×1,000|1000×1000|1,000,000 cells/);
  assert.ok(ms < 4000, `the refusal took ${ms} ms after the click on Load`);
  // the level shown before is still there
  assert.match(await text(p, "#title"), /^OOTIC/);
  await shot(p, "hands-huge-refused");
  await p.context().close();
});

// ---------------------------------------------------------------------------------------
// What a newcomer met driving the page

test("Generate names the page's fields and their ranges, never a command-line flag", async () => {
  const p = await opened(env);
  await p.click("[data-tab=generate]");
  const tries = [
    ["#g-rows", "-5", /^Rows: a whole number from 2 to 20/],
    ["#g-rows", "1.5", /^Rows: a whole number from 2 to 20/],
    ["#g-rows", "", /^Rows: a whole number from 2 to 20 is needed/],
    ["#g-cols", "1e30", /^Columns: a whole number from 2 to 20/],
    ["#g-blocks", "0", /^Blocks at most: a whole number from 1 to 12/],
    ["#g-pushes", "-3", /^Pushes at least: a whole number from 0 to 60/],
    ["#g-seed", "-1", /^Seed: a whole number 0 or more/],
  ];
  for (const [field, value, said] of tries) {
    const was = await p.inputValue(field);
    await p.fill(field, value);
    await p.click("#gen-ice");
    await until(p, () => document.querySelector("#gen-results").textContent.trim() !== "");
    const got = await text(p, "#gen-results");
    assert.match(got, said, `${field} = '${value}'`);
    assert.doesNotMatch(got, /--|<[A-Z]>/, `${field} = '${value}'`);
    assert.equal(await p.evaluate(() => document.activeElement.id), field.slice(1), "the wrong field has the focus");
    await p.fill(field, was);
  }
  // the Solve tab's fields too
  await p.click("[data-tab=solve]");
  await p.fill("#max-states", "-4");
  await p.click("#solve");
  await until(p, () => /Positions at most: a whole number 1 or more/.test(document.querySelector("#solve-report").textContent));
  await closed(p);
});

test("a share link cut short anywhere, or changed, says so instead of opening another level", async () => {
  const p = await opened(env);
  await p.selectOption("#level", "3");
  await shown(p, "OOSSAS");
  await p.click("#follow");
  await counted(p, /^1 push\b/);
  await p.click("#share");
  await p.check("#share-moves");
  const link = await p.inputValue("#share-link");
  const start = link.indexOf("#level=") + "#level=".length;
  const cuts = new Set();
  for (let i = 1; i <= 9; i++) cuts.add(Math.floor((link.length * i) / 10));
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let i = 0; i < 8; i++) cuts.add(Math.floor(start + 1 + rand() * (link.length - start - 2)));
  const flipped = [];
  for (const at of [0.3, 0.5, 0.7, 0.95].map((f) => Math.floor(link.length * f))) {
    let i = at;
    while (!/[A-Za-z0-9]/.test(link[i])) i++;
    const c = link[i] === "A" ? "B" : link[i] === "0" ? "1" : /[0-9]/.test(link[i]) ? "0" : "A";
    flipped.push(link.slice(0, i) + c + link.slice(i + 1));
  }
  const q = await newPage(env.browser, env.server.base);
  const seen = [];
  for (const url of [...[...cuts].filter((n) => n > start).map((n) => link.slice(0, n)), ...flipped]) {
    await q.goto("about:blank");
    await q.goto(url);
    await until(q, () => !document.querySelector("#notice").hidden ||
      /still solvable: (?!…)|no longer solvable|still solvable\?/.test(document.querySelector("#verdict").textContent));
    const broken = await q.evaluate(() => !document.querySelector("#notice").hidden &&
      /incomplete or damaged/.test(document.querySelector("#notice").textContent));
    if (!broken) seen.push(`${url.length} of ${link.length}: ${await text(q, "#title")} ${await text(q, "#moves")}`);
  }
  assert.deepEqual(seen, [], "links cut or changed that opened a level");
  // the way back is there
  await q.click("#notice button");
  await shown(q, "OOTIC");
  // the whole link opens the level and the replay
  await q.goto("about:blank");
  await q.goto(link);
  await shown(q, "OOSSAS");
  await until(q, () => !document.querySelector("#replay").hidden);
  assert.deepEqual(q.errors, []);
  await p.context().close();
  await q.context().close();
});

test("on the Edit tab the board and the status line follow the edited level", async () => {
  const p = await opened(env);
  const played = await p.innerHTML("#board");
  await newBoard(p, "ice", 2, 4);
  await p.click("#palette .glyph[data-glyph='$']");
  await p.click(cell(0, 0));
  await p.click("#palette .glyph[data-glyph='.']");
  await p.click(cell(1, 3));
  await until(p, () => document.querySelector("#edit-verdict").textContent === "solvable in 2 pushes");
  await until(p, () => document.querySelector("#verdict").textContent === "solvable in 2 pushes");
  const drawn = await p.innerHTML("#board");
  assert.notEqual(drawn, played, "the board still shows the level played");
  // walls make it unsolvable: the status says so too, and nothing says solvable
  await p.click("#palette .glyph[data-glyph='#']");
  for (const [r, c] of [[1, 0], [1, 1], [1, 2], [0, 3]]) await p.click(cell(r, c));
  await until(p, () => document.querySelector("#edit-verdict").textContent === "unsolvable");
  await until(p, () => document.querySelector("#verdict").textContent === "unsolvable");
  assert.doesNotMatch(await text(p, "#stage"), /solvable in/);
  assert.notEqual(await p.innerHTML("#board"), drawn);
  await shot(p, "edit-stage-desktop");
  // back on Play: the level played, as it was
  await p.click("[data-tab=play]");
  await until(p, () => /^OOTIC/.test(document.querySelector("#title").textContent));
  await until(p, () => /still solvable: (?!…)/.test(document.querySelector("#verdict").textContent));
  await closed(p);
});

test("the editor's draft survives a reload, back on the Edit tab", async () => {
  const p = await opened(env);
  await p.click("[data-tab=edit]");
  await p.waitForSelector(cell(0, 0));
  await p.click("#palette .glyph[data-glyph='#']");
  await p.click(cell(0, 0));
  await p.click(cell(0, 1));
  await until(p, () => /^##/m.test(document.querySelector("#text").value));
  const draft = await p.inputValue("#text");
  await p.reload();
  await until(p, () => document.querySelector("#tab-button-edit").getAttribute("aria-selected") === "true");
  assert.equal(await p.inputValue("#text"), draft);
  await until(p, () => document.querySelector(`#grid .cell[data-r='0'][data-c='1']`) &&
    /: a wall$/.test(document.querySelector(`#grid .cell[data-r='0'][data-c='1']`).getAttribute("aria-label")));
  // played: the draft is the level, and a reload stays on Play
  await p.click("#edit-play");
  await until(p, () => document.querySelector("#tab-button-play").getAttribute("aria-selected") === "true");
  await p.reload();
  await until(p, () => /still solvable: (?!…)|no longer solvable|still solvable\?/.test(document.querySelector("#verdict").textContent));
  assert.equal(await p.evaluate(() => document.querySelector("#tab-button-edit").getAttribute("aria-selected")), "false");
  await closed(p);
});

test("a level file pasted into the editor's text is read as Paste… reads it", async () => {
  const p = await newPage(env.browser, env.server.base);
  const origin = env.server.base.replace(/\/$/, "");
  await p.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  await p.goto(env.server.base);
  await shown(p, "OOTIC");
  await p.click("[data-tab=edit]");
  const paste = async (t) => {
    await p.evaluate((t) => navigator.clipboard.writeText(t), t);
    await p.focus("#text");
    await p.keyboard.press("Control+A");
    await p.keyboard.press("Control+V");
  };
  // two levels: the picker; no header line becomes cells
  const pack = readFileSync(path.join(root, "levels/zelda.txt"), "utf8").split("Title: OOSSAS")[0];
  await paste(pack);
  await p.waitForSelector("#pick-dialog[open]");
  assert.equal(await p.locator("#pick-list button").count(), 2);
  await p.click("#pick-list button:has-text('OOTGCIR')");
  // the pasted pack already has a line "Title: OOTGCIR": wait for the one level alone
  await until(p, () => !document.querySelector("#pick-dialog").open &&
    /^Title: OOTGCIR/m.test(document.querySelector("#text").value) &&
    !/OOTIC/.test(document.querySelector("#text").value));
  const cells = await p.$$eval("#grid .cell", (c) => c.map((x) => x.textContent).join(""));
  assert.doesNotMatch(cells, /Title|T?itle:/);
  // an Ice Tower map without a Game: line: the game chooser
  const map = readFileSync(path.join(root, "levels/icetower/golden-path.txt"), "utf8").replace(/^Game:.*\n/m, "");
  await paste(map);
  await p.waitForSelector("#pick-dialog[open]");
  assert.equal(await p.isHidden("#pick-game-row"), false, "no game chooser");
  await p.selectOption("#pick-game", "icetower");
  await p.click("#pick-list button");
  await until(p, () => /^Game: icetower/m.test(document.querySelector("#text").value));
  assert.doesNotMatch(await text(p, "#edit-verdict"), /untitled|<request>|a space is not a cell/);
  await closed(p);
});

test("the menus show the level on the board: after a link, a reload, a pasted file", async () => {
  const p = await opened(env);
  await p.selectOption("#collection", "icepath.txt");
  await p.selectOption("#level", "2");
  await shown(p, "rocky");
  const link = p.url();
  const menus = (q) => q.evaluate(() => [document.querySelector("#collection").selectedOptions[0].textContent,
    document.querySelector("#level").selectedOptions[0].textContent.replace(/ \(.*/, "")]);
  // a link in another browser
  const q = await newPage(env.browser, env.server.base);
  await q.goto(link);
  await shown(q, "rocky");
  const [col, lev] = await menus(q);
  assert.match(col, /^icepath\.txt /, "after a link");
  assert.match(lev, /^2\. rocky/, "after a link");
  // a level of a pasted pack, then a move and a reload
  const pack = readFileSync(path.join(root, "levels/zelda.txt"), "utf8").split("Title: OOSSAS")[0];
  await q.click("#paste");
  await q.fill("#paste-text", pack);
  await q.click("#paste-load");
  await q.waitForSelector("#pick-dialog[open]");
  await q.click("#pick-list button:has-text('OOTGCIR')");
  await shown(q, "OOTGCIR");
  assert.deepEqual(await menus(q), ["pasted text (2)", "2. OOTGCIR"], "after a pasted pack");
  await q.click("#follow");
  await until(q, () => /^1 push\b/.test(document.querySelector("#moves").textContent));
  await q.reload();
  await shown(q, "OOTGCIR");
  assert.deepEqual(await menus(q), ["pasted text (2)", "2. OOTGCIR"], "after a reload");
  // the pack's other level from the menu
  await q.selectOption("#level", "1");
  await shown(q, "OOTIC");
  assert.deepEqual(q.errors, []);
  await p.context().close();
  await q.context().close();
});

test("a file's level goes by the file's name; an empty paste says what happened", async () => {
  const p = await opened(env);
  const map = readFileSync(path.join(root, "levels/icetower/golden-path.txt"), "utf8").replace(/^(Game|Title):.*\n/gm, "");
  await p.setInputFiles("#file", { name: "qits001", mimeType: "text/plain", buffer: Buffer.from(map) });
  await p.waitForSelector("#pick-dialog[open]");
  await p.selectOption("#pick-game", "icetower");
  await until(p, () => /qits001/.test(document.querySelector("#pick-list").textContent));
  assert.doesNotMatch(await text(p, "#pick-list"), /request|untitled/);
  await p.click("#pick-list button");
  await shown(p, "qits001");
  assert.match(await text(p, "#title"), /^qits001 — Ice Tower/);
  // an empty paste
  await p.click("#paste");
  await p.fill("#paste-text", "  \n");
  await p.click("#paste-load");
  await until(p, () => /pasted text is empty/.test(document.querySelector("#message").textContent));
  assert.doesNotMatch(await text(p, "#message"), /request/);
  // a paste that does not read names no placeholder; the next action clears it
  await p.click("#paste");
  await p.fill("#paste-text", "Game: ice\n$-x\n");
  await p.click("#paste-load");
  await until(p, () => document.querySelector("#message").classList.contains("bad"));
  assert.doesNotMatch(await text(p, "#message"), /<request>|untitled/);
  await p.click("[data-tab=solve]");
  assert.equal(await text(p, "#message"), "");
  await closed(p);
});

test("arrow keys on the Level menu change the level and keep the focus on the menu", async () => {
  const p = await opened(env);
  await p.focus("#level");
  await p.keyboard.press("ArrowDown");
  await until(p, () => document.querySelector("#level").value === "2");
  await until(p, () => !/^OOTIC/.test(document.querySelector("#title").textContent));
  await sleep(300);
  assert.equal(await p.evaluate(() => document.activeElement.id), "level");
  await p.keyboard.press("ArrowDown");
  await until(p, () => document.querySelector("#level").value === "3");
  await shown(p, "OOSSAS");
  assert.match(await text(p, "#moves"), /^0 pushes/);
  // Enter hands the focus to the board
  await p.keyboard.press("Enter");
  await until(p, () => document.activeElement.id === "board");
  await closed(p);
});

test("solve reports, BoxOff's keys, the verdict's label, the optimum after a reload", async () => {
  const p = await opened(env);
  // the optimum stays after a reload
  await counted(p, /optimum \d+/);
  await p.click("#follow");
  await counted(p, /^1 push\b/);
  await p.reload();
  await shown(p, "OOTIC");
  await counted(p, /^1 push \(optimum \d+\)/);
  // a PushPush solve: only what the report has, rounded
  await p.selectOption("#collection", "pushpush.txt");
  await shown(p, "hardest-4x4-a");
  await p.click("[data-tab=solve]");
  await p.click("#solve");
  await until(p, () => /positions in/.test(document.querySelector("#solve-report").textContent));
  const report = await text(p, "#solve-report");
  assert.doesNotMatch(report, /undefined|null|NaN|\d\.\d{3,}/, report);
  // BoxOff: the message names the key that shows the next move, and that key does
  await p.click("[data-tab=play]");
  await p.selectOption("#collection", "solitaire/boxoff-1.txt");
  await shown(p, "BoxOff");
  await p.keyboard.press("n");
  await until(p, () => /plays it/.test(document.querySelector("#message").textContent));
  const first = await text(p, "#message");
  assert.match(first, /space shows the next/);
  await p.focus("#board");
  await p.keyboard.press(" ");
  await until(p, (f) => document.querySelector("#message").textContent !== f, first);
  assert.match(await text(p, "#message"), /plays it/);
  await closed(p);
});

test("on a phone the Edit tab has no play pad, a clear brush and cells a finger hits", async () => {
  const p = await opened(env, { size: PHONE });
  assert.equal(await p.isVisible("#pad"), true);
  await p.tap("[data-tab=edit]");
  await p.waitForSelector(cell(0, 0));
  assert.equal(await p.isVisible("#pad"), false, "the play pad is over the editor");
  await p.tap("#palette .glyph[data-glyph='#']");
  const look = await p.$eval("#palette .glyph.on", (b) => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]);
  assert.deepEqual(look, ["rgb(29, 95, 168)", "rgb(255, 255, 255)"], "the chosen brush is pale");
  const box = await p.locator(cell(0, 0)).boundingBox();
  assert.ok(box.width >= 36 && box.height >= 36, `cells of ${box.width}×${box.height} px`);
  await shot(p, "edit-phone");
  await closed(p);
});

test("the Edit tab's board keeps its size however often the window changes, even while hidden", async () => {
  const p = await opened(env);
  await p.click("[data-tab=edit]");
  await p.waitForSelector(cell(0, 0));
  await p.waitForSelector("#board svg");
  const size = () => p.$eval("#board svg", (s) => [s.getAttribute("width"), s.getAttribute("height")]);
  const first = await size();
  assert.ok(+first[0] > 0 && +first[1] > 0, `a board of ${first}`);
  // a phone turned, a window dragged: fitting again gives the same board, not 1.5 times it
  for (let i = 0; i < 3; i++) await p.evaluate(() => window.dispatchEvent(new Event("resize")));
  assert.deepEqual(await size(), first, "each fit scaled the board again");
  // a stage not laid out (no width) leaves the board as it is: no negative sizes
  await p.evaluate(() => {
    const stage = document.querySelector("#stage");
    stage.style.display = "none";
    window.dispatchEvent(new Event("resize"));
    stage.style.display = "";
    window.dispatchEvent(new Event("resize"));
  });
  assert.deepEqual(await size(), first);
  await closed(p);
});
