// The page of `floe serve` driven in a real headless Chromium (Debian's chromium package)
// with playwright-core: load it, draw a level and see its verdict, play it to the end with
// keys, take a hint, follow a share link, generate a level, solve and step through a
// solution. Screenshots go to target/web-screenshots/ (test artifacts).
//
// Run by scripts/test.sh; alone: `npm ci && npm test` here after `cargo build --release`
// (lib.mjs says which binary and browser).

import { test } from "node:test";
import assert from "node:assert/strict";
import { setup, newPage, until as waitUntil, shot, closed, generateIce } from "./lib.mjs";

const env = setup();

const page = () => newPage(env.browser, env.server.base);
const until = waitUntil;

/// A new page on level `level` (a number, or the first) of the bundled `collection`,
/// once its title starts with `title`.
async function onLevel(collection, title, level) {
  const p = await page();
  await p.goto(env.server.base);
  await p.waitForSelector("#board svg");
  await p.selectOption("#collection", collection);
  if (level) await p.selectOption("#level", level);
  await until(p, (t) => document.querySelector("#title").textContent.startsWith(t), title);
  return p;
}

test("the page is interactive within a second and shows a level", async () => {
  const p = await page();
  const t0 = Date.now();
  await p.goto(env.server.base);
  await p.waitForSelector("#board svg");
  await until(p, () => document.querySelector("#verdict").textContent.includes("solvable in"));
  const ms = Date.now() - t0;
  console.log(`interactive (board and verdict shown) after ${ms} ms`);
  assert.ok(ms < 1000, `the page took ${ms} ms`);
  assert.match(await p.textContent("#title"), /ice blocks/);
  await shot(p, "01-first-level");
  await closed(p);
});

test("a level drawn in the editor gets its verdict and is played to the end with keys", async () => {
  const p = await page();
  await p.goto(env.server.base);
  await p.waitForSelector("#board svg");
  await p.click("[data-tab=edit]");
  await p.selectOption("#new-game", "ice");
  await p.fill("#new-rows", "2");
  await p.fill("#new-cols", "4");
  await p.click("#new-board");
  await p.waitForSelector("#grid .cell[data-r='1'][data-c='3']");
  await p.click("#palette .glyph[data-glyph='$']");
  await p.click("#grid .cell[data-r='0'][data-c='0']");
  await p.click("#palette .glyph[data-glyph='.']");
  await p.click("#grid .cell[data-r='1'][data-c='3']");
  await until(p, () => document.querySelector("#edit-verdict").textContent === "solvable in 2 pushes");
  assert.match(await p.inputValue("#text"), /\$---\n---\.\n$/);
  await shot(p, "02-editor");
  // a block on the target: "*" — the level is then solved as drawn
  await p.click("#palette .glyph[data-glyph='*']");
  await p.click("#grid .cell[data-r='1'][data-c='3']");
  await until(p, () => /solvable in 0|no target|unsolvable|solvable in/.test(document.querySelector("#edit-verdict").textContent));
  await p.click("#palette .glyph[data-glyph='.']");
  await p.click("#grid .cell[data-r='1'][data-c='3']");
  await until(p, () => document.querySelector("#edit-verdict").textContent === "solvable in 2 pushes");
  // a bad cell: the verdict is the reader's line:col message
  await p.fill("#text", "Game: ice\nTitle: my level\n$--x\n---.\n");
  await p.dispatchEvent("#text", "input");
  await until(p, () => document.querySelector("#edit-verdict").textContent.includes("line 3, column 4: unexpected character 'x'"));
  await p.fill("#text", "Game: ice\nTitle: my level\n$---\n---.\n");
  await p.dispatchEvent("#text", "input");
  await until(p, () => document.querySelector("#edit-verdict").textContent === "solvable in 2 pushes");
  await p.click("#edit-play");
  await until(p, () => document.querySelector("#title").textContent.startsWith("my level"));
  await until(p, () => document.querySelector("#moves").textContent.includes("optimum 2"));
  await p.keyboard.press("ArrowRight");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("1 push"));
  await p.keyboard.press("ArrowDown");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("Solved"));
  assert.match(await p.textContent("#moves"), /^Solved in 2 pushes: the optimum!/);
  await shot(p, "03-solved");
  // undo with the key, redo with ctrl-y
  await p.keyboard.press("u");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("1 push"));
  await p.keyboard.press("Control+y");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("Solved"));
  await closed(p);
});

