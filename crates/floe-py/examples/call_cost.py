"""What a call costs through Python beyond the library's own work: each call's wall time
minus the ``seconds`` its report measured inside the library (the search, without the
worker thread, the JSON text and its parsing), median and 90th percentile over many calls,
on TPIBC3 (1,242 positions). Run from anywhere after ``pip install ./crates/floe-py``:

    python crates/floe-py/examples/call_cost.py
"""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable

import floe


def cost(name: str, call: Callable[[], Any], inner: Callable[[Any], float], runs: int = 200) -> None:
    over = []
    call()  # warm
    for _ in range(runs):
        t = time.perf_counter()
        r = call()
        over.append(time.perf_counter() - t - inner(r))
    over.sort()
    p90 = over[int(0.9 * len(over))]
    print(f"| {name} | {statistics.median(over) * 1e3:.3f} ms | {p90 * 1e3:.3f} ms |")


def main() -> None:
    lv = floe.load(floe.collections()["zelda"], level="TPIBC3")
    state = lv.start()
    move = state.moves()[0]
    print("| call | median over the library | 90th percentile |")
    print("|---|---:|---:|")
    cost("`floe.solve(lv)`", lambda: floe.solve(lv), lambda r: r["seconds"])
    cost("`floe.solve(lv, progress=callable)`", lambda: floe.solve(lv, progress=lambda d, t: None), lambda r: r["seconds"])
    cost("`floe.space(lv)`", lambda: floe.space(lv), lambda r: r["seconds"])
    cost("`floe.analyze(lv)`", lambda: floe.analyze(lv), lambda r: r["seconds"])
    cost("`floe.graph(lv, positions=False)`", lambda: floe.graph(lv, positions=False), lambda g: g.report["seconds"], 100)
    cost("`floe.graph(lv)`", lambda: floe.graph(lv), lambda g: g.report["seconds"], 100)
    cost("`state.play(move)`", lambda: state.play(move), lambda s: 0.0, 2000)


if __name__ == "__main__":
    main()
