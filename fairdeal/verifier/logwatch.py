"""`fairdeal-verify log`: watch a service's transparency log over time (docs/log.md, docs/verify.md).

A **copy** of the log is {"heads": [signed tree heads], "leaves": [leaf records]}: the leaves from index 0, and
the heads seen, one per size; a saved copy may be given instead of a URL (an auditor's file). The **state** the
command keeps between runs (fairdeal.verifier.logstate) is not a copy: it is the latest head checked and the
compact range of its tree (O(log n) hashes), the games' counts and the commitments still open, so a run fetches
and hashes only the leaves new since the last (the state of the first format, a copy, is read and converted).
Each run merges what the source shows into the state and checks:

  - every head is signed (by the service's key, when one is given);
  - no two heads have the same size and different roots (a fork: the service showed two logs);
  - every head's root is the root of the leaves up to its size, computed from the state's compact range and the
    new leaves (a rewritten leaf breaks it); a copy from leaf 0 is also held against the state's root;
  - from a URL, the consistency proof from the last head of the state to the new head (the log only grew);
  - the leaves are well formed, each game has one commitment and at most one ending after it (checked against
    the games still open: a second commitment of a game ended in an earlier run is seen only by a run from 0).

and lists the commitments with no ending older than a given age (counted back from the newest head's time),
with the share of dealt games that ended cancelled or abandoned. Nothing here trusts the source: a failure is a
finding (exit status 1), an unreadable source or state is unusable (exit status 2).
"""
from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from fairdeal.verifier import merkle, tlog
from fairdeal.verifier.canonical import canonical_json
from fairdeal.verifier.compact import CompactRange
from fairdeal.verifier.fetch import InputError, fetch_url, is_url, parse_json, read_file
from fairdeal.verifier.logstate import LogState, is_state, save_state, state_from_json

PAGE = 1000                        # leaves asked for per request
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
    if is_state(obj):
        raise InputError(f"{where} is a log watcher's state (its last head and a compact range, not the leaves): "
                         f"give the service's address, or a copy of the log (fairdeal-verify log --copy FILE).")
    if not isinstance(obj, dict) or not isinstance(obj.get("heads"), list) or not isinstance(obj.get("leaves"), list):
        raise InputError(f"{where} is not a copy of a transparency log ({{\"heads\": [...], \"leaves\": [...]}}).")
    return LogCopy(list(obj["heads"]), list(obj["leaves"]))


def load_copy(path: str) -> LogCopy:
    return copy_from_json(parse_json(read_file(path), path), path)


def load_state(path: str | None) -> LogState:
    """The watcher's state; one of the first format (a copy of the log) is converted, its leaves hashed once."""
    if path is None or not Path(path).exists():
        return LogState()
    obj = parse_json(read_file(path), path)
    return state_from_json(obj, path) if is_state(obj) else state_of_copy(copy_from_json(obj, path))


def state_of_copy(copy: LogCopy) -> LogState:
    """The state a copy of the log amounts to (its heads checked, its leaves hashed): a full recomputation."""
    return watch(LogState(), source=copy).state


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
            return url[:-len(tail)]
    return url


def _get(url: str) -> Any:
    return parse_json(fetch_url(url), url)


@dataclass
class Fetched:
    """What a service showed: its head, the leaves from `start` up to the head's size, and a proof."""

    head: dict
    start: int
    leaves: list[dict]
    consistency: dict | None = None    # the proof from the state's latest head, when there is one


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
        leaves += got[:head["size"] - start - len(leaves)]
    proof = None
    if since is not None and 0 < since["size"] <= head["size"]:
        proof = get(f"{base}/log/consistency?first={since['size']}&second={head['size']}")
    return Fetched(head, start, leaves, proof)


# ------------------------------------------------------------------------------------------------ checking

@dataclass
class Finding:
    code: str          # head-signature, fork, rewritten-leaf, root-mismatch, inconsistent, bad-leaf
    detail: str

    def to_json(self) -> dict:
        return {"code": self.code, "detail": self.detail}


