"""The terminal client comes back after a dropped connection with a jittered, growing wait, so that the clients of
a restarted service do not all return at once; the event feed is asked again rather than the game given up."""

import random

import pytest

from fairdeal.client import http
from fairdeal.client.http import Client, Problem, Unreachable, backoff


def test_backoff_is_a_draw_up_to_a_growing_bound_and_never_below_retry_after():
    rng = random.Random(5)
    draws = [[backoff(a, rng=rng) for _ in range(200)] for a in range(8)]
    for attempt, ds in enumerate(draws):
        bound = min(http.BACKOFF_CAP, http.RETRY_WAIT * 2**attempt)
        assert all(0 <= d <= bound for d in ds)
        assert max(ds) > 0.8 * bound and min(ds) < 0.2 * bound  # spread over the whole range: jittered
    assert len({round(d, 6) for d in draws[3]}) > 190
    assert backoff(0, retry_after=7, rng=rng) == 7


def _flaky(failures):
    calls = []

    def get(path, timeout=30):
        calls.append(path)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        return {"seq": 3}

    return get, calls


def test_the_feed_is_asked_again_after_errors_with_jittered_waits():
    slept = []
    c = Client("http://x", sleep=slept.append)
    c.get, calls = _flaky(
        [
            Unreachable("reset"),
            Problem(503, {"code": "server-busy"}, retry_after=5),
            Problem(429, {"code": "too-many-waits"}),
        ]
    )
    assert c.wait_get("/games/g/events?after=2&wait=20") == {"seq": 3}
    assert len(calls) == 4 and len(slept) == 3
    assert 0 <= slept[0] <= http.RETRY_WAIT and slept[1] >= 5 and 0 <= slept[2] <= 4 * http.RETRY_WAIT


def test_a_refusal_that_will_not_change_is_not_retried():
    c = Client("http://x", sleep=lambda s: pytest.fail("no retry for a 4xx"))
    c.get, calls = _flaky([Problem(404, {"code": "no-such-game"})])
    with pytest.raises(Problem):
        c.wait_get("/games/g/events")
    assert len(calls) == 1


def test_the_feed_gives_up_after_its_retries():
    slept = []
    c = Client("http://x", sleep=slept.append)
    c.get, calls = _flaky([Unreachable("down")] * (http.FEED_RETRIES + 1))
    with pytest.raises(Unreachable):
        c.wait_get("/games/g/events")
    assert len(calls) == http.FEED_RETRIES + 1 and len(slept) == http.FEED_RETRIES
