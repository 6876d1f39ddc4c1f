"""The log in the ecosystem's formats, on both stores (docs/log.md "Checkpoints", "Tiles", "Witnesses"): the
checkpoint at /log/checkpoint and in the `log` members, the tiles and entry bundles, and witnesses' cosignatures
taken at POST /log/cosignatures and served with the checkpoint."""

from __future__ import annotations

import struct
import time

import pytest

from fairdeal.core import checkpoint, keys, merkle, note, tlog, witness
from fairdeal.service import tiles
from fairdeal.service.errors import ApiError
from tests.service.client import Api
from tests.service.conftest import STORES, make_app
from tests.service.tlog_isolation import redis_url  # noqa: F401 - a database of its own
from tests.verifier.vectors import vectors_of

ORIGIN = "test.example/fairdeal-log"


@pytest.fixture(scope="module")
def witness_keys():
    """Two witnesses: the service is configured with the first only."""
    return [witness.new_key(f"witness.example/w{i}") for i in (1, 2)]


@pytest.fixture(params=STORES)
def wapi(request, tmp_path, witness_keys):
    app = make_app(tmp_path, request.param, request, log_origin=ORIGIN, log_witnesses=(witness_keys[0][1],))
    return Api(app.test_client())


def _cancelled(api: Api) -> dict:
    host = api.player()
    t = api.table(host, rule_set="spades")
    api.post(f"/tables/{t['id']}/cancel", host)
    return api.get(f"/games/{t['id']}/transcript").get_json()


def _checkpoint(api: Api) -> tuple[str, checkpoint.Checkpoint]:
    resp = api.get("/log/checkpoint")
    assert resp.status_code == 200 and resp.mimetype == "text/plain"
    text = resp.get_data(as_text=True)
    key = api.get("/keys").get_json()["current"]
    return text, checkpoint.open_checkpoint(text, [key])


def _cosign(skey: str, text: str, stamp: int | None = None) -> str:
    name, _, priv = note.parse_skey(skey)
    return note.cosign(text, name, priv, stamp or int(time.time())).line()


def _post(api: Api, body: str | bytes, ctype: str = "text/plain; charset=utf-8"):
    data = body.encode() if isinstance(body, str) else body
    return api.c.post("/log/cosignatures", data=data, headers={"Content-Type": ctype})


# ------------------------------------------------------------------------------------------------ checkpoints


def test_the_checkpoint_is_the_latest_head_signed_as_a_note(wapi):
    transcript = _cancelled(wapi)
    text, cp = _checkpoint(wapi)
    head = wapi.get("/log/head").get_json()
    assert (cp.origin, cp.size, cp.root.hex(), cp.key) == (ORIGIN, head["size"], head["root"], head["key"])
    assert wapi.get("/log/checkpoint").headers["Cache-Control"] == "max-age=5"
    # the transcript carries the checkpoint of its head beside the JSON head; its verifier checks both
    log = transcript["log"]
    mine = checkpoint.open_checkpoint(log["checkpoint"], [log["head"]["key"]])
    assert (mine.size, mine.root.hex()) == (log["head"]["size"], log["head"]["root"])
    assert tlog.check_log_tree(transcript)["size"] == log["head"]["size"]


# ------------------------------------------------------------------------------------------------ tiles


