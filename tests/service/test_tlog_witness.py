"""`fairdeal-verify log --witness` against the service, on both stores (docs/log.md "Witnesses"): the witness
cosigns the checkpoint and the service serves it; it cosigns growth again, and refuses, keeping its state, a log
that went back or that is not the one it cosigned."""

from __future__ import annotations

import json
import time

import pytest

from fairdeal.core import checkpoint, note, witness
from fairdeal.core.fetch import InputError
from fairdeal.core.witnessing import act_as_witness
from tests.service.client import Api
from tests.service.conftest import STORES, make_app
from tests.service.tlog_isolation import redis_url  # noqa: F401 - a database of its own

URL = "http://fairdeal.test"
ORIGIN = "witness-test.example/fairdeal-log"


@pytest.fixture(scope="module")
def wkey():
    return witness.new_key("witness.example/cli")


@pytest.fixture(params=STORES)
def served(request, tmp_path, wkey):
    app = make_app(tmp_path, request.param, request, log_origin=ORIGIN, log_witnesses=(wkey[1],))
    client = app.test_client()

    def get(url):
        r = client.get(url.replace(URL, ""))
        assert r.status_code == 200, (url, r.get_data())
        return r.get_data()

    def post(url, text):
        r = client.post(url.replace(URL, ""), data=text.encode(), headers={"Content-Type": "text/plain"})
        return r.status_code, r.get_data(as_text=True)

    return Api(client), get, post


def _grow(api: Api, n: int = 1) -> None:
    for _ in range(n):
        p = api.player()
        t = api.table(p, rule_set="spades")
        api.post(f"/tables/{t['id']}/cancel", p)
        api.get(f"/log/games/{t['id']}")  # sequenced, and a head covering it signed


def test_the_witness_cosigns_growth_and_refuses_a_rollback_or_a_fork(served, wkey, tmp_path):
    api, get, post = served
    keyfile = tmp_path / "w.key"
    keyfile.write_text(wkey[0] + "\n")
    state = tmp_path / "w.key.state.json"
    key = api.get("/keys").get_json()["current"]

    def cosign():
        return act_as_witness(URL, str(keyfile), None, key, int(time.time()), get=get, post=post)

    _grow(api)
    first = cosign()
    assert first.ok and "the service keeps it" in first.text, first.text
    size = json.loads(state.read_text())[ORIGIN]["size"]
    served_cp = checkpoint.open_checkpoint(api.get("/log/checkpoint").get_data(), [key], [note.parse_vkey(wkey[1])])
    assert served_cp.size == size and len(served_cp.cosigners) == 1
    _grow(api, 2)
    second = cosign()
    assert second.ok and f"consistent with size {size}" in second.text, second.text
    grown = json.loads(state.read_text())
    assert grown[ORIGIN]["size"] > size

    # the witness once saw another log at this size (a fork): it refuses, and its state does not move
    forked = dict(grown, **{ORIGIN: dict(grown[ORIGIN], root=note.b64(bytes(32)))})
    state.write_text(json.dumps(forked))
    _grow(api)
    refused = cosign()
    assert not refused.ok and "WITNESS refused" in refused.text and "proof that does not hold" in refused.text
    assert json.loads(state.read_text()) == forked
    # the witness cosigned a larger log than the service now shows (restored from a backup): refused
    ahead = dict(grown, **{ORIGIN: dict(grown[ORIGIN], size=grown[ORIGIN]["size"] + 1000)})
    state.write_text(json.dumps(ahead))
    refused = cosign()
    assert not refused.ok and "above the checkpoint" in refused.text
    assert json.loads(state.read_text()) == ahead
    with pytest.raises(InputError, match="--key"):
        act_as_witness(URL, str(keyfile), None, None, 1_800_000_000, get=get, post=post)
