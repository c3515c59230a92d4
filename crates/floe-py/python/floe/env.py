"""Levels of every game as learning environments with Gymnasium's API, stepped by the native
part: one-hot observation planes of fixed shape, a fixed action encoding with its mask, and
each position's exact fewest moves to a solved one (``info["distance"]``).

With Gymnasium installed (``pip install floe-puzzles[gym]``), ``import floe`` registers
``floe/Ice-v0``, ``floe/PushPush-v0``, ``floe/IcePath-v0``, ``floe/IceTower-v0``,
``floe/BoxOff-v0``, ``floe/Pretzel-v0`` and ``floe/Fujisan-v0`` (:func:`ids`):

>>> import gymnasium, floe
>>> env = gymnasium.make("floe/PushPush-v0", level=floe.collections()["pushpush"], pick="one-way")
>>> obs, info = env.reset(seed=0)
>>> obs.shape, info["distance"]
((5, 3, 3), 1)
>>> envs = gymnasium.make_vec("floe/Ice-v0", num_envs=1024, vectorization_mode="vector_entry_point",
...                           level=floe.collections()["zelda"], pick="TPIBC3")

Without Gymnasium, :class:`Env` and :class:`VectorEnv` work all the same (no spaces).

A level's whole state graph is built once (:func:`table`, shared by every environment of
the level in the process): each position is numbered, each of its moves is an action of the
game's fixed encoding, each position knows its fewest moves to a solved one. A level whose
graph does not fit the limits (``max_states``, ``timeout``, ``max_memory``) is refused when
the environment is made (:class:`floe.LimitReached`), never in the middle of an episode.

The observation is ``planes × rows × cols`` bytes of 0 and 1: a cell lights the plane of its
ground and those of its piece (``env.channels`` names them; docs/python.md lists each
game's). An action is a number below ``action_space.n`` (ice blocks, PushPush, Ice Tower:
``(row × cols + col) × 4 + direction`` of the pushed block, directions 0 up, 1 right, 2 down,
3 left; the ice path: the direction); ``info["action_mask"]`` says which are moves. A move
that solves the level earns 1.0, every other move ``step_reward``; an action that is no move
leaves the position as it is and earns ``illegal_reward``. An episode ends (``terminated``)
when the level is solved or no move is left (with ``end_when_lost``, also when it can no
longer be solved); it is cut short (``truncated``) after ``max_steps`` actions.
"""

from __future__ import annotations

import math
import numbers
import weakref
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _floe
from ._checks import U32, keywords, pick_types, switch, whole, whole_or_none, word
from ._common import Duration, Memory, limits, param_list, source_of
from ._errors import InvalidInput
from ._level import Level, Source, levels as _levels
from ._travel import level_key

_gym: Any
try:  # Gymnasium is optional: the environments work without it, with no spaces
    import gymnasium as _gym
    from gymnasium import spaces as _spaces
    from gymnasium.vector import AutoresetMode as _AutoresetMode
    from gymnasium.vector.utils import batch_space as _batch_space

    _EnvBase: Any = _gym.Env
    _VectorBase: Any = _gym.vector.VectorEnv
except ImportError:  # pragma: no cover - exercised where Gymnasium is absent
    _gym = None
    _EnvBase = object
    _VectorBase = object

__all__ = ["Env", "VectorEnv", "Table", "table", "ids", "games", "register", "gymnasium_present", "AUTORESET"]


def gymnasium_present() -> bool:
    """Whether Gymnasium is installed (then the environments have spaces and ids)."""
    return _gym is not None

#: The autoreset modes of :class:`VectorEnv` (Gymnasium's, by their values).
AUTORESET = {"NextStep": "next-step", "SameStep": "same-step", "Disabled": "disabled"}

#: Episode length of the registered environments (``max_episode_steps``).
MAX_EPISODE_STEPS = 200

#: A level source or several (a pack).
Levels = Union[Source, Sequence[Source]]


def games() -> Dict[str, Dict[str, Any]]:
    """The games with a learning environment, by name: ``env`` (its name in the Gymnasium id),
    ``planes`` (the observation's planes, in order) and ``actions`` (the encoding in words),
    from ``floe games --json``."""
    out: Dict[str, Dict[str, Any]] = {}
    for g in _floe_games():
        learning = g["capabilities"].get("learning")
        if learning:
            out[g["name"]] = dict(learning)
    return out


_GAMES: Optional[List[Dict[str, Any]]] = None


def _floe_games() -> List[Dict[str, Any]]:
    global _GAMES
    if _GAMES is None:
        import json

        _GAMES = json.loads(_floe.games_json())
    return _GAMES


def ids() -> List[str]:
    """The Gymnasium ids of the environments, one per game (``floe/Ice-v0``, …)."""
    return [f"floe/{g['env']}-v0" for g in games().values()]


def register() -> List[str]:
    """Registers every game's environment with Gymnasium (``import floe`` does it when
    Gymnasium is installed); returns the ids. Registering again changes nothing."""
    if _gym is None:
        raise ImportError("floe's environments need Gymnasium to be registered: pip install floe-puzzles[gym]")
    out = []
    for name, g in games().items():
        env_id = f"floe/{g['env']}-v0"
        if env_id not in _gym.envs.registry:
            _gym.register(
                id=env_id,
                entry_point="floe.env:Env",
                vector_entry_point="floe.env:VectorEnv",
                max_episode_steps=MAX_EPISODE_STEPS,
                kwargs={"game": name, "max_steps": 0, "registered": name},
            )
        out.append(env_id)
    return out