@dataclass
class LogReport:
    size: int = 0
    heads: int = 0
    new_leaves: int = 0
    findings: list[Finding] = field(default_factory=list)
    pending: list[dict] = field(default_factory=list)       # commitments with no ending, older than the age
    committed: int = 0
    endings: dict[str, int] = field(default_factory=dict)   # reason -> count
    dealt: int = 0                                           # endings after the deal
    dealt_cut_short: int = 0                                 # ... cancelled or abandoned
    state: LogState | None = None                            # the state after the run (saved when nothing failed)
    copy: LogCopy | None = None                              # every leaf, when the run read them all from leaf 0

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def cut_short_share(self) -> float | None:
        return self.dealt_cut_short / self.dealt if self.dealt else None

    def to_json(self) -> dict:
        return {"ok": self.ok, "size": self.size, "heads": self.heads, "new_leaves": self.new_leaves,
                "findings": [f.to_json() for f in self.findings], "committed": self.committed,
                "endings": self.endings, "dealt": self.dealt, "dealt_cancelled_or_abandoned": self.dealt_cut_short,
                "dealt_cancelled_or_abandoned_share": self.cut_short_share, "pending": self.pending}

    def text(self) -> str:
        lines = [f"log of {self.size} leaves, {self.heads} signed head(s) seen, {self.new_leaves} new leaf(s)"]
        for f in self.findings:
            lines.append(f"FAIL  {f.code}: {f.detail}")
        ended = sum(self.endings.values())
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items())) or "none"
        lines.append(f"{self.committed} game(s) committed, {ended} ended ({reasons})")
        share = self.cut_short_share
        lines.append(f"{self.dealt} game(s) ended after the deal, {self.dealt_cut_short} of them cancelled or "
                     f"abandoned" + (f" ({share:.1%})" if share is not None else ""))
        for p in self.pending:
            lines.append(f"PENDING game {p['game_id']}: committed {p['time']} (leaf {p['index']}), no ending")
        lines.append("LOG OK: it only grew, and no head contradicts another" if self.ok else
                     f"LOG FAILED: {len(self.findings)} finding(s)")
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
                self.find("fork", f"{len(same)} signed heads of size {size} have different roots: "
                                  + ", ".join(h["root"] for h in same) + " (the service showed two different logs)")
        return sorted(good.values(), key=lambda h: (h["size"], h["time"]))

    def root_at(self, heads: dict[int, list[dict]], rng: CompactRange) -> None:
        for head in heads.get(rng.size, ()):
            root = rng.root().hex()
            if root != head["root"]:
                self.find("root-mismatch", f"the head of size {head['size']} signs root {head['root']}, but the "
                                           f"leaves up to it hash to {root} (a leaf was rewritten, or the heads "
                                           f"are of another log)")

    def consistency(self, since: dict, head: dict, proof: Any) -> None:
        try:
            ok = (isinstance(proof, dict) and merkle.verify_consistency(
                since["size"], head["size"], tlog.head_root(since), tlog.head_root(head),
                tlog.proof_bytes(proof.get("proof"))))
        except tlog.LogError:
            ok = False
        if not ok:
            self.find("inconsistent", f"the service's consistency proof from the head of size {since['size']} "
                                      f"(seen before) to the head of size {head['size']} does not hold: the log "
                                      f"did not only grow")

    def leaf(self, state: LogState, i: int, leaf: Any, ended_now: set[str]) -> None:
        """Count leaf i (new to the state) into the state's games."""
        try:
            tlog.check_leaf(leaf)
        except tlog.LogError as exc:
            self.find("bad-leaf", f"leaf {i}: {exc}")
            return
        g = leaf["game_id"]
        if leaf["type"] == "commitment":
            if g in state.open:
                self.find("bad-leaf", f"leaf {i}: a second commitment of game {g}")
                return
            state.open[g] = {"index": i, "time": leaf["time"]}
            state.committed += 1
            return
        if g not in state.open:
            self.find("bad-leaf", f"leaf {i}: an ending of game {g} " +
                      ("ended already" if g in ended_now else "with no open commitment before it (none, or it "
                                                              "ended in an earlier run)"))
            return
        del state.open[g]
        ended_now.add(g)
        state.endings[leaf["reason"]] = state.endings.get(leaf["reason"], 0) + 1
        if leaf["dealt"]:
            state.dealt += 1
            state.dealt_cut_short += leaf["reason"] in AFTER_DEAL


