"""The repository stands alone: no tracked file (documentation, code, tests, scripts, deployment, benchmarks) cites
a file outside the repository (the rule texts and notes the project was started from), and rule sets are named by
id. docs/rules/ is the authority on every rule; these files must point there, not elsewhere."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCOPE = ("docs", "bench", "deploy", "README.md", "fairdeal", "tests", "scripts", "pyproject.toml")
# This file checks itself too: the names it looks for are written here cut by CUT, so that its own text names
# no file outside the repository; spelled() joins them.
CUT = "\u00b7"


def spelled(text: str) -> str:
    return text.replace(CUT, "")


# What a reference to a file outside the repository looks like, each with the reason a reader gets.
OUTSIDE = [
    (re.compile(spelled(pattern), flags), why)
    for pattern, flags, why in [
        (r"DECI·SIONS(\.md)?", 0, "a decisions file outside the repository: docs/rules/<id>.md holds them"),
        (r"DES·IGN\.md", 0, "a design file outside the repository: docs/design.md is the repository's"),
        (r"\.\./sha·red|\bsha·red/(rules|se·eds|DES·IGN)", 0, "a path outside the repository"),
        (r"\bse·eds?/", 0, "a folder of rule texts outside the repository"),
        (r"(?<!<)\bse·ed (text|file)s?\b", re.I, "a rule text outside the repository: cite docs/rules/<id>.md"),
        (r"\bse·ed 00\d\b|\b00\d_[0-9a-f]{16}\b", re.I, "a rule text by number: name the rule set by id"),
        # a rule set named by its old number ("00·0's", "in 00·3"): no digit, comma or point beside it ("5,000",
        # "380 000", "0.004" are numbers)
        (r"(?<![\w.,])(?<!\d )00[0-4](?![\w,.])", 0, "a rule set named by number: use its id (120s-auction, ...)"),
    ]
]
# Signed example transcripts are data: their bytes are fixed by their signatures.
DATA = re.compile(r"^docs/examples/.*\.(json|txt)$")


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "--", *SCOPE], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked sdist): walk the tree
        out = [
            str(p.relative_to(ROOT))
            for s in SCOPE
            for p in ([ROOT / s] if (ROOT / s).is_file() else (ROOT / s).rglob("*"))
            if p.is_file()
        ]
    return sorted(f for f in out if not DATA.match(f))


def outside_references(text: str) -> list[tuple[int, str, str]]:
    """(line number, the words found, why) for every reference to a file outside the repository."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, why in OUTSIDE:
            for m in pattern.finditer(line):
                found.append((number, m.group(0), why))
    return found


def test_the_scope_is_not_empty():
    files = tracked_files()
    assert "README.md" in files and any(f.startswith("docs/rules/") for f in files), files


@pytest.mark.parametrize("path", tracked_files())
def test_no_file_refers_to_a_file_outside_the_repository(path):
    try:
        text = (ROOT / path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        # only vendored third-party builds may be binary (Pyodide's wasm and its stdlib zip), each copied from its
        # npm package by its own build script: they are npm's bytes, not this project's words
        vendor = "fairdeal/service/web/static/vendor/"
        if not path.startswith(vendor):
            pytest.fail(f"{path} is tracked but not readable text")
        name = path[len(vendor) :].split("/")[0]
        assert (ROOT / "scripts" / "vendor" / name / "build.sh").is_file(), f"{path}: no scripts/vendor/{name}/build.sh"
        return
    except FileNotFoundError:
        pytest.fail(f"{path} is tracked but not readable text")
    found = outside_references(text)
    assert not found, "\n".join(f"{path}:{n}: {words!r}: {why}" for n, words, why in found)


@pytest.mark.parametrize(
    "line",
    [
        "See ../sha·red/rules/DECI·SIONS.md.",
        "the se·ed text 00·0_841431f812071b11.txt",
        "as se·ed 00·3 says",
        "DES·IGN.md, section 2",
        "00·0's bots open at 15",
        "(00·1 only: the kitty phase)",
        "the rule texts in se·eds/",
    ],
)
def test_each_kind_of_outside_reference_is_found(line):
    assert outside_references(spelled(line))
    assert not outside_references(line)  # cut, it names nothing: this file checks itself


@pytest.mark.parametrize(
    "line",
    [
        "5,000 waiters held",
        "about 380 000 moves/s",
        "the game seed is revealed",
        "docs/design.md",
        "the client seed and the server seed",
        "p99 of 0.004 s",
        "deck index 0, 1, 2, 3",
        "rules of 120s-auction",
        '"client_seed": <se·ed text>',
    ],
)
def test_ordinary_text_is_not_taken_for_an_outside_reference(line):
    assert not outside_references(spelled(line))


# A path the docs name inside the repository: code, tests, docs, deployment, benchmarks, scripts.
REPO_PATH = re.compile(r"(?<![\w/.-])((?:fairdeal|tests|docs|deploy|bench|scripts)/[\w./*-]*[\w*/])")
# protocol names (fairdeal/2), and files that are never committed (screenshots, a deployment's .env)
NOT_FILES = re.compile(r"^fairdeal/\d$|^tests/web/screenshots/$|^deploy/\.env$")


def named_paths(text: str) -> set[str]:
    return {p for p in REPO_PATH.findall(text) if not NOT_FILES.match(p)}


@pytest.mark.parametrize("path", [f for f in tracked_files() if f.endswith(".md")])
def test_every_repository_path_a_document_names_exists(path):
    """A document that names a module, test or file that is not there has stopped being true."""
    missing = [
        p
        for p in sorted(named_paths((ROOT / path).read_text(encoding="utf-8")))
        if not (any(ROOT.glob(p)) if "*" in p else (ROOT / p).exists())
    ]
    assert not missing, f"{path} names paths the repository does not have: {missing}"


def test_named_paths_are_found_and_protocol_names_are_not_paths():
    assert named_paths("see `fairdeal/core/games/base.py`, tests/games/onetwenty/test_auction_*.py.") == {
        "fairdeal/core/games/base.py",
        "tests/games/onetwenty/test_auction_*.py",
    }
    assert named_paths("fairdeal/2 and fairdeal/1 transcripts") == set()