def test_tiles_and_entry_bundles_hold_the_leaves(wapi):
    for _ in range(3):
        _cancelled(wapi)
    _, cp = _checkpoint(wapi)
    n = cp.size
    assert 6 <= n < 256
    leaves = wapi.get(f"/log/leaves?start=0&limit={n}").get_json()["leaves"]
    tile = wapi.get(f"/log/tile/0/000.p/{n}")
    assert tile.status_code == 200 and tile.mimetype == "application/octet-stream"
    assert "immutable" in tile.headers["Cache-Control"]
    assert tile.get_data() == b"".join(tlog.leaf_hash_of(leaf) for leaf in leaves)
    assert merkle.Tree([tile.get_data()[i : i + 32] for i in range(0, 32 * n, 32)]).root() == cp.root
    bundle = wapi.get(f"/log/tile/entries/000.p/{n}").get_data()
    entries = []
    while bundle:
        (length,) = struct.unpack(">H", bundle[:2])
        entries.append(bundle[2 : 2 + length])
        bundle = bundle[2 + length :]
    assert entries == [tlog.leaf_bytes(leaf) for leaf in leaves]
    assert wapi.get(f"/log/tile/0/000.p/{n - 1}").get_data() == tile.get_data()[:-32]  # a smaller partial tile
    for beyond in (
        f"/log/tile/0/000.p/{n + 1}",
        "/log/tile/0/" + tiles.index_path(0),
        "/log/tile/1/000.p/1",
        f"/log/tile/entries/000.p/{n + 1}",
        "/log/tile/entries/001.p/1",
    ):
        resp = wapi.get(beyond)
        assert resp.status_code == 404 and resp.get_json()["code"] == "tile-not-found", beyond
    (v,) = vectors_of("log.md", "tiles")
    for bad in v["bad_paths"]:
        resp = wapi.get(f"/log/tile/{bad}")
        assert resp.status_code == 400 and resp.get_json()["code"] == "bad-tile-path", bad


class _Log:
    """What the tiles read of a log: its latest head's size, complete subtrees' hashes and leaves."""

    def __init__(self, leaves: list[bytes]):
        self.leaves, self.tree = leaves, merkle.Tree(merkle.leaf_hash(x) for x in leaves)

    def latest_head(self):
        return {"size": len(self.leaves)}

    def tile_hashes(self, subtrees):  # TransLog's: complete subtrees (height, index), in one read
        return [self.tree.hash(index << height, (index + 1) << height) for height, index in subtrees]

    def leaf_texts(self, start, stop):
        return [x.decode() for x in self.leaves[start:stop]]


def test_the_tiles_vector_and_paths():
    (v,) = vectors_of("log.md", "tiles")
    (head,) = vectors_of("log.md", "tree-head")
    log = _Log([tlog.leaf_bytes(leaf) for leaf in head["leaves"]])
    assert tiles.tile_hashes(log, 0, 0, 2).hex() == v["tiles"]["tile/0/000.p/2"]
    assert tiles.entry_bundle(log, 0, 2).hex() == v["tiles"]["tile/entries/000.p/2"]
    for n, path in v["paths"].items():
        assert tiles.index_path(int(n)) == path
        assert tiles.parse_tile_path(f"3/{path}.p/7") == (3, int(n), 7)
        assert tiles.parse_tile_path(f"entries/{path}") == (None, int(n), 256)
    for bad in v["bad_paths"]:
        with pytest.raises(ApiError):
            tiles.parse_tile_path(bad)


def test_higher_level_tiles_hash_complete_tiles_below():
    log = _Log([b"%d" % i for i in range(600)])
    level1 = tiles.tile_hashes(log, 1, 0, 2)
    assert level1 == log.tree.hash(0, 256) + log.tree.hash(256, 512)
    assert tiles.tile_hashes(log, 0, 1, 256) == b"".join(log.tree.leaves[256:512])
    # level 1's hash 0 is the root of level 0's full tile 0, as the spec's hashes of hashes say
    assert (
        merkle.Tree([tiles.tile_hashes(log, 0, 0, 256)[i : i + 32] for i in range(0, 8192, 32)]).root() == level1[:32]
    )
    with pytest.raises(ApiError):
        tiles.tile_hashes(log, 1, 0, 3)  # 768 leaves: beyond the log


# ------------------------------------------------------------------------------------------------ witnesses


