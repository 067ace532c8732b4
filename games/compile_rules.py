"""Building the compiled rules modules (`games/speedups.py` says why and how they load).

    uv run python -m games.compile_rules

The test suite builds what is missing before it starts (tests/conftest.py), `manage.py serve`
and `bench/run_all.sh` too; a deployment runs it once after installing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from games.speedups import (
    COMPILED,
    LIBRARY_SUFFIX,
    build_dir,
    enabled,
    extension_file,
    is_built,
    source_path,
)


def compilable_source(source: bytes) -> str:
    """The module without its annotations (see games/speedups.py), every line where it was:
    each annotation is blanked out in place (a bare `x: T` becomes `pass`), so a traceback
    from the compiled module names the source's own lines. Kept: a class's own annotations
    (they may be a dataclass's fields) and a property's return type (mypyc needs it)."""
    import ast

    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    text = bytearray(source)

    def offset(line: int, col: int) -> int:  # the AST's columns count UTF-8 bytes
        return starts[line - 1] + col

    def blank(start: int, end: int) -> None:
        """Spaces for the bytes of [start, end), its line breaks kept: each ends in a
        backslash, so what the annotation's brackets held together stays one line."""
        for i in range(start, end):
            if text[i] not in b"\r\n":
                text[i] = 0x20
            elif i > start and text[i - 1] not in b"\r\n":
                text[i - 1] = 0x5C  # "\\"

    class_fields = {
        id(item)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        for item in node.body
        if isinstance(item, ast.AnnAssign)
    }
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if arg is not None and arg.annotation is not None:
                    name_end = offset(arg.lineno, arg.col_offset) + len(arg.arg.encode())
                    ann = arg.annotation
                    blank(name_end, offset(ann.end_lineno, ann.end_col_offset))
            is_property = any(getattr(d, "id", None) == "property" for d in node.decorator_list)
            if node.returns is not None and not is_property:
                ann = node.returns
                arrow = text.rindex(b"->", 0, offset(ann.lineno, ann.col_offset))
                blank(arrow, offset(ann.end_lineno, ann.end_col_offset))
        elif isinstance(node, ast.AnnAssign) and id(node) not in class_fields:
            target, ann = node.target, node.annotation
            if node.value is not None:
                target_end = offset(target.end_lineno, target.end_col_offset)
                blank(target_end, offset(ann.end_lineno, ann.end_col_offset))
            else:
                start = offset(node.lineno, node.col_offset)
                blank(start, offset(node.end_lineno, node.end_col_offset))
                text[start : start + 4] = b"pass"
    return text.decode()


def build_module(module: str) -> Path:
    """Compile one module (in a scratch folder) and move its extensions into its build
    folder; returns that folder."""
    import shutil
    import subprocess
    import tempfile

    source = source_path(module).read_bytes()
    target = build_dir(module, source)
    if is_built(module):
        return target
    parts = module.split(".")
    with tempfile.TemporaryDirectory(prefix="pbm-mypyc-") as scratch:
        work = Path(scratch)
        for depth in range(1, len(parts)):
            package = work.joinpath(*parts[:depth])
            package.mkdir(exist_ok=True)
            (package / "__init__.py").touch()
        file = work.joinpath(*parts).with_suffix(".py")
        file.write_text(compilable_source(source))
        # Imports are not followed: every name from another module is a plain object, so
        # nothing is checked or specialised against a type the source does not promise.
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypyc",
                "--ignore-missing-imports",
                "--follow-imports=skip",
                str(file.relative_to(work)),
            ],
            cwd=work,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"mypyc could not build {module}:\n{done.stdout}\n{done.stderr}")
        staged = work / "staged"
        staged.mkdir()
        last = parts[-1]
        for name in (last, last + LIBRARY_SUFFIX):
            shutil.copy2(extension_file(file.parent, name), extension_file(staged, name))
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(staged, target)  # whole or not at all: a reader never sees half
        except OSError:
            if not is_built(module):  # another build won the race; anything else is real
                raise
    prune_older_builds(module, keep=target)
    return target


def prune_older_builds(module: str, keep: Path) -> None:
    """Remove the module's builds of other sources (each edit leaves one behind). A process
    still running an older source has its build loaded already, or imports the .py."""
    import shutil

    for folder in keep.parent.iterdir():
        if folder != keep and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)


def build(modules: tuple[str, ...] = COMPILED) -> list[str]:
    """Build every module of `modules` that has no build for its current source, as many at
    a time as there are cores; returns the ones built."""
    from concurrent.futures import ThreadPoolExecutor

    missing = [m for m in modules if not is_built(m)]
    with ThreadPoolExecutor(max_workers=max(1, min(len(missing), os.cpu_count() or 1))) as pool:
        list(pool.map(build_module, missing))
    return missing


def ensure_built() -> str:
    """Build what is missing; a machine that cannot compile runs the rules as plain Python
    (the same results, slower), so this reports rather than fails."""
    if not enabled():
        return "compiled rules turned off (PBM_COMPILED_RULES=0)"
    try:
        built = build()
    except (RuntimeError, OSError, ImportError) as error:
        return f"compiled rules not built, the rules run as plain Python: {error}"
    return f"compiled rules: built {', '.join(built)}" if built else "compiled rules: up to date"


if __name__ == "__main__":
    print("built: " + (", ".join(build()) or "nothing, every build is up to date"))
