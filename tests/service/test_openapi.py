"""The OpenAPI document is served, kept in docs/, and names every route and every problem code."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def doc_text() -> str:
    return (ROOT / "fairdeal" / "service" / "openapi.yaml").read_text()


def test_docs_copy_is_the_served_document():
    assert (ROOT / "docs" / "openapi.yaml").read_text() == doc_text()


def test_every_route_is_documented(app):
    """Every route of the JSON API; the browser pages (the web blueprint) are HTML, described in docs/web.md."""
    documented = set(re.findall(r"^  (/[^:\s]*):$", doc_text(), re.M))
    routes = {
        re.sub(r"<(?:path:)?(\w+)>", r"{\1}", r.rule)
        for r in app.url_map.iter_rules()
        if r.endpoint != "static" and not r.endpoint.startswith("web.")
    }
    assert routes == documented


def test_every_problem_code_is_documented():
    enum = re.search(r"enum: \[(bad-request.*?)\]", doc_text(), re.S).group(1)
    documented = {c.strip() for c in enum.replace("\n", " ").split(",")}
    used = set()
    for path in (ROOT / "fairdeal" / "service").rglob("*.py"):
        used |= set(re.findall(r'(?:ApiError|WaitRefused)\(\s*\d+,\s*"([a-z-]+)"', path.read_text()))
        used |= set(re.findall(r'problem\(\s*\d+,\s*"([a-z-]+)"', path.read_text()))
    from fairdeal.core.games.base import BadSettings, GameOver, IllegalMove, MalformedMove, NotYourTurn

    used |= {e.code for e in (BadSettings, GameOver, IllegalMove, MalformedMove, NotYourTurn)}
    assert used <= documented, used - documented


def test_the_document_is_valid_openapi():
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename

    spec, _ = read_from_filename(str(ROOT / "docs" / "openapi.yaml"))
    validate(spec)  # raises with the place of the first error


def validate_against(spec: dict, name: str, instance) -> None:
    from openapi_schema_validator import OAS31Validator

    schema = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
    OAS31Validator(schema).validate(instance)


def test_responses_match_their_documented_schemas(api):
    from openapi_spec_validator.readers import read_from_filename

    spec, _ = read_from_filename(str(ROOT / "docs" / "openapi.yaml"))
    p = api.player()
    table = api.table(p, rule_set="spades")
    validate_against(spec, "Table", table)
    validate_against(spec, "GameView", api.view(p, table["id"]))
    api.start(p, table["id"])
    view = api.view(p, table["id"])
    validate_against(spec, "GameView", view)
    for move in view["legal_moves"]:
        validate_against(spec, "Move", move)
    refused = api.move(p, table["id"], view["seq"] + 3, view["legal_moves"][0]).get_json()
    validate_against(spec, "Problem", refused)


def spec() -> dict:
    import yaml

    return yaml.safe_load(doc_text())


def test_the_rule_set_enum_is_the_rule_sets_offered():
    from fairdeal.core.games import available

    assert spec()["components"]["schemas"]["RuleSet"]["enum"] == list(available())


def test_the_table_sizes_and_seats_the_document_allows_are_the_rule_sets():
    """The document allowed any table size (the server takes only its rule sets' sizes) and any seat."""
    from fairdeal.core.games import RULE_SETS, rules_class

    sizes = sorted({n for rid in RULE_SETS for n in rules_class(rid).table_sizes})
    doc = spec()
    assert doc["components"]["schemas"]["TableChoices"]["properties"]["players"]["enum"] == sizes
    for path in ("/tables", "/tables/{table_id}/join"):
        body = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        seat = body["properties"]["seat"]
        assert (seat["minimum"], seat["maximum"]) == (0, sizes[-1] - 1), path


def test_an_operation_that_reads_a_token_it_does_not_need_documents_it(api):
    """GET /tables/{id} reads an optional token (for `you`): a forged one is 401, and past the bad-token limit
    429, which the document did not say (security: [] and no 429)."""
    p = api.player()
    tid = api.table(p, rule_set="spades")["id"]
    forged = {"Authorization": "Bearer fd_forged"}
    for path, item in spec()["paths"].items():
        op = item.get("get")
        if op is None or path in ("/openapi.yaml", "/metrics") or "{index}" in path or "{rule_set}" in path:
            continue
        r = api.c.get(path.replace("{table_id}", tid).replace("{game_id}", tid), headers=forged)
        if r.status_code == 401:
            assert op.get("security") != [] and {"401", "429"} <= set(op["responses"]), path


def test_the_documents_patterns_are_the_codes():
    """What the document says a name and an id are is what the service checks (schemathesis holds the service
    to the document; these hold the document to the code)."""
    from fairdeal.service.api.common import ID
    from fairdeal.service.api.players import NAME, NAME_MAX

    doc = spec()["components"]
    assert doc["schemas"]["Name"]["pattern"] == NAME.pattern and doc["schemas"]["Name"]["maxLength"] == NAME_MAX
    for name in ("GameId", "TableId"):
        assert doc["parameters"][name]["schema"]["pattern"] == "^" + ID.pattern + "$"


def test_every_operation_documents_the_refusals_it_can_give():
    """Store outages on every operation that reads the store; 401 and 429 wherever a token is read; 415 wherever
    a body may be sent; 404 wherever a path takes an id."""
    storeless = {"/healthz", "/metrics", "/openapi.yaml", "/keys", "/rule-sets"}
    for path, item in spec()["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            codes = set(op["responses"])
            where = f"{method.upper()} {path}"
            if path not in storeless:
                assert "503" in codes, where
            if op.get("security", [{"bearer": []}]) != []:
                assert {"401", "429"} <= codes, where
            if method in ("post", "put", "delete"):
                assert "415" in codes, where
            if "{game_id}" in path or "{table_id}" in path:
                assert "404" in codes, where
