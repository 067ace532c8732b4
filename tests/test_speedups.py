"""The compiled rules (games/speedups.py): used when built from the exact source, never
otherwise, and the same games either way."""

import ast
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games import speedups
from games.compile_rules import build_module, compilable_source, prune_older_builds

ROOT = Path(__file__).resolve().parent.parent

# Plays bot games with every game's rules and prints, per game, a digest of every position
# (through `apply`, checked, and through the replay a load runs) and of every menu.
PLAY_EVERY_GAME = """
import hashlib, json, sys
import tests.sealed_cards
from games.engine import available_games, canonical_json, event_rng, playout
from games.replay import initial_state, replay_rows
from games import speedups

out = {"status": sorted(set(speedups.status().values()))}
for game in available_games():
    if game.slug == "sealed-cards":
        continue
    h = hashlib.sha256()
    for players in range(game.min_players, game.max_players + 1):
        for seed in [f"h1:same-{players}-{n}" for n in range(3)] + [f"legacy-{players}"]:
            log = playout.play(game, players, seed=seed)
            names = playout.player_names(players)
            state = initial_state(game, names, log.options, seed)
            for seq, (seat, move, _) in enumerate(log.log, start=1):
                for s in range(players):
                    h.update(json.dumps(game.legal_moves(state, s), sort_keys=True).encode())
                state = game.apply(state, seat, move, event_rng(seed, seq))
                h.update(canonical_json(state).encode())
            rows = [(seq, seat, "move", m) for seq, (seat, m, _) in enumerate(log.log, 1)]
            start = initial_state(game, names, log.options, seed)
            h.update(canonical_json(replay_rows(game, start, rows, seed)).encode())
            h.update(json.dumps(log.digests).encode())
    out[game.slug] = h.hexdigest()
print(json.dumps(out))
"""