def test_a_configured_witnesss_cosignature_is_kept_and_served(wapi, witness_keys):
    (skey, vkey), (other_skey, other_vkey) = witness_keys
    transcript = _cancelled(wapi)
    text, cp = _checkpoint(wapi)
    body = text + _cosign(skey, cp.text) + _cosign(other_skey, cp.text)  # a stranger's line is ignored
    resp = _post(wapi, body)
    assert resp.status_code == 200, resp.get_json()
    got = resp.get_json()
    assert got["size"] == cp.size and [(c["witness"], c["kept"]) for c in got["cosignatures"]] == [(vkey, True)]
    served, _ = _checkpoint(wapi)
    w1 = note.parse_vkey(vkey)
    seen = checkpoint.open_checkpoint(served, [cp.key], [w1, note.parse_vkey(other_vkey)])
    assert [v.vkey for v, _ in seen.cosigners] == [vkey]
    # the transcript served now carries the cosigned checkpoint, and a verifier asking for w1 is satisfied
    again = wapi.get(f"/games/{transcript['commit']['game_id']}/transcript").get_json()
    tree = tlog.check_log_tree(again, witnesses=[w1])
    assert [v.vkey for v, _ in tree["cosigners"]] == [vkey]
    # the log member of the witness's line only, without the log's signature, is taken as well
    text_only = cp.text + "\n" + _cosign(skey, cp.text, int(time.time()) + 1)
    assert _post(wapi, text_only).status_code == 200


def test_a_bad_cosigned_checkpoint_is_refused_and_changes_nothing(wapi, witness_keys):
    (skey, vkey), (other_skey, _) = witness_keys
    _cancelled(wapi)
    text, cp = _checkpoint(wapi)
    assert _post(wapi, text + _cosign(skey, cp.text)).status_code == 200
    before = _checkpoint(wapi)[0]
    name, _, wpriv = note.parse_skey(skey)
    stranger = keys.generate_private_key()
    bigger = checkpoint.text_of(ORIGIN, cp.size + 1, cp.root)
    wrong_root = checkpoint.text_of(ORIGIN, cp.size, merkle.EMPTY_ROOT)
    other_origin = checkpoint.text_of("other.example/log", cp.size, cp.root)
    forged = note.Signature(
        name,
        note.key_id(name, note.COSIGNATURE_V1, note.raw_public(wpriv)),
        struct.pack(">Q", int(time.time())) + bytes(64),
    )
    cases = [
        ("not a note", 400, "bad-checkpoint"),
        (other_origin + "\n" + _cosign(skey, other_origin), 404, "unknown-origin"),
        (bigger + "\n" + _cosign(skey, bigger), 422, "checkpoint-not-signed"),
        (wrong_root + "\n" + _cosign(skey, wrong_root), 409, "checkpoint-not-this-log"),
        (text + _cosign(other_skey, cp.text), 403, "no-known-cosignature"),
        (text, 403, "no-known-cosignature"),
        (text + forged.line(), 403, "bad-cosignature"),
        (cp.text + "\n" + note.cosign(cp.text, name, stranger, int(time.time())).line(), 403, "no-known-cosignature"),
        (text + _cosign(skey, cp.text, int(time.time()) + 3600), 422, "cosignature-in-future"),
    ]
    for body, status, code in cases:
        resp = _post(wapi, body)
        assert (resp.status_code, resp.get_json()["code"]) == (status, code), body
    resp = _post(wapi, text + _cosign(skey, cp.text), ctype="application/json")
    assert resp.status_code == 415
    assert _post(wapi, text + _cosign(skey, cp.text), ctype="text/plain; charset=latin-1").status_code == 415
    resp = _post(wapi, text + _cosign(skey, cp.text) + "\u2014 x/y " + "A" * 70_000 + "\n")
    assert resp.status_code == 413 and resp.get_json()["code"] == "body-too-large"
    assert _checkpoint(wapi)[0] == before


def test_an_older_cosignature_does_not_replace_a_newer_one(wapi, witness_keys):
    (skey, vkey), _ = witness_keys
    _cancelled(wapi)
    old_text, old = _checkpoint(wapi)
    _cancelled(wapi)
    wapi.get(f"/log/leaves/{old.size}/proof")  # signs a head covering the new leaves
    new_text, new = _checkpoint(wapi)
    assert new.size > old.size
    assert _post(wapi, new_text + _cosign(skey, new.text)).get_json()["cosignatures"][0]["kept"] is True
    late = _post(wapi, old_text + _cosign(skey, old.text))
    assert late.status_code == 200 and late.get_json()["cosignatures"][0]["kept"] is False
    served, _ = _checkpoint(wapi)
    assert checkpoint.open_checkpoint(served, [new.key], [note.parse_vkey(vkey)]).cosigners