test("a hint shows the next optimal push and plays it; a click walks the robot", async () => {
  const p = await onLevel("pushpush.txt", "hardest-4x4-a");
  await until(p, () => document.querySelector("#moves").textContent.includes("optimum 7"));
  await p.keyboard.press("h");
  await until(p, () => document.querySelector("#message").textContent.startsWith("hint: push"));
  assert.match(await p.textContent("#message"), /7 pushes to go at the fewest/);
  assert.ok(await p.$("#board svg .moves"), "the hint's arrow is drawn");
  await shot(p, "04-hint");
  await p.keyboard.press("Shift+H");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("1 push"));
  await until(p, () => document.querySelector("#verdict").textContent.includes("6 more pushes"));
  await p.click("#undo");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("0 pushes"));
  // a click left of the robot pushes the block in front of it (the first push of the
  // optimum): the robot is at (0, 3); the click is on cell (0, 0)
  const at = await p.evaluate(() => {
    const r = document.querySelector("#board svg").getBoundingClientRect();
    const g = ui.state.geometry, scale = r.width / g.width;
    return [r.left + (g.x + 0.5 * g.cell) * scale, r.top + (g.y + 0.5 * g.cell) * scale];
  });
  await p.mouse.click(at[0], at[1]);
  await until(p, () => document.querySelector("#moves").textContent.startsWith("1 push"));
  await closed(p);
});

test("a share link opens the same level", async () => {
  const p = await onLevel("icepath.txt", "rocky", "2");
  const link = p.url();
  assert.match(link, /#level=/);
  const svg = await p.innerHTML("#board");
  const q = await page();
  await q.goto(link);
  await until(q, () => (document.querySelector("#title").textContent || "").startsWith("rocky"));
  assert.equal(await q.innerHTML("#board"), svg);
  await shot(q, "05-shared");
  assert.deepEqual(q.errors, []);
  await p.context().close();
  await q.context().close();
});

test("generated ice block and solitaire levels are verified and playable", async () => {
  const p = await page();
  await p.goto(env.server.base);
  await p.waitForSelector("#board svg");
  await generateIce(p, { rows: 5, cols: 5, pushes: 4 });
  await p.waitForSelector("#gen-results .load-result", { timeout: 30000 });
  const first = await p.textContent("#gen-results li");
  assert.match(first, /^(\d+) pushes, difficulty \d+/);
  assert.ok(+/^(\d+)/.exec(first)[1] >= 4);
  await shot(p, "06-generated");
  await p.click("#gen-results .load-result");
  await until(p, () => document.querySelector("#title").textContent.startsWith("generated"));
  await p.click("[data-tab=generate]");
  await p.selectOption("#s-game", "fujisan");
  await p.click("#gen-solitaire");
  await until(p, () => /Fujisan.*: (solvable in \d+ moves|unsolvable)/.test(document.querySelector("#gen-results").textContent), null, { timeout: 30000 });
  await closed(p);
});

test("a solve is shown and stepped through; the stop button ends a long one", async () => {
  const p = await page();
  await p.goto(env.server.base);
  await p.waitForSelector("#board svg");
  const labels = await p.$$eval("#level option", (o) => o.map((x) => x.textContent));
  await p.selectOption("#level", { label: labels.find((l) => l.includes("OOSSAS")) });
  await until(p, () => document.querySelector("#title").textContent.startsWith("OOSSAS"));
  await p.click("[data-tab=solve]");
  await p.click("#solve");
  await until(p, () => document.querySelector("#solve-report").textContent.startsWith("solved: 9 pushes"));
  await p.click("#step");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("1 push"));
  await p.click("#step");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("2 pushes"));
  await p.click("#step-back");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("1 push"));
  await shot(p, "07-solution");
  // a search too large to end soon: an open 9×9 room with many blocks, stopped by hand
  await p.click("[data-tab=edit]");
  // (no block can ever stop on the target, walled in by normal floor; the search cannot
  // tell before it has seen every position: tens of millions)
  await p.fill("#text", "Title: open room\n$$$$$$$$\n--------\n--------\n----=---\n---=.=--\n----=---\n--------\n--------\n");
  await p.dispatchEvent("#text", "input");
  await p.click("#edit-play");
  await until(p, () => document.querySelector("#title").textContent.startsWith("open room"));
  await p.click("[data-tab=solve]");
  const t0 = Date.now();
  await p.click("#solve");
  await until(p, () => !document.querySelector("#stop").disabled);
  await p.waitForTimeout(500);
  await p.click("#stop");
  await until(p, () => /stopped by the stop button/.test(document.querySelector("#solve-report").textContent), null, { timeout: 5000 });
  const ms = Date.now() - t0;
  assert.ok(ms < 3000, `the stop took effect after ${ms} ms`);
  await shot(p, "08-stopped");
  await closed(p);
});
