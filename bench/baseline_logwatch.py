# The implementation before stored hashes and compact ranges (commit 8cc9849), kept verbatim as
# bench_logscale.py's baseline: the old in-memory tree (every leaf hashed into every process) / watcher.
"""`fairdeal-verify log`: watch a service's transparency log over time (docs/log.md, docs/verify.md).

A **copy** of the log is {"heads": [signed tree heads], "leaves": [leaf records]}: the leaves from index 0, and
the heads seen, one per size. The state file the command keeps between runs is such a copy, and so is a saved
copy given instead of a URL (an auditor's file, another auditor's state), so two watchers compare notes by
handing each other their files. Each run merges what the source shows into the state and checks:

  - every head is signed (by the service's key, when one is given);
  - no two heads have the same size and different roots (a fork: the service showed two logs);
  - every leaf known is the leaf the source has at that index, and every head's root is the root of the leaves
    up to its size (a rewritten leaf breaks it);
  - from a URL, the consistency proof from the last head of the state to the new head (the log only grew);
  - the leaves are well formed, each game has one commitment and at most one ending after it.

and lists the commitments with no ending older than a given age (counted back from the newest head's time),
with the share of dealt games that ended cancelled or abandoned. Nothing here trusts the source: a failure is a
finding (exit status 1), an unreadable source or state is unusable (exit status 2).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairdeal.core import merkle, tlog
from fairdeal.core.canonical import canonical_json
from fairdeal.core.fetch import InputError, fetch_url, is_url, parse_json, read_file

PAGE = 1000  # leaves asked for per request
AFTER_DEAL = ("cancelled", "abandoned")


# ------------------------------------------------------------------------------------------------ copies


@dataclass
class LogCopy:
    heads: list[dict] = field(default_factory=list)
    leaves: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"heads": self.heads, "leaves": self.leaves}

    @property
    def latest(self) -> dict | None:
        return max(self.heads, key=lambda h: h["size"]) if self.heads else None


def copy_from_json(obj: Any, where: str) -> LogCopy:
    if not isinstance(obj, dict) or not isinstance(obj.get("heads"), list) or not isinstance(obj.get("leaves"), list):
        raise InputError(f'{where} is not a copy of a transparency log ({{"heads": [...], "leaves": [...]}}).')
    return LogCopy(list(obj["heads"]), list(obj["leaves"]))


def load_copy(path: str) -> LogCopy:
    return copy_from_json(parse_json(read_file(path), path), path)


def load_state(path: str | None) -> LogCopy:
    if path is None or not Path(path).exists():
        return LogCopy()
    return load_copy(path)


def save_copy(path: str, copy: LogCopy) -> None:
    """Written whole to a temporary file and renamed: a run that dies leaves the old state, never half a one."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".log-state-", dir=str(target.parent.resolve()))
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(copy.to_json(), fh, separators=(",", ":"), sort_keys=True)
    os.replace(tmp, target)


# ------------------------------------------------------------------------------------------------ fetching


def base_url(url: str) -> str:
    """The service's address from its address, its /log or its /log/head URL."""
    url = url.rstrip("/")
    for tail in ("/log/head", "/log"):
        if url.endswith(tail):
            return url[: -len(tail)]
    return url


def _get(url: str) -> Any:
    return parse_json(fetch_url(url), url)


@dataclass
class Fetched:
    """What a service showed: its head, the leaves from `start` up to the head's size, and a proof."""

    head: dict
    start: int
    leaves: list[dict]
    consistency: dict | None = None  # the proof from the state's latest head, when there is one


def fetch_log(url: str, known: int, since: dict | None, get: Callable[[str], Any] = _get) -> Fetched:
    """The service's latest head, the leaves after the `known` ones, and the consistency proof from `since`."""
    base = base_url(url)
    head = get(f"{base}/log/head")
    if not isinstance(head, dict) or type(head.get("size")) is not int:
        raise InputError(f"{base}/log/head is not a signed tree head.")
    leaves: list[dict] = []
    start = min(known, head["size"])
    while start + len(leaves) < head["size"]:
        page = get(f"{base}/log/leaves?start={start + len(leaves)}&limit={PAGE}")
        got = page.get("leaves") if isinstance(page, dict) else None
        if not isinstance(got, list) or not got:
            raise InputError(f"{base}/log/leaves stopped before the head's {head['size']} leaves.")
        leaves += got[: head["size"] - start - len(leaves)]
    proof = None
    if since is not None and 0 < since["size"] <= head["size"]:
        proof = get(f"{base}/log/consistency?first={since['size']}&second={head['size']}")
    return Fetched(head, start, leaves, proof)


