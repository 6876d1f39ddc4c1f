"""Browser tests: a real headless Chromium (Debian's /usr/bin/chromium, driven by playwright) against the service
running in this process on a loopback port (the embedded store in a temporary folder).

One browser per test process (an xdist worker): starting Chromium and playwright's driver costs more CPU than a
short browser test, and each test gets fresh contexts anyway (own storage, so own player). A missing browser fails
the run in CI (CI=true) and skips these tests elsewhere. Screenshots of every page go to
tests/web/screenshots/ (gitignored) for review.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.waiting import scaled
from tests.web.client import HttpApi

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("FAIRDEAL_CHROMIUM", "/usr/bin/chromium")
# What Chromium needs to run headless as root in a container, and to stay off the network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _browser_missing() -> str | None:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium chromium-driver; scripts/test does it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; scripts/test does it)"
    return None


@pytest.fixture(scope="session")
def browser():
    missing = _browser_missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class Server:
    """The service on a loopback port, in its own process (tests/web/serve.py), on the embedded store."""

    def __init__(self, data_dir: str, **config: float | str):
        self.data_dir = data_dir
        root = Path(__file__).resolve().parents[2]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.web.serve", data_dir, *(f"{k}={v}" for k, v in config.items())],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.proc.kill()
            raise RuntimeError("the test service did not start")

    def api(self) -> HttpApi:
        return HttpApi(self.url)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@contextmanager
def own_server(prefix: str = "fairdeal-web-", **config: float | str):
    """A test service with its own store (and Config overrides, or serve.py's server_seed), removed after."""
    # the store in memory-backed storage where there is some: its fsyncs are a browser test's slowest part
    data = Path(tempfile.mkdtemp(prefix=prefix, dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    s = Server(str(data), **config)
    try:
        yield s
    finally:
        s.stop()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def server():
    with own_server() as s:
        yield s


class Pages:
    """New browser contexts (each its own player) that record page errors, and the screenshots."""

    def __init__(self, browser, server):
        self.browser, self.server = browser, server
        self.contexts = []
        self.errors: list[str] = []

    def new(self, viewport=DESKTOP, **kw):
        # reduced motion: no card lifts to wait for (playwright waits until what it clicks stands still)
        ctx = self.browser.new_context(viewport=viewport, reduced_motion="reduce", **kw)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        page.on(
            "console",
            lambda m: (
                m.type == "error"
                and "Failed to load resource" not in m.text
                and self.errors.append(f"{page.url}: console: {m.text}")
            ),
        )
        page.set_default_timeout(scaled(20) * 1000)  # stretched on a loaded machine, as every wait here is
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser, server):
    p = Pages(browser, server)
    yield p
    p.close()
    assert not p.errors, "errors in the pages:\n" + "\n".join(p.errors)


def fits(page) -> bool:
    """No sideways scroll. A mobile viewport widens itself to fit what is too wide (innerWidth 404 on a 390 px
    phone): measure both against the phone's own width, not only against each other."""
    width = page.viewport_size["width"]
    return page.evaluate(
        "(w) => document.documentElement.scrollWidth <= window.innerWidth && window.innerWidth <= w", width
    )


@pytest.fixture(scope="module")
def verify_page(browser, server):
    """One verify page whose verifier (fairdeal-verify's Python, in Pyodide) has loaded, shared by a module's
    tests: loading it is the page's costly part (seconds; a minute on a loaded machine), once per page."""
    p = Pages(browser, server)
    page = p.new()
    page.set_default_timeout(scaled(20) * 1000)
    page.goto(server.url + "/verify")
    page.wait_for_selector("html[data-verifier]", timeout=scaled(90) * 1000)
    assert page.get_attribute("html", "data-verifier") == "python", "the verifier's Python did not load"
    yield page
    p.close()
    assert not p.errors, "errors in the page:\n" + "\n".join(p.errors)


def shot(page, name: str) -> Path:
    """A full-page screenshot for review: tests/web/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