def _hash_leaves(check: _Check, rng: CompactRange, heads: dict[int, list[dict]], start: int, leaves: Sequence[Any],
                 each: Callable[[int, Any], None] | None = None) -> None:
    """Append these leaves (leaf `start` onwards) to the range, checking each head's root at its size."""
    for i, leaf in enumerate(leaves, start=start):
        data = _leaf_text(leaf)
        if data is None:
            check.find("bad-leaf", f"leaf {i} is not canonical JSON")
            data = b""
        rng.append(merkle.leaf_hash(data))
        if each is not None:
            each(i, leaf)
        check.root_at(heads, rng)


def watch(state: "LogState | LogCopy", *, source: LogCopy | None = None, fetched: Fetched | None = None,
          key: str | None = None, pending_after: float = 3600.0) -> LogReport:
    """Merge a source (a copy, or what a service showed) into the state and check it all. Leaves the state
    given unchanged; the report's `state` is the state after this run."""
    if isinstance(state, LogCopy):   # a state of the first format
        state = state_of_copy(state)
    check = _Check(key)
    since = state.head
    if fetched is not None:
        new_heads, start, new_leaves = [fetched.head], fetched.start, fetched.leaves
    else:
        new_heads, start, new_leaves = (source.heads, 0, source.leaves) if source else ([], 0, [])
    heads = check.heads(([since] if since else []) + list(new_heads))
    by_size: dict[int, list[dict]] = {}
    for head in heads:
        by_size.setdefault(head["size"], []).append(head)
    if start > state.size:
        raise InputError(f"the source's leaves start at {start}, after the {state.size} known")
    # the checkpoint moves to the largest head the leaves reach (the leaves past it wait for a head)
    reach = start + len(new_leaves)
    target = max([h["size"] for h in heads if state.size <= h["size"] <= reach], default=state.size)
    if start == 0 and state.size and len(new_leaves) >= state.size:
        # a copy from leaf 0: its first leaves must hash to the state's root (else one of them was rewritten)
        prefix = CompactRange()
        _hash_leaves(check, prefix, by_size, 0, new_leaves[:state.size])
        if prefix.root() != state.range.root():
            check.find("rewritten-leaf", f"the source's first {state.size} leaves hash to {prefix.root().hex()}, "
                                         f"not to the root {since['root']} of the head of that size seen before: "
                                         f"one of them was rewritten")
    after = LogState(state.head, state.range.copy(), state.heads_seen, state.committed, dict(state.endings),
                     state.dealt, state.dealt_cut_short, dict(state.open))
    ended_now: set[str] = set()
    skip = state.size - start
    _hash_leaves(check, after.range, by_size, state.size, new_leaves[skip:skip + target - state.size],
                 lambda i, leaf: check.leaf(after, i, leaf, ended_now))
    if fetched is not None and since is not None and fetched.consistency is not None:
        check.consistency(since, fetched.head, fetched.consistency)
    if by_size.get(target):
        after.head = max(by_size[target], key=lambda h: h["time"])
    seen = {(h["size"], h["root"]) for h in heads}
    after.heads_seen += len(seen - ({(since["size"], since["root"])} if since else set()))
    latest = max(heads, key=lambda h: h["size"]) if heads else None
    r = check.report
    r.size, r.heads, r.new_leaves, r.state = after.size, after.heads_seen, after.size - state.size, after
    r.committed, r.endings, r.dealt, r.dealt_cut_short = (after.committed, dict(sorted(after.endings.items())),
                                                          after.dealt, after.dealt_cut_short)
    now = _parse_time(latest["time"]) if latest else None
    for g, entry in after.open.items():
        t = _parse_time(entry["time"])
        if now is not None and t is not None and now - t >= pending_after:
            r.pending.append({"game_id": g, "index": entry["index"], "time": entry["time"]})
    if start == 0:   # the run holds every leaf: the copy it makes (audit --log holds an export against it)
        r.copy = LogCopy(heads, list(new_leaves[:target]))
    return r


