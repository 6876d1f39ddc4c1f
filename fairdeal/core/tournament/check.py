"""`fairdeal-verify tournament`: every check on a tournament export (docs/tournaments.md, "Verifying"), as data.

Nothing the export says about itself is trusted: the tournament seed, the pairings, the sides, the board seeds,
every game and the standings are recomputed from the signed records, the revealed seeds and the games'
transcripts. Each check reports its first difference; a check that cannot run because an earlier one failed is
skipped, naming why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core import keys
from fairdeal.core.canonical import canonical_json
from fairdeal.core.checks import verify_transcript
from fairdeal.core.fairness import server_seed_from_hex
from fairdeal.core.tournament import pairing, scoring
from fairdeal.core.tournament.logcheck import CHECK as LOG_CHECK
from fairdeal.core.tournament.logcheck import check_log
from fairdeal.core.tournament.play import byes_of, met_of, round_results
from fairdeal.core.tournament.records import (
    HEADERS,
    board_member,
    game_id,
    rules_of,
    shape,
    table_seats,
    transcript_hash,
)
from fairdeal.core.tournament.seeds import (
    PROTOCOL,
    board_commitment,
    board_seed,
    entry_commitment,
    seeded_order,
    table_server_seed,
    tournament_commitment,
    tournament_seed,
)

CHECKS = (
    "tournament-signatures",
    "tournament-commitment",
    "entry-seeds",
    "pairings",
    "board-seeds",
    "games-complete",
    "games",
    "seats",
    "same-packs",
    "standings",
)
PASS, FAIL, SKIP = "pass", "fail", "skip"


@dataclass
class TournamentReport:
    checks: list[tuple[str, str, str]] = field(default_factory=list)  # (check id, status, sentence)
    unusable: str | None = None

    def put(self, cid: str, status: str, text: str) -> None:
        if not any(c[0] == cid for c in self.checks):
            self.checks.append((cid, status, text))

    def status(self, cid: str) -> str | None:
        return next((s for c, s, _ in self.checks if c == cid), None)

    @property
    def failed(self) -> list[str]:
        return [c for c, s, _ in self.checks if s == FAIL]

    @property
    def exit_code(self) -> int:
        return 2 if self.unusable else 1 if self.failed else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "report": "fairdeal-verify-tournament/1",
            "ok": self.exit_code == 0,
            "unusable": self.unusable,
            "checks": [{"id": c, "status": s, "message": m} for c, s, m in self.checks],
        }


class _Stop(Exception):
    pass


def verify_tournament(export: Any, key: str | None = None) -> TournamentReport:
    """Every check on an export (the decoded JSON object). key: the service's public key ("ed25519:..."); without
    it only the export's own key, which proves the records are intact, not who signed them."""
    report = TournamentReport()
    try:
        _verify(report, export, key)
    except _Stop:
        pass
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        report.unusable = f"The export could not be read: {type(exc).__name__}: {exc}"
    for cid in CHECKS:
        report.put(cid, SKIP, "not checked: an earlier check failed")
    if isinstance(export, Mapping) and "log" in export:  # reported only for an export that carries one
        report.put(LOG_CHECK, SKIP, "not checked: an earlier check failed")
    return report


def _fail(report: TournamentReport, cid: str, text: str) -> None:
    """A failure the later checks cannot go past."""
    report.put(cid, FAIL, text)
    raise _Stop


def _note(report: TournamentReport, cid: str, text: str) -> None:
    """A failure the other checks go on past (the verifier's own recomputation carries on)."""
    report.put(cid, FAIL, text)


