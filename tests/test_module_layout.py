"""The package's layout (docs/design.md, issue 22): no two modules of fairdeal/ import each other, directly or in
a loop (imports inside functions count: a loop deferred to call time is still a loop), and no module is over
600 lines."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "fairdeal"
MAX_LINES = 600


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(
    source: str, name: str, is_package: bool, modules: Iterable[str], type_checking: bool | None = None
) -> set[str]:
    """The modules among `modules` that the module `name` (a package's __init__ when `is_package`) imports,
    anywhere in it. `from a.b import c` is an import of a.b.c when that is a module, else of a.b; a parent
    package is not counted as imported (Python runs its __init__ first, but that is no dependency of the code).
    `type_checking`: True, only the imports under `if TYPE_CHECKING:`; False, only the others; None, all."""
    known = set(modules)
    here = name if is_package else name.rpartition(".")[0]

    def owner(target: str) -> str | None:  # the module of ours a dotted name is in, if any
        while target and target not in known:
            target = target.rpartition(".")[0]
        return target or None

    tree = ast.parse(source)
    typed = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for stmt in node.body
        for inner in ast.walk(stmt)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if type_checking is not None and (id(node) in typed) != type_checking:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        found.update(m for m in map(owner, targets) if m is not None and m != name)
    return found


def import_graph(package: Path = PACKAGE, root: Path = ROOT, type_checking: bool | None = None) -> dict[str, set[str]]:
    files = {module_name(p, root): p for p in sorted(package.rglob("*.py"))}
    return {
        name: imported(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", files, type_checking)
        for name, path in files.items()
    }


def import_loops(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative): each is a set
    of modules every one of which imports, directly or through the others, every other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        component.append(m)
                        if m == node:
                            break
                    if len(component) > 1:
                        loops.append(sorted(component))
    return sorted(loops)


def loop_text(loop: list[str], graph: Mapping[str, Iterable[str]], runtime: Mapping[str, Iterable[str]]) -> str:
    """The loop and its edges, each marked when only an `if TYPE_CHECKING:` import makes it (no loop when the
    program runs, but still two modules that each need the other to be read)."""
    members = set(loop)
    edges = [
        f"    {a} -> {b}" + ("" if b in runtime[a] else "  (only under TYPE_CHECKING)")
        for a in loop
        for b in sorted(graph[a])
        if b in members
    ]
    return " <-> ".join(loop) + "\n" + "\n".join(edges)


def test_the_graph_reads_every_kind_of_import():
    modules = {"p", "p.a", "p.b", "p.c", "p.sub", "p.sub.d"}
    source = (
        "import p.a\n"
        "from p import b\n"  # a submodule named in a from-import
        "from .sub import d\n"  # relative, and a name that is a module
        "def later():\n    from p.c import thing\n"  # inside a function
        "import os\n"
    )
    assert imported(source, "p.x", False, modules) == {"p.a", "p.b", "p.sub.d", "p.c"}
    assert imported("from . import d\nfrom .. import c\n", "p.sub", True, modules) == {"p.sub.d", "p.c"}
    assert imported("from .d import f\n", "p.sub", True, modules) == {"p.sub.d"}
    assert imported("from fairdeal.core import canonical\n", "p.a", False, modules) == set()
    typed = "from typing import TYPE_CHECKING\nimport p.a\nif TYPE_CHECKING:\n    from p.b import B\n"
    assert imported(typed, "p.x", False, modules) == {"p.a", "p.b"}
    assert imported(typed, "p.x", False, modules, type_checking=False) == {"p.a"}
    assert imported(typed, "p.x", False, modules, type_checking=True) == {"p.b"}


def test_the_loop_finder_finds_direct_and_longer_loops_and_nothing_else():
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a", "c"}, "g": set()}
    assert import_loops(graph) == [["a", "b"], ["c", "d", "e"]]
    assert import_loops({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_two_modules_import_each_other():
    graph = import_graph()
    assert "fairdeal.core.games" in graph and "fairdeal.core.games.base" in graph["fairdeal.core.games"]
    loops = import_loops(graph)
    runtime = import_graph(type_checking=False)
    assert not loops, "modules importing each other (directly or in a loop):\n" + "\n".join(
        loop_text(loop, graph, runtime) for loop in loops
    )


def test_no_module_is_over_600_lines():
    long = {
        str(p.relative_to(ROOT)): n
        for p in sorted(PACKAGE.rglob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines (split them by job): " + ", ".join(
        f"{p} ({n})" for p, n in long.items()
    )
