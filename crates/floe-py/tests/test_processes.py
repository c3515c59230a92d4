"""A child started by fork after the parent's parallel calls works (no hang); Ctrl-C stops a
call running in any thread, within a second, with KeyboardInterrupt in that thread."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest

import floe

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

LONG = dict(rows=8, cols=8, blocks=8, max_memory="4G", force=True)


def _child(q):
    # parallel calls: the enumeration and the reach table share their work between threads
    c = floe.census(4, 4)
    a = floe.reach(10, 10, 4)
    q.put((int(c.by_pushes.sum()), float(np.nanmax(a))))


@pytest.mark.skipif(sys.platform != "linux", reason="fork is Linux's default start method")
def test_a_child_started_by_fork_after_parallel_calls_works():
    # the parent's parallel calls first: their thread pool is what a forked child inherits
    assert floe.space(rows=5, cols=5, blocks=4)["complete"]
    floe.reach(6, 6, 3)
    want = (int(floe.census(4, 4).by_pushes.sum()), float(np.nanmax(floe.reach(10, 10, 4))))
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(q,))
    p.start()
    p.join(60)
    hung = p.is_alive()
    if hung:
        p.kill()
        p.join()
    assert not hung, "the forked child hangs in its first parallel call"
    assert p.exitcode == 0
    assert q.get(timeout=5) == want


def test_ctrl_c_stops_a_call_in_another_thread_within_a_second():
    caught = {}

    def run():
        t = time.monotonic()
        try:
            floe.space(**LONG, timeout=60)
            caught["what"] = "returned"
        except KeyboardInterrupt:
            caught["what"] = "KeyboardInterrupt"
        except BaseException as e:  # noqa: BLE001
            caught["what"] = repr(e)
        caught["after"] = time.monotonic() - t

    th = threading.Thread(target=run)
    th.start()
    time.sleep(0.5)
    sent = time.monotonic()
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.5)  # Python raises KeyboardInterrupt here, in the main thread
    except KeyboardInterrupt:
        pass
    th.join(5)
    assert not th.is_alive(), "the call in the thread ran on after Ctrl-C"
    assert caught["what"] == "KeyboardInterrupt", caught
    assert caught["after"] - (sent - (sent - 0.5)) < 2.5
    # the interrupt is over: the next calls run to their end, in threads too
    assert floe.space(rows=5, cols=5, blocks=3)["complete"] is True
    out = {}
    t2 = threading.Thread(target=lambda: out.setdefault("s", floe.space(rows=5, cols=5, blocks=3)["complete"]))
    t2.start()
    t2.join(30)
    assert out == {"s": True}
