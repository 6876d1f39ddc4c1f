"""A whole duplicate tournament played by the policies, as a signed export: a pure function of its arguments (the
same inputs give the same bytes), as selfplay is for one game. For the tests, the example and the bench; the
service runs the same steps one request at a time."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from fairdeal.core.games import make_rules
from fairdeal.core.keys import public_key_text
from fairdeal.core.selfplay import selfplay
from fairdeal.core.tournament import pairing, scoring
from fairdeal.core.tournament.records import (
    board_member,
    game_id,
    header,
    rules_of,
    shape,
    table_seats,
    transcript_hash,
)
from fairdeal.core.tournament.seeds import (
    board_commitment,
    board_seed,
    entry_commitment,
    seeded_order,
    table_server_seed,
    tournament_commitment,
    tournament_seed,
)
from fairdeal.core.writer import sign_record

CREATED = "2026-01-01T00:00:00Z"


def derived(seed: bytes, *parts: Any) -> bytes:
    """A value this pure driver derives where the service draws fresh random bytes (game server seeds, nonces)."""
    return hashlib.sha256(b"tournament-play\x00" + seed + "/".join(map(str, parts)).encode()).digest()


def play_tournament(
    private_key: Any,
    server_seed: bytes,
    *,
    tournament_id: str = "T-example",
    rule_set: str = "spades",
    settings: Mapping[str, Any] | None = None,
    players: int = 4,
    fmt: str = "swiss",
    rounds: int = 2,
    entries: Sequence[Mapping[str, Any]] = (),
    board_seed_of: Callable[[int, int, bytes], bytes] | None = None,
) -> dict[str, Any]:
    """Play the tournament and return its export. entries: {"name", "members": [...], "bot": bool,
    "client_seed": text or None}. board_seed_of(round, table, seed): the seed a table is really dealt from (a test's
    dishonest server; the honest one deals every table from the round's seed)."""
    rules = make_rules(rule_set, settings or {}, players)
    rules_json = rules.to_json()
    per_table, size = shape(rules)
    if any(len(e["members"]) != size for e in entries):
        raise ValueError(f"An entry of {rule_set} for {players} has {size} member(s).")
    sign = partial(sign_record, private_key)
    commit = header(
        "tournament",
        tournament_id,
        format=fmt,
        rules=rules_json,
        rounds=rounds,
        commitment=tournament_commitment(server_seed, tournament_id, fmt, rules_json, rounds),
        key=public_key_text(private_key),
        created=CREATED,
    )
    listed, reveals = [], []
    for i, e in enumerate(entries):
        seed = e.get("client_seed")
        nonce = derived(server_seed, "nonce", i).hex() if seed is not None else None
        listed.append(
            {
                "entry": i,
                "name": e["name"],
                "members": list(e["members"]),
                "bot": bool(e["bot"]),
                "client_seed_commitment": entry_commitment(tournament_id, seed, nonce) if seed and nonce else None,
            }
        )
        reveals.append({"entry": i, "client_seed": seed, "nonce": nonce})
    registration = header("registration", tournament_id, entries=listed, closed=CREATED)
    start = header("tournament-start", tournament_id, seeds=reveals, started=CREATED)
    export: dict[str, Any] = {
        "protocol": commit["protocol"],
        "tournament": commit,
        "tournament_signature": sign(commit),
        "registration": registration,
        "registration_signature": sign(registration),
        "start": start,
        "start_signature": sign(start),
    }
    return play_rounds(private_key, server_seed, export, board_seed_of=board_seed_of)


def play_rounds(
    private_key: Any,
    server_seed: bytes,
    export: dict[str, Any],
    *,
    game_server_seed: Callable[[int, int, bytes], bytes] | None = None,
    board_seed_of: Callable[[int, int, bytes], bytes] | None = None,
    ended: str = CREATED,
) -> dict[str, Any]:
    """Play every round of an export whose tournament, registration and start records are signed (play_round
    round after round), then sign the end (finish)."""
    export["rounds"] = []
    played: list[dict[str, Any]] = []
    for _ in range(export["tournament"]["rounds"]):
        play_round(
            private_key, server_seed, export, played, game_server_seed=game_server_seed, board_seed_of=board_seed_of
        )
    return finish(private_key, server_seed, export, played, ended)


def play_round(
    private_key: Any,
    server_seed: bytes,
    export: dict[str, Any],
    played: list[dict[str, Any]],
    *,
    game_server_seed: Callable[[int, int, bytes], bytes] | None = None,
    board_seed_of: Callable[[int, int, bytes], bytes] | None = None,
) -> None:
    """Play the export's next round, every seat by the policies (a bot entry's by the bot policy, a person's by
    selfplay's stand-in for a person), and sign its round and result records. `played`: the rounds so far as
    scoring.standings takes them (JSON-safe: a caller may keep it between rounds); the new round is appended.
    Each table's game server seed is seeds.table_server_seed's; game_server_seed(round, table, seed) and
    board_seed_of(round, table, seed): what a test's dishonest organiser uses instead."""
    opened = open_round(private_key, server_seed, export, played)
    commit = export["tournament"]
    rules = rules_of(commit)
    r, bseed = opened["round"]["round"], bytes.fromhex(opened["board_seed"])
    games, dealt_from = [], []
    for table in opened["tables"]:
        t, seats = table["table"], table["seats"]
        gseed = bytes.fromhex(table["server_seed"])
        gseed = gseed if game_server_seed is None else game_server_seed(r, t, gseed)
        real = bseed if board_seed_of is None else board_seed_of(r, t, bseed)
        dealt_from.append(real)
        # no seat gives a table its own client seed: the entries' seeds are in the tournament seed, which the
        # table's server seed (and so its game seed) is derived from
        games.append(
            selfplay(
                rules.id,
                private_key,
                gseed,
                settings=commit["rules"]["settings"],
                players=rules.players,
                client_seeds=[None] * rules.players,
                bots=[s["seat"] for s in seats if s["bot"]],
                game_id=table["game_id"],
                names=[s["name"] for s in seats],
                variety_every=7,
                board=table["board"],
                board_seed=real,
            )
        )
    close_round(private_key, server_seed, export, played, opened, games, dealt_from)


def open_round(
    private_key: Any, server_seed: bytes, export: dict[str, Any], played: list[dict[str, Any]]
) -> dict[str, Any]:
    """Pair the export's next round and sign its round record (docs/tournaments.md, "Pairings"): what a round is
    played from, JSON as it is (the service keeps it while the round's live tables are played). Its members:
    "round", "round_signature", "board_seed" (hex, secret until the round ends), and "tables", each with
    "table", "game_id", "entries" (by side), "seats" (records.table_seats), "server_seed" (hex, the game's
    derived seed, secret until the game ends) and "board" (the commit's board member)."""
    commit, listed, reveals = export["tournament"], export["registration"]["entries"], export["start"]["seeds"]
    tournament_id, fmt = commit["tournament_id"], commit["format"]
    rules = rules_of(commit)
    per_table, _ = shape(rules)
    tseed = tournament_seed(server_seed, tournament_id, [r["client_seed"] for r in reveals])
    order = seeded_order(tseed, len(listed))
    r = len(export["rounds"]) + 1
    ranking = order if not played else [s["entry"] for s in scoring.standings(len(listed), order, played)]
    tables, byes = pairing.pair_round(tseed, fmt, len(listed), per_table, r, ranking, met_of(played), byes_of(played))
    bseed = board_seed(tseed, r)
    bcommit = board_commitment(bseed, tournament_id, r)
    table_list: list[dict[str, Any]] = [
        {"table": t, "game_id": game_id(tournament_id, r, t), "entries": by_side} for t, by_side in enumerate(tables)
    ]
    round_record = header("round", tournament_id, round=r, board_commitment=bcommit, tables=table_list, byes=byes)
    return {
        "round": round_record,
        "round_signature": sign_record(private_key, round_record),
        "board_seed": bseed.hex(),
        "tables": [
            {
                **table,
                "seats": table_seats(rules, listed, table["entries"]),
                "server_seed": table_server_seed(tseed, r, table["table"]).hex(),
                "board": board_member(tournament_id, r, table["table"], bcommit),
            }
            for table in table_list
        ],
    }


def close_round(
    private_key: Any,
    server_seed: bytes,
    export: dict[str, Any],
    played: list[dict[str, Any]],
    opened: Mapping[str, Any],
    games: Sequence[dict[str, Any]],
    dealt_from: Sequence[bytes] | None = None,
) -> None:
    """Every table of the opened round has ended (`games`: their transcripts, in table order): score it, sign its
    result (revealing the board seed) and append the round to the export and to `played`. dealt_from: the seed
    each table was really dealt from (a test's dishonest server; else the round's board seed)."""
    listed, tournament_id = export["registration"]["entries"], export["tournament"]["tournament_id"]
    record = opened["round"]
    bseed = bytes.fromhex(opened["board_seed"])
    tables, byes = [t["entries"] for t in record["tables"]], record["byes"]
    seeds = list(dealt_from) if dealt_from is not None else [bseed] * len(games)
    played.append(
        round_results(tables, byes, [scoring.deal_scores(g, s) for g, s in zip(games, seeds, strict=True)], len(listed))
    )
    tseed = tournament_seed(server_seed, tournament_id, [r["client_seed"] for r in export["start"]["seeds"]])
    standing = scoring.standings(len(listed), seeded_order(tseed, len(listed)), played)
    result = header(
        "round-result",
        tournament_id,
        round=record["round"],
        board_seed=bseed.hex(),
        games=[
            {"table": t, "game_id": g["commit"]["game_id"], "transcript_hash": transcript_hash(g)}
            for t, g in enumerate(games)
        ],
        standings=standing,
    )
    export["rounds"].append(
        {
            "round": record,
            "round_signature": opened["round_signature"],
            "result": result,
            "result_signature": sign_record(private_key, result),
            "games": list(games),
        }
    )


def finish(
    private_key: Any, server_seed: bytes, export: dict[str, Any], played: list[dict[str, Any]], ended: str = CREATED
) -> dict[str, Any]:
    """Sign the end record: the server seed revealed and the final standings."""
    listed, tid = export["registration"]["entries"], export["tournament"]["tournament_id"]
    tseed = tournament_seed(server_seed, tid, [r["client_seed"] for r in export["start"]["seeds"]])
    standing = scoring.standings(len(listed), seeded_order(tseed, len(listed)), played) if played else []
    end = header("tournament-end", tid, server_seed=server_seed.hex(), standings=standing, ended=ended)
    export["end"], export["end_signature"] = end, sign_record(private_key, end)
    return export


def round_results(
    tables: Sequence[Sequence[int]], byes: Sequence[int], scores: Sequence[list[list[int]]], entries: int
) -> dict[str, Any]:
    """A round as scoring.standings takes it: each entry's [matchpoints, most] from its side at its table (None
    for an entry with a bye), a list by entry number, so the round is JSON as it is."""
    mp = scoring.matchpoints(list(scores))
    results: list[list[int] | None] = [None] * entries
    for t, table in enumerate(tables):
        for side, e in enumerate(table):
            results[e] = list(mp[t][side])
    return {"tables": [list(t) for t in tables], "byes": list(byes), "results": results}


def met_of(played: Sequence[Mapping[str, Any]]) -> set[frozenset[Any]]:
    return {frozenset((a, b)) for rnd in played for table in rnd["tables"] for a in table for b in table if a != b}


def byes_of(played: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for rnd in played:
        for e in rnd["byes"]:
            out[e] = out.get(e, 0) + 1
    return out
