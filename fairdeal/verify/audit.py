"""`fairdeal-verify audit`: verify many transcripts on every core and sum them up.

Inputs are files (one transcript each, or JSON Lines as `fairdeal export` writes them: one transcript a line),
folders (searched for *.json, *.jsonl and *.ndjson) and "-" (JSON Lines on standard input). The main process only
finds the items (a file, or one line's byte range in a file, found a chunk at a time: lines.py); the workers read,
parse and verify them, so the work scales with the cores and the memory stays small however large the export
(standard input is the exception: it cannot be read twice, so its lines are held). A broken item is reported and
the audit goes on.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from fairdeal.core.checks import verify_transcript
from fairdeal.core.fetch import MAX_BYTES, InputError, read_file
from fairdeal.core.keysets import NOT_YET, RETIRED, KeySet
from fairdeal.core.results import key_id_or_none
from fairdeal.verify.auditpool import Pool, PoolCpu
from fairdeal.verify.lines import holds_lines, line_ranges
from fairdeal.verify.progress import Progress

LINE_SUFFIXES = (".jsonl", ".ndjson")
FILE_SUFFIXES = (".json",) + LINE_SUFFIXES
KeyArg = str | KeySet | None  # what verify_transcript takes as the keys given
PinArg = Mapping[str, str] | KeySet | None  # and as the pinned keys


@dataclass(frozen=True)
class Item:
    """One transcript to check: a whole file (line None) or one line of a JSON Lines file (its byte range)."""

    path: str
    line: int | None = None
    offset: int = 0
    length: int = -1
    text: str | None = None  # for standard input, which workers cannot reopen

    @property
    def label(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"


@dataclass
class Outcome:
    """What one item came to, small enough to send back from a worker."""

    source: str
    status: str  # "passed" | "failed" | "broken"
    game_id: str | None = None
    rule_set: str | None = None
    moves: int = 0
    failed: list[dict[str, Any]] = field(default_factory=list)  # the failed checks: id, detail, seq
    error: str | None = None  # why a broken item could not be used
    key_source: str | None = None
    key_id: str | None = None  # the key that signed it
    key_status: str | None = None  # whether it was current at the game's time (keysets)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.source,
            "status": self.status,
            "game_id": self.game_id,
            "rule_set": self.rule_set,
            "moves": self.moves,
            "key_id": self.key_id,
            "key_status": self.key_status,
        }
        if self.failed:
            out["failed"] = self.failed
        if self.error:
            out["error"] = self.error
        return out


# ------------------------------------------------------------------------------------------- finding


def _line_items(path: str, fh: BinaryIO) -> Iterator[Item]:
    for line in line_ranges(fh):
        yield Item(path, line.number, line.offset, line.length)


def _file_items(path: Path, problems: list[Outcome]) -> Iterator[Item]:
    """A JSON Lines file's lines (found by reading it a chunk at a time: lines.py), or the whole file as one item.
    A file that cannot be opened here is one item too: reading it reports why, like any unreadable file."""
    name = str(path)
    try:
        fh = path.open("rb")
    except OSError:
        yield Item(name)
        return
    with fh:
        try:
            lines = path.suffix.lower() in LINE_SUFFIXES or holds_lines(fh)
            if lines:
                fh.seek(0)
                found = False
                for item in _line_items(name, fh):
                    found = True
                    yield item
        except OSError as exc:
            problems.append(Outcome(name, "broken", error=f"{name} could not be read: {exc.strerror or exc}."))
            return
    if not lines:
        yield Item(name)
    elif not found:
        problems.append(Outcome(name, "broken", error=f"{name} holds no transcript."))


def find_items(
    paths: Sequence[str], problems: list[Outcome], stdin_text: Callable[[], str] | None = None
) -> list[Item]:
    """Every item under the given paths, in a stable order. Paths that cannot be used go to `problems`."""
    items: list[Item] = []
    for given in paths:
        if given == "-":
            text = stdin_text() if stdin_text else sys.stdin.read()
            for number, line in enumerate(text.split("\n"), start=1):
                if line.strip():
                    items.append(Item("<stdin>", number, text=line))
            continue
        path = Path(given)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in FILE_SUFFIXES)
            if not files:
                problems.append(Outcome(given, "broken", error=f"The folder {given} holds no .json or .jsonl file."))
            for f in files:
                items.extend(_file_items(f, problems))
        elif path.exists():
            items.extend(_file_items(path, problems))
        else:
            problems.append(Outcome(given, "broken", error=f"There is no file or folder {given}."))
    return items


# -------------------------------------------------------------------------------------------- checking


class ItemReader:
    """Reads items' raw JSON texts (verify_transcript parses them, once, with the transcript format's own rules),
    keeping the file of the last line read open: an export's items are the lines of one file, in order."""

    def __init__(self) -> None:
        self._path: str | None = None
        self._fh: Any = None

    def read(self, item: Item) -> bytes | str:
        if item.text is not None:
            return item.text
        if item.line is None:
            return read_file(item.path)
        if item.path != self._path:
            self.close()
            self._fh, self._path = open(item.path, "rb"), item.path
        if item.length > MAX_BYTES:  # the line is read whole: not past the largest transcript read_file takes
            raise InputError(f"{item.label} is longer than {MAX_BYTES // (1024 * 1024)} MB; it is not a transcript.")
        self._fh.seek(item.offset)
        data: bytes = self._fh.read(item.length)
        return data

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
        self._fh = self._path = None


