"""Labelled random boards for learning (``floe.dataset``): the boards of ``floe learn data``,
each drawn as its learning environment's observation planes."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from . import _floe
from ._checks import keywords, whole, word

#: The split names by their numbers.
SPLITS = np.array(["train", "val", "test"])


@keywords
def dataset(
    game: str = "pushpush",
    *,
    rows: int = 4,
    cols: int = 4,
    count: int = 200_000,
    seed: int = 1,
    split_seed: int = 1,
) -> Dict[str, Any]:
    """Random boards of ``rows × cols``, each labelled exactly, as NumPy arrays: the boards
    ``floe learn data`` draws and labels for the same seeds (PushPush boards without walls,
    distinct, uniformly; the same boards in the same order, the same labels and splits).

    Args:
        game: the game (PushPush draws boards; other games are refused with the way to
            label a level's positions instead: :func:`floe.env.table`).
        rows, cols: the board's size (1 to 32 each, 2 to 32 cells in all).
        count: how many distinct boards (1 to 100,000,000).
        seed, split_seed: the seeds of the draw and of the split.

    Returns:
        a dict of arrays, one row per board: ``obs`` (``(n, planes, rows, cols)`` uint8, the
        planes of ``floe/PushPush-v0``), ``solvable`` (bool), ``pushes`` (int32, the fewest;
        −1 when unsolvable), ``difficulty`` (float32, van der Velden's equation 3; NaN when
        unsolvable), ``difficulty_class`` (int8, the difficulty rounded halves up, 0 to 5;
        −1 when unsolvable), ``split`` (``"train"``, ``"val"`` or ``"test"``: 80/10/10 by
        equivalence class), ``board`` (the board's rows joined by ``/``), ``class`` (the
        class key, hexadecimal), and ``planes`` (the planes' names).
    """
    word("game", game)
    r, c = whole("rows", rows, 1, 32), whole("cols", cols, 1, 32)
    n = whole("count", count, 1, 100_000_000)
    g, planes, obs, boards, pushes, difficulty, split, classes, _seconds = _floe.dataset(
        game, r, c, n, whole("seed", seed), whole("split_seed", split_seed)
    )
    pushes_a = np.frombuffer(pushes, dtype="<i4")
    diff = np.frombuffer(difficulty, dtype="<f4")
    with np.errstate(invalid="ignore"):
        dclass = np.where(np.isnan(diff), -1, np.clip(np.floor(diff + 0.5), 0, 5)).astype(np.int8)
    return {
        "obs": np.frombuffer(obs, dtype=np.uint8).reshape(len(boards), len(planes), r, c),
        "solvable": pushes_a >= 0,
        "pushes": pushes_a,
        "difficulty": diff,
        "difficulty_class": dclass,
        "split": SPLITS[np.frombuffer(split, dtype=np.uint8)],
        "board": np.array(boards),
        "class": np.array(classes),
        "planes": np.array(planes),
    }
