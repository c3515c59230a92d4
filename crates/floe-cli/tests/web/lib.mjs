// What the browser tests share: a `floe serve` on a loopback port of the system's choosing,
// headless Chromium (Debian's chromium) through playwright-core, pages at desktop and phone
// sizes, and helpers that act as a hand does (pointer down, move, up; a finger on glass).
//
// FLOE_BIN names the binary (default: the workspace's target/release/floe), CHROMIUM the
// browser (default: /usr/bin/chromium).

import assert from "node:assert/strict";
import { before, after } from "node:test";
import { spawn } from "node:child_process";
import { mkdirSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../../../..");
export const bin = process.env.FLOE_BIN || path.join(root, "target/release/floe");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
export const shots = path.join(root, "target/web-screenshots");
mkdirSync(shots, { recursive: true });

/// A server with `flags`; `stop()` ends it. Its standard error is kept (`log()`).
export async function startServer(flags = []) {
  assert.ok(existsSync(bin), `${bin}: build it first (cargo build --release)`);
  const proc = spawn(bin, ["serve", "--addr", "127.0.0.1:0", ...flags], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const base = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("floe serve did not start: " + err)), 15000);
    proc.stderr.on("data", (d) => {
      err += d;
      const m = /serving (http:\/\/[^ ]+\/)/.exec(err);
      if (m) { clearTimeout(timer); ok(m[1]); }
    });
    proc.on("exit", (code) => { clearTimeout(timer); fail(new Error(`floe serve ended (${code}): ${err}`)); });
  });
  proc.on("exit", () => {});
  return {
    proc,
    base,
    log: () => err,
    stop: () => new Promise((ok) => {
      if (proc.exitCode !== null) return ok();
      proc.once("exit", ok);
      proc.kill("SIGTERM");
    }),
  };
}

