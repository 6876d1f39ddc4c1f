"""`fairdeal-verify log`: watch a service's transparency log over time (docs/log.md, docs/verify.md).

A **copy** of the log is {"heads": [signed tree heads], "leaves": [leaf records]}: the leaves from index 0, and
the heads seen, one per size; a saved copy may be given instead of a URL (an auditor's file). The **state** the
command keeps between runs (fairdeal.core.logstate) is not a copy: it is the latest head checked and the
compact range of its tree (O(log n) hashes), the games' counts and the commitments still open, so a run fetches
and hashes only the leaves new since the last (the state of the first format, a copy, is read and converted).
Each run merges what the source shows into the state and checks:

  - every head is signed, by a key trusted for the service at the head's time (fairdeal.core.logtrust: the
    keys given, else the pinned ones; with neither the report says the heads are unchecked);
  - no two heads have the same size and different roots (a fork: the service showed two logs);
  - every head's root is the root of the leaves up to its size, computed from the state's compact range and the
    new leaves (a rewritten leaf breaks it); a head claiming more leaves than a copy holds is a finding;
  - a source from leaf 0 (a copy, `log --copy`, `audit --log`) is held against what was seen before: with the
    leaves seen before (a copy kept by --copy, or a state of the first format) the finding names the first leaf
    where the two logs diverge and the members that changed; with only the state's compact range, the subtree of
    leaves in which they first diverge (finding the leaf itself takes the leaves: `log --copy`);
  - from a URL, the service's head is no smaller than the state's (a rollback), and the consistency proof from
    the last head of the state to the new head holds (the log only grew);
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fairdeal.core import logtrust, merkle, tlog
from fairdeal.core.compact import CompactRange
from fairdeal.core.fetch import InputError, fetch_url, is_url, parse_json, read_file
from fairdeal.core.logreport import UNCHECKED, Finding, LogReport, changed_members, leaf_text
from fairdeal.core.logstate import LogState, is_state, save_state, state_from_json

PAGE = 1000  # leaves asked for per request
AFTER_DEAL = ("cancelled", "abandoned", "no-humans", "move-cap")  # a dealt game ended before its rules ended it


# ------------------------------------------------------------------------------------------------ copies


@dataclass
class LogCopy:
    heads: list[dict] = field(default_factory=list)
    leaves: list[dict] = field(default_factory=list)
    heads_only: bool = False  # another watcher's state: its head, and no leaves to hold it to

    def to_json(self) -> dict:
        return {"heads": self.heads, "leaves": self.leaves}

    @property
    def latest(self) -> dict | None:
        return max(self.heads, key=lambda h: h["size"]) if self.heads else None


def copy_from_json(obj: Any, where: str) -> LogCopy:
    if is_state(obj):
        raise InputError(
            f"{where} is a log watcher's state (its last head and a compact range, not the leaves): "
            f"give the service's address, or a copy of the log (fairdeal-verify log --copy FILE)."
        )
    if not isinstance(obj, dict) or not isinstance(obj.get("heads"), list) or not isinstance(obj.get("leaves"), list):
        raise InputError(f'{where} is not a copy of a transparency log ({{"heads": [...], "leaves": [...]}}).')
    return LogCopy(list(obj["heads"]), list(obj["leaves"]))


def load_copy(path: str) -> LogCopy:
    return copy_from_json(parse_json(read_file(path), path), path)


def load_state(path: str | None) -> LogState:
    """The watcher's state; one of the first format (a copy of the log) is converted, its leaves hashed once."""
    if path is None or not Path(path).exists():
        return LogState()
    obj = parse_json(read_file(path), path)
    return state_from_json(obj, path) if is_state(obj) else state_of_copy(copy_from_json(obj, path))


def load_known(path: str | None) -> LogCopy | None:
    """The leaves seen before: the copy a previous `log --copy FILE` kept (None when there is none yet)."""
    return load_copy(path) if path is not None and Path(path).exists() else None


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


