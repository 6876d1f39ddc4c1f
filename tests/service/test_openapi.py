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
    routes = {re.sub(r"<(?:path:)?(\w+)>", r"{\1}", r.rule) for r in app.url_map.iter_rules()
              if r.endpoint != "static" and not r.endpoint.startswith("web.")}
    assert routes == documented


def test_every_problem_code_is_documented():
    enum = re.search(r"enum: \[(bad-request.*?)\]", doc_text(), re.S).group(1)
    documented = {c.strip() for c in enum.replace("\n", " ").split(",")}
    used = set()
    for path in (ROOT / "fairdeal" / "service").rglob("*.py"):
        used |= set(re.findall(r'(?:ApiError|WaitRefused)\(\s*\d+,\s*"([a-z-]+)"', path.read_text()))
        used |= set(re.findall(r'problem\(\s*\d+,\s*"([a-z-]+)"', path.read_text()))
    from fairdeal.verifier.games.base import BadSettings, GameOver, IllegalMove, MalformedMove, NotYourTurn
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
    from fairdeal.verifier.games import available
    assert spec()["components"]["schemas"]["RuleSet"]["enum"] == list(available())


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