def load_source(path: str) -> LogCopy:
    """A saved copy of the log; or another watcher's state, of which only the head can be held against ours (a
    fork when it has our size and another root)."""
    obj = parse_json(read_file(path), path)
    if is_state(obj):
        head = state_from_json(obj, path).head
        return LogCopy([head] if head else [], [])
    return copy_from_json(obj, path)


def watch_source(source: str, state: "LogState | LogCopy", key: str | None = None, pending_after: float = 3600.0,
                 get: Callable[[str], Any] = _get, every_leaf: bool = False) -> LogReport:
    """`fairdeal-verify log SOURCE`: a service's URL, or a saved copy of its log (or another watcher's state).
    `every_leaf`: the whole log is wanted (`log --copy`, `audit --log`): fetched from leaf 0, not from the
    state's size (the leaves known are held against the state's root), and a state is no source."""
    if isinstance(state, LogCopy):   # a state of the first format
        state = state_of_copy(state)
    if is_url(source):
        return watch(state, fetched=fetch_log(source, 0 if every_leaf else state.size, state.latest, get), key=key,
                     pending_after=pending_after)
    return watch(state, source=load_copy(source) if every_leaf else load_source(source), key=key,
                 pending_after=pending_after)


# ------------------------------------------------------------------------------------------------ auditing

@dataclass
class ExportFindings:
    """`fairdeal-verify audit --log`: the export held against the log."""

    missing: list[dict] = field(default_factory=list)     # ended in the log, no transcript in the export
    unlogged: list[str] = field(default_factory=list)     # exported, but no commitment in the log
    report: LogReport | None = None

    def to_json(self) -> dict:
        r = self.report
        return {"missing_from_export": self.missing, "exported_not_in_log": self.unlogged,
                "committed": r.committed, "ended": sum(r.endings.values()), "endings": r.endings,
                "dealt": r.dealt, "dealt_cancelled_or_abandoned": r.dealt_cut_short,
                "dealt_cancelled_or_abandoned_share": r.cut_short_share,
                "pending": r.pending, "log_findings": [f.to_json() for f in r.findings], "ok": self.ok}

    @property
    def ok(self) -> bool:
        return not self.missing and not self.unlogged and self.report.ok

    def text(self) -> str:
        r = self.report
        share = r.cut_short_share
        lines = [f"log: {r.committed} game(s) committed, {sum(r.endings.values())} ended; "
                 f"{r.dealt_cut_short} of {r.dealt} dealt game(s) cancelled or abandoned"
                 + (f" ({share:.1%})" if share is not None else "")]
        lines += [f"FAIL  log {f.code}: {f.detail}" for f in r.findings]
        lines += [f"MISSING game {m['game_id']}: ended {m['reason']} at {m['time']} (log leaf {m['index']}), "
                  f"no transcript in the export" for m in self.missing]
        lines += [f"UNLOGGED game {g}: in the export, but the log has no commitment of it" for g in self.unlogged]
        lines += [f"PENDING game {p['game_id']}: committed {p['time']}, no ending in the log" for p in r.pending]
        return "\n".join(lines)


def against_export(report: LogReport, exported: Sequence[str | None]) -> ExportFindings:
    """Which games the log says ended but the export lacks, and which the export has but the log does not."""
    ids = {g for g in exported if g}
    leaves = report.copy.leaves if report.copy else []
    committed = {leaf.get("game_id") for leaf in leaves if isinstance(leaf, dict) and leaf.get("type") == "commitment"}
    missing = [{"game_id": leaf["game_id"], "index": i, "reason": leaf.get("reason"), "time": leaf.get("time")}
               for i, leaf in enumerate(leaves) if isinstance(leaf, dict) and leaf.get("type") == "ending"
               and leaf.get("game_id") not in ids]
    return ExportFindings(missing, sorted(ids - committed), report)


__all__ = ["LogCopy", "LogState", "LogReport", "Finding", "Fetched", "ExportFindings", "watch", "watch_source",
           "fetch_log", "load_state", "save_state", "state_of_copy", "save_copy", "load_copy", "against_export",
           "base_url"]