def _verify(report: TournamentReport, ex: Mapping[str, Any], given_key: str | None) -> None:
    if not isinstance(ex, Mapping) or ex.get("protocol") != PROTOCOL:
        report.unusable = f"This is not a {PROTOCOL} tournament export."
        raise _Stop
    commit, reg, start, end = ex["tournament"], ex["registration"], ex["start"], ex.get("end")
    tid = commit["tournament_id"]
    key = given_key or commit["key"]
    # --- signatures -------------------------------------------------------------------------------------
    signed = [(name, ex[name], ex[f"{name}_signature"]) for name in HEADERS]
    for rnd in ex["rounds"]:
        signed += [
            ("round", rnd["round"], rnd["round_signature"]),
            ("round-result", rnd["result"], rnd["result_signature"]),
        ]
    if end is None:
        report.unusable = "The tournament has not ended: its seed is not revealed yet."
        raise _Stop
    signed.append(("end", end, ex["end_signature"]))
    if given_key and given_key != commit["key"]:
        _fail(report, "tournament-signatures", "the export names another key than the one given")
    for name, record, sig in signed:
        if record.get("tournament_id") != tid or record.get("protocol") != PROTOCOL:
            _fail(report, "tournament-signatures", f"the {name} record belongs to another tournament or protocol")
        if not keys.verify(key, canonical_json(record), sig):
            _fail(report, "tournament-signatures", f"the {name} record's signature does not verify")
    report.put(
        "tournament-signatures",
        PASS,
        f"{len(signed)} records signed by {keys.key_id(key)}"
        + ("" if given_key else " (the export's own key: give --key to know who signed)"),
    )
    # --- commitment and seeds ---------------------------------------------------------------------------
    server_seed = server_seed_from_hex(end["server_seed"])
    fmt, rounds = commit["format"], commit["rounds"]
    if tournament_commitment(server_seed, tid, fmt, commit["rules"], rounds) != commit["commitment"]:
        _fail(report, "tournament-commitment", "the server seed revealed does not open the commitment")
    report.put(
        "tournament-commitment",
        PASS,
        "the revealed server seed opens the commitment to the tournament "
        f"id, the {fmt} format, the rules and {rounds} rounds",
    )
    entries = reg["entries"]
    seeds = start["seeds"]
    if [e["entry"] for e in entries] != list(range(len(entries))) or len(seeds) != len(entries):
        _fail(report, "entry-seeds", "the entries are not numbered 0, 1, ... with one reveal each")
    for e, s in zip(entries, seeds, strict=False):
        if e["client_seed_commitment"] is None:
            if s["client_seed"] is not None:
                _fail(report, "entry-seeds", f"entry {e['entry']} committed to no seed but reveals one")
        elif s["client_seed"] is None:
            _fail(report, "entry-seeds", f"entry {e['entry']} committed to a seed and did not reveal it")
        elif entry_commitment(tid, s["client_seed"], s["nonce"]) != e["client_seed_commitment"]:
            _fail(report, "entry-seeds", f"entry {e['entry']}'s reveal does not open its commitment")
    tseed = tournament_seed(server_seed, tid, [s["client_seed"] for s in seeds])
    report.put(
        "entry-seeds", PASS, f"{len(entries)} entries; every reveal opens its commitment; tournament seed {tseed.hex()}"
    )
    # --- pairings, boards, games, standings ---------------------------------------------------------------
    rules = rules_of(commit)
    per_table, _ = shape(rules)
    order = seeded_order(tseed, len(entries))
    played: list[dict[str, Any]] = []
    standing = None
    if len(ex["rounds"]) != rounds:
        _fail(report, "games-complete", f"{rounds} rounds were committed, the export has {len(ex['rounds'])}")
    games_checked = tables_checked = 0
    for r, rnd in enumerate(ex["rounds"], start=1):
        record, result, games = rnd["round"], rnd["result"], rnd["games"]
        ranking = order if standing is None else [s["entry"] for s in standing]
        tables, byes = pairing.pair_round(
            tseed, fmt, len(entries), per_table, r, ranking, met_of(played), byes_of(played)
        )
        expected = [{"table": t, "game_id": game_id(tid, r, t), "entries": by_side} for t, by_side in enumerate(tables)]
        if record.get("round") != r or record["tables"] != expected or record["byes"] != byes:
            _fail(
                report,
                "pairings",
                f"round {r}: the tables or byes are not the seed's ({_first_diff(record, expected, byes)})",
            )
        bseed = board_seed(tseed, r)
        bcommit = board_commitment(bseed, tid, r)
        if result.get("board_seed") != bseed.hex() or record["board_commitment"] != bcommit:
            _fail(
                report, "board-seeds", f"round {r}: the board seed revealed or committed is not the tournament seed's"
            )
        if len(games) != len(tables) or len(result["games"]) != len(tables):
            _fail(
                report,
                "games-complete",
                f"round {r} has {len(tables)} tables but {len(games)} games "
                f"({len(result['games'])} named in its result)",
            )
        for t, (game, named) in enumerate(zip(games, result["games"], strict=False)):
            gid = game["commit"]["game_id"]
            if gid != expected[t]["game_id"] or named != {
                "table": t,
                "game_id": gid,
                "transcript_hash": transcript_hash(game),
            }:
                _fail(report, "games-complete", f"round {r} table {t}: the game is not the one the round result names")
            if game["commit"].get("board") != board_member(tid, r, t, bcommit):
                _fail(
                    report, "same-packs", f"round {r} table {t}: the game's commit does not commit to the round's board"
                )
            gr = verify_transcript(game, key=key, board_seed=bseed)
            if not gr.ok:
                why = gr.unusable or "; ".join(f"{c.id}: {c.detail}" for c in gr.failed[:2])
                _fail(report, "games", f"round {r} table {t} ({gid}) does not verify: {why}")
            if game["end"]["server_seed"] != table_server_seed(tseed, r, t).hex():
                _fail(
                    report,
                    "games",
                    f"round {r} table {t}: the game's server seed is not the tournament seed's game/{r}/{t}",
                )
            if game["commit"]["rules"] != commit["rules"]:
                _fail(report, "games", f"round {r} table {t}: the game's rules are not the tournament's")
            want = table_seats(rules, entries, tables[t])
            got = game["start"]["seats"]
            for w, g in zip(want, got, strict=False):
                if g.get("client_seed") is not None:
                    _note(report, "seats", f"round {r} table {t} seat {w['seat']} gives a client seed of its own")
                if (g["name"], g["bot"]) != (w["name"], w["bot"]):
                    _note(
                        report,
                        "seats",
                        f"round {r} table {t} seat {w['seat']}: {g['name']!r} sits where the "
                        f"pairing puts {w['name']!r}",
                    )
            games_checked += 1
        tables_checked += len(tables)
        played.append(round_results(tables, byes, [scoring.deal_scores(g, bseed) for g in games], len(entries)))
        standing = scoring.standings(len(entries), order, played)
        if result["standings"] != standing:
            _note(
                report,
                "standings",
                f"round {r}: the standings published differ from the games' "
                f"({_standing_diff(result['standings'], standing)})",
            )
    report.put("pairings", PASS, f"{rounds} rounds of {fmt}: every table, side and bye is the seed's")
    report.put("board-seeds", PASS, "every round's board seed is the tournament seed's and opens its commitment")
    report.put("games-complete", PASS, f"{games_checked} games, one for each of the {tables_checked} tables")
    report.put(
        "games",
        PASS,
        "every game verifies as `fairdeal-verify` does, dealt from its round's board seed, "
        "its server seed the tournament seed's",
    )
    report.put("seats", PASS, "every seat holds the entry member the pairing put there")
    report.put(
        "same-packs",
        PASS,
        "every table of a round committed to the round's board and was dealt from it: "
        "deal k of every table is one pack",
    )
    if end["standings"] != (standing or []):
        _note(report, "standings", "the final standings differ from the last round's")
    report.put(
        "standings",
        PASS,
        f"recomputed after every round; winner: entry {standing[0]['entry']} ({entries[standing[0]['entry']]['name']})"
        if standing
        else "no rounds",
    )
    if "log" in ex:
        ok, text = check_log(ex, given_key)
        report.put(LOG_CHECK, PASS if ok else FAIL, text)


def _first_diff(record: Mapping[str, Any], expected: list[Any], byes: list[Any]) -> str:
    for got, want in zip(record["tables"], expected, strict=False):
        if got != want:
            return f"table {want['table']}: {got.get('entries')} where the seed gives {want['entries']}"
    return f"byes {record['byes']} where the seed gives {byes}" if record["byes"] != byes else "the table count"


def _standing_diff(got: list[Any], want: list[Any]) -> str:
    for g, w in zip(got, want, strict=False):
        if g != w:
            return f"published {g}, recomputed {w}"
    return f"{len(got)} rows published, {len(want)} recomputed"
