"""schemathesis against the served OpenAPI document (GET /openapi.yaml, in-process WSGI): for every operation,
schema-valid and schema-violating requests, undeclared methods, missing and invalid credentials; every
check schemathesis has (no 5xx, every status and header documented, bodies match their schemas, invalid
data refused, valid data accepted, 405 with Allow, 401 without or with a bad token) must pass.

Two allowances, written here: the schema says what a well-formed request is, not what the rules allow.
A table's settings, size and seat depend on its rule set (and the seat on the size), so for creating a table
and saving preferences a schema-valid request may be refused with 422 by the rules, the sentence saying why.
Likewise a transparency-log proof is asked between tree sizes the log has (first <= second <= its size), which
depends on the log's size now: a schema-valid request for another may be refused with 422. And a cosigned
checkpoint or a tile path is one the log signed or has (a note's signatures, its canonical base64, a tile
number's one spelling, a tile the latest checkpoint covers): a schema can say what the text looks like, not
that, so a schema-valid one may be refused with 400, 403, 404, 409 or 422.

Rate limits are off in this app: schemathesis sends hundreds of requests a second from one address, and the
limits have their own tests (test_limits.py)."""

from __future__ import annotations

import os
import tempfile

import schemathesis
from hypothesis import HealthCheck, settings

from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.store.sqlite import SqliteStore

RULES_DECIDE = {
    "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]}}
}
LOG_DECIDES = {
    "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "400", "403", "404", "409", "422"]}}
}
CONFIG = schemathesis.Config.from_dict(
    {
        "operations": [
            dict(LOG_DECIDES, **{"include-path": "/log/cosignatures", "include-method": "POST"}),
            dict(LOG_DECIDES, **{"include-path": "/log/tile/{tile}", "include-method": "GET"}),
            dict(RULES_DECIDE, **{"include-path": "/tables", "include-method": "POST"}),
            dict(RULES_DECIDE, **{"include-path": "/players/me/preferences/{rule_set}", "include-method": "PUT"}),
            dict(RULES_DECIDE, **{"include-path": "/log/consistency", "include-method": "GET"}),
            dict(RULES_DECIDE, **{"include-path": "/log/leaves/{index}/proof", "include-method": "GET"}),
        ]
    }
)


# The schema is needed when the tests are collected (schemathesis' pytest fixture loader does not run on
# this pytest), so the app is made at import, in a temporary folder removed when the run ends.
_data = tempfile.TemporaryDirectory(prefix="fairdeal-schemathesis-")


def served_schema():
    """The schema as the app serves it (on the embedded store), with a fresh player's token for each case:
    some operations end the token they are called with."""
    app = create_app(
        Config(data_dir=_data.name, rate_limits=False), store=SqliteStore(os.path.join(_data.name, "fairdeal.sqlite3"))
    )
    client = app.test_client()
    schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app, config=CONFIG)

    @schema.auth(refresh_interval=None)
    class NewPlayer:
        def get(self, case, context):
            return client.post("/players", json={"name": "fuzz"}).get_json()["token"]

        def set(self, case, data, context):
            case.headers = case.headers or {}
            case.headers["Authorization"] = f"Bearer {data}"

    return schema


schema = served_schema()


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_conforms_to_its_served_document(case):
    case.call_and_validate()
