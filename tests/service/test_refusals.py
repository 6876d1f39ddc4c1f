"""Bad input found under hostile use (issue 21, §4) is refused with problem JSON and changes nothing: settings
that are not an object, a revoke (or a new token) with a malformed or unknown body."""

from __future__ import annotations

import pytest

from tests.service.client import Api
from tests.service.problems import problem


@pytest.mark.parametrize("settings", [[], "", 0, False, ["bid_to"]])
def test_settings_that_are_not_an_object_are_refused(api: Api, app, settings):
    p = api.player()
    store = app.extensions["fairdeal"].store
    before = store.index_count("lobby")
    body = problem(api.post("/tables", p, json={"rule_set": "spades", "settings": settings}), 422, "bad-settings")
    assert "object" in body["detail"]
    problem(
        api.c.put("/players/me/preferences/spades", json={"settings": settings}, headers=p["h"]), 422, "bad-settings"
    )
    assert store.index_count("lobby") == before
    assert api.get("/players/me", p).get_json()["preferences"] == {}


@pytest.mark.parametrize("path", ["/players/me/tokens/revoke", "/players/me/tokens"])
@pytest.mark.parametrize(
    "data,status,code",
    [
        (b'{"all": tru', 400, "malformed-json"),
        (b"[]", 400, "bad-request"),
        (b'{"keep": "this one"}', 422, "unknown-field"),
    ],
)
def test_a_token_request_with_a_bad_body_changes_nothing(api: Api, path, data, status, code):
    p = api.player()
    r = api.c.post(path, data=data, headers={**p["h"], "Content-Type": "application/json"})
    problem(r, status, code)
    assert api.get("/players/me", p).status_code == 200  # the token in hand still works: nothing was revoked
    if path.endswith("revoke"):
        assert api.post(path, p).status_code == 200  # an empty body is the request
        assert api.get("/players/me", p).status_code == 401
