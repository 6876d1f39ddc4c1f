"""The tests' own layout: shared helpers live in helper modules, so no test module imports from another test
module (a test_*.py module is pytest's to collect; importing one hides what is shared among its tests)."""

import ast
import pathlib

TESTS = pathlib.Path(__file__).resolve().parent


def test_module_imports(source: str) -> list[int]:
    """The line numbers of the imports of a test_* module in `source`."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + ([a.name for a in node.names] if node.level else [])
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        if any(part.startswith("test_") for name in names for part in name.split(".")):
            lines.append(node.lineno)
    return lines


test_module_imports.__test__ = False  # a helper, named after what it finds


def test_the_check_finds_an_import_of_a_test_module():
    source = (
        "from tests.games.onetwenty.test_properties import x\nfrom . import test_y\nimport os\nimport tests.a.test_b\n"
    )
    assert test_module_imports(source) == [1, 2, 4]
    assert test_module_imports("from tests.games.randomness import SeededRng\nfrom .helpers import deck\n") == []


def test_no_test_module_is_imported_by_another():
    found = [
        f"{path.relative_to(TESTS.parent)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in test_module_imports(path.read_text(encoding="utf-8"))
    ]
    assert not found, "imports of test modules (move what they share into a helper module):\n" + "\n".join(found)
