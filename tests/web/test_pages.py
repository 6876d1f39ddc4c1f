"""The pages as the service serves them (no browser needed): HTML with a strict Content-Security-Policy, the
static files with their types, the verify page self-contained (every script and style inlined, allowed by its
hash), the inliner's refusals, and the files shipped in the package."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path, PurePosixPath

import pytest
import tomllib

from fairdeal.service.web import PAGES, STATIC
from fairdeal.service.web.inline import InlineError, inline_page

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(tmp_path):
    from fairdeal.service.app import create_app
    from fairdeal.service.config import Config

    return create_app(Config(data_dir=str(tmp_path))).test_client()


@pytest.mark.parametrize("path", ["/", "/table/0123456789abcdef", "/verify", "/verify/0123456789abcdef"])
def test_pages_are_html_with_a_strict_content_security_policy(client, path):
    r = client.get(path)
    assert r.status_code == 200 and r.mimetype == "text/html"
    policy = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_every_file_a_page_loads_is_served_with_its_type(client):
    for page in ("/", "/table/0123456789abcdef"):
        html = client.get(page).get_data(as_text=True)
        refs = re.findall(r'(?:src|href)="(/assets/[^"]+)"', html)
        assert refs
        for ref in refs:
            r = client.get(ref)
            assert r.status_code == 200, ref
            assert r.mimetype == ("text/javascript" if ref.endswith(".js") else "text/css"), ref
    # and every module those import (relative to the importing module: the protocol's port is in js/protocol/)
    for js in (STATIC / "js").rglob("*.js"):
        for dep in re.findall(r'from "(\.\.?/[\w./-]+)"', js.read_text()):
            assert (js.parent / dep).resolve().is_file(), f"{js.relative_to(STATIC)} imports {dep}"


def test_the_protocol_port_is_apart_from_the_ui_and_never_imports_it():
    """js/protocol/ is the port of docs/fairness.md, transcript.md and log.md; the pages' code is beside it. The
    port imports only itself, so it can be read (and checked against the vectors) alone."""
    port = STATIC / "js" / "protocol"
    assert {p.stem for p in port.glob("*.js")} >= {"canonical", "fairness", "deals", "merkle", "checks", "keys"}
    for js in port.rglob("*.js"):
        for dep in re.findall(r'from "([^"]+)"', js.read_text()):
            assert port in (js.parent / dep).resolve().parents, f"protocol/{js.name} imports {dep}, outside the port"


def test_a_malformed_table_address_gets_a_page_not_problem_json(client):
    r = client.get("/table/not-an-id")
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert "There is no such table" in r.get_data(as_text=True) and "Content-Security-Policy" in r.headers


def test_the_verify_page_is_one_self_contained_file(client):
    r = client.get("/verify")
    html = r.get_data(as_text=True)
    assert "<script src" not in html and 'src="/assets' not in html and 'rel="stylesheet"' not in html
    scripts = re.findall(r'<script type="module">(.*?)</script>', html, re.S)
    styles = re.findall(r"<style>(.*?)</style>", html, re.S)
    assert len(scripts) == 1 and len(styles) == 1
    assert "verifyTranscript" in scripts[0] and "import " not in re.sub(r"import\(", "", scripts[0]).split("\n", 1)[0]
    policy = r.headers["Content-Security-Policy"]

    def allowed(text):
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert allowed(scripts[0]) in policy and allowed(styles[0]) in policy
    assert not re.search(r"^\s*(import|export)\b", scripts[0], re.M)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_the_inliner_joins_modules_in_dependency_order_each_in_its_own_scope(tmp_path):
    _write(
        tmp_path,
        {
            "static/js/a.js": 'import { b, shared as s2 } from "./lib/b.js";\nconst shared = 1;\nexport function a() { return b() + s2 + shared; }\n',
            "static/js/lib/b.js": "const shared = 40;\nexport const b = () => 1;\nexport { shared };\n",
            "page.html": '<script type="module" src="/assets/js/a.js" data-inline></script>',
        },
    )
    page = inline_page(tmp_path / "page.html", tmp_path / "static")
    script = page.scripts[0]
    assert script.index("js/lib/b.js") < script.index("js/a.js")
    assert "const { b, shared: s2 } = __module_js_lib_b_js;" in script
    assert "return { b, shared };" in script and "return { a };" in script


@pytest.mark.parametrize("body", ["export default 3;\n", 'import * as x from "./b.js";\n', 'import "./b.js";\n'])
def test_the_inliner_refuses_forms_it_cannot_carry(tmp_path, body):
    _write(
        tmp_path,
        {
            "static/js/a.js": body,
            "static/js/b.js": "export const y = 1;\n",
            "page.html": '<script type="module" src="/assets/js/a.js" data-inline></script>',
        },
    )
    with pytest.raises(InlineError, match="a.js"):
        inline_page(tmp_path / "page.html", tmp_path / "static")


def test_the_package_ships_every_page_script_and_style():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = conf["tool"]["setuptools"]["package-data"]["fairdeal.service.web"]
    web = PAGES.parent
    shipped = {p for pattern in patterns for p in web.glob(pattern)}
    present = {p for p in web.rglob("*") if p.is_file() and p.suffix in (".html", ".js", ".css")}
    assert present and present == shipped, sorted(str(PurePosixPath(p.relative_to(web))) for p in present ^ shipped)