# ---------------------------------------------------------------------------------------
# The levels and their tables


#: Tables built in this process, by level: shared by every environment of a level.
_TABLES: "weakref.WeakValueDictionary[Any, Any]" = weakref.WeakValueDictionary()


def _title(game: str) -> str:
    for g in _floe_games():
        if g["name"] == game:
            return str(g["title"])
    return game


def _env_id(game: str) -> str:
    g = games().get(game)
    return f"floe/{g['env']}-v0" if g else game


def _resolve(
    level: Levels,
    game: Optional[str],
    pick: Any,
    format: Optional[str],
    rules: Optional[str],
    k: Any,
    dynamic: bool,
    params: Any,
) -> List[Level]:
    """The levels an environment plays: a source (a path, a text, a :class:`floe.Level`)
    or a list of them, each level picked by ``pick`` (a number or a title, a list of them,
    or ``"all"``), all of ``game`` when it is given."""
    if level is None:
        raise TypeError("level: a path, a level file's text, a floe.Level or a list of them (a pack)")
    if isinstance(level, (bytes, bytearray)):
        raise TypeError("level: a path, a level file's text (str, not bytes: decode it first), a floe.Level or a list of them")
    if isinstance(level, (str, Level)) or hasattr(level, "__fspath__"):
        sources: List[Any] = [level]
    else:
        try:
            sources = list(level)
        except TypeError:
            raise TypeError(
                f"level: a path, a level file's text, a floe.Level or a list of them, not {type(level).__name__}"
            ) from None
    if not sources:
        raise ValueError("level: an empty list holds no level to play")
    pick_types(dict(game=game, format=format, rules=rules, k=k, dynamic=dynamic))
    plist = param_list(dict(rules=rules, k=k, dynamic=dynamic), params)
    out: List[Level] = []
    for src in sources:
        if isinstance(src, Level):
            if pick is not None or format is not None:
                raise TypeError("pick and format choose levels of a file; this is a floe.Level")
            out.append(Level(src._native.configure(plist)) if plist else src)
            continue
        if not isinstance(src, (str,)) and not hasattr(src, "__fspath__"):
            raise TypeError(
                f"level: a path, a level file's text or a floe.Level, not {type(src).__name__}"
            )
        path, text = source_of(src)
        try:
            found = [Level(n) for n in _floe.read((path, text, None, game, format, plist))[1]]
        except Exception:
            # a level of another game than the environment's says so
            if game is None:
                raise
            try:
                other = _picked([Level(n) for n in _floe.read((path, text, None, None, format, plist))[1]], pick)
            except Exception:
                other = []
            if other and other[0].game != game:
                raise ValueError(_other_game(game, other[0])) from None
            raise
        out.extend(_picked(found, pick))
    if game is not None:
        for lv in out:
            if lv.game != game:
                raise ValueError(_other_game(game, lv))
    return out


def _other_game(game: str, level: Level) -> str:
    """The refusal of a level of another game than the environment's."""
    return (
        f"{_env_id(game)} plays levels of {_title(game)}; {level.name!r} is a level of "
        f"{_title(level.game)}: make {_env_id(level.game)}"
    )


def _picked(found: List[Level], pick: Any) -> List[Level]:
    """The levels of a file that ``pick`` names."""
    if pick is None:
        if len(found) == 1:
            return found
        names = ", ".join(repr(lv.name) for lv in found[:6]) + (", …" if len(found) > 6 else "")
        raise ValueError(
            f"the file holds {len(found)} levels ({names}): pick one with pick=NUMBER or "
            "pick=TITLE, several with a list, or every one with pick='all' (a pack)"
        )
    if isinstance(pick, str) and pick == "all":
        return found
    picks = list(pick) if isinstance(pick, (list, tuple)) else [pick]
    out = []
    for p in picks:
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (numbers.Integral, str)):
            raise TypeError(f"pick: a 1-based number or a title (or a list of them, or 'all'), not {type(p).__name__} {p!r}")
        if isinstance(p, numbers.Integral):
            if not 1 <= int(p) <= len(found):
                raise ValueError(f"pick: 1 to {len(found)}, the levels of the file (not {int(p)})")
            out.append(found[int(p) - 1])
        else:
            named = [lv for lv in found if lv.name == p or lv.title == p]
            if not named:
                names = ", ".join(repr(lv.name) for lv in found[:10])
                raise ValueError(f"pick: no level {p!r} in the file (its levels: {names})")
            out.append(named[0])
    return out


