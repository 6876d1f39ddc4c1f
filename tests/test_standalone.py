"""The repository stands alone: no tracked file refers to a file outside it (the design and decision notes it was
built from, a ../shared folder) or names a rule set by the number of the text it came from ("seed 000"). Rule sets
are named by id (120s-auction, 120s-house, 120s-traditional, spades, twenty-down) and their rules cited from
docs/rules/<id>.md. docs/ is left to its own test for now."""
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
# written in pieces, so that this file does not name what it looks for
OUTSIDE = re.compile("|".join([
    r"\b" + "DECISIONS" + r"\.md\b",
    r"\b" + "DESIGN" + r"\.md\b",
    r"\.\./" + "shared" + r"\b",
    r"\b" + "shared" + r"/rules\b",
    r"(?i:\b" + "seed" + r" 00\d\b)",       # "Seed 000" too; the notes' names are upper case (docs/design.md is ours)
]))
LEFT_TO_THEIR_OWN_TEST = ("docs/",)


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in out.decode().split("\0") if name]


def references(text: str) -> list[str]:
    return [m.group(0) for m in OUTSIDE.finditer(text)]


def test_the_pattern_finds_each_kind_of_reference():
    assert references("see " + "DECISIONS.md and " + "../shared/x and seed 0" + "01") == [
        "DECISIONS.md", "../shared", "seed 001"]
    assert references("the ids of " + "shared/rules/x") == ["shared/rules"]
    assert references("Seed 0" + "04 with " + "DESIGN.md") == ["Seed 004", "DESIGN.md"]
    assert references("docs/design.md, 120s-auction, 5,000 seeds, seed 42") == []


def test_no_tracked_file_outside_docs_refers_to_a_file_outside_the_repository():
    found = []
    for name in tracked_files():
        if name.startswith(LEFT_TO_THEIR_OWN_TEST):
            continue
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue            # binary, or deleted in the working tree
        for number, line in enumerate(text.splitlines(), 1):
            for ref in references(line):
                found.append(f"{name}:{number}: {ref}")
    assert not found, "references outside the repository:\n" + "\n".join(found)
