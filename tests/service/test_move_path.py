"""The move path's costs and its answers on a copy that is behind (fairdeal/service/moves.py, games.Games.act_fast):
a refused move on this process's current copy of the game reads the store once and writes nothing; on a copy another
process has moved past, the refusal is made on the store's game, not on the old position."""

from __future__ import annotations

import pytest

from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.store.redis import RedisStore
from fairdeal.service.store.sqlite import SqliteStore
from tests.service.client import Api
from tests.service.problems import problem

WRITES = ("append", "append_with_leaf", "put_doc", "put_secret", "index_set", "index_remove", "delete_game")
READS = ("doc_and_records", "records", "get_doc", "log_info", "idem_lookup", "index_score")


def humans_and_bots(api: Api) -> tuple[str, dict]:
    """Spades with two humans (seats 0 and 1) and two bots, clocks off: (game id, players by seat)."""
    a, b = api.player("a"), api.player("b")
    gid = api.table(a, rule_set="spades", clocks="off")["id"]
    assert api.post(f"/tables/{gid}/join", b, json={"seat": 1}).status_code == 200
    api.start(a, gid)
    return gid, {0: a, 1: b}


def to_an_unplayable_card(api: Api, gid: str, players: dict) -> tuple[dict, dict, str]:
    """Play the suggested moves until a human to move holds a card it may not play: (player, view, card)."""
    for _ in range(400):
        views = {s: api.view(p, gid) for s, p in players.items()}
        seat = next(s for s, v in views.items() if v["your_turn"])
        v = views[seat]
        if v["why_not"]:
            return players[seat], v, next(iter(v["why_not"]))
        move = v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]
        assert api.move(players[seat], gid, v["seq"], move).status_code == 201
    pytest.fail("no position with an unplayable card came up")


def test_a_refused_move_on_a_current_copy_reads_the_store_once_and_writes_nothing(api: Api, app, monkeypatch):
    gid, players = humans_and_bots(api)
    mover, v, card = to_an_unplayable_card(api, gid, players)
    store = app.extensions["fairdeal"].store
    calls: list[str] = []
    for name in WRITES + READS:
        real = getattr(store, name)
        monkeypatch.setattr(store, name, lambda *a, _n=name, _r=real, **k: (calls.append(_n), _r(*a, **k))[1])
    body = problem(api.move(mover, gid, v["seq"], {"kind": "play", "card": card}, key="k-1"), 422, "illegal-move")
    assert body["detail"] == v["why_not"][card]
    game = [c for c in calls if c not in ("get_doc",)]  # get_doc: the token's lookup, before any game is read
    # one read of the key (is it a retry?), one read of the log's tail (was the copy current?), nothing else:
    # no table read, no second run of the move, no write
    assert game == ["idem_lookup", "records"], calls
    monkeypatch.undo()
    assert api.view(mover, gid)["seq"] == v["seq"]


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_refused_move_on_a_copy_another_process_moved_past_is_refused_as_stale(request, tmp_path, kind):
    def store():
        if kind == "sqlite":
            return SqliteStore(str(tmp_path / "data" / "fairdeal.sqlite3"))
        return RedisStore(request.getfixturevalue("redis_url"))

    cfg = Config(data_dir=str(tmp_path / "data"), rate_limits=False)
    a, b = (create_app(cfg, store=store()) for _ in range(2))
    api_a, api_b = Api(a.test_client()), Api(b.test_client())
    gid, players = humans_and_bots(api_a)
    mover, v, card = to_an_unplayable_card(api_a, gid, players)  # A's copy is at v["seq"], current
    legal = v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]
    assert api_b.move(mover, gid, v["seq"], legal).status_code == 201  # B records the move: A's copy is behind
    now = api_b.view(mover, gid)["seq"]
    body = problem(api_a.move(mover, gid, v["seq"], {"kind": "play", "card": card}), 409, "stale-sequence")
    assert body["seq"] == now > v["seq"]  # the store's game answered, not A's old position (illegal-move there)
    for x in (a, b):
        x.extensions["fairdeal"].store.close()