class Table:
    """A level's learning tables (:func:`table`): every position reachable from its start,
    numbered breadth first (0 is the start), with its moves by action, its fewest moves to a
    solved position and its observation.

    Attributes:
        game, level: the game's name and the level's.
        planes: the observation's planes, in order; ``obs_shape``: ``(planes, rows, cols)``.
        actions: how many actions; ``states``: how many positions; ``edges``: how many moves.
        seconds: what building it took.
    """

    __slots__ = ("_native", "_distances", "_depths", "__weakref__")

    def __init__(self, native: "_floe.EnvTable") -> None:
        self._native = native
        self._distances: Optional[np.ndarray] = None
        self._depths: Optional[np.ndarray] = None

    game = property(lambda self: self._native.game)
    level = property(lambda self: self._native.level)
    planes = property(lambda self: list(self._native.planes))
    obs_shape = property(lambda self: tuple(self._native.obs_shape))
    actions = property(lambda self: int(self._native.actions))
    states = property(lambda self: int(self._native.states))
    edges = property(lambda self: int(self._native.edges))
    seconds = property(lambda self: float(self._native.seconds))

    @property
    def distances(self) -> np.ndarray:
        """Each position's fewest moves to a solved one (−1: none can be reached), ``int32``
        by position number (read-only)."""
        if self._distances is None:
            d = np.frombuffer(self._native.distances(), dtype="<i8").astype(np.int32)
            d.flags.writeable = False
            self._distances = d
        return self._distances

    @property
    def depths(self) -> np.ndarray:
        """Each position's fewest moves from the start, ``int32`` (read-only)."""
        if self._depths is None:
            d = np.frombuffer(self._native.depths(), dtype="<i8").astype(np.int32)
            d.flags.writeable = False
            self._depths = d
        return self._depths

    def _state(self, s: Any) -> int:
        return whole("state", s, 0, self.states - 1)

    def next(self, state: int, action: int) -> Optional[int]:
        """The position ``action`` leads to from position ``state``; ``None`` when it is no
        move there."""
        s = self._state(state)
        a = whole("action", action, 0, self.actions - 1)
        nxt = self._native.next(s, a)
        return None if nxt is None else int(nxt)

    def moves(self, state: int) -> Dict[int, int]:
        """Position ``state``'s moves: ``{action: the position it leads to}``."""
        s = self._state(state)
        _, mask, _ = self._native.position(s)
        out: Dict[int, int] = {}
        for a in np.flatnonzero(np.frombuffer(mask, np.uint8)):
            nxt = self._native.next(s, int(a))
            if nxt is not None:
                out[int(a)] = int(nxt)
        return out

    def observation(self, state: int) -> np.ndarray:
        """Position ``state``'s observation, ``(planes, rows, cols)`` ``uint8``."""
        obs, _, _ = self._native.position(self._state(state))
        return np.frombuffer(obs, dtype=np.uint8).reshape(self.obs_shape)

    def mask(self, state: int) -> np.ndarray:
        """Position ``state``'s action mask (``bool``, one per action)."""
        _, mask, _ = self._native.position(self._state(state))
        return np.frombuffer(mask, dtype=np.bool_)

    def playable(self, within: Optional[int] = None) -> int:
        """How many positions a random start draws from (those that can be solved and are
        not), at most ``within`` moves from a solved one when given."""
        return int(self._native.playable(whole_or_none("within", within, 0, U32)))

    def __len__(self) -> int:
        return int(self._native.states)

    def __reduce__(self) -> Any:
        raise TypeError("a floe.env.Table does not pickle: build it again from its level with floe.env.table")

    def __repr__(self) -> str:
        return (
            f"<floe.env.Table of {self.game} {self.level!r}: {self.states:,} positions, "
            f"{self.edges:,} moves, {self.actions:,} actions>"
        )


@keywords
def table(
    level: Levels,
    *,
    pick: Any = None,
    game: Optional[str] = None,
    format: Optional[str] = None,
    rules: Optional[str] = None,
    k: Any = None,
    dynamic: bool = False,
    params: Any = None,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
) -> Table:
    """The learning tables of a level (a path, a level file's text or a :class:`floe.Level`,
    picked and configured as the environments take them), built once in the process and
    shared while anything holds them: every position labelled with its fewest moves to a
    solved one, its moves and its observation. A limit that stops them raises
    :class:`floe.LimitReached`."""
    levels = _resolve(level, game, pick, format, rules, k, dynamic, params)
    if len(levels) != 1:
        raise ValueError(f"level: one level, not {len(levels)} (a table is one level's)")
    return _table(levels[0], max_states, timeout, max_memory)


def _table(level: Level, max_states: Optional[int], timeout: Optional[Duration], max_memory: Optional[Memory]) -> Table:
    """A level's tables, from the process's cache when it holds them."""
    key = level_key(level)
    t = _TABLES.get(key)
    if t is None:
        t = Table(_floe.env_table(level._native, limits(max_states, timeout, max_memory)))
        _TABLES[key] = t
    return t


def _reward(name: str, value: Any) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: a number, not {type(value).__name__} {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name}: a finite number, not {v}")
    return v