export async function launch() {
  return chromium.launch({
    executablePath: browserPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/// The sizes pages are tested at: a desktop window and a phone (touch, 3 device pixels a
/// CSS pixel).
export const DESKTOP = { viewport: { width: 1200, height: 800 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

/// A page in a context of its own (its own cookies and storage) unless `context` is given;
/// page errors and unexpected console errors are kept in `p.errors`.
export async function newPage(browser, base, { size = DESKTOP, context = null, reducedMotion = "reduce" } = {}) {
  const ctx = context || (await browser.newContext({ ...size, reducedMotion, acceptDownloads: true }));
  const p = await ctx.newPage();
  const errors = [];
  p.on("pageerror", (e) => errors.push(e.message));
  // 4xx answers are what the tests provoke on purpose (bad input, a refused board); the page
  // shows them. Anything else in the console is a fault.
  p.on("console", (m) => {
    if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  p.errors = errors;
  p.requests = [];
  p.on("request", (r) => p.requests.push("sent " + r.url().replace(base, "/").slice(0, 120)));
  p.on("requestfinished", (r) => p.requests.push("done " + r.url().replace(base, "/").slice(0, 120)));
  p.on("requestfailed", (r) => p.requests.push("failed " + r.url().replace(base, "/").slice(0, 120) + " " + r.failure().errorText));
  p.base = base;
  return p;
}

export const shot = (p, name) => p.screenshot({ path: path.join(shots, name + ".png"), fullPage: true });

/// Waits for `fn` to hold in the page; on a timeout, says what the page shows and keeps a
/// screenshot of it.
export async function until(p, fn, arg, opts) {
  try {
    await p.waitForFunction(fn, arg, { timeout: 15000, polling: 50, ...opts });
  } catch (e) {
    let seen = "(the page is gone)";
    try {
      seen = await p.evaluate(() => ["title", "moves", "verdict", "message", "notice", "edit-verdict", "solve-report"]
        .map((id) => `${id}: ${(document.getElementById(id) || {}).textContent}`).join("\n"));
      await shot(p, "failed-" + Date.now());
    } catch {}
    throw new Error(`${e.message}\nwaiting for ${fn}${arg === undefined ? "" : " (" + JSON.stringify(arg) + ")"}\nthe page says:\n${seen}\nerrors: ${(p.errors || []).join("; ")}\nrequests: ${(p.requests || []).slice(-12).join("; ")}`);
  }
}

export const text = (p, sel) => p.evaluate((s) => (document.querySelector(s) || {}).textContent || "", sel);

/// Waits until the page shows a level whose title starts with `name` and its first verdict.
export async function shown(p, name) {
  await until(p, (n) => (document.querySelector("#title").textContent || "").startsWith(n), name);
  await until(p, () => /still solvable: (?!…)|^no longer solvable|^still solvable\? |^Th(is|ese) .*\(outlined\)|cannot be solved from its start|can no longer be solved/.test(document.querySelector("#verdict").textContent) ||
    /^Solved in /.test(document.querySelector("#moves").textContent));
}

/// A new page on the server's first level, shown with its verdict: where most tests start.
export async function opened(env, options) {
  const p = await newPage(env.browser, env.server.base, options);
  await p.goto(env.server.base);
  await shown(p, "OOTIC");
  return p;
}

/// The page's end: nothing went wrong in it (no script error, no console error), and it is
/// closed with its context.
export async function closed(p) {
  assert.deepEqual(p.errors, []);
  await p.context().close();
}

/// Waits for the move counter to match `re` (`/^1 push\b/`).
export const counted = (p, re, opts) =>
  until(p, (src) => new RegExp(src).test(document.querySelector("#moves").textContent), re.source, opts);

/// Asks the Generate tab for ice block levels of a `rows` × `cols` room needing at least
/// `pushes` pushes (the results come later).
export async function generateIce(p, { rows, cols, pushes }) {
  await p.click("[data-tab=generate]");
  await p.fill("#g-rows", String(rows));
  await p.fill("#g-cols", String(cols));
  await p.fill("#g-pushes", String(pushes));
  await p.click("#gen-ice");
}

/// The centre of an element, in the page's CSS pixels.
export async function centre(p, selector) {
  const b = await p.locator(selector).boundingBox();
  assert.ok(b, `${selector} is not on the page`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/// A finger: touches `points` in turn (start, moves, end) through the browser's touch input.
export async function fingerDrag(p, points, { stepMs = 16 } = {}) {
  const cdp = await p.context().newCDPSession(p);
  const [first, ...rest] = points;
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: first.x, y: first.y }] });
  for (const q of rest) {
    await new Promise((ok) => setTimeout(ok, stepMs));
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: q.x, y: q.y }] });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

/// The points of a straight line from `a` to `b` in `n` steps.
export function line(a, b, n = 8) {
  return Array.from({ length: n + 1 }, (_, i) => ({ x: a.x + ((b.x - a.x) * i) / n, y: a.y + ((b.y - a.y) * i) / n }));
}

/// The level text's board rows (the lines after the header).
export function boardRows(levelText) {
  return levelText.split("\n").filter((l) => l !== "" && !/^[A-Za-z][A-Za-z ]*:/.test(l) && !l.startsWith(";"));
}

/// A request from the test itself (not the page), with the page's origin unless told.
export async function request(base, pathAndQuery, { method = "POST", body, headers = {} } = {}) {
  const r = await fetch(base.replace(/\/$/, "") + pathAndQuery, { method, body, headers });
  const type = r.headers.get("content-type") || "";
  return { status: r.status, headers: r.headers, data: type.includes("json") ? await r.json() : await r.text() };
}

export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/// One server (with `flags`) and one browser for a test file, started before its tests and
/// stopped after them: `env.server`, `env.browser`.
export function setup(flags = []) {
  const env = {};
  before(async () => {
    env.server = await startServer(flags);
    env.browser = await launch();
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.server) await env.server.stop();
  });
  return env;
}