def _read_item(item: Item) -> bytes | str:
    reader = ItemReader()
    try:
        return reader.read(item)
    finally:
        reader.close()


def check_item(
    item: Item, key: KeyArg, pins: PinArg, reader: ItemReader | None = None, cosigners: Any = None
) -> Outcome:
    """Verify one item; never raises (a crash is a broken item with the reason). `reader`: one shared by the
    items of a task (else the item's file is opened for it alone)."""
    try:
        obj = reader.read(item) if reader is not None else _read_item(item)
        report = verify_transcript(obj, key=key, pins=pins, cosigners=cosigners)
    except InputError as exc:
        return Outcome(item.label, "broken", error=exc.message)
    except Exception as exc:  # noqa: BLE001 - one bad item must not end the audit
        return Outcome(item.label, "broken", error=f"could not be checked: {type(exc).__name__}: {exc}")
    game = report.game
    if report.unusable:
        return Outcome(item.label, "broken", game.get("game_id"), game.get("rule_set"), error=report.unusable)
    failed = [c.to_json() for c in report.checks if c.status == "fail"]
    # the key that signed: only when both signatures verify under it
    signed = all(c.status == "pass" for c in report.checks if c.id in ("signature-start", "signature-transcript"))
    return Outcome(
        item.label,
        "failed" if failed else "passed",
        game.get("game_id"),
        game.get("rule_set"),
        game.get("moves", 0),
        failed,
        key_source=report.key_source,
        key_id=key_id_or_none(report.key) if signed else None,
        key_status=(report.signer or {}).get("status") if signed else None,
    )


def check_chunk(items: Sequence[Item], key: KeyArg, pins: PinArg, cosigners: Any = None) -> list[Outcome]:
    reader = ItemReader()
    try:
        return [check_item(item, key, pins, reader, cosigners) for item in items]
    finally:
        reader.close()


def item_size(item: Item) -> int:
    """An item's bytes, to share the items out by (a file that cannot be read weighs nothing: it fails fast)."""
    if item.text is not None:
        return len(item.text)
    if item.line is not None:
        return item.length
    try:
        return os.path.getsize(item.path)
    except OSError:
        return 0


def run_checks(
    items: Sequence[Item],
    key: KeyArg,
    pins: PinArg,
    jobs: int,
    progress: Callable[[int], None] | None = None,
    cosigners: Any = None,
    cpu: PoolCpu | None = None,
) -> list[Outcome]:
    """Check every item, on `jobs` processes (1: in this process). Outcomes come back in the items' order.
    `cpu`: filled with the CPU time each worker process used (fairdeal.verify.auditpool)."""
    if jobs <= 1 or len(items) < 2:
        out = []
        reader = ItemReader()
        try:
            for item in items:
                out.append(check_item(item, key, pins, reader, cosigners))
                if progress:
                    progress(1)
        finally:
            reader.close()
        return out
    pool: Pool[Item, Outcome] = Pool(check_chunk, (key, pins, cosigners), jobs)
    return pool.run(items, [item_size(i) for i in items], progress, cpu)


# -------------------------------------------------------------------------------------------- summing up