class _Play:
    """What both kinds of environment share: the levels, their tables, the options, the
    native environments and NumPy's views of their arrays."""

    #: The options the environment was made with (pickling makes it again from them).
    _kwargs: Dict[str, Any]

    def _setup(
        self,
        n: int,
        level: Levels,
        game: Optional[str],
        pick: Any,
        max_steps: Optional[int],
        step_reward: float,
        illegal_reward: Optional[float],
        start: str,
        max_distance: Optional[int],
        end_when_lost: bool,
        autoreset: str,
        render_mode: Optional[str],
        max_states: Optional[int],
        timeout: Optional[Duration],
        max_memory: Optional[Memory],
        format: Optional[str],
        rules: Optional[str],
        k: Any,
        dynamic: bool,
        params: Any,
    ) -> None:
        self.levels: List[Level] = _resolve(level, game, pick, format, rules, k, dynamic, params)
        games_here = games()
        lv0 = self.levels[0]
        if lv0.game not in games_here:
            raise InvalidInput(f"{_title(lv0.game)} has no learning environment")
        self.game: str = lv0.game
        self.max_steps = 0 if max_steps is None else whole("max_steps", max_steps, 0, U32)
        self.step_reward = _reward("step_reward", step_reward)
        self.illegal_reward = self.step_reward if illegal_reward is None else _reward("illegal_reward", illegal_reward)
        self.start = word("start", start, ("level", "random"))
        self.max_distance = whole_or_none("max_distance", max_distance, 1, U32)
        if self.max_distance is not None and self.start != "random":
            raise ValueError("max_distance bounds random starts: give start='random' with it")
        self.end_when_lost = switch("end_when_lost", end_when_lost)
        if render_mode is not None:
            word("render_mode", render_mode, ("ansi", "rgb_array"))
        self.render_mode = render_mode
        self.tables: List[Table] = [_table(lv, max_states, timeout, max_memory) for lv in self.levels]
        t0 = self.tables[0]
        #: The observation's planes, in order.
        self.channels: List[str] = t0.planes
        self.obs_shape: Tuple[int, int, int] = t0.obs_shape
        self.n_actions: int = t0.actions
        self._native = _floe.Envs(
            [t._native for t in self.tables],
            n,
            0,
            self.max_steps,
            self.step_reward,
            self.illegal_reward,
            self.start,
            self.max_distance,
            self.end_when_lost,
            autoreset,
        )
        self._n = n
        self._view(dict(self._native.arrays()))

    def _view(self, views: Dict[str, Any]) -> None:
        """NumPy's views of the native arrays."""
        n, (c, h, w) = self._n, self.obs_shape
        self._actions = np.frombuffer(views["actions"], dtype="<i8")
        self._obs = np.frombuffer(views["obs"], dtype=np.uint8).reshape(n, c, h, w)
        self._rew = np.frombuffer(views["reward"], dtype="<f8")
        self._term = np.frombuffer(views["terminated"], dtype=np.bool_)
        self._trunc = np.frombuffer(views["truncated"], dtype=np.bool_)
        self._mask = np.frombuffer(views["mask"], dtype=np.bool_).reshape(n, self.n_actions)
        self._dist = np.frombuffer(views["distance"], dtype="<i4")
        self._legal = np.frombuffer(views["legal"], dtype=np.bool_)
        self._level = np.frombuffer(views["level"], dtype="<i4")
        self._steps = np.frombuffer(views["steps"], dtype="<i4")
        if "last_obs" in views:
            self._last_obs = np.frombuffer(views["last_obs"], dtype=np.uint8).reshape(n, c, h, w)
            self._last_dist = np.frombuffer(views["last_distance"], dtype="<i4")
            self._last_ended = np.frombuffer(views["last_ended"], dtype=np.bool_)
            self._last_mask = np.frombuffer(views["last_mask"], dtype=np.bool_).reshape(n, self.n_actions)
            self._last_level = np.frombuffer(views["last_level"], dtype="<i4")
            self._last_steps = np.frombuffer(views["last_steps"], dtype="<i4")

    def _at(self, options: Optional[Dict[str, Any]]) -> Optional[Tuple[int, int]]:
        """Where ``options`` start an episode: ``{"level": i}`` (a level of the pack, 0-based),
        ``{"state": s}`` (a position of the level's table), ``{"moves": [...]}`` or
        ``{"actions": [...]}`` (the position after them); ``None`` for the usual start."""
        if options is None:
            return None
        if not isinstance(options, dict):
            raise TypeError(f"options: a dict, not {type(options).__name__}")
        known = {"level", "state", "moves", "actions", "reset_mask"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(
                f"options: {', '.join(map(repr, unknown))} is not an option; they are "
                + ", ".join(sorted(known))
            )
        picked = {x for x in ("state", "moves", "actions") if options.get(x) is not None}
        if len(picked) > 1:
            raise TypeError(f"options: one of state, moves and actions, not {', '.join(sorted(picked))}")
        if not picked and options.get("level") is None:
            return None
        i = whole("options['level']", options.get("level", 0), 0, len(self.levels) - 1)
        t = self.tables[i]
        if "state" in picked:
            return (i, whole("options['state']", options["state"], 0, t.states - 1))
        what = "moves" if "moves" in picked else "actions"
        if "moves" in picked:
            import json

            moves = options["moves"]
            if isinstance(moves, str):
                acts = _floe.env_actions(self.levels[i]._native, moves, "options['moves']")
            else:
                # each move a dict as floe.solve gives moves, or its text ("0 4 down")
                acts = []
                for j, m in enumerate(moves):
                    text = m if isinstance(m, str) else json.dumps([m])
                    acts += _floe.env_actions(self.levels[i]._native, text, f"options['moves'][{j}]")
        elif "actions" in picked:
            acts = [whole(f"options['actions'][{j}]", a, 0, self.n_actions - 1) for j, a in enumerate(options["actions"])]
        else:
            acts = []
        s = 0
        for j, a in enumerate(acts):
            nxt = t.next(s, a)
            if nxt is None:
                raise ValueError(f"options['{what}'][{j}]: action {a} is no move in the position it is played in")
            s = nxt
        return (i, s)

    def _starts(self, options: Optional[Dict[str, Any]]) -> Optional[List[Tuple[int, int]]]:
        """Where ``options`` start the episodes of a vector environment: as :meth:`_at` says
        for all of them, or one each where ``state`` (and ``level``) are sequences of one per
        environment."""
        if options is not None and isinstance(options.get("state"), (list, tuple, np.ndarray)):
            states = list(options["state"])
            levels = options.get("level", 0)
            levels = list(levels) if isinstance(levels, (list, tuple, np.ndarray)) else [levels] * len(states)
            if len(states) != self._n or len(levels) != self._n:
                raise ValueError(f"options['state']: one per environment ({self._n}), or one for all")
            extra = sorted(set(options) - {"state", "level"})
            if extra:
                raise ValueError(f"options: {', '.join(map(repr, extra))} go with one state for all, not one each")
            return [self._at({"level": lv, "state": st}) or (0, 0) for lv, st in zip(levels, states)]
        at = self._at(options)
        return None if at is None else [at]

    def __reduce__(self) -> Any:
        """Pickled (or deep-copied) as its levels and options: the copy is a new
        environment of the same levels, played from its own ``reset()``."""
        return (_remade, (type(self), self._kwargs))

    def _text(self, i: int) -> str:
        """Environment ``i``'s position drawn in characters (``render_mode="ansi"``)."""
        return _ansi(self.channels, self._obs[i])

    def _rgb(self, i: int) -> np.ndarray:
        """Environment ``i``'s position as an RGB picture (``render_mode="rgb_array"``)."""
        return _picture(self.channels, self._obs[i])


class Env(_Play, _EnvBase):  # type: ignore[misc]
    """A level (or a pack of levels of one size) as a Gymnasium environment.

    Args:
        level: a path, a level file's text or a :class:`floe.Level`, or a list of them (a
            pack: each episode draws one of its levels).
        pick: which levels of a file: a 1-based number or a title, a list of them, or
            ``"all"`` (required for a file of several levels).
        game, format, rules, k, dynamic, params: read and configure the levels as
            :func:`floe.load` does (``game`` is set by the registered ids).
        max_steps: actions per episode before it is cut short (``truncated``); 0 for none.
            ``gymnasium.make(…, max_episode_steps=N)`` cuts episodes with its own wrapper.
        step_reward: the reward of a move that does not solve the level (1.0 solves it).
        illegal_reward: the reward of an action that is no move (default ``step_reward``).
        start: ``"level"`` (the level's start) or ``"random"`` (a position drawn uniformly
            among those from which the level can still be solved, at most ``max_distance``
            moves from a solved one when given): a curriculum.
        end_when_lost: end the episode as soon as the level can no longer be solved.
        render_mode: ``"ansi"`` (characters) or ``"rgb_array"`` (a picture).
        max_states, timeout, max_memory: limits of the level's state graph, built when the
            environment is made.
        registered: the game of the registered id that made it (Gymnasium passes it): a
            ``game=`` of another game is refused.

    Attributes:
        channels: the observation's planes, in order.
        levels: the levels it plays.
        observation_space, action_space: ``Box(0, 1, (planes, rows, cols), uint8)`` and
            ``Discrete(actions)`` (with Gymnasium).
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    @keywords
    def __init__(
        self,
        level: Levels = None,  # type: ignore[assignment]
        *,
        pick: Any = None,
        game: Optional[str] = None,
        max_steps: Optional[int] = 200,
        step_reward: float = 0.0,
        illegal_reward: Optional[float] = None,
        start: str = "level",
        max_distance: Optional[int] = None,
        end_when_lost: bool = False,
        render_mode: Optional[str] = None,
        max_states: Optional[int] = None,
        timeout: Optional[Duration] = None,
        max_memory: Optional[Memory] = None,
        format: Optional[str] = None,
        rules: Optional[str] = None,
        k: Any = None,
        dynamic: bool = False,
        params: Any = None,
        registered: Optional[str] = None,
    ) -> None:
        self._kwargs = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        _registered(registered, game)
        self._setup(
            1, level, game, pick, max_steps, step_reward, illegal_reward, start, max_distance,
            end_when_lost, "next-step", render_mode, max_states, timeout, max_memory, format,
            rules, k, dynamic, params,
        )
        if _gym is not None:
            self.observation_space = _spaces.Box(0, 1, self.obs_shape, np.uint8)
            self.action_space = _spaces.Discrete(self.n_actions)
        self._running = False
        self._seeded = False

    def _info(self) -> Dict[str, Any]:
        return {
            "action_mask": self._mask[0].copy(),
            "distance": int(self._dist[0]),
            "legal": bool(self._legal[0]),
            "level": int(self._level[0]),
            "steps": int(self._steps[0]),
        }

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts an episode (at the level's start, a random position with
        ``start="random"``, a level of a pack drawn at random). ``seed`` seeds those draws;
        ``options`` may start it elsewhere: ``{"level": i}`` (the pack's ``i``-th level,
        0-based), ``{"state": s}`` (position ``s`` of the level's table), ``{"moves":
        [...]}`` (after these moves, as :func:`floe.solve` gives moves) or ``{"actions":
        [...]}``.

        Returns ``(observation, info)``; ``info`` holds ``action_mask``, ``distance`` (the
        fewest moves to a solved position, −1 when none can be reached), ``legal``,
        ``level`` (the pack's level) and ``steps``."""
        seed = whole_or_none("seed", seed, 0, 2**64 - 1)
        if _gym is not None:
            super().reset(seed=seed)
        if seed is not None:
            self._native.seed(0, seed)
            self._seeded = True
        elif not self._seeded:
            rng = self.np_random if _gym is not None else np.random.default_rng()
            self._native.seed(0, int(rng.integers(2**63)))
            self._seeded = True
        at = self._at(options)
        self._native.reset(None, None if at is None else [at])
        self._running = True
        return self._obs[0].copy(), self._info()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Plays one action (a whole number below ``action_space.n``; NumPy's too).

        Returns ``(observation, reward, terminated, truncated, info)``."""
        if not self._running:
            raise RuntimeError("the episode is over (or never began): call reset() first")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (numbers.Integral, np.integer)):
            if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
                action = int(action)
            else:
                raise TypeError(f"action: a whole number below {self.n_actions}, not {type(action).__name__} {action!r}")
        a = int(action)
        if not 0 <= a < self.n_actions:
            raise ValueError(f"action: 0 to {self.n_actions - 1}, not {a}")
        try:
            self._native.step1(a)
        except RuntimeError as e:
            raise _busy(e) from None
        term, trunc = bool(self._term[0]), bool(self._trunc[0])
        if term or trunc:
            self._running = False
        return self._obs[0].copy(), float(self._rew[0]), term, trunc, self._info()

    def action_masks(self) -> np.ndarray:
        """The actions that are moves now (the mask of ``info["action_mask"]``; the name
        maskable learners call)."""
        mask: np.ndarray = self._mask[0].copy()
        return mask

    def random_action(self) -> int:
        """A random legal action (one of the moves, uniformly; 0 when there is none), drawn
        with the environment's own generator (seeded by :meth:`reset`'s ``seed``)."""
        self._native.random_actions()
        return int(self._actions[0])

    def legal_actions(self) -> List[int]:
        """The actions that are moves now, as a list (OpenSpiel's name)."""
        return [int(a) for a in np.flatnonzero(self._mask[0])]

    @property
    def distance(self) -> int:
        """The fewest moves from the current position to a solved one (−1: none)."""
        return int(self._dist[0])

    @property
    def position(self) -> int:
        """The current position's number in its level's table (``reset(options={"state":
        …})`` starts there)."""
        return int(self._native.at(0)[1])

    @property
    def steps(self) -> int:
        """Actions of the episode so far."""
        return int(self._steps[0])

    def sample(self) -> int:
        """A random legal action: :meth:`random_action`."""
        return self.random_action()

    def render(self) -> Any:
        """The current position: characters (``"ansi"``) or a picture (``"rgb_array"``), as
        ``render_mode`` says."""
        if self.render_mode is None:
            return None
        return self._text(0) if self.render_mode == "ansi" else self._rgb(0)

    def close(self) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        names = ", ".join(repr(lv.name) for lv in self.levels[:3]) + (", …" if len(self.levels) > 3 else "")
        return f"<floe.env.Env of {self.game} {names}: {self.obs_shape} planes, {self.n_actions} actions>"


class VectorEnv(_Play, _VectorBase):  # type: ignore[misc]
    """``num_envs`` environments of a level (or a pack) stepped together in one native call:
    NumPy actions in; observations ``(num_envs, planes, rows, cols)``, rewards, terminations,
    truncations and infos (``action_mask``, ``distance``, ``legal``, ``level``, ``steps``,
    each with Gymnasium's ``_key`` mask) out; the GIL released and the work spread over the
    cores when there are many. Made by ``gymnasium.make_vec(id, num_envs=N,
    vectorization_mode="vector_entry_point", level=…)`` or directly.

    Args:
        num_envs: how many environments.
        max_episode_steps: actions per episode before it is cut short (``None``: no cap).
        autoreset_mode: Gymnasium's ``AutoresetMode`` (or its value): ``NEXT_STEP`` (the
            default: the step after an episode ends starts the next, its action ignored),
            ``SAME_STEP`` (the step that ends it starts the next; ``info["final_obs"]`` and
            ``info["final_info"]`` keep the ended one's) or ``DISABLED`` (reset with
            ``options={"reset_mask": …}``).
        copy: return copies of the arrays (the default) or the environments' own, which the
            next step overwrites.
        The others as :class:`Env`'s.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4, "autoreset_mode": None}

    @keywords
    def __init__(
        self,
        num_envs: int = 1,
        level: Levels = None,  # type: ignore[assignment]
        *,
        pick: Any = None,
        game: Optional[str] = None,
        max_episode_steps: Optional[int] = None,
        max_steps: Optional[int] = 200,
        autoreset_mode: Any = "NextStep",
        copy: bool = True,
        step_reward: float = 0.0,
        illegal_reward: Optional[float] = None,
        start: str = "level",
        max_distance: Optional[int] = None,
        end_when_lost: bool = False,
        render_mode: Optional[str] = None,
        max_states: Optional[int] = None,
        timeout: Optional[Duration] = None,
        max_memory: Optional[Memory] = None,
        format: Optional[str] = None,
        rules: Optional[str] = None,
        k: Any = None,
        dynamic: bool = False,
        params: Any = None,
        registered: Optional[str] = None,
    ) -> None:
        self._kwargs = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        _registered(registered, game)
        n = whole("num_envs", num_envs, 1, 1 << 24)
        given = getattr(autoreset_mode, "value", autoreset_mode)
        # Gymnasium's values (NextStep), its names (NEXT_STEP) and floe's words (next-step)
        modes = {k.lower(): k for k in AUTORESET} | {v.replace("-", ""): k for k, v in AUTORESET.items()}
        mode = modes.get(str(given).lower().replace("_", "").replace("-", "")) if isinstance(given, str) else None
        if mode is None:
            raise ValueError(f"autoreset_mode: one of {', '.join(AUTORESET)} (Gymnasium's AutoresetMode), not {autoreset_mode!r}")
        # max_episode_steps (Gymnasium's word, which make_vec passes) wins over max_steps
        # (floe.env.Env's, default 200)
        cap = max_episode_steps if max_episode_steps is not None else max_steps
        self._setup(
            n, level, game, pick, cap, step_reward, illegal_reward, start, max_distance,
            end_when_lost, AUTORESET[mode], render_mode, max_states, timeout, max_memory, format,
            rules, k, dynamic, params,
        )
        self.num_envs = n
        self.copy = switch("copy", copy)
        self._mode = mode
        self.metadata = dict(VectorEnv.metadata)
        self.metadata["autoreset_mode"] = _AutoresetMode(mode) if _gym is not None else mode
        if _gym is not None:
            self.single_observation_space = _spaces.Box(0, 1, self.obs_shape, np.uint8)
            self.single_action_space = _spaces.Discrete(self.n_actions)
            self.observation_space = _batch_space(self.single_observation_space, n)
            self.action_space = _batch_space(self.single_action_space, n)
        self._all = np.ones(n, dtype=np.bool_)
        self._all.flags.writeable = False
        self._running = False
        self._seeded = False

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _fresh(self, arrays: Any) -> None:
        """With ``copy``, the native step wrote observations and masks into new arrays:
        NumPy's views of them, which are handed out as they are."""
        if arrays is not None:
            obs, mask = arrays
            self._obs = np.frombuffer(obs, dtype=np.uint8).reshape(self._n, *self.obs_shape)
            self._mask = np.frombuffer(mask, dtype=np.bool_).reshape(self._n, self.n_actions)

    def _infos(self, which: Optional[np.ndarray] = None) -> Dict[str, Any]:
        """The infos of every environment, or of those ``which`` says (a partial reset):
        each key with its ``_key`` mask, as Gymnasium's vector environments give them."""
        has = self._all if which is None else which
        infos: Dict[str, Any] = {
            "action_mask": self._mask,
            "_action_mask": has,
            "distance": self._out(self._dist),
            "_distance": has,
            "legal": self._out(self._legal),
            "_legal": has,
            "level": self._out(self._level),
            "_level": has,
            "steps": self._out(self._steps),
            "_steps": has,
        }
        if self._mode == "SameStep" and which is None:
            ended = self._last_ended.copy()
            if ended.any():
                infos["final_obs"] = self._last_obs.copy()
                infos["_final_obs"] = ended
                infos["final_info"] = {
                    "action_mask": self._last_mask.copy(),
                    "_action_mask": ended,
                    "distance": self._last_dist.copy(),
                    "_distance": ended,
                    "legal": self._legal.copy(),
                    "_legal": ended,
                    "level": self._last_level.copy(),
                    "_level": ended,
                    "steps": self._last_steps.copy(),
                    "_steps": ended,
                }
                infos["_final_info"] = ended
        return infos

    def reset(
        self, *, seed: Union[int, Sequence[Optional[int]], None] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts new episodes in every environment (or those of ``options["reset_mask"]``, a
        ``bool`` array). ``seed``: an int seeds environment ``i`` with ``seed + i``, a list
        seeds each; the other options as :meth:`Env.reset`'s, for every environment reset."""
        n = self.num_envs
        if seed is None:
            seeds: List[Optional[int]] = [None] * n
        elif isinstance(seed, numbers.Integral) and not isinstance(seed, (bool, np.bool_)):
            base = whole("seed", seed, 0, 2**64 - 1)
            seeds = [(base + i) % 2**64 for i in range(n)]
        else:
            seeds = list(seed)  # type: ignore[arg-type]
            if len(seeds) != n:
                raise ValueError(f"seed: one per environment ({n}), not {len(seeds)}")
        if _gym is not None and seed is not None:
            self._np_random, self._np_random_seed = _gym.utils.seeding.np_random(seeds[0])
        which = None
        opts = dict(options or {})
        mask = opts.pop("reset_mask", None)
        if mask is not None:
            mask = np.asarray(mask)
            if mask.dtype != np.bool_ or mask.shape != (n,):
                raise ValueError(f"options['reset_mask']: a bool array of shape ({n},)")
            if not mask.any():
                raise ValueError("options['reset_mask']: at least one environment to reset")
            which = [bool(x) for x in mask]
        fresh = None if self._seeded else np.random.default_rng()
        for i, s in enumerate(seeds):
            if which is not None and not which[i]:
                continue
            if s is not None:
                self._native.seed(i, whole(f"seed[{i}]", s, 0, 2**64 - 1))
            elif fresh is not None:
                self._native.seed(i, int(fresh.integers(2**63)))
        self._seeded = True
        try:
            self._fresh(self._native.reset(which, self._starts(opts or None), self.copy))
        except RuntimeError as e:
            raise _busy(e) from None
        self._running = True
        return self._obs, self._infos(None if mask is None else mask.copy())

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Plays ``actions[i]`` in environment ``i``, every one in one native call (an
        ended episode starts again as ``autoreset_mode`` says)."""
        if not self._running:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: one per environment, shape ({self.num_envs},), not {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions: whole numbers, not {a.dtype}")
        if a.dtype.kind == "u" and a.size and int(a.max()) >= self.n_actions:
            raise ValueError(f"actions: 0 to {self.n_actions - 1}, not {int(a.max())}")
        np.copyto(self._actions, a, casting="unsafe")
        try:
            fresh = self._native.step(self.copy)
        except InvalidInput as e:
            raise ValueError(str(e)) from None
        except RuntimeError as e:
            raise _busy(e) from None
        self._fresh(fresh)
        return (
            self._obs,
            self._rew.copy(),
            self._term.copy(),
            self._trunc.copy(),
            self._infos(),
        )

    def action_masks(self) -> np.ndarray:
        """Each environment's moves now, ``(num_envs, actions)``."""
        return self._mask.copy()

    def random_actions(self) -> np.ndarray:
        """A random legal action per environment (one of its moves, uniformly; 0 where it
        has none), drawn natively with each environment's own generator (seeded by
        :meth:`reset`'s ``seed``): a random agent, or the exploring part of an
        epsilon-greedy one, without a Python loop."""
        try:
            self._native.random_actions()
        except RuntimeError as e:
            raise _busy(e) from None
        return self._actions.copy()

    def render(self) -> Any:
        """Every environment's position: characters or pictures, as ``render_mode`` says."""
        if self.render_mode is None:
            return None
        return tuple(self._text(i) if self.render_mode == "ansi" else self._rgb(i) for i in range(self.num_envs))

    def close(self, **kwargs: Any) -> None:
        """Nothing to release."""
        self.closed = True

    def __repr__(self) -> str:
        return f"<floe.env.VectorEnv of {self.game}, {self.num_envs} environments: {self.obs_shape} planes, {self.n_actions} actions>"


def _registered(registered: Optional[str], game: Optional[str]) -> None:
    """Refuses a ``game=`` that would make a registered id play another game."""
    if registered is not None and game != registered:
        raise ValueError(
            f"{_env_id(registered)} plays {_title(registered)}: game={game!r} would make it "
            f"another game's; make {_env_id(game or '')} instead" if game in games() else
            f"{_env_id(registered)} plays {_title(registered)}, not game={game!r}"
        )


def _remade(cls: Any, kwargs: Dict[str, Any]) -> Any:
    """An environment made again from its options (the other half of ``__reduce__``)."""
    return cls(**kwargs)


def _busy(e: RuntimeError) -> RuntimeError:
    """A native call refused because another thread is in one on the same environments."""
    if "borrow" in str(e):
        return RuntimeError(
            "these environments are being stepped or reset by another thread: a floe.env "
            "environment is used by one thread at a time (make one per thread)"
        )
    return e


# ---------------------------------------------------------------------------------------
# Pictures of observations

#: A cell's character by the plane its ground lights (the levels' own symbols).
_GROUND_CHARS = {"wall": "#", "floor": "=", "ice": "-", "target": ".", "fire": "*", "recycler": "~",
                 "arrow up": "^", "arrow right": ">", "arrow down": "v", "arrow left": "<",
                 "dispenser": "D", "table": ".", "hole": "_", "start": " ", "space": "o"}
#: A cell's character by the plane its piece lights.
_PIECE_CHARS = {"block": "$", "golden": "G", "player": "@", "magician": "@", "priest": "P"}

_COLOURS = {"wall": (60, 60, 70), "floor": (222, 205, 165), "ice": (235, 245, 252), "target": (240, 180, 180),
            "fire": (235, 110, 40), "recycler": (140, 200, 140), "dispenser": (150, 150, 200),
            "table": (210, 195, 160), "hole": (190, 175, 140), "start": (230, 230, 230), "space": (200, 215, 200),
            "block": (90, 160, 230), "golden": (230, 190, 40), "player": (200, 40, 60), "magician": (140, 60, 170),
            "priest": (40, 40, 40)}


def _ansi(channels: List[str], obs: np.ndarray) -> str:
    c, h, w = obs.shape
    if any(name.startswith("rank ") for name in channels):
        return _cards(channels, obs)
    lines = []
    for r in range(h):
        row = []
        for col in range(w):
            lit = [channels[p] for p in range(c) if obs[p, r, col]]
            ch = " "
            for name in lit:
                if name in _GROUND_CHARS:
                    ch = _GROUND_CHARS[name]
                elif name.startswith("value "):
                    ch = name[6:]
            for name in lit:
                if name in _PIECE_CHARS:
                    ch = "*" if name == "block" and "target" in lit else _PIECE_CHARS[name]
                elif name.startswith("token "):
                    ch = name[6:]
                elif name.startswith("rank "):
                    ch = name[5:]
            row.append(ch)
        lines.append("".join(row).rstrip())
    return "\n".join(lines) + "\n"


def _cards(channels: List[str], obs: np.ndarray) -> str:
    """Pretzel's deal as its file writes it: a card by its rank and suit (``2D``), ``--`` a
    hole, the aces' column first."""
    c, h, w = obs.shape
    lines = []
    for r in range(h):
        row = []
        for col in range(w):
            lit = [channels[p] for p in range(c) if obs[p, r, col]]
            rank = next((n[5:] for n in lit if n.startswith("rank ")), None)
            suit = next((n[5:] for n in lit if n.startswith("suit ")), None)
            row.append(f"{rank}{suit}" if rank and suit else "--" if "hole" in lit else "  ")
        lines.append(" ".join(row).rstrip())
    return "\n".join(lines) + "\n"


def _picture(channels: List[str], obs: np.ndarray, cell: int = 16) -> np.ndarray:
    c, h, w = obs.shape
    img = np.full((h * cell, w * cell, 3), 255, dtype=np.uint8)
    inner = slice(cell // 5, cell - cell // 5)
    for p, name in enumerate(channels):
        rows, cols = np.nonzero(obs[p])
        base = name.split(" ")[0]
        colour = _COLOURS.get(name) or _COLOURS.get(base)
        if colour is None:  # tokens, suits, ranks, values: a grey by their number
            tail = name.split(" ")[-1]
            shade = 60 + (sum(map(ord, tail)) * 37) % 160
            colour = (shade, 255 - shade, (shade * 3) % 255)
        piece = base in _PIECE_CHARS or base in ("token", "suit", "rank")
        for r, col in zip(rows, cols):
            if piece:
                img[r * cell + inner.start : r * cell + inner.stop, col * cell + inner.start : col * cell + inner.stop] = colour
            else:
                img[r * cell : (r + 1) * cell, col * cell : (col + 1) * cell] = colour
    return img