# ------------------------------------------------------------------------------------------------ checking


@dataclass
class Finding:
    code: str  # head-signature, fork, rewritten-leaf, root-mismatch, inconsistent, bad-leaf
    detail: str

    def to_json(self) -> dict:
        return {"code": self.code, "detail": self.detail}


@dataclass
class LogReport:
    size: int = 0
    heads: int = 0
    new_leaves: int = 0
    findings: list[Finding] = field(default_factory=list)
    pending: list[dict] = field(default_factory=list)  # commitments with no ending, older than the age
    committed: int = 0
    endings: dict[str, int] = field(default_factory=dict)  # reason -> count
    dealt: int = 0  # endings after the deal
    dealt_cut_short: int = 0  # ... cancelled or abandoned
    copy: LogCopy | None = None  # the merged copy (saved when nothing failed)

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def cut_short_share(self) -> float | None:
        return self.dealt_cut_short / self.dealt if self.dealt else None

    def to_json(self) -> dict:
        return {
            "ok": self.ok,
            "size": self.size,
            "heads": self.heads,
            "new_leaves": self.new_leaves,
            "findings": [f.to_json() for f in self.findings],
            "committed": self.committed,
            "endings": self.endings,
            "dealt": self.dealt,
            "dealt_cancelled_or_abandoned": self.dealt_cut_short,
            "dealt_cancelled_or_abandoned_share": self.cut_short_share,
            "pending": self.pending,
        }

    def text(self) -> str:
        lines = [f"log of {self.size} leaves, {self.heads} signed head(s) seen, {self.new_leaves} new leaf(s)"]
        for f in self.findings:
            lines.append(f"FAIL  {f.code}: {f.detail}")
        ended = sum(self.endings.values())
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items())) or "none"
        lines.append(f"{self.committed} game(s) committed, {ended} ended ({reasons})")
        share = self.cut_short_share
        lines.append(
            f"{self.dealt} game(s) ended after the deal, {self.dealt_cut_short} of them cancelled or "
            f"abandoned" + (f" ({share:.1%})" if share is not None else "")
        )
        for p in self.pending:
            lines.append(f"PENDING game {p['game_id']}: committed {p['time']} (leaf {p['index']}), no ending")
        lines.append(
            "LOG OK: it only grew, and no head contradicts another"
            if self.ok
            else f"LOG FAILED: {len(self.findings)} finding(s)"
        )
        return "\n".join(lines)