@dataclass
class AuditSummary:
    outcomes: list[Outcome]
    seconds: float
    jobs: int
    found: int = -1  # transcripts found under the paths (-1: count the outcomes)

    @property
    def games(self) -> int:
        return len(self.outcomes)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def moves(self) -> int:
        return sum(o.moves for o in self.outcomes)

    def signers(self) -> list[dict[str, Any]]:
        """How many games each key signed, by whether it was current at the game's time."""
        c = Counter((o.key_id, o.key_status) for o in self.outcomes if o.key_id)
        return [{"key_id": k, "status": s, "games": n} for (k, s), n in sorted(c.items(), key=str)]

    def key_not_current(self) -> list[dict[str, Any]]:
        """The games whose signing key was not the service's key at the game's time, by the key set's times: a
        retired key (it should sign nothing new) or a key made after the game (signed later than it says)."""
        return [
            {"source": o.source, "game_id": o.game_id, "key_id": o.key_id, "status": o.key_status}
            for o in self.outcomes
            if o.key_status in (RETIRED, NOT_YET)
        ]

    def failed_by_check(self) -> dict[str, int]:
        c = Counter(f["id"] for o in self.outcomes for f in o.failed)
        return dict(sorted(c.items()))

    @property
    def only_own_key(self) -> int:
        return sum(1 for o in self.outcomes if o.key_source == "transcript")

    @property
    def ok(self) -> bool:
        return self.games > 0 and self.count("passed") == self.games

    @property
    def exit_code(self) -> int:
        if self.games == 0 or self.found == 0:
            return 2
        return 0 if self.ok else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "passed": self.count("passed"),
            "failed": self.count("failed"),
            "broken": self.count("broken"),
            "moves": self.moves,
            "failed_by_check": self.failed_by_check(),
            "checked_only_against_own_key": self.only_own_key,
            "signed_by": self.signers(),
            "signed_by_key_not_current": self.key_not_current(),
            "transcripts_found": self.found,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 3),
            "ok": self.ok,
            "exit_code": self.exit_code,
            "problems": [o.to_json() for o in self.outcomes if o.status != "passed"],
        }

    def text(self) -> str:
        lines = [
            f"audited {self.games} game(s) on {self.jobs} process(es) in {self.seconds:.1f} s: "
            f"{self.count('passed')} passed, {self.count('failed')} failed, {self.count('broken')} broken"
        ]
        signers = self.signers()
        if signers:
            lines.append(
                "signed by: "
                + ", ".join(
                    f"key {s['key_id']} {s['games']} game(s)"
                    + (f" ({STATUS_WORDS[s['status']]})" if s["status"] else "")
                    for s in signers
                )
            )
        by_check = self.failed_by_check()
        if by_check:
            lines.append("failed by check: " + ", ".join(f"{k} {v}" for k, v in by_check.items()))
        if self.only_own_key:
            lines.append(
                f"warning: {self.only_own_key} game(s) were checked only against the key they carry "
                f"(give --key or pin the service's key)"
            )
        for g in self.key_not_current():
            lines.append(
                f"{KEY_NOT_CURRENT[g['status']]} game {g['game_id']} ({g['source']}): signed by key "
                f"{g['key_id']}, " + STATUS_WORDS[g["status"]]
            )
        problems = [o for o in self.outcomes if o.status != "passed"]
        if problems:
            lines.append("")
            for o in problems:
                game = f" (game {o.game_id})" if o.game_id else ""
                if o.status == "broken":
                    lines.append(f"BROKEN {o.source}{game}: {o.error}")
                else:
                    for f in o.failed:
                        at = f" at record {f['seq']}" if f.get("seq") is not None else ""
                        lines.append(f"FAILED {o.source}{game}: {f['id']}{at}: {f['detail']}")
        return "\n".join(lines)


KEY_NOT_CURRENT = {RETIRED: "RETIRED KEY", NOT_YET: "KEY MADE AFTER"}
STATUS_WORDS = {
    "current": "current at the game's time",
    "retired": "RETIRED at the game's time",
    "not-yet-created": "made AFTER the game",
    "unknown": "times not known",
}


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def audit(
    paths: Sequence[str],
    key: KeyArg = None,
    pins: PinArg = None,
    jobs: int | None = None,
    progress: bool | None = None,
    cosigners: Any = None,
) -> AuditSummary:
    """Find and check every transcript under `paths`. progress=None: a progress line when standard output is a
    terminal (fairdeal.verify.progress). `cosigners`: a checkpoint.CosignerPolicy every game's log must meet."""
    problems: list[Outcome] = []
    items = find_items(paths, problems)
    jobs = jobs or default_jobs()
    bar = Progress(len(items), enabled=progress)
    start = time.monotonic()
    try:
        outcomes = run_checks(items, key, pins or {}, jobs, bar, cosigners)
    finally:
        bar.close()
    return AuditSummary(problems + outcomes, time.monotonic() - start, jobs, found=len(items))
