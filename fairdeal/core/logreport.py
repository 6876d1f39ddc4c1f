"""What `fairdeal-verify log` reports (docs/verify.md): its findings, the games' counts, and how it reads.

The checking is fairdeal.core.logwatch's; this module only holds and renders its result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core import logtrust
from fairdeal.core.canonical import canonical_json

UNCHECKED = (
    "LOG UNCHECKED: no key was given or pinned, so the heads were checked only against the keys they "
    "name, which anyone can make: give the service's keys (--key, its saved GET /keys) or pin its key"
)


@dataclass
class Finding:
    code: str  # head-signature, fork, rollback, rewritten-leaf, root-mismatch, missing-leaves,
    # inconsistent, bad-leaf
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail}


@dataclass
class LogReport:
    size: int = 0
    heads: int = 0
    new_leaves: int = 0
    findings: list[Finding] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)  # commitments with no ending, older than the age
    committed: int = 0
    endings: dict[str, int] = field(default_factory=dict)  # reason -> count
    dealt: int = 0  # endings after the deal
    dealt_cut_short: int = 0  # ... cancelled or abandoned
    reveal_aborts: int = 0  # endings in the reveal phase (seated, never dealt)
    walked_away: dict[str, int] = field(default_factory=dict)  # seat name -> reveal-phase aborts it did not reveal
    state: Any = None  # the LogState after the run (saved when nothing failed)
    copy: Any = None  # the LogCopy of every leaf, when the run read them all
    trust: logtrust.HeadTrust = field(default_factory=logtrust.HeadTrust)

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def cut_short_share(self) -> float | None:
        return self.dealt_cut_short / self.dealt if self.dealt else None

    @property
    def seated_cut_short_share(self) -> float | None:
        """Of the games that got to their seating, the share that ended early: cancelled or abandoned after the
        deal, or aborted in the reveal phase (the abort fairness.md says stands out)."""
        seated = self.dealt + self.reveal_aborts
        return (self.dealt_cut_short + self.reveal_aborts) / seated if seated else None

    def walked_away_json(self) -> list[dict[str, Any]]:
        return [{"name": n, "games": c} for n, c in sorted(self.walked_away.items(), key=lambda x: (-x[1], x[0]))]

    def counts_json(self) -> dict[str, Any]:
        return {
            "committed": self.committed,
            "endings": self.endings,
            "dealt": self.dealt,
            "dealt_cancelled_or_abandoned": self.dealt_cut_short,
            "dealt_cancelled_or_abandoned_share": self.cut_short_share,
            "reveal_phase_aborts": self.reveal_aborts,
            "walked_away": self.walked_away_json(),
            "seated_cut_short_share": self.seated_cut_short_share,
            "pending": self.pending,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "size": self.size,
            "heads": self.heads,
            "new_leaves": self.new_leaves,
            "findings": [f.to_json() for f in self.findings],
            "heads_checked_against": self.trust.to_json(),
            **self.counts_json(),
        }

    def aborts_text(self) -> str:
        who = ", ".join(f"{w['name']} {w['games']}" for w in self.walked_away_json()) or "nobody named"
        share = self.seated_cut_short_share
        return (
            f"{self.reveal_aborts} game(s) aborted in the reveal phase (seated, never dealt; did not reveal: "
            f"{who})" + (f"; {share:.1%} of the seated games ended early" if share is not None else "")
        )

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
        lines.append(self.aborts_text())
        for p in self.pending:
            lines.append(f"PENDING game {p['game_id']}: committed {p['time']} (leaf {p['index']}), no ending")
        if not self.ok:
            lines.append(f"LOG FAILED: {len(self.findings)} finding(s)")
        elif not self.trust.trusted:
            lines.append(UNCHECKED)
        else:
            lines.append("LOG OK: it only grew, and no head contradicts another")
        return "\n".join(lines)


def leaf_text(leaf: Any) -> bytes | None:
    try:
        return canonical_json(leaf)
    except ValueError:
        return None


def changed_members(old: Any, new: Any) -> str:
    """Which members of a leaf differ, with both values (whole values: no cut repr)."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return f"it is now {json.dumps(new, sort_keys=True)}, it was {json.dumps(old, sort_keys=True)}"
    parts = []
    for m in sorted(set(old) | set(new)):
        if m not in new:
            parts.append(f"{m!r} is gone (it was {json.dumps(old[m])})")
        elif m not in old:
            parts.append(f"{m!r} is new ({json.dumps(new[m])})")
        elif leaf_text(old[m]) != leaf_text(new[m]):
            parts.append(f"{m!r} is now {json.dumps(new[m])}, it was {json.dumps(old[m])}")
    return "; ".join(parts)
