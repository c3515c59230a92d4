// The page as a game: blocks that slide (and do not, for those who asked for less motion),
// swipes and an on-screen pad on a phone, a board that fills the screen, replays with pause,
// speed and a scrubber, replay links, previews of generated levels, a legend, and a page a
// keyboard and a screen reader can use. Screenshots of every game at desktop and phone sizes
// go to target/web-screenshots/ (look at them).

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  setup, startServer, newPage, until, shown, text, centre, fingerDrag, line, sleep, shot,
  PHONE, DESKTOP, opened, closed, generateIce, request,
} from "./lib.mjs";

const env = setup();

const pushes = (p, n) => until(p, (n) => new RegExp(`^${n} push`).test(document.querySelector("#moves").textContent), n);

// The centre of cell (row, col) of the board, in the page's pixels.
const cellCentre = (p, row, col) => p.evaluate(([row, col]) => {
  const r = document.querySelector("#board svg").getBoundingClientRect();
  const g = ui.state.geometry, scale = r.width / g.width;
  return { x: r.left + (g.x + (col + 0.5) * g.cell) * scale, y: r.top + (g.y + (row + 0.5) * g.cell) * scale };
}, [row, col]);

test("a pushed block slides to its place, unless the player asked for less motion", async () => {
  for (const reducedMotion of ["no-preference", "reduce"]) {
    const p = await newPage(env.browser, env.server.base, { reducedMotion });
    await p.goto(env.server.base);
    await shown(p, "OOTIC");
    // what the page animates, as it asks
    await p.evaluate(() => {
      window.slid = [];
      const animate = Element.prototype.animate;
      Element.prototype.animate = function (...a) {
        window.slid.push(this.getAttribute("class"));
        return animate.apply(this, a);
      };
    });
    await p.focus("#board");
    await p.keyboard.press("ArrowLeft");
    await pushes(p, 1);
    await until(p, () => !/…/.test(document.querySelector("#verdict").textContent));
    const moving = await p.evaluate(() => window.slid);
    if (reducedMotion === "reduce") {
      assert.deepEqual(moving, [], "animations despite prefers-reduced-motion");
    } else {
      assert.ok(moving.some((c) => /piece block/.test(c)), `nothing slid: ${moving}`);
      // it ends where the server drew it
      await until(p, () => document.getAnimations().length === 0, undefined, { timeout: 3000 });
    }
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test("on a phone: the board fills the width, a swipe pushes, the pad plays", async () => {
  const p = await opened(env, { size: PHONE });
  const width = await p.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} px wide on a 390 px screen`);
  assert.ok(await p.isVisible("#pad"), "no on-screen pad on a phone");
  // OOTIC's block at (0, 6): a swipe from it to the left pushes it
  const from = await cellCentre(p, 0, 6);
  await fingerDrag(p, line(from, { x: from.x - 90, y: from.y + 4 }, 6));
  await pushes(p, 1);
  assert.match(await text(p, "#message"), /pushed \(0, 6\) left/);
  await p.tap("#pad-right");
  await pushes(p, 2);
  await p.tap("#pad-undo");
  await pushes(p, 1);
  // the 15 columns of OOSSAS: as wide as the screen allows
  await p.selectOption("#level", "3");
  await shown(p, "OOSSAS");
  const cell = await p.evaluate(() => {
    const r = document.querySelector("#board svg").getBoundingClientRect();
    return { px: (r.width / ui.state.geometry.width) * ui.state.geometry.cell, right: r.right };
  });
  assert.ok(cell.px >= 23 && cell.right <= 390, `cells of ${cell.px} px, board to ${cell.right} px`);
  await shot(p, "phone-oossas");
  await closed(p);
  // on a desktop the pad stays out of the way and the board is large
  const d = await newPage(env.browser, env.server.base);
  await d.goto(env.server.base + "#" + new URLSearchParams({ level: "Title: wide\n$--------------\n--------------.\n" }));
  await shown(d, "wide");
  assert.equal(await d.isVisible("#pad"), false);
  const px = await d.evaluate(() => (document.querySelector("#board svg").getBoundingClientRect().width / ui.state.geometry.width) * ui.state.geometry.cell);
  assert.ok(px >= 40, `cells of ${px} px on a desktop`);
  await d.context().close();
});

test("a solution replays with pause, speed and a scrubber, the current move marked", async () => {
  const p = await opened(env);
  await p.selectOption("#level", "3");
  await shown(p, "OOSSAS");
  await p.click("[data-tab=solve]");
  await p.click("#solve");
  await until(p, () => document.querySelector("#solve-report").textContent.startsWith("solved: 9 pushes"));
  // the replay's title is drawn after the report: wait for it rather than read it once
  await until(p, () => document.querySelector("#replay-title").textContent !== "");
  assert.equal(await text(p, "#replay-title"), "The solution: 9 pushes");
  assert.equal(await p.locator("#solution li").count(), 9);
  await p.selectOption("#speed", "4");
  await p.click("#watch");
  await until(p, () => +document.querySelector("#scrub").value >= 2);
  await p.click("#watch");
  const paused = await p.inputValue("#scrub");
  await sleep(600);
  assert.equal(await p.inputValue("#scrub"), paused, "the replay went on after the pause");
  assert.equal(await text(p, "#watch"), "▶ Play");
  // the scrubber: to move 6, back to 3
  for (const k of [6, 3]) {
    await p.evaluate((k) => { const s = document.querySelector("#scrub"); s.value = String(k); s.dispatchEvent(new Event("input")); }, k);
    await pushes(p, k);
    assert.equal(await p.getAttribute("#solution li.current", "aria-current"), "step");
    assert.equal(await p.evaluate(() => [...document.querySelectorAll("#solution li")].findIndex((li) => li.classList.contains("current"))), k - 1);
  }
  // a move of the list, the end, the start
  await p.click("#solution li:nth-child(8)");
  await pushes(p, 8);
  await p.click("#replay-end");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("Solved"));
  assert.equal(await p.inputValue("#scrub"), "9");
  await shot(p, "replay-end");
  await p.click("#replay-start");
  await pushes(p, 0);
  // played to the end at 4×
  await p.click("#watch");
  await until(p, () => document.querySelector("#moves").textContent.startsWith("Solved"), undefined, { timeout: 20000 });
  await closed(p);
});

test("a replay link shows the shared game, move by move", async () => {
  const p = await newPage(env.browser, env.server.base);
  await p.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.base.replace(/\/$/, "") });
  await p.goto(env.server.base);
  await p.selectOption("#collection", "pushpush.txt");
  await shown(p, "hardest-4x4-a");
  for (let i = 1; i <= 3; i++) {
    await p.click("#follow");
    await pushes(p, i);
  }
  await p.click("#share");
  await p.check("#share-moves");
  const link = await p.inputValue("#share-link");
  assert.match(link, /moves=/);
  const q = await newPage(env.browser, env.server.base);
  await q.goto(link);
  await shown(q, "hardest-4x4-a");
  // the replay is set up once the level is shown: wait for its title, do not read it once
  await until(q, () => document.querySelector("#replay-title").textContent === "A shared game: 3 pushes");
  assert.equal(await text(q, "#replay-title"), "A shared game: 3 pushes");
  await pushes(q, 0);
  await q.click("#step");
  await pushes(q, 1);
  await q.click("#replay-end");
  await pushes(q, 3);
  assert.equal(await q.innerHTML("#board"), await p.innerHTML("#board"));
  assert.deepEqual([...p.errors, ...q.errors], []);
  await p.context().close();
  await q.context().close();
});

test("generated levels come with a preview; each level with a legend", async () => {
  const p = await opened(env);
  const legend = await p.$$eval("#legend li", (l) => l.map((x) => x.textContent));
  // the game's own words for its symbols (floe games: cells)
  for (const want of ["ice", "normal floor (blocks stop on it)", "a target", "a block"]) {
    assert.ok(legend.includes(want), `${want}: ${legend}`);
  }
  assert.ok(await p.$$eval("#legend img", (i) => i.every((x) => x.complete && x.naturalWidth > 0)));
  await generateIce(p, { rows: 5, cols: 5, pushes: 4 });
  await p.waitForSelector("#gen-results li img", { timeout: 30000 });
  await until(p, () => [...document.querySelectorAll("#gen-results img")].some((i) => i.complete && i.naturalWidth > 0));
  await shot(p, "generate-previews");
  await closed(p);
});

test("the keyboard reaches every control in order; moves and verdicts are announced", async () => {
  const p = await opened(env);
  // every control has a name a screen reader can say
  const nameless = await p.evaluate(() => [...document.querySelectorAll("button, select, input, textarea, [role=application]")]
    .filter((e) => !e.hidden && !e.closest("[hidden]"))
    .filter((e) => !(e.getAttribute("aria-label") || e.labels && e.labels.length || e.textContent.trim() || e.getAttribute("aria-labelledby")))
    .map((e) => e.id || e.outerHTML.slice(0, 60)));
  assert.deepEqual(nameless, []);
  // Tab from the top: the menus, the header's buttons, the selected tab, the board, the play buttons
  await p.evaluate(() => document.activeElement.blur());
  const order = [];
  for (let i = 0; i < 13; i++) {
    await p.keyboard.press("Tab");
    order.push(await p.evaluate(() => document.activeElement.id));
  }
  assert.deepEqual(order, ["collection", "level", "open-file", "paste", "share", "download-level", "download-svg",
    "help", "tab-button-play", "board", "undo", "redo", "restart"]);
  // arrows move between the tabs
  await p.focus("#tab-button-play");
  await p.keyboard.press("ArrowRight");
  assert.equal(await p.evaluate(() => document.activeElement.id), "tab-button-edit");
  assert.equal(await p.isVisible("#tab-edit"), true);
  await p.keyboard.press("ArrowLeft");
  // a move is announced with its count, then the verdict
  await p.focus("#board");
  await p.keyboard.press("ArrowLeft");
  await until(p, () => /pushed \(0, 6\) left/.test(document.querySelector("#live").textContent));
  await until(p, () => /still solvable: solvable in \d+ more pushes/.test(document.querySelector("#live").textContent));
  assert.match(await p.getAttribute("#board", "aria-label"), /^OOTIC: 1 push/);
  // space selects the next block (no second block here: it says so) and does not scroll
  await p.keyboard.press(" ");
  assert.equal(await p.evaluate(() => window.scrollY), 0);
  await closed(p);
});

// One level of each game of the registry, at both sizes: its largest bundled level, else
// the sample level it brings in its folder.
async function gameLevels() {
  const games = (await request(env.server.base, "/api/games", { method: "GET" })).data;
  const collections = (await request(env.server.base, "/api/levels", { method: "GET" })).data;
  return games.map((g) => {
    let best = null;
    for (const c of collections.filter((c) => c.game === g.name)) {
      for (const l of c.levels) {
        const size = (l.rows || 0) * (l.cols || 0);
        if (!best || size > best.size) best = { file: c.file, index: String(l.index), name: l.name, size };
      }
    }
    return { game: g.name, ...(best || { sample: g.sample.text, name: /^Title:\s*(.+)$/m.exec(g.sample.text)[1] }) };
  });
}

test("every game at desktop and phone sizes (screenshots)", async () => {
  for (const [size, sizeName] of [[DESKTOP, "desktop"], [PHONE, "phone"]]) {
    const p = await newPage(env.browser, env.server.base, { size });
    await p.goto(env.server.base);
    await shown(p, "OOTIC");
    for (const { game, file, index, name, sample } of await gameLevels()) {
      if (sample) {
        await p.evaluate((t) => load(t), sample);
      } else {
        await p.selectOption("#collection", file);
        if (index !== "1") await p.selectOption("#level", index);
      }
      await shown(p, name);
      const fit = await p.evaluate(() => {
        const r = document.querySelector("#board svg").getBoundingClientRect();
        return { right: r.right, width: document.documentElement.scrollWidth, legend: document.querySelectorAll("#legend li").length };
      });
      assert.ok(fit.width <= size.viewport.width, `${game} (${sizeName}): the page is ${fit.width} px wide`);
      assert.ok(fit.right <= size.viewport.width, `${game} (${sizeName}): the board ends at ${fit.right} px`);
      assert.ok(fit.legend >= 2, `${game}: a legend of ${fit.legend}`);
      await shot(p, `game-${game}-${sizeName}`);
    }
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});