def play_every_game(compiled: bool) -> dict:
    env = {**os.environ, "PBM_COMPILED_RULES": "1" if compiled else "0"}
    done = subprocess.run(
        [sys.executable, "-c", PLAY_EVERY_GAME],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def a_compiler() -> bool:
    return any(shutil.which(cc) for cc in ("cc", "gcc", "clang"))


@pytest.mark.skipif(not a_compiler(), reason="no C compiler: the rules run as plain Python")
def test_the_rules_run_compiled_where_they_can_be_built():
    """tests/conftest.py builds them: a build that broke must not pass unseen."""
    assert speedups.is_built("games.rules.blankenburg.rules")
    assert set(speedups.status().values()) == {"compiled"}


@pytest.mark.skipif(not a_compiler(), reason="no C compiler: the rules run as plain Python")
def test_compiled_and_plain_rules_play_the_same_games():
    compiled, plain = play_every_game(True), play_every_game(False)
    assert compiled.pop("status") == ["compiled"]
    assert plain.pop("status") == ["source"]
    assert set(compiled) == {"blankenburg", "nieuwstad", "new-england"}
    assert compiled == plain


@pytest.mark.skipif(not a_compiler(), reason="no C compiler: the rules run as plain Python")
def test_an_edited_module_is_never_loaded_from_an_older_build(tmp_path, monkeypatch):
    module = "games.rules.new_england.moves"
    package = [str(ROOT / "games/rules/new_england")]
    finder = speedups.CompiledRulesFinder()
    source = speedups.source_path(module)
    spec = finder.find_spec(module, package)  # the build of the source as it is
    assert spec is not None and spec.origin.endswith(importlib.machinery.EXTENSION_SUFFIXES[0])
    assert str(speedups.build_root()) in spec.origin

    edited = tmp_path / "moves.py"
    edited.write_text(source.read_text() + "\n# one more line\n")
    real_find_spec = importlib.machinery.PathFinder.find_spec

    def find_edited(name, path=None, target=None):
        found = real_find_spec(name, path, target)
        if name == module:
            found.origin = str(edited)
        return found

    monkeypatch.setattr(importlib.machinery.PathFinder, "find_spec", find_edited)
    assert finder.find_spec(module, package) is None  # the .py, as written, is imported
    assert finder.find_spec(module + speedups.LIBRARY_SUFFIX, package) is None


@pytest.mark.skipif(not a_compiler(), reason="no C compiler: the rules run as plain Python")
def test_the_build_key_follows_the_source_and_the_switch_turns_the_finder_off(monkeypatch):
    module = "games.rules.blankenburg.rules"
    source = speedups.source_path(module).read_bytes()
    assert speedups.build_key(source) == speedups.build_key(source)
    assert speedups.build_key(source) != speedups.build_key(source + b"\n")
    package = [str(ROOT / "games/rules/blankenburg")]
    finder = speedups.CompiledRulesFinder()
    assert finder.find_spec(module, package) is not None
    monkeypatch.setenv("PBM_COMPILED_RULES", "0")
    assert finder.find_spec(module, package) is None


def test_no_build_is_written_into_the_source_tree():
    """Python prefers an extension beside a .py to the .py: none may be there."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert not [p for p in (ROOT / "games").rglob("*") if p.name.endswith(suffixes)]


def test_the_compiled_copy_has_no_annotations_but_keeps_a_classs_fields_and_its_lines():
    source = b"""
from dataclasses import dataclass

def pay(state: dict, seat: int, amount: int = 0,
        *rest: "list[int]", **named: str) -> None:
    paid: dict[str, int] = {}
    later: int
    return None

def caf\xc3\xa9(n: "na\xc3\xafve") -> dict[
    str, int
]:
    return {"\xc3\xa9": n}

@dataclass
class Card:
    name: str
    cost: int = 0

    def price(self, extra: int) -> int:
        return self.cost + extra

    @property
    def label(self) -> str:
        return self.name
"""
    expected = """
from dataclasses import dataclass

def pay(state, seat, amount=0,
        *rest, **named):
    paid = {}
    pass
    return None

def caf\u00e9(n):
    return {"\u00e9": n}

@dataclass
class Card:
    name: str
    cost: int = 0

    def price(self, extra):
        return self.cost + extra

    @property
    def label(self) -> str:
        return self.name
"""
    stripped = compilable_source(source)
    assert ast.dump(ast.parse(stripped)) == ast.dump(ast.parse(expected))
    # Every line where it was, so a traceback from the compiled module points at the source.
    assert len(stripped.splitlines()) == len(source.decode().splitlines())
    for line, text in enumerate(source.decode().splitlines()):
        if "return" in text or "class" in text:
            assert stripped.splitlines()[line] == text
    namespace: dict = {}
    exec(compile(stripped, "stripped", "exec"), namespace)
    assert namespace["Card"]("inn", 2).price(1) == 3


def test_a_new_build_removes_the_module_s_older_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("PBM_COMPILED_DIR", str(tmp_path))
    module = "games.rules.new_england.rules"
    current = speedups.build_dir(module, speedups.source_path(module).read_bytes())
    older = current.parent / "0123456789abcdef01234567"
    other_module = tmp_path / "games.rules.nieuwstad.rules" / "0123456789abcdef01234567"
    for folder in (current, older, other_module):
        folder.mkdir(parents=True)
        (folder / "x.so").write_bytes(b"")
    prune_older_builds(module, keep=current)
    assert current.exists() and other_module.exists()
    assert not older.exists()


@pytest.mark.skipif(not a_compiler(), reason="no C compiler: the rules run as plain Python")
def test_a_build_is_found_for_its_source_and_loads_as_an_extension(tmp_path, monkeypatch):
    """The whole path, into an empty build folder: compile, find, import under its own name
    in a fresh interpreter, and draw as the plain module does."""
    monkeypatch.setenv("PBM_COMPILED_DIR", str(tmp_path))
    module = "games.engine.stream"
    assert not speedups.is_built(module)
    folder = build_module(module)
    assert speedups.is_built(module)
    assert folder.parent == tmp_path / module
    draw = (
        "from games.engine.stream import StreamRng; import games.engine.stream as m; "
        "r = StreamRng('h1:x', 5); d = list(range(50)); r.shuffle(d); "
        "print(m.__file__.endswith('.py'), d, r.randrange(1000))"
    )
    runs = {}
    for switch in ("1", "0"):
        env = {**os.environ, "PBM_COMPILED_DIR": str(tmp_path), "PBM_COMPILED_RULES": switch}
        done = subprocess.run(
            [sys.executable, "-c", draw], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        runs[switch] = done.stdout.split(" ", 1)
    assert runs["1"][0] == "False" and runs["0"][0] == "True"  # the build, then the .py
    assert runs["1"][1] == runs["0"][1]


def test_the_deploy_check_warns_when_the_rules_run_as_plain_python(monkeypatch):
    from games.apps import rules_compiled

    monkeypatch.setattr(speedups, "status", lambda: {"games.rules.nieuwstad.rules": "source"})
    (warning,) = rules_compiled(None)
    assert warning.id == "games.W001" and "games.rules.nieuwstad.rules" in warning.msg
    monkeypatch.setattr(speedups, "status", lambda: {"games.rules.nieuwstad.rules": "compiled"})
    assert rules_compiled(None) == []
    monkeypatch.setattr(speedups, "status", lambda: {"games.rules.nieuwstad.rules": "source"})
    monkeypatch.setenv("PBM_COMPILED_RULES", "0")  # turned off on purpose: nothing to say
    assert rules_compiled(None) == []