def _parse_time(text: Any) -> float | None:
    try:
        return dt.datetime.fromisoformat(str(text).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _leaf_text(leaf: Any) -> bytes | None:
    try:
        return canonical_json(leaf)
    except ValueError:
        return None


class _Check:
    def __init__(self, key: str | None):
        self.key = key
        self.report = LogReport()

    def find(self, code: str, detail: str) -> None:
        self.report.findings.append(Finding(code, detail))

    def heads(self, heads: Sequence[Any]) -> list[dict]:
        """The heads that are signed (by the key, when given); one per (size, root)."""
        good: dict[tuple[int, str], dict] = {}
        for head in heads:
            try:
                tlog.check_head(head, self.key)
            except tlog.LogError as exc:
                self.find("head-signature", str(exc))
                continue
            good.setdefault((head["size"], head["root"]), head)
        by_size: dict[int, list[dict]] = {}
        for head in good.values():
            by_size.setdefault(head["size"], []).append(head)
        for size, same in sorted(by_size.items()):
            if len(same) > 1:
                self.find(
                    "fork",
                    f"{len(same)} signed heads of size {size} have different roots: "
                    + ", ".join(h["root"] for h in same)
                    + " (the service showed two different logs)",
                )
        return sorted(good.values(), key=lambda h: (h["size"], h["time"]))

    def merge_leaves(self, known: list[dict], start: int, new: Sequence[Any]) -> list[dict]:
        """The known leaves with the source's: a different leaf at a known index is a rewritten leaf."""
        merged = list(known)
        for i, leaf in enumerate(new, start=start):
            if i < len(merged):
                if _leaf_text(merged[i]) != _leaf_text(leaf):
                    self.find("rewritten-leaf", f"leaf {i} is now {leaf!r:.160}, it was {merged[i]!r:.160}")
            elif i == len(merged):
                merged.append(leaf)
            else:
                raise InputError(f"the source's leaves start at {start}, after the {len(merged)} known")
        return merged

    def roots(self, heads: Sequence[dict], tree: merkle.Tree) -> None:
        for head in heads:
            if head["size"] <= len(tree) and tree.root(head["size"]).hex() != head["root"]:
                self.find(
                    "root-mismatch",
                    f"the head of size {head['size']} signs root {head['root']}, but the "
                    f"leaves up to it hash to {tree.root(head['size']).hex()} (a leaf "
                    f"was rewritten, or the heads are of another log)",
                )

    def consistency(self, since: dict, head: dict, proof: Any) -> None:
        try:
            ok = isinstance(proof, dict) and merkle.verify_consistency(
                since["size"],
                head["size"],
                tlog.head_root(since),
                tlog.head_root(head),
                tlog.proof_bytes(proof.get("proof")),
            )
        except tlog.LogError:
            ok = False
        if not ok:
            self.find(
                "inconsistent",
                f"the service's consistency proof from the head of size {since['size']} "
                f"(seen before) to the head of size {head['size']} does not hold: the log "
                f"did not only grow",
            )

    def leaves(self, leaves: Sequence[Any], now: float | None, pending_after: float) -> None:
        r = self.report
        committed: dict[str, tuple[int, dict]] = {}
        ended: set[str] = set()
        for i, leaf in enumerate(leaves):
            try:
                tlog.check_leaf(leaf)
            except tlog.LogError as exc:
                self.find("bad-leaf", f"leaf {i}: {exc}")
                continue
            g = leaf["game_id"]
            if leaf["type"] == "commitment":
                if g in committed:
                    self.find("bad-leaf", f"leaf {i}: a second commitment of game {g}")
                committed.setdefault(g, (i, leaf))
                continue
            if g not in committed or g in ended:
                self.find(
                    "bad-leaf",
                    f"leaf {i}: an ending of game {g} "
                    + ("ended already" if g in ended else "with no commitment before it"),
                )
                continue
            ended.add(g)
            r.endings[leaf["reason"]] = r.endings.get(leaf["reason"], 0) + 1
            if leaf["dealt"]:
                r.dealt += 1
                r.dealt_cut_short += leaf["reason"] in AFTER_DEAL
        r.committed = len(committed)
        r.endings = dict(sorted(Counter(r.endings).items()))
        for g, (i, leaf) in committed.items():
            t = _parse_time(leaf["time"])
            if g not in ended and now is not None and t is not None and now - t >= pending_after:
                r.pending.append({"game_id": g, "index": i, "time": leaf["time"]})


def watch(
    state: LogCopy,
    *,
    source: LogCopy | None = None,
    fetched: Fetched | None = None,
    key: str | None = None,
    pending_after: float = 3600.0,
) -> LogReport:
    """Merge a source (a copy, or what a service showed) into the state and check it all."""
    check = _Check(key)
    since = state.latest
    if fetched is not None:
        new_heads, start, new_leaves = [fetched.head], fetched.start, fetched.leaves
    else:
        new_heads, start, new_leaves = (source.heads, 0, source.leaves) if source else ([], 0, [])
    heads = check.heads(list(state.heads) + list(new_heads))
    leaves = check.merge_leaves(state.leaves, start, new_leaves)
    tree = merkle.Tree()
    for i, leaf in enumerate(leaves):
        data = _leaf_text(leaf)
        if data is None:
            check.find("bad-leaf", f"leaf {i} is not canonical JSON")
            data = b""
        tree.extend([merkle.leaf_hash(data)])
    check.roots(heads, tree)
    if fetched is not None and since is not None and fetched.consistency is not None:
        check.consistency(since, fetched.head, fetched.consistency)
    latest = max(heads, key=lambda h: h["size"]) if heads else None
    check.leaves(leaves, _parse_time(latest["time"]) if latest else None, pending_after)
    r = check.report
    r.size, r.heads, r.new_leaves = len(leaves), len(heads), len(leaves) - len(state.leaves)
    r.copy = LogCopy(heads, leaves[: latest["size"]] if latest else [])
    return r


def watch_source(
    source: str, state: LogCopy, key: str | None = None, pending_after: float = 3600.0, get: Callable[[str], Any] = _get
) -> LogReport:
    """`fairdeal-verify log SOURCE`: a service's URL, or a saved copy of its log."""
    if is_url(source):
        return watch(
            state, fetched=fetch_log(source, len(state.leaves), state.latest, get), key=key, pending_after=pending_after
        )
    return watch(state, source=load_copy(source), key=key, pending_after=pending_after)


# ------------------------------------------------------------------------------------------------ auditing


@dataclass
class ExportFindings:
    """`fairdeal-verify audit --log`: the export held against the log."""

    missing: list[dict] = field(default_factory=list)  # ended in the log, no transcript in the export
    unlogged: list[str] = field(default_factory=list)  # exported, but no commitment in the log
    report: LogReport | None = None

    def to_json(self) -> dict:
        r = self.report
        return {
            "missing_from_export": self.missing,
            "exported_not_in_log": self.unlogged,
            "committed": r.committed,
            "ended": sum(r.endings.values()),
            "endings": r.endings,
            "dealt": r.dealt,
            "dealt_cancelled_or_abandoned": r.dealt_cut_short,
            "dealt_cancelled_or_abandoned_share": r.cut_short_share,
            "pending": r.pending,
            "log_findings": [f.to_json() for f in r.findings],
            "ok": self.ok,
        }

    @property
    def ok(self) -> bool:
        return not self.missing and not self.unlogged and self.report.ok

    def text(self) -> str:
        r = self.report
        share = r.cut_short_share
        lines = [
            f"log: {r.committed} game(s) committed, {sum(r.endings.values())} ended; "
            f"{r.dealt_cut_short} of {r.dealt} dealt game(s) cancelled or abandoned"
            + (f" ({share:.1%})" if share is not None else "")
        ]
        lines += [f"FAIL  log {f.code}: {f.detail}" for f in r.findings]
        lines += [
            f"MISSING game {m['game_id']}: ended {m['reason']} at {m['time']} (log leaf {m['index']}), "
            f"no transcript in the export"
            for m in self.missing
        ]
        lines += [f"UNLOGGED game {g}: in the export, but the log has no commitment of it" for g in self.unlogged]
        lines += [f"PENDING game {p['game_id']}: committed {p['time']}, no ending in the log" for p in r.pending]
        return "\n".join(lines)


def against_export(report: LogReport, exported: Sequence[str | None]) -> ExportFindings:
    """Which games the log says ended but the export lacks, and which the export has but the log does not."""
    ids = {g for g in exported if g}
    leaves = report.copy.leaves if report.copy else []
    committed = {leaf.get("game_id") for leaf in leaves if isinstance(leaf, dict) and leaf.get("type") == "commitment"}
    missing = [
        {"game_id": leaf["game_id"], "index": i, "reason": leaf.get("reason"), "time": leaf.get("time")}
        for i, leaf in enumerate(leaves)
        if isinstance(leaf, dict) and leaf.get("type") == "ending" and leaf.get("game_id") not in ids
    ]
    return ExportFindings(missing, sorted(ids - committed), report)


__all__ = [
    "LogCopy",
    "LogReport",
    "Finding",
    "Fetched",
    "ExportFindings",
    "watch",
    "watch_source",
    "fetch_log",
    "load_state",
    "save_copy",
    "load_copy",
    "against_export",
    "base_url",
]
