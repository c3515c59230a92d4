// The page players come back to: progress that survives (Restart taken back by Undo, each
// level's own moves across level changes, reloads and tabs, Back and Forward between levels),
// a way on (Next level, ✓ and the best in the menu), the rules said, solitaire hints that
// play, a clean solve report, the phone's screen, the editor's palette as the board draws
// it, and no serious accessibility fault (axe-core) on any view.
//
// Run by scripts/test.sh; alone: `npm ci && node --test players.test.mjs` here after
// `cargo build --release`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import {
  setup, newPage, until, shown, text, request, sleep, shot, opened, closed, counted, DESKTOP,
  centre, fingerDrag, line,
} from "./lib.mjs";

const env = setup();
const require = createRequire(import.meta.url);
const AXE = readFileSync(path.join(path.dirname(require.resolve("axe-core")), "axe.min.js"), "utf8");

const SMALL = { viewport: { width: 320, height: 568 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

/// Chooses a level in the menus as a hand does (the collection, then the level).
async function choose(p, collection, level) {
  if ((await p.inputValue("#collection")) !== collection) await p.selectOption("#collection", collection);
  if (level !== undefined) await p.selectOption("#level", String(level));
  // until the level chosen is the one on the board
  await until(p, () => {
    const c = window.collection();
    const l = c && c.levels.find((x) => String(x.index) === document.querySelector("#level").value);
    return !!(l && ui.level && ui.level.text === l.text && ui.state && document.querySelector("#title").textContent);
  });
}

const title = (p) => text(p, "#title");
const moves = (p) => text(p, "#moves");

/// Plays `n` hints from the board (Shift+H), each counted on the status line (1 push, 2 pushes, …).
async function hints(p, n) {
  for (let i = 1; i <= n; i++) {
    await p.keyboard.press("Shift+H");
    await counted(p, new RegExp(`^${i} push${i === 1 ? "" : "es"}\\b`));
  }
}

/// Plays the hint until the level is solved (at most `most` moves).
async function solveByHints(p, most = 30) {
  for (let i = 0; i < most; i++) {
    if (/^Solved/.test(await moves(p))) return;
    const before = await moves(p);
    await p.keyboard.press("Shift+H");
    await until(p, (b) => document.querySelector("#moves").textContent !== b, before);
  }
  throw new Error("not solved by the hints");
}

/// The level a link names (its `level` part).
const linkLevel = (p) => p.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("level"));

/// Opens a level of one's own from the Edit tab, as a designer does, and plays it.
async function ownLevel(p, text, name) {
  await p.click("[data-tab=edit]");
  await p.fill("#text", text);
  await p.dispatchEvent("#text", "input");
  await until(p, () => /^solvable in /.test(document.querySelector("#edit-verdict").textContent));
  await p.click("#edit-play");
  await shown(p, name);
}

const WELL = "Game: pushpush\nTitle: the well\n-@-\n-$-\n#-#\n#.#\n";

/// The cells the board outlines as the dead core, as "row,col".
const outlined = (p) => p.evaluate(() => [...document.querySelectorAll("#board svg .dead-core rect")].map((r) => `${r.dataset.row},${r.dataset.col}`));

for (const [name, size] of [["desktop", DESKTOP], ["phone", PHONE]]) {
  test(`a push that loses the level: the block that cannot move is outlined, the push named, Undo saves it (${name})`, async () => {
    const p = await opened(env, { size });
    await ownLevel(p, WELL, "the well");
    assert.match(await text(p, "#verdict"), /^still solvable: /);
    // the robot pushes the block down the well, onto the target it now blocks
    if (name === "phone") {
      const from = await centre(p, "#board svg");
      await fingerDrag(p, line(from, { x: from.x, y: from.y + 90 }));
    } else {
      await p.focus("#board");
      await p.keyboard.press("ArrowDown");
    }
    await counted(p, /^1 push\b/);
    await until(p, () => /^This block \(outlined\) can no longer be moved out of the robot's way\. Push 1, \(1, 1\) down, lost it: Undo saves it\.$/.test(document.querySelector("#verdict").textContent));
    assert.deepEqual(await outlined(p), ["3,1"]);
    // the outline sits on the block's cell of the picture
    const box = await p.evaluate(() => {
      const r = document.querySelector("#board svg .dead-core rect");
      const g = ui.state.geometry;
      return { x: +r.getAttribute("x"), y: +r.getAttribute("y"), cx: g.x + 1 * g.cell, cy: g.y + 3 * g.cell, cell: g.cell };
    });
    assert.ok(box.x > box.cx && box.x < box.cx + box.cell / 4 && box.y > box.cy && box.y < box.cy + box.cell / 4, JSON.stringify(box));
    assert.match(await p.getAttribute("#board", "aria-label"), /1 push \(optimum 1\)\. This block \(outlined\) can no longer/);
    // the outline is not the selection's red
    assert.equal(await p.evaluate(() => getComputedStyle(document.querySelector("#board svg .dead-core rect")).stroke), "rgb(125, 60, 152)");
    await shot(p, `explain-lost-${name}`);
    // a reload keeps the moves, and the explanation comes back with them
    await p.reload();
    await shown(p, "the well");
    await until(p, () => /lost it: Undo saves it\.$/.test(document.querySelector("#verdict").textContent));
    assert.deepEqual(await outlined(p), ["3,1"]);
    // Undo saves it: the outline goes with the lost position
    if (name === "phone") await p.tap("#pad-undo");
    else await p.click("#undo");
    await counted(p, /^0 pushes\b/);
    await until(p, () => /^still solvable: /.test(document.querySelector("#verdict").textContent));
    assert.deepEqual(await outlined(p), []);
    await closed(p);
  });
}

test("Undo takes a Restart back; the moves come back whole", async () => {
  const p = await opened(env);
  await p.focus("#board");
  await hints(p, 2);
  const played = await p.evaluate(() => JSON.stringify(ui.state.moves));
  await p.click("#restart");
  await counted(p, /^0 pushes\b/);
  await p.focus("#board");
  await p.keyboard.press("u");
  await counted(p, /^2 pushes\b/);
  assert.match(await text(p, "#message"), /took the restart back/);
  assert.equal(await p.evaluate(() => JSON.stringify(ui.state.moves)), played);
  // Redo restarts again, and Undo brings the game back again
  await p.keyboard.press("r");
  await counted(p, /^0 pushes\b/);
  await p.click("#undo");
  await counted(p, /^2 pushes\b/);
  await closed(p);
});

test("each level keeps its own moves: another level and back, a reload, a second tab", async () => {
  const p = await opened(env);
  const first = await title(p);
  await p.focus("#board");
  await p.keyboard.press("Shift+H");
  await counted(p, /^1 push\b/);
  await choose(p, "zelda.txt", 2);
  await until(p, (t) => document.querySelector("#title").textContent !== t, first);
  await shown(p, "");
  assert.match(await moves(p), /^0 pushes/);
  await hints(p, 2);
  const second = await title(p);
  // back to the first level: its push is there
  await choose(p, "zelda.txt", 1);
  await until(p, (t) => document.querySelector("#title").textContent === t, first);
  await counted(p, /^1 push\b/);
  // a reload keeps the level shown and its moves
  await p.reload();
  await until(p, (t) => document.querySelector("#title").textContent === t, first);
  await counted(p, /^1 push\b/);
  // a second tab of the same browser finds the second level's two pushes
  const q = await newPage(env.browser, env.server.base, { context: p.context() });
  await q.goto(env.server.base);
  await shown(q, first.split(" — ")[0]);
  await choose(q, "zelda.txt", 2);
  await until(q, (t) => document.querySelector("#title").textContent === t, second);
  await counted(q, /^2 pushes\b/);
  assert.deepEqual(q.errors, []);
  await q.close();
  await closed(p);
});

test("Back and Forward move between the levels shown, inside the page; the link names the level", async () => {
  const p = await opened(env);
  const levels = (await request(env.server.base, "/api/levels", { method: "GET" })).data.find((c) => c.file === "zelda.txt").levels;
  for (const n of [2, 3]) {
    await choose(p, "zelda.txt", n);
    await until(p, (name) => document.querySelector("#title").textContent.startsWith(name), levels[n - 1].name);
  }
  assert.equal(await linkLevel(p), levels[2].text);
  await p.focus("#board");
  await p.keyboard.press("Shift+H");
  await counted(p, /^1 push\b/);
  await p.goBack();
  await until(p, (name) => document.querySelector("#title").textContent.startsWith(name + " —"), levels[1].name);
  assert.equal(await linkLevel(p), levels[1].text);
  assert.equal(await p.inputValue("#level"), "2", "the level menu follows Back");
  await p.goBack();
  await until(p, (name) => document.querySelector("#title").textContent.startsWith(name + " —"), levels[0].name);
  assert.ok(p.url().startsWith(env.server.base), "Back stayed in the page");
  await p.goForward();
  await p.goForward();
  await until(p, (name) => document.querySelector("#title").textContent.startsWith(name + " —"), levels[2].name);
  await counted(p, /^1 push\b/);
  await closed(p);
});

test("a solved level offers the next one, is marked ✓ with the best in the menu, across a reload", async () => {
  const p = await opened(env, {});
  await choose(p, "pushpush.txt", 1);
  await shown(p, "hardest-4x4-a");
  await p.focus("#board");
  assert.equal(await p.isVisible("#next-level"), false);
  await solveByHints(p);
  assert.match(await moves(p), /^Solved in 7 pushes: the optimum!/);
  assert.doesNotMatch(await text(p, "#status"), /still solvable/);
  assert.equal(await p.isVisible("#next-level"), true);
  const label = await p.$eval("#level option[value='1']", (o) => o.textContent);
  assert.match(label, /^✓ 1\. hardest-4x4-a .*best 7, optimum 7/);
  assert.match(await p.$eval("#collection option[value='pushpush.txt']", (o) => o.textContent), /1 of 6 solved/);
  await shot(p, "players-solved");
  // Enter on the board goes on to level 2
  await p.keyboard.press("Enter");
  await until(p, () => document.querySelector("#level").value === "2");
  await shown(p, "hardest-4x4-b");
  assert.equal(await p.isVisible("#next-level"), false);
  // the mark stays after a reload; a level solved again in more moves keeps the best
  await p.reload();
  await shown(p, "hardest-4x4-b");
  assert.match(await p.$eval("#level option[value='1']", (o) => o.textContent), /^✓ 1\./);
  // the button goes on from the last level of a collection to the first not solved
  const sixth = (await request(env.server.base, "/api/levels", { method: "GET" })).data.find((c) => c.file === "pushpush.txt").levels[5].name;
  await choose(p, "pushpush.txt", 6);
  await shown(p, sixth);
  await solveByHints(p, 40);
  await p.click("#next-level");
  await until(p, () => document.querySelector("#level").value === "2");
  await closed(p);
});

test("the rules are said on the Play tab and in the help (? and Escape, the focus given back)", async () => {
  const games = (await request(env.server.base, "/api/games", { method: "GET" })).data;
  const p = await opened(env);
  for (const [file, game] of [["zelda.txt", "ice"], ["pushpush.txt", "pushpush"], ["icetower/two-fires.txt", "icetower"],
    ["icepath.txt", "icepath"], ["solitaire/boxoff-1.txt", "boxoff"], ["solitaire/pretzel-1.txt", "pretzel"],
    ["solitaire/fujisan-1.txt", "fujisan"]]) {
    const rules = games.find((g) => g.name === game).rules;
    assert.match(rules, /^Goal: /, game);
    await choose(p, file, 1);
    await until(p, (r) => document.querySelector("#rules").textContent === r, rules);
  }
  await p.focus("#board");
  await p.keyboard.press("?");
  await until(p, () => document.querySelector("#help-dialog").open);
  assert.match(await text(p, "#help-rules"), /^Goal: /);
  assert.match(await text(p, "#help-title"), /Fujisan/);
  await p.keyboard.press("Escape");
  await until(p, () => !document.querySelector("#help-dialog").open);
  assert.equal(await p.evaluate(() => document.activeElement.id), "board");
  // the Help button opens it too, and Close gives the focus back to the button
  await p.click("#help");
  await until(p, () => document.querySelector("#help-dialog").open);
  await p.keyboard.press("Enter");
  await until(p, () => !document.querySelector("#help-dialog").open);
  assert.equal(await p.evaluate(() => document.activeElement.id), "help");
  await closed(p);
});

test("solitaire hints play with Enter and Play shown; the picture numbers cells as the moves do", async () => {
  const p = await opened(env);
  for (const [file, label] of [["solitaire/pretzel-1.txt", "A"], ["solitaire/fujisan-1.txt", "-1"], ["solitaire/boxoff-1.txt", "0"]]) {
    await choose(p, file, 1);
    await shown(p, "");
    const labels = await p.$$eval("#board svg text.coord", (t) => t.map((x) => x.textContent));
    assert.ok(labels.includes(label), `${file}: the picture's labels ${labels}`);
    await p.focus("#board");
    await p.keyboard.press("h");
    await until(p, () => document.querySelector("#message").textContent.startsWith("hint: move"));
    // every cell the hint names is numbered on the picture
    const said = await text(p, "#message");
    for (const [, r, c] of said.matchAll(/\((-?\d+),(-?\d+)\)/g)) {
      assert.ok(labels.includes(r) && labels.includes(c), `${said}: ${r},${c} not on the picture (${labels})`);
    }
    await p.keyboard.press("Enter");
    await counted(p, /^1 move\b/);
    await p.keyboard.press("u");
    await counted(p, /^0 moves\b/);
    await p.keyboard.press("h");
    await until(p, () => document.querySelector("#message").textContent.startsWith("hint: move"));
    await p.click("#enter");
    await counted(p, /^1 move\b/);
  }
  await closed(p);
});

test("a stopped or failed solve says no null and leaves no earlier replay under it", async () => {
  const p = await opened(env);
  await p.click("[data-tab=solve]");
  await p.click("#solve");
  await until(p, () => /^solved: \d+ pushes/.test(document.querySelector("#solve-report").textContent));
  await until(p, () => !document.querySelector("#replay").hidden);
  for (const algo of ["mc", "bfs", "random"]) {
    await p.selectOption("#algo", algo);
    await p.fill("#max-states", "1");
    await p.click("#solve");
    await until(p, () => !document.querySelector("#solve").disabled && !/solving/.test(document.querySelector("#solve-report").textContent));
    const report = await text(p, "#solve-report");
    assert.doesNotMatch(report, /null|undefined|NaN/, `${algo}: ${report}`);
    if (!/^solved/.test(report)) {
      assert.equal(await p.isVisible("#replay"), false, `${algo}: the earlier run's replay is still shown under "${report}"`);
    }
  }
  await closed(p);
});

for (const [name, size] of [["320×568", SMALL], ["390×844", PHONE]]) {
  test(`on a ${name} phone the status line, the board and the pad fit the screen together`, async () => {
    const p = await opened(env, { size });
    const inView = () => p.evaluate(() => {
      const box = (id) => document.getElementById(id).getBoundingClientRect();
      const svg = document.querySelector("#board svg").getBoundingClientRect();
      const h = window.innerHeight;
      const stage = document.getElementById("stage"), cs = getComputedStyle(stage);
      const room = stage.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      return { status: box("status").top >= 0 && box("status").bottom <= h, board: svg.top >= 0 && svg.bottom <= h,
        pad: box("pad").top >= 0 && box("pad").bottom <= h, cell: svg.width / ui.state.geometry.width * ui.state.geometry.cell,
        // the board takes the width it has, or the height left between the status line and the pad
        fills: svg.width >= room - 2 || box("pad").top - svg.bottom < 110, wide: svg.width, room };
    });
    for (const [file, level] of [["zelda.txt", 4], ["zelda.txt", 3], ["zelda.txt", 1], ["icetower/two-fires.txt", 1], ["pushpush.txt", 2], ["solitaire/fujisan-1.txt", 1]]) {
      await choose(p, file, level);
      await until(p, (l) => document.querySelector("#level").value === l, String(level));
      await shown(p, "");
      await sleep(100);
      const seen = await inView();
      assert.ok(seen.status && seen.board && seen.pad, `${file} ${level}: ${JSON.stringify(seen)}`);
      assert.ok(seen.fills, `${file} ${level}: the board is smaller than its room: ${JSON.stringify(seen)}`);
      // playing with the pad keeps them in view
      await p.tap("#pad-hint");
      await until(p, () => /^hint|^no hint/.test(document.querySelector("#message").textContent));
      await p.tap("#pad-undo");
      await sleep(100);
      const after = await inView();
      assert.ok(after.status && after.board && after.pad, `${file} ${level} after the pad: ${JSON.stringify(after)}`);
    }
    await shot(p, `players-phone-${size.viewport.width}`);
    await closed(p);
  });
}

test("the editor's palette draws each cell as the board does, and is one Tab stop", async () => {
  const p = await opened(env);
  await choose(p, "pushpush.txt", 1);
  await shown(p, "hardest");
  const legend = await p.evaluate(() => ui.legend);
  await p.click("[data-tab=edit]");
  await p.waitForSelector("#palette .glyph img");
  const glyphs = await p.evaluate(() => ui.games.pushpush.cells.glyphs);
  // the legend (drawn from the board) and the palette give the same picture for a kind
  let same = 0;
  for (const item of legend) {
    const gl = glyphs.find((g) => g.about === item.name);
    if (!gl) continue;
    assert.equal(gl.svg, item.svg, `${gl.text} (${gl.about}): the palette's picture is not the board's`);
    same++;
  }
  assert.ok(same >= 3, `only ${same} kinds compared`);
  const src = await p.$eval("#palette .glyph[data-glyph='#'] img", (i) => i.src);
  assert.ok(src.includes(encodeURIComponent(glyphs.find((g) => g.text === "#").svg).slice(0, 200)));
  const cell = await p.$eval("#grid .cell", (d) => d.style.backgroundImage);
  assert.match(cell, /^url\("data:image\/svg\+xml/);
  // one Tab stop: the brush; arrows choose inside the palette
  await p.focus("#palette .glyph.on");
  await p.keyboard.press("ArrowRight");
  const chosen = await p.evaluate(() => [document.activeElement.dataset.glyph, document.querySelector("#palette .glyph.on").dataset.glyph]);
  assert.equal(chosen[0], chosen[1]);
  assert.equal(chosen[0], glyphs[1].text);
  await p.keyboard.press("Tab");
  assert.equal(await p.evaluate(() => !!document.activeElement.closest("#palette")), false, "Tab left the palette in one stop");
  // Pretzel's 53 cards are one stop too
  await p.selectOption("#new-game", "pretzel");
  await p.click("#new-board");
  await p.waitForSelector("#palette .glyph[data-glyph='KC']");
  assert.equal(await p.$$eval("#palette .glyph", (b) => b.filter((x) => x.tabIndex === 0).length), 1);
  await closed(p);
});

test("Generate waits while it runs; an unsolvable challenge is marked, not opened as a lost game", async () => {
  const p = await opened(env);
  // a slow server: the second click comes while the first generation runs
  await p.route("**/api/experiment*", async (route) => { await sleep(600); await route.continue(); });
  await p.click("[data-tab=generate]");
  await p.selectOption("#s-game", "boxoff");
  const items = async () => p.$$eval("#gen-results li", (l) => l.map((x) => ({ text: x.textContent, bad: x.classList.contains("bad"),
    play: !!x.querySelector(".load-result"), edit: !!x.querySelector(".edit-result"), img: (x.querySelector("img") || {}).width || 0 })));
  const found = {};
  // seed 2 deals a challenge with no solution, seed 1 one with
  for (const seed of ["2", "1"]) {
    await p.fill("#s-seed", seed);
    await p.click("#gen-solitaire");
    assert.equal(await p.isDisabled("#gen-solitaire"), true);
    assert.equal(await p.isDisabled("#gen-ice"), true);
    await until(p, () => !document.querySelector("#gen-solitaire").disabled && document.querySelector("#gen-results img"), undefined, { timeout: 60000 });
    const got = await items();
    assert.ok(got.length > 0);
    for (const it of got) {
      if (/unsolvable/.test(it.text)) { found.lost = true; assert.ok(it.bad && it.edit && !it.play, JSON.stringify(it)); }
      else { found.fine = true; assert.ok(it.play, JSON.stringify(it)); }
      assert.ok(it.img >= 200, `a preview ${it.img} px wide`);
    }
    if (seed === "2") {
      // Edit opens it in the editor with its verdict, not as a game already lost
      await p.click(".edit-result");
      await until(p, () => document.querySelector("#edit-verdict").textContent === "unsolvable");
      assert.equal(await p.evaluate(() => document.body.dataset.shownTab), "edit");
      await p.click("[data-tab=generate]");
    }
  }
  assert.deepEqual(found, { lost: true, fine: true });
  await closed(p);
});

test("Escape closes the Share panel and gives the focus back; Paste… on the Edit tab puts the keys on the grid", async () => {
  const p = await opened(env);
  await p.click("#share");
  await until(p, () => !document.querySelector("#share-panel").hidden);
  await p.focus("#share-link");
  await p.keyboard.press("Escape");
  await until(p, () => document.querySelector("#share-panel").hidden);
  assert.equal(await p.evaluate(() => document.activeElement.id), "share");
  // a new board of another game: no Share panel and no "link copied" left
  await p.click("#share");
  await until(p, () => !document.querySelector("#share-panel").hidden);
  await p.click("[data-tab=edit]");
  await p.selectOption("#new-game", "pushpush");
  await p.click("#new-board");
  await until(p, () => document.querySelector("#share-panel").hidden);
  assert.doesNotMatch(await text(p, "#message"), /link/);
  // Paste… on the Edit tab
  await p.click("#paste");
  await p.fill("#paste-text", "Game: ice\nTitle: pasted\n$---\n---.\n");
  await p.click("#paste-load");
  await until(p, () => document.querySelector("#text").value.includes("Title: pasted"));
  await until(p, () => !!document.activeElement.closest("#grid"));
  const from = await p.evaluate(() => document.activeElement.dataset.c);
  await p.keyboard.press("ArrowRight");
  assert.equal(await p.evaluate(() => document.activeElement.dataset.c), String(+from + 1));
  await closed(p);
});

/// The serious and critical faults axe-core finds on the page as it is.
async function axe(p, what) {
  if (!(await p.evaluate(() => typeof window.axe === "object"))) await p.addScriptTag({ content: AXE });
  const r = await p.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  // serious and critical faults, and content outside the landmarks (`region`)
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "region")
    .map((v) => `${what}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}

for (const [name, size] of [["desktop", DESKTOP], ["phone", PHONE]]) {
  test(`axe-core finds no serious or critical fault and nothing outside a landmark on any view (${name})`, async () => {
    // the page's policy admits its own scripts only: axe-core is let in for the test
    const p = await opened(env, { size: { ...size, bypassCSP: true } });
    const found = [];
    found.push(...(await axe(p, "play")));
    await p.focus("#board");
    await p.keyboard.press("Shift+H");
    await counted(p, /^1 push\b/);
    await p.click("[data-tab=solve]");
    await p.click("#solve");
    await until(p, () => !document.querySelector("#replay").hidden);
    found.push(...(await axe(p, "solve with its replay")));
    await p.click("[data-tab=edit]");
    await p.waitForSelector("#grid .cell");
    found.push(...(await axe(p, "edit")));
    await p.click("[data-tab=generate]");
    found.push(...(await axe(p, "generate")));
    await p.click("[data-tab=play]");
    await p.click("#share");
    found.push(...(await axe(p, "share")));
    await p.keyboard.press("Escape");
    await p.click("#help");
    found.push(...(await axe(p, "help")));
    await p.keyboard.press("Escape");
    await choose(p, "solitaire/pretzel-1.txt", 1);
    await shown(p, "");
    found.push(...(await axe(p, "pretzel")));
    assert.deepEqual(found, []);
    await closed(p);
  });
}

test("a solve leaves the player's game on the board; the replay starts by a restart Undo takes back, and solves nothing for the player", async () => {
  const p = await opened(env);
  // a push of the player's own, off the solution (the optimum starts elsewhere)
  await p.focus("#board");
  await p.keyboard.press("ArrowLeft");
  await counted(p, /^1 push\b/);
  const mine = await p.evaluate(() => JSON.stringify(ui.state.moves));
  await p.click("[data-tab=solve]");
  await p.click("#solve");
  await until(p, () => !document.querySelector("#replay").hidden);
  assert.match(await moves(p), /^1 push\b/, "the solve reset the player's game");
  assert.match(await text(p, "#replay-title"), /your game is on the board/);
  // End plays the whole solution from the start: the level is not solved by the player
  await p.click("#replay-end");
  await until(p, () => /^Solved/.test(document.querySelector("#moves").textContent));
  assert.doesNotMatch(await p.$eval("#level option[value='1']", (o) => o.textContent), /✓/);
  // Undo back to the start, once more: the restart is taken back, the player's game is there
  await p.click("#replay-start");
  await counted(p, /^0 pushes\b/);
  await p.click("[data-tab=play]");
  await p.click("#undo");
  await counted(p, /^1 push\b/);
  assert.equal(await p.evaluate(() => JSON.stringify(ui.state.moves)), mine);
  // what this browser keeps for the level is the player's push
  assert.equal(await p.evaluate(() => JSON.stringify(progressOf(ui.level.text, ui.level.game).moves)), mine);
  await closed(p);
});

test("a replay's moves are written as the game writes them, for every game", async () => {
  const p = await opened(env);
  for (const file of ["icepath.txt", "solitaire/boxoff-1.txt", "solitaire/pretzel-1.txt", "solitaire/fujisan-1.txt", "pushpush.txt"]) {
    await choose(p, file, 1);
    await shown(p, "");
    await p.click("[data-tab=solve]");
    await p.click("#solve");
    await until(p, () => !document.querySelector("#replay").hidden && document.querySelectorAll("#solution li").length > 0, undefined, { timeout: 30000 });
    const items = await p.$$eval("#solution li", (l) => l.map((x) => x.textContent));
    for (const it of items) assert.doesNotMatch(it, /[[\]"{}]|\b(card|from|to|remove|dir) \[|,\s*to\b/, `${file}: ${it}`);
    await p.click("[data-tab=play]");
  }
  await closed(p);
});

test("a board solved as it starts is not marked solved; the last level says where Next goes", async () => {
  const p = await opened(env);
  await choose(p, "empty.txt", 1);
  await until(p, () => /^Solved as it starts/.test(document.querySelector("#moves").textContent));
  // a push on it changes nothing of that
  await p.focus("#board");
  await p.keyboard.press("ArrowDown");
  await until(p, () => /^1 push: Solved as it starts/.test(document.querySelector("#moves").textContent));
  assert.doesNotMatch(await p.$eval("#level option[value='1']", (o) => o.textContent), /✓/);
  assert.doesNotMatch(await p.$eval("#collection option[value='empty.txt']", (o) => o.textContent), /solved/);
  // the last Zelda room, solved: the button names the first room not solved yet
  const sixth = (await request(env.server.base, "/api/levels", { method: "GET" })).data.find((c) => c.file === "pushpush.txt").levels[5].name;
  await choose(p, "pushpush.txt", 6);
  await shown(p, sixth);
  await p.focus("#board");
  await solveByHints(p, 40);
  assert.match(await text(p, "#next-level"), /^Last level: on to 1\. /);
  await p.click("#next-level");
  await until(p, () => document.querySelector("#level").value === "1");
  // the menu changes at once, the message once the level is on the board
  await until(p, () => /last level of pushpush\.txt/.test(document.querySelector("#message").textContent));
  assert.equal(await p.$eval("#level", (s) => s.value), "1");
  await closed(p);
});

test("two tabs on one level: the second is told and chooses whose moves stay", async () => {
  const p = await opened(env);
  const q = await newPage(env.browser, env.server.base, { context: p.context() });
  await q.goto(env.server.base);
  await shown(q, "OOTIC");
  await p.focus("#board");
  await p.keyboard.press("Shift+H");
  await counted(p, /^1 push\b/);
  await until(q, () => /played in another tab: 1 push there, 0 here/.test(document.querySelector("#notice").textContent));
  await q.click("#notice button:text('Take the other tab')");
  await counted(q, /^1 push\b/);
  assert.equal(await q.isVisible("#notice"), false);
  assert.deepEqual(q.errors, []);
  await q.close();
  await closed(p);
});

test("a long title stays inside a 320-pixel screen; ? opens the help from a menu", async () => {
  const p = await opened(env, { size: SMALL });
  const long = "Title: " + "Averyveryverylongwordwithoutanyspace".repeat(3) + "\n$---\n---.\n";
  await p.evaluate((t) => load(t), long);
  await until(p, () => document.querySelector("#title").textContent.startsWith("Avery"));
  assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= 320), "the page is wider than the screen");
  await p.focus("#level");
  await p.keyboard.press("?");
  await until(p, () => document.querySelector("#help-dialog").open);
  await p.keyboard.press("Escape");
  assert.equal(await p.evaluate(() => document.activeElement.id), "level");
  await closed(p);
});

test("a shared game opened in another tab leaves the sharer's own game on that level", async () => {
  const p = await opened(env);
  await p.focus("#board");
  await hints(p, 2);
  const link = await p.evaluate(() => shareLink(true));
  await p.keyboard.press("u");
  await counted(p, /^1 push\b/);
  const mine = await p.evaluate(() => JSON.stringify(ui.state.moves));
  const q = await newPage(env.browser, env.server.base, { context: p.context() });
  await q.goto(link);
  await until(q, () => !document.querySelector("#replay").hidden && /A shared game: 2 pushes/.test(document.querySelector("#replay-title").textContent));
  assert.match(await moves(q), /^0 pushes/);
  await sleep(300);
  assert.equal(await p.evaluate(() => JSON.stringify(progressOf(ui.level.text, ui.level.game).moves)), mine);
  assert.equal(await p.isVisible("#notice"), false, "the sharer's tab was told its game changed");
  // the sharer's reload finds their game
  await p.reload();
  await counted(p, /^1 push\b/);
  assert.deepEqual(q.errors, []);
  await q.close();
  await closed(p);
});
