"""`fairdeal-verify audit --log` (docs/verify.md, docs/log.md): an export of transcripts held against the
transparency log: the games the log says ended but the export lacks, and the exported games the log never committed.

The log is read and checked by fairdeal.core.logwatch; this module only compares its leaves with the export's game
ids and renders the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core import logtrust, logwatch
from fairdeal.core.logreport import UNCHECKED, LogReport


@dataclass
class ExportFindings:
    """`fairdeal-verify audit --log`: the export held against the log."""

    report: LogReport  # the log's own report, read whole
    missing: list[dict[str, Any]] = field(default_factory=list)  # ended in the log, no transcript in the export
    unlogged: list[str] = field(default_factory=list)  # exported, but no commitment in the log

    def to_json(self) -> dict[str, Any]:
        r = self.report
        return {
            "missing_from_export": self.missing,
            "exported_not_in_log": self.unlogged,
            "ended": sum(r.endings.values()),
            **r.counts_json(),
            "log_findings": [f.to_json() for f in r.findings],
            "heads_checked_against": r.trust.to_json(),
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
        lines.append("log: " + r.aborts_text())
        lines += [f"FAIL  log {f.code}: {f.detail}" for f in r.findings]
        if not r.trust.trusted:
            lines.append("log: " + UNCHECKED)
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
    return ExportFindings(report, missing, sorted(ids - committed))


def export_against_log(
    exported: Sequence[str | None], source: str, trust: logtrust.HeadTrust, pending_after: float = 3600.0
) -> ExportFindings:
    """The exported game ids against the whole log at `source` (a URL or a saved copy), its heads held to `trust`.
    An InputError (fairdeal.core.fetch) when the log cannot be read."""
    report = logwatch.watch_source(
        source, logwatch.load_state(None), key=trust, pending_after=pending_after, every_leaf=True
    )
    return against_export(report, exported)
