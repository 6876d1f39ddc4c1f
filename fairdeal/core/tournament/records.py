"""The tournament's signed records and its export (docs/tournaments.md, "Records"): what the service signs and
publishes, and what `fairdeal-verify tournament` reads. Every record is signed as a game's are: Ed25519 over its
canonical JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.canonical import canonical_json, sha256_hex
from fairdeal.core.games import rules_from_json
from fairdeal.core.games.base import Rules
from fairdeal.core.tournament.seeds import PROTOCOL
from fairdeal.core.transcript import record_hash

# The export's signed records, each beside its signature "<name>_signature", in the order they are made.
HEADERS = ("tournament", "registration", "start")


def shape(rules: Rules) -> tuple[int, int]:
    """(entries a table, players an entry): a partnership rule set's entries are its sides (teams), an
    individual one's are its players."""
    groups = rules.sides.groups
    return len(groups), len(groups[0])


def rules_of(record: Mapping[str, Any]) -> Rules:
    return rules_from_json(record["rules"])


def game_id(tournament_id: str, round_no: int, table: int) -> str:
    return f"{tournament_id}-r{round_no}-t{table}"


def table_seats(rules: Rules, entries: Sequence[Mapping[str, Any]], by_side: Sequence[int]) -> list[dict[str, Any]]:
    """The seats of a table: side i's entry's members take the seats of side i (Sides.groups) in member order."""
    seats: list[dict[str, Any]] = [{} for _ in range(rules.players)]
    for side, e in enumerate(by_side):
        entry = entries[e]
        for seat, member in zip(rules.sides.groups[side], entry["members"], strict=False):
            seats[seat] = {"seat": seat, "name": member, "bot": entry["bot"], "entry": e}
    return seats


def board_member(tournament_id: str, round_no: int, table: int, board_commitment: str) -> dict[str, Any]:
    """The "board" member of a tournament table's commit record."""
    return {"tournament_id": tournament_id, "round": round_no, "table": table, "board_commitment": board_commitment}


def transcript_hash(transcript: Mapping[str, Any]) -> str:
    """How a round result names each game: SHA-256 of the whole transcript's canonical JSON."""
    return sha256_hex(canonical_json(transcript))


def header(kind: str, tournament_id: str, **members: Any) -> dict[str, Any]:
    return {"type": kind, "protocol": PROTOCOL, "tournament_id": tournament_id, **members}


def commitment_leaf(record: Mapping[str, Any]) -> dict[str, Any]:
    """The log's commitment leaf of a tournament, in the form of a game's (docs/log.md) with the tournament id as
    its game_id and `commit` the record_hash of the tournament record."""
    return {
        "type": "commitment",
        "game_id": record["tournament_id"],
        "commit": record_hash(record),
        "commitment": record["commitment"],
        "time": record["created"],
    }


def ending_leaf(export: Mapping[str, Any]) -> dict[str, Any]:
    """The log's ending leaf of a tournament: `transcript` is the SHA-256 of the export's canonical JSON (without
    the `log` member a served export carries: it proves this leaf, so it cannot be in it)."""
    return {
        "type": "ending",
        "game_id": export["tournament"]["tournament_id"],
        "reason": "finished",
        "dealt": True,
        "transcript": sha256_hex(canonical_json({k: v for k, v in export.items() if k != "log"})),
        "time": export["end"]["ended"],
    }
