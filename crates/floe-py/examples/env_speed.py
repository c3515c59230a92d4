"""Steps a second of floe's learning environments against a pure-Python engine of the same
rules, side by side in one run: a 7×7 ice block room (three blocks, one target), random
legal actions. Medians of five rounds of about a second each, as a Markdown table for
BENCHMARKS.md. Run from the repository's root after `pip install ./crates/floe-py` (with
Gymnasium for the wrapped row):

    python crates/floe-py/examples/env_speed.py [--rounds 5] [--seconds 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np

import floe

ROOM = ("empty", "three-blocks-centre-7x7")

DIRS = ((-1, 0), (0, 1), (1, 0), (0, -1))


class PureIce:
    """Ice blocks (Kluiver's free rule) in plain Python, as a user would write them: a dict
    of cells, blocks as a frozenset, moves listed and played."""

    def __init__(self, text: str) -> None:
        rows = [l for l in text.splitlines() if l and not l.startswith(("Title", "Rules", ";"))]
        self.w = max(map(len, rows))
        rows = [r.ljust(self.w, "=") for r in rows]
        self.cell = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)}
        self.targets = {p for p, ch in self.cell.items() if ch in ".*+"}
        self.start = frozenset(p for p, ch in self.cell.items() if ch in "$*")

    def free(self, p, blocks):  # a block may slide onto p
        return p in self.cell and self.cell[p] not in "#=" and p not in blocks

    def moves(self, blocks):
        out = []
        for (r, c) in blocks:
            for d, (dr, dc) in enumerate(DIRS):
                behind = (r - dr, c - dc)
                if self.cell.get(behind, "=") == "#" or behind in blocks:
                    continue
                nr, nc = r + dr, c + dc
                if not self.free((nr, nc), blocks):
                    continue
                while self.free((nr + dr, nc + dc), blocks):
                    nr, nc = nr + dr, nc + dc
                out.append(((r, c), d, (nr, nc)))
        return out

    def play(self, blocks, move):
        frm, _, to = move
        return (blocks - {frm}) | {to}

    def solved(self, blocks):
        return self.targets <= blocks


def rate(seconds: float, step, batch: int, per_call: int = 1) -> float:
    """Steps a second: `step()` called in batches until `seconds` passed."""
    n, t = 0, time.perf_counter()
    while time.perf_counter() - t < seconds:
        for _ in range(batch):
            step()
        n += batch * per_call
    return n / (time.perf_counter() - t)


def pure(level: floe.Level):
    eng = PureIce(level.text())
    s = [eng.start]
    rnd = random.Random(1)

    def step():
        ms = eng.moves(s[0])
        s[0] = eng.play(s[0], rnd.choice(ms))
        if eng.solved(s[0]):
            s[0] = eng.start

    return step


def states(level: floe.Level):
    """The JSON path: floe.State's moves() and play()."""
    st = [level.start()]
    rnd = random.Random(1)

    def step():
        s = st[0].play(rnd.choice(st[0].moves()))
        st[0] = level.start() if s.solved() else s

    return step


def single(env):
    def step():
        _, _, term, trunc, _ = env.step(env.unwrapped.random_action())
        if term or trunc:
            env.reset()

    env.reset(seed=1)
    return step


def single_mask(env):
    """As a user samples from the mask: NumPy's flatnonzero and random.choice."""
    rnd = random.Random(1)
    info = [env.reset(seed=1)[1]]

    def step():
        a = rnd.choice(np.flatnonzero(info[0]["action_mask"]))
        _, _, term, trunc, info[0] = env.step(a)
        if term or trunc:
            info[0] = env.reset()[1]

    return step


def vector(envs):
    envs.reset(seed=1)

    def step():
        envs.step(envs.random_actions())

    return step


def vector_mask(envs):
    """Random legal actions drawn by NumPy from the masks (argmax of noise over the mask)."""
    rng = np.random.default_rng(1)
    info = [envs.reset(seed=1)[1]]

    def step():
        m = info[0]["action_mask"]
        a = np.argmax(rng.random(m.shape) * m, axis=1)
        info[0] = envs.step(a)[4]

    return step


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--envs", type=int, default=1024)
    a = ap.parse_args()
    level = floe.load(floe.collections()[ROOM[0]], level=ROOM[1])
    n = a.envs
    cases = [
        ("pure-Python engine (list moves, play one)", pure(level), 1000, 1),
        ("floe.State moves()/play() (JSON per step)", states(level), 200, 1),
        ("floe.env.Env, random_action()", single(floe.env.Env(level, max_steps=0)), 1000, 1),
        ("floe.env.Env, action drawn from info['action_mask']", single_mask(floe.env.Env(level, max_steps=0)), 1000, 1),
    ]
    if floe.env.gymnasium_present():
        import gymnasium

        made = gymnasium.make("floe/Ice-v0", level=level)
        cases.append(("gymnasium.make('floe/Ice-v0'), wrappers on", single(made), 1000, 1))
        vec = gymnasium.make_vec("floe/Ice-v0", num_envs=n, vectorization_mode="vector_entry_point", level=level)
    else:
        vec = floe.env.VectorEnv(n, level)
    cases.append((f"vector env, {n:,} environments, random_actions()", vector(vec), 20, n))
    cases.append((f"vector env, {n:,} environments, actions drawn by NumPy from the masks", vector_mask(vec), 20, n))
    results = {name: [] for name, *_ in cases}
    for _ in range(a.rounds):
        for name, step, batch, per in cases:
            results[name].append(rate(a.seconds, step, batch, per))
    base = statistics.median(results[cases[0][0]])
    print(f"Room: {ROOM[1]} ({level.description}); {a.rounds} rounds of {a.seconds} s; {os.cpu_count()} cores")
    print()
    print("| stepping | steps/s (median) | min – max | × pure Python |")
    print("|---|---:|---:|---:|")
    for name, *_ in cases:
        r = results[name]
        print(f"| {name} | {statistics.median(r):,.0f} | {min(r):,.0f} – {max(r):,.0f} | {statistics.median(r) / base:.1f} |")


if __name__ == "__main__":
    main()
