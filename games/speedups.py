"""The rules modules compiled to C with mypyc, used only when built from the exact source.

Why: replaying a log is mostly small Python steps (dict reads, calls, comparisons) in the
rules modules; mypyc turns each module into a C extension that does the same steps without
the interpreter's dispatch (docs/benchmarks.md: the rules' part of a replay 27-43% less).

How it stays correct:
- The source is the truth. A build is keyed by SHA-256 of the module's source (and the
  interpreter's extension ABI and this recipe); the import finder below loads a build only
  when the `.py` beside it hashes the same. An edited rules module runs as plain Python until
  it is built again; no build is ever written next to the source, where Python would prefer
  it to the `.py`.
- Annotations are blanked out of the copy that is compiled, every line where it was (so a
  traceback names the source's lines). mypyc would check them at run time (a TypeError where
  the rules raise IllegalMove for a malformed move); without them every value is a plain
  Python object, as under CPython.
- `PBM_COMPILED_RULES=0` turns the finder off (`tests/test_speedups.py` plays the same games
  both ways and compares every position).

Building them: `games/compile_rules.py`.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

# The modules a replay spends its time in, one build each.
COMPILED = (
    "games.engine.stream",
    "games.rules.blankenburg.rules",
    "games.rules.blankenburg.moves",
    "games.rules.nieuwstad.rules",
    "games.rules.new_england.rules",
    "games.rules.new_england.moves",
)
# mypyc builds a module as a small extension that imports its code from a second one, named
# after it with this suffix.
LIBRARY_SUFFIX = "__mypyc"
# Changed whenever `compilable_source` or the mypyc command changes: older builds go unused.
RECIPE = "4"
ROOT = Path(__file__).resolve().parent.parent


def enabled() -> bool:
    return os.environ.get("PBM_COMPILED_RULES", "1") != "0"


def build_root() -> Path:
    """Builds live beside the interpreter that loads them (the virtualenv), never in the
    source tree."""
    return Path(os.environ.get("PBM_COMPILED_DIR") or Path(sys.prefix) / "pbm-compiled-rules")


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def build_key(source: bytes) -> str:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return hashlib.sha256(b"%s\0%s\0%s" % (RECIPE.encode(), suffix.encode(), source)).hexdigest()[
        :24
    ]


def build_dir(module: str, source: bytes) -> Path:
    return build_root() / module / build_key(source)


def extension_file(folder: Path, name: str) -> Path:
    return folder / (name + importlib.machinery.EXTENSION_SUFFIXES[0])


def is_built(module: str) -> bool:
    folder = build_dir(module, source_path(module).read_bytes())
    last = module.rpartition(".")[2]
    return (
        extension_file(folder, last).exists()
        and extension_file(folder, last + LIBRARY_SUFFIX).exists()
    )


def status() -> dict[str, str]:
    """For each compiled module: "compiled" or "source", as this process imported it (a
    benchmark prints this beside its figures)."""
    from importlib import import_module

    return {
        m: "compiled" if not import_module(m).__file__.endswith(".py") else "source"
        for m in COMPILED
    }


class CompiledRulesFinder(importlib.abc.MetaPathFinder):
    """Finds a module of COMPILED (and its mypyc library) in its build for the current
    source; anything else, or a module with no such build, is left to the normal finders."""

    def find_spec(self, fullname, path=None, target=None):
        module = fullname.removesuffix(LIBRARY_SUFFIX)
        if module not in COMPILED or not enabled():
            return None
        source = importlib.machinery.PathFinder.find_spec(module, path)
        if source is None or not str(source.origin).endswith(".py"):
            return None
        folder = build_dir(module, Path(source.origin).read_bytes())
        built = extension_file(folder, fullname.rpartition(".")[2])
        if not built.exists():
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(built))
        return importlib.util.spec_from_file_location(fullname, built, loader=loader)


def plain_module(module: str):
    """A fresh copy of `module` run from its source whatever is built (for a test that
    replaces one of its functions: compiled functions call each other directly, so a
    replacement is seen only by plain Python). Its relative imports resolve as the module's."""
    package = module.rpartition(".")[0]
    spec = importlib.util.spec_from_file_location(f"{package}._plain_copy", source_path(module))
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    return copy


def install() -> None:
    if not any(isinstance(f, CompiledRulesFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, CompiledRulesFinder())
