"""The text report of a verification: `fairdeal-verify`'s, the client's after its game (fairdeal.client.play), and
a tournament's (`fairdeal-verify tournament`, `fairdeal tournament --verify`). Rendered from the reports' data
(fairdeal.core.results, fairdeal.core.tournament.check), never read back."""

from __future__ import annotations

from fairdeal.core import keys
from fairdeal.core.results import CHECK_IDS, FAIL, PASS, SKIP, Report
from fairdeal.core.tournament.check import FAIL as T_FAIL
from fairdeal.core.tournament.check import PASS as T_PASS
from fairdeal.core.tournament.check import TournamentReport

MARK = {PASS: "PASS", FAIL: "FAIL", SKIP: "skip"}
KEY_SOURCE = {
    "given": "the key you gave ({origin})",
    "pinned": "a key you pinned (for {origin})",
    "transcript": "ONLY the key the transcript carries",
}
KEY_STATUS = {
    "current": "the service's current key when the game was committed ({game_time})",
    "retired": "RETIRED before the game was committed ({game_time}, retired {retired})",
    "not-yet-created": "made AFTER the game was committed ({game_time}, created {created})",
}


def key_line(report: Report) -> str:
    """Which key signed, where the user gave it, and whether it was current at the game's time."""
    key = report.key or ""  # a report that has a key line names its key
    kid = keys.key_id(key) if key.startswith(keys.KEY_PREFIX) else key
    signer = report.signer or {"origin": "--key"}
    line = f"key: {kid}, " + KEY_SOURCE.get(report.key_source or "", str(report.key_source)).format(**signer)
    if signer.get("status") in KEY_STATUS:  # a bare key has no times: whether it was current is not known
        line += "; " + KEY_STATUS[signer["status"]].format(**signer)
    return line


def render_report(report: Report, source: str) -> str:
    g = report.game
    lines = []
    if g:
        seats = ", ".join(f"{s['seat']} {s['name']}{' (bot)' if s['bot'] else ''}" for s in g.get("seats", []))
        lines.append(
            f"game {g.get('game_id')}: {g.get('rule_set')}, {g.get('players')} players, "
            f"{g.get('moves')} moves, {g.get('reason') or 'not ended'}"
        )
        if seats:
            lines.append(f"seats: {seats}")
    else:
        lines.append(f"transcript {source}")
    if report.key:
        lines.append(key_line(report))
    width = max(len(c) for c in CHECK_IDS)
    for c in report.checks:
        if report.unusable and c.status == SKIP:
            continue
        lines.append(f"{MARK[c.status]}  {c.id:<{width}}  {c.detail}")
    if report.unusable:
        lines.append(f"NOT VERIFIED: {report.unusable}")
    elif report.failed:
        ids = ", ".join(c.id for c in report.failed)
        lines.append(f"FAILED: {len(report.failed)} check(s) failed: {ids}")
    else:
        passed = sum(1 for c in report.checks if c.status == PASS)
        lines.append(f"VERIFIED: all {passed} checks passed")
    return "\n".join(lines)


TOURNAMENT_MARKS = {T_PASS: "PASS", T_FAIL: "FAIL"}


def render_tournament(report: TournamentReport, source: str) -> str:
    lines = [f"fairdeal-verify tournament {source}"]
    for cid, status, text in report.checks:
        lines.append(f"  {TOURNAMENT_MARKS.get(status, 'SKIP')}  {cid}: {text}")
    verdict = (
        "cannot verify: " + report.unusable
        if report.unusable
        else "FAILED: " + ", ".join(report.failed)
        if report.failed
        else "every check passed"
    )
    return "\n".join(lines + [verdict])
