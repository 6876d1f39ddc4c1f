"""The `served` fixture: a real `fairdeal serve` (gunicorn, two workers) on a loopback port, on each store."""

import pytest

from tests.service.http import serving


# named apart from its fixture name, so a test module importing it takes `served` as a parameter without
# redefining the imported name (ruff F811)
@pytest.fixture(name="served", params=["redis", "sqlite"])
def served_fixture(request, tmp_path):
    # the embedded store is shared by the two workers; the address and the worker count come from the
    # environment, as in a container (FAIRDEAL_BIND, FAIRDEAL_WORKERS)
    url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    with serving(tmp_path, url, workers=2) as base:
        yield base
