"""The `served` fixture: a real `fairdeal serve` (gunicorn, two workers) on a loopback port, on each store.

One server per test module and store: a start (gunicorn's master, two workers and the sweeper each importing the
service) and a stop cost seconds of CPU and of waiting, more than most of the tests using it. The tests sharing
it make their own players and tables and assert only on those, never on what the whole service holds."""

import pytest

from tests.service.http import serving


# named apart from its fixture name, so a test module importing it takes `served` as a parameter without
# redefining the imported name (ruff F811)
@pytest.fixture(name="served", params=["redis", "sqlite"], scope="module")
def served_fixture(request, tmp_path_factory):
    # the embedded store is shared by the two workers; the address and the worker count come from the
    # environment, as in a container (FAIRDEAL_BIND, FAIRDEAL_WORKERS)
    url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    with serving(tmp_path_factory.mktemp(f"served-{request.param}"), url, workers=2) as base:
        yield base
