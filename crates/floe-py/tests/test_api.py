"""The module's surface: every public name documented and typed, the native part's stubs
complete, the wheel's package data present."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import floe
from floe import _floe

PACKAGE = Path(floe.__file__).parent


def test_every_public_name_has_a_docstring():
    for name in floe.__all__:
        obj = getattr(floe, name)
        if name == "__version__":
            assert obj == _floe.__version__
            continue
        assert inspect.getdoc(obj), f"floe.{name} has no docstring"
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if callable(member) and not attr.startswith("_"):
                    assert inspect.getdoc(member), f"floe.{name}.{attr} has no docstring"


def test_every_public_function_is_annotated():
    for name in floe.__all__:
        obj = getattr(floe, name)
        if inspect.isfunction(obj):
            sig = inspect.signature(obj)
            assert sig.return_annotation is not inspect.Signature.empty, name
            for p in sig.parameters.values():
                if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                    assert p.annotation is not inspect.Parameter.empty, f"{name}({p.name})"


def test_the_native_stubs_cover_the_native_module():
    stub = ast.parse((PACKAGE / "_floe.pyi").read_text())
    stubbed = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stubbed |= {t.id for n in stub.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    native = {n for n in dir(_floe) if not n.startswith("_")} | {"__version__"}
    assert native <= stubbed, native - stubbed
    assert (PACKAGE / "py.typed").exists()


def test_the_fixed_calls():
    # floe.solve(level, **options) and floe.reach(rows, cols, blocks)
    params = inspect.signature(floe.solve).parameters
    assert list(params)[0] == "level" and params["level"].kind is params["level"].POSITIONAL_ONLY
    assert list(inspect.signature(floe.reach).parameters)[:3] == ["rows", "cols", "blocks"]


def test_type_checkers_check_calls(tmp_path):
    """The package's annotations and stubs hold under `mypy --strict`, and a wrong call is
    caught where it is made."""
    pytest.importorskip("mypy")
    run = lambda *args: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "mypy", "--no-incremental", *args], cwd=tmp_path, capture_output=True, text=True
    )
    ok = run("--strict", "-p", "floe")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    use = tmp_path / "use.py"
    use.write_text(
        "import floe\n"
        'r = floe.solve("levels/zelda.txt", level="OOSSAS", seed=2)\n'
        "c = floe.census(4, 4)\n"
        "n: int = c.boards\n"
        'floe.solve("levels/zelda.txt", seed="two")\n'
        "floe.reach(10, 10, 4).shape\n"
        'floe.solve("levels/zelda.txt", levle="OOSSAS")\n'
    )
    bad = run(str(use))
    assert bad.returncode == 1
    assert 'use.py:5: error: Argument "seed" to "solve" has incompatible type "str"' in bad.stdout, bad.stdout
    assert 'use.py:7: error: Unexpected keyword argument "levle" for "solve"' in bad.stdout, bad.stdout
    assert bad.stdout.count("error:") == 2, bad.stdout


def test_the_games_parameters_are_keywords_from_the_registry():
    """Every game parameter of the registry is a keyword of every call on a level, checked
    by its kind (a flag a switch, a whole number whole, a choice a text); none is listed by
    hand."""
    from floe import _checks

    registry = {p["name"]: p["kind"] for g in floe.games() for p in g["params"]}
    assert registry and set(registry) <= set(_checks.PICK)
    assert _checks.GAME_PARAMS == registry
    pushpush = next(g for g in floe.games() if g["name"] == "pushpush")["sample"]["text"]
    for name, kind in registry.items():
        bad = "maybe" if kind == "flag" else ([1] if "int" in kind else 3)
        error = (TypeError, ValueError)
        with pytest.raises(error, match=name):
            floe.solve(pushpush, **{name: bad})
    assert floe.solve(pushpush, k=2)["params"] == {"k": 2}
    with pytest.raises(floe.InvalidInput, match="dynamic"):
        floe.solve(pushpush, dynamic=True)
    with pytest.raises(ValueError, match="k"):
        floe.solve(pushpush, k=-1)
