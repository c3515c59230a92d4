"""Long calls release the GIL and stop on Ctrl-C (KeyboardInterrupt) within a second; the
next call runs as usual."""

from __future__ import annotations

import _thread
import os
import signal
import threading
import time

import pytest

import floe

from conftest import ZELDA

# A test run started in the background by a shell without job control (`scripts/test.sh &`
# inside a script) inherits SIGINT ignored, and Python then installs no handler that turns
# it into KeyboardInterrupt; these tests need Python's own handler, as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# An enumeration of hours: 8×8 with 8 blocks (4.4 billion possible positions); `force`
# because its estimate exceeds a small budget, which stops it cleanly should it ever get
# that far.
LONG = dict(rows=8, cols=8, blocks=8, max_memory="4G", force=True)


def interrupted_after(delay, how):
    timer = threading.Timer(delay, how)
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            floe.space(**LONG)
    finally:
        timer.cancel()
    return time.monotonic() - start - delay


def test_interrupt_main_stops_a_long_enumeration_within_a_second():
    late = interrupted_after(0.5, _thread.interrupt_main)
    assert late < 1.0, f"stopped {late:.2f} s after the interrupt"
    # the interrupt flag was cleared: the next calls run to the end
    assert floe.solve(ZELDA, level="OOSSAS")["pushes"] == 9
    assert floe.space(rows=5, cols=5, blocks=3)["complete"] is True


def test_sigint_stops_a_long_enumeration_within_a_second():
    late = interrupted_after(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    assert late < 1.0, f"stopped {late:.2f} s after SIGINT"
    assert floe.space(rows=5, cols=5, blocks=3)["complete"] is True


def test_a_search_releases_the_gil():
    # while one thread enumerates, another keeps running Python
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        floe.space(rows=6, cols=6, blocks=6)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 20


def test_searches_run_in_several_threads_at_once():
    results = {}

    def solve(name):
        results[name] = floe.solve(ZELDA, level=name)["pushes"]

    threads = [threading.Thread(target=solve, args=(n,)) for n in ("OOSSAS", "TPIBC3", "TPSPR3")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {"OOSSAS": 9, "TPIBC3": 11, "TPSPR3": 12}