def _parse_time(text: Any) -> float | None:
    try:
        return dt.datetime.fromisoformat(str(text).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class _Check:
    def __init__(self, trust: logtrust.HeadTrust):
        self.trust = trust
        self.report = LogReport(trust=trust)
        self.wrong_roots: list[tuple[dict, str]] = []  # (head, the root its leaves hash to)

    def find(self, code: str, detail: str) -> None:
        self.report.findings.append(Finding(code, detail))

    def heads(self, heads: Sequence[Any]) -> list[dict]:
        """The heads that are signed, by a trusted key at their time; one per (size, root)."""
        good: dict[tuple[int, str], dict] = {}
        seen: set[bytes] = set()
        for head in heads:
            text = leaf_text(head)
            if text is not None and text in seen:  # the state's latest head, shown again by the service
                continue
            seen.add(text or b"")
            try:
                tlog.check_head(head)
            except tlog.LogError as exc:
                self.find("head-signature", str(exc))
                continue
            problem = self.trust.problem(head)
            if problem is not None:
                self.find("head-signature", problem)
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

    def root_at(self, heads: dict[int, list[dict]], rng: CompactRange) -> None:
        for head in heads.get(rng.size, ()):
            root = rng.root().hex()
            if root != head["root"]:
                self.wrong_roots.append((head, root))

    def roots(self) -> None:
        """One finding for the heads whose roots their leaves do not make: the smallest (the others follow)."""
        if self.wrong_roots:
            head, root = min(self.wrong_roots, key=lambda w: w[0]["size"])
            more = f"; so do {len(self.wrong_roots) - 1} larger head(s)" if len(self.wrong_roots) > 1 else ""
            self.find(
                "root-mismatch",
                f"the head of size {head['size']} signs root {head['root']}, but the leaves "
                f"up to it hash to {root} (a leaf was rewritten, or the heads are of another "
                f"log){more}",
            )

    def missing(self, heads: Sequence[dict], held: int) -> None:
        claims = [h for h in heads if h["size"] > held]
        if claims:
            self.find(
                "missing-leaves",
                f"the head of size {claims[-1]['size']} claims more leaves than the copy "
                f"holds ({held}): the leaves it signs were not all shown",
            )

    def rollback(self, since: dict, head: dict) -> None:
        self.find(
            "rollback",
            f"the service's head has {head['size']} leaves, but a head of {since['size']} leaves "
            f"was seen before (signed {since['time']}): the log went back, acknowledged history "
            f"was lost (a restored backup, a failover) or is hidden",
        )

    def diverged(self, known: Sequence[Any], new: Sequence[Any]) -> bool:
        """The leaves seen before against the source's (both from leaf 0). Where they differ the logs diverge:
        one finding, at the first leaf that differs, naming the members that changed."""
        differ = [i for i, (old, leaf) in enumerate(zip(known, new)) if leaf_text(old) != leaf_text(leaf)]
        if differ:
            i = differ[0]
            game = known[i].get("game_id") if isinstance(known[i], dict) else None
            more = f"; {len(differ) - 1} more leaf(s) differ after it" if len(differ) > 1 else ""
            self.find(
                "rewritten-leaf",
                f"the two logs first diverge at leaf {i}"
                + (f" (game {game})" if game else "")
                + f": {changed_members(known[i], new[i])}{more}",
            )
        return bool(differ)

    def diverged_range(self, state: LogState, prefix: CompactRange, since: dict | None) -> None:
        """The source's first leaves against the state's compact range: the first of its subtrees that differs
        holds the first leaf where the logs diverge (the leaf itself takes the leaves seen before)."""
        if prefix.root() == state.range.root():
            return
        lo = 0
        for mine, theirs in zip(state.range.hashes, prefix.hashes):
            width = 1 << ((state.size - lo).bit_length() - 1)
            if mine != theirs:
                break
            lo += width
        where = f"leaves {lo} to {lo + width - 1}" if width > 1 else f"leaf {lo}"
        self.find(
            "rewritten-leaf",
            f"the source's first {state.size} leaves hash to {prefix.root().hex()}, not to "
            f"the root {since['root'] if since else state.range.root().hex()} of the head of "
            f"that size seen before: the two logs first diverge within {where} (the state "
            f"keeps no leaves; a copy kept with `log --copy` names the leaf)",
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
            self.find(
                "bad-leaf",
                f"leaf {i}: an ending of game {g} "
                + (
                    "ended already"
                    if g in ended_now
                    else "with no open commitment before it (none, or it ended in an earlier run)"
                ),
            )
            return
        del state.open[g]
        ended_now.add(g)
        state.endings[leaf["reason"]] = state.endings.get(leaf["reason"], 0) + 1
        if leaf["dealt"]:
            state.dealt += 1
            state.dealt_cut_short += leaf["reason"] in AFTER_DEAL
        elif "unrevealed" in leaf or leaf["reason"] == "not-revealed":  # older leaves name no seat
            state.reveal_aborts += 1
            for seat in leaf.get("unrevealed", ()):
                who = seat["name"] if seat["name"] is not None else f"seat {seat['seat']}"
                state.walked_away[who] = state.walked_away.get(who, 0) + 1


def _hash_leaves(
    check: _Check,
    rng: CompactRange,
    heads: dict[int, list[dict]],
    start: int,
    leaves: Sequence[Any],
    each: Callable[[int, Any], None] | None = None,
) -> None:
    """Append these leaves (leaf `start` onwards) to the range, checking each head's root at its size."""
    for i, leaf in enumerate(leaves, start=start):
        data = leaf_text(leaf)
        if data is None:
            check.find("bad-leaf", f"leaf {i} is not canonical JSON")
            data = b""
        rng.append(merkle.leaf_hash(data))
        if each is not None:
            each(i, leaf)
        check.root_at(heads, rng)


def _trust(key: Any) -> logtrust.HeadTrust:
    return key if isinstance(key, logtrust.HeadTrust) else logtrust.of(key, None)


def _known_leaves(state: LogState, known: LogCopy | None) -> list | None:
    """The leaves seen before, when `known` (a copy kept by --copy) is of the log the state checked: its first
    leaves hash to the state's root. Else None (a copy of another log, or older than the state, is not used)."""
    if known is None or len(known.leaves) < state.size:
        return None
    rng = CompactRange()
    rng.extend(merkle.leaf_hash(leaf_text(leaf) or b"") for leaf in known.leaves[: state.size])
    return list(known.leaves) if rng.root() == state.range.root() else None


def watch(
    state: LogState | LogCopy,
    *,
    source: LogCopy | None = None,
    fetched: Fetched | None = None,
    key: Any = None,
    pending_after: float = 3600.0,
    known: LogCopy | None = None,
) -> LogReport:
    """Merge a source (a copy, or what a service showed) into the state and check it all. Leaves the state
    given unchanged; the report's `state` is the state after this run. `key`: what the heads are held to, a
    logtrust.HeadTrust (or a key text or KeySet: those keys; None: nothing). `known`: the leaves seen before (a
    copy kept by --copy; a state of the first format is its own), to name the leaf where two logs diverge."""
    if isinstance(state, LogCopy):  # a state of the first format: its leaves are the ones seen before
        known, state = known or state, state_of_copy(state)
    check = _Check(_trust(key))
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
    if source is not None and not source.heads_only:  # a copy's heads sign leaves the copy must hold
        mine = {(since["size"], since["root"])} if since else set()
        check.missing([h for h in heads if (h["size"], h["root"]) not in mine], reach)
    if start == 0:
        # a source from leaf 0 against what was seen before: the leaves (exactly), or the state's compact range
        seen_leaves = _known_leaves(state, known)
        rewritten = seen_leaves is not None and check.diverged(seen_leaves, new_leaves)
        if state.size and len(new_leaves) >= state.size:
            prefix = CompactRange()  # (the state's own head is held to it below, not as a root-mismatch)
            _hash_leaves(
                check,
                prefix,
                {n: [h for h in hs if h is not since] for n, hs in by_size.items()},
                0,
                new_leaves[: state.size],
            )
            if not rewritten:
                check.diverged_range(state, prefix, since)
    after = replace(
        state,
        range=state.range.copy(),
        endings=dict(state.endings),
        open=dict(state.open),
        walked_away=dict(state.walked_away),
    )
    ended_now: set[str] = set()
    skip = state.size - start
    _hash_leaves(
        check,
        after.range,
        by_size,
        state.size,
        new_leaves[skip : skip + target - state.size],
        lambda i, leaf: check.leaf(after, i, leaf, ended_now),
    )
    check.roots()
    if (
        fetched is not None
        and since is not None
        and type(fetched.head.get("size")) is int
        and fetched.head["size"] < since["size"]
    ):
        check.rollback(since, fetched.head)
    if fetched is not None and since is not None and fetched.consistency is not None:
        check.consistency(since, fetched.head, fetched.consistency)
    if by_size.get(target):
        after.head = max(by_size[target], key=lambda h: h["time"])
    seen = {(h["size"], h["root"]) for h in heads}
    after.heads_seen += len(seen - ({(since["size"], since["root"])} if since else set()))
    latest = max(heads, key=lambda h: h["size"]) if heads else None
    r = check.report
    r.size, r.heads, r.new_leaves, r.state = after.size, after.heads_seen, after.size - state.size, after
    r.committed, r.endings, r.dealt, r.dealt_cut_short = (
        after.committed,
        dict(sorted(after.endings.items())),
        after.dealt,
        after.dealt_cut_short,
    )
    r.reveal_aborts, r.walked_away = after.reveal_aborts, dict(after.walked_away)
    now = _parse_time(latest["time"]) if latest else None
    for g, entry in after.open.items():
        t = _parse_time(entry["time"])
        if now is not None and t is not None and now - t >= pending_after:
            r.pending.append({"game_id": g, "index": entry["index"], "time": entry["time"]})
    if start == 0:  # the run holds every leaf: the copy it makes (audit --log holds an export against it)
        r.copy = LogCopy(heads, list(new_leaves[:target]))
    return r


def load_source(path: str) -> LogCopy:
    """A saved copy of the log; or another watcher's state, of which only the head can be held against ours (a
    fork when it has our size and another root)."""
    obj = parse_json(read_file(path), path)
    if is_state(obj):
        head = state_from_json(obj, path).head
        return LogCopy([head] if head else [], [], heads_only=True)
    return copy_from_json(obj, path)


def watch_source(
    source: str,
    state: LogState | LogCopy,
    key: Any = None,
    pending_after: float = 3600.0,
    get: Callable[[str], Any] = _get,
    every_leaf: bool = False,
    known: LogCopy | None = None,
) -> LogReport:
    """`fairdeal-verify log SOURCE`: a service's URL, or a saved copy of its log (or another watcher's state).
    `every_leaf`: the whole log is wanted (`log --copy`, `audit --log`): fetched from leaf 0, not from the
    state's size (the leaves known are held against the state's root, or against `known`'s leaves), and a state
    is no source."""
    if isinstance(state, LogCopy):  # a state of the first format
        known, state = known or state, state_of_copy(state)
    if is_url(source):
        return watch(
            state,
            fetched=fetch_log(source, 0 if every_leaf else state.size, state.latest, get),
            key=key,
            pending_after=pending_after,
            known=known,
        )
    return watch(
        state,
        source=load_copy(source) if every_leaf else load_source(source),
        key=key,
        pending_after=pending_after,
        known=known,
    )


__all__ = [
    "LogCopy",
    "LogState",
    "LogReport",
    "Finding",
    "UNCHECKED",
    "Fetched",
    "watch",
    "watch_source",
    "fetch_log",
    "load_state",
    "save_state",
    "state_of_copy",
    "save_copy",
    "load_copy",
    "load_known",
    "base_url",
]
