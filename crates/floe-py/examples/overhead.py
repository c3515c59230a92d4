"""The Python module's overhead: `floe.solve` on OOSSAS, `floe.census(4, 4)` and
`floe.reach(10, 10, 4)` through Python, the same through the command line (`floe … --json`,
a process each), and the same library calls in Rust alone (the `library_calls` example);
medians in milliseconds, as a Markdown table for BENCHMARKS.md. Run from the repository's
root after `cargo build --release -p floe-cli --example library_calls -p floe-py` and
`pip install ./crates/floe-py`:

    python crates/floe-py/examples/overhead.py
"""

from __future__ import annotations

import statistics
import subprocess
import time

import floe

CASES = [
    (
        "solve OOSSAS",
        lambda: floe.solve("levels/zelda.txt", level="OOSSAS"),
        ["solve", "levels/zelda.txt", "--level", "OOSSAS", "--json"],
        101,
    ),
    ("census 4x4", lambda: floe.census(4, 4), ["census", "pushpush", "--rows", "4", "--cols", "4", "--json"], 11),
    ("reach 10x10x4", lambda: floe.reach(10, 10, 4), ["reach", "--rows", "10", "--cols", "10", "--blocks", "4", "--json"], 11),
]


def median_ms(runs, f):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    rust = {}
    out = subprocess.run(["target/release/examples/library_calls"], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        name, ms = line.split("\t")
        rust[name] = float(ms)
    print("| call | Python | command line | Rust library | Python − Rust |")
    print("|---|---:|---:|---:|---:|")
    for name, call, args, runs in CASES:
        call()  # warm: the file cache, NumPy, pandas
        py = median_ms(runs, call)
        cli = median_ms(min(runs, 21), lambda: subprocess.run(["target/release/floe", *args], capture_output=True, check=True))
        r = rust[name]
        print(f"| {name} | {py:.3f} ms | {cli:.3f} ms | {r:.3f} ms | {py - r:+.3f} ms |")


if __name__ == "__main__":
    main()
