"""Store faults under running workers (the `faults` suite): real gunicorn workers on a throwaway redis-server,
players and bots playing, while the store is rolled back under them, as a failover to a lagging replica or a
restored backup does: the last records of a game's log vanish, or every key goes back to an earlier snapshot.

Every game must either continue on the store's chain or end with a transcript that verifies; what the workers
serve is the store's chain, whichever worker answers."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
import redis

from fairdeal.core.integrity import check_transcript, game_seed_of
from fairdeal.core.reader import parse_transcript
from fairdeal.core.replay import replay_records
from fairdeal.service.store import keys
from tests.service import redis_servers
from tests.service.checks import run_verifier
from tests.service.client import Api
from tests.service.http import Http, serving
from tests.waiting import scaled

pytestmark = [pytest.mark.faults, pytest.mark.redis]

GAMES = (("spades", 4), ("twenty-down", 4), ("120s-house", 2), ("spades", 4), ("twenty-down", 4), ("120s-house", 2))
FAULT_SECONDS = 8.0
PACE = 0.01  # a player's pause between requests: the games run while the faults happen

# drop up to ARGV[1] move records from the end of a log, never its end record nor a header: what a replica that
# lagged lacks (a table document that says "over" is written after the end record, so it never outlives it)
DROP_MOVES = """
local n = 0
for i = 1, tonumber(ARGV[1]) do
  local last = redis.call('LINDEX', KEYS[1], -1)
  if not last or not string.find(last, '"type":"move"', 1, true) then break end
  redis.call('RPOP', KEYS[1])
  n = n + 1
end
return n
"""

# every key and its DUMP, read at one moment
SNAPSHOT = """
local out = {}
for _, k in ipairs(redis.call('KEYS', '*')) do
  out[#out + 1] = k
  out[#out + 1] = redis.call('DUMP', k)
end
return out
"""

# the whole keyspace back to a snapshot, at one moment
RESTORE = """
for _, k in ipairs(redis.call('KEYS', '*')) do redis.call('DEL', k) end
for i = 1, #KEYS do redis.call('RESTORE', KEYS[i], 0, ARGV[i]) end
return #KEYS
"""


@pytest.fixture
def redis_port(tmp_path):
    (tmp_path / "redis").mkdir()
    proc, port = redis_servers.start_server(str(tmp_path / "redis"))
    yield port
    redis_servers.stop([proc])


class Player(threading.Thread):
    """Plays one human seat of one game to its end, whatever the store does meanwhile: a refused move (the
    game moved on, or back) only means looking again."""

    def __init__(self, api: Api, p: dict, gid: str, faults_over: threading.Event):
        super().__init__(daemon=True)
        self.api, self.p, self.gid, self.faults_over = api, p, gid, faults_over
        self.refused: dict[int, int] = {}
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            deadline = time.monotonic() + scaled(60)
            while time.monotonic() < deadline:
                # asked before the view is read: a game seen over after the last fault stays over (one seen over
                # just before it may be rolled back to before its end, and then goes on)
                settled = self.faults_over.is_set()
                v = self.last = self.api.view(self.p, self.gid)
                if v["status"] == "over":
                    if settled:
                        return
                elif v["your_turn"]:
                    move = v["suggested"] if v["suggested"] in v["legal_moves"] else v["legal_moves"][0]
                    r = self.api.move(self.p, self.gid, v["seq"], move)
                    if r.status_code != 201:
                        assert r.status_code == 409, r.get_json()
                        self.refused[r.status_code] = self.refused.get(r.status_code, 0) + 1
                time.sleep(PACE)
            raise AssertionError(
                f"game {self.gid} did not end: {self.refused} refused; status "
                f"{v['status']}, seq {v['seq']}, your turn {v['your_turn']}"
            )
        except BaseException as e:  # reported by the test
            self.error = e


def stored_transcript(r: redis.Redis, gid: str) -> dict:
    """The game's records as the store holds them (the moves and the end)."""
    entries = [json.loads(t) for t in r.lrange(keys.log(gid), 0, -1)]
    return {
        "records": [e for e in entries if e.get("type") == "move"],
        "end": next(e["end"] for e in entries if "end" in e),
    }


def test_games_survive_the_store_rolling_back_under_running_workers(tmp_path, redis_port):
    url = f"redis://127.0.0.1:{redis_port}/0"
    r = redis.Redis(port=redis_port, decode_responses=True)
    raw = redis.Redis(port=redis_port)  # DUMP payloads are bytes
    drop, snapshot, restore = (raw.register_script(s) for s in (DROP_MOVES, SNAPSHOT, RESTORE))
    rng = random.Random(17)
    with serving(
        tmp_path / "data",
        url,
        workers=2,
        FAIRDEAL_RATE_LIMITS="off",
        FAIRDEAL_CARD_CLOCK="off",
        FAIRDEAL_OTHER_CLOCK="off",
    ) as base:
        api = Api(Http(base))
        faults_over = threading.Event()
        players = []
        for rule_set, n in GAMES:
            p = api.player()
            gid = api.table(p, rule_set=rule_set, players=n, clocks="off")["id"]
            api.start(p, gid)
            players.append(Player(api, p, gid, faults_over))
        gids = [pl.gid for pl in players]
        for pl in players:
            pl.start()

        dropped = restored = 0
        t_end = time.monotonic() + FAULT_SECONDS
        give_up = time.monotonic() + scaled(4 * FAULT_SECONDS)
        snap = None
        # for FAULT_SECONDS and until there were faults enough: a busy machine gets through fewer rounds a second
        while time.monotonic() < t_end or restored < 1 or dropped < 5:
            assert time.monotonic() < give_up, f"too few faults done in time: {restored} restored, {dropped} dropped"
            time.sleep(rng.uniform(0.05, 0.25))
            if snap is None and rng.random() < 0.15:
                flat = snapshot()
                snap = (flat[0::2], flat[1::2])
            elif snap is not None and rng.random() < 0.3:
                restore(keys=snap[0], args=snap[1])  # every key goes back to the snapshot
                restored += 1
                snap = None
            else:
                dropped += drop(keys=[keys.log(rng.choice(gids))], args=[rng.randint(1, 3)])
        faults_over.set()
        for pl in players:
            pl.join(scaled(150))
        assert restored >= 1 and dropped >= 5, (restored, dropped)
        errors = [(pl.gid, pl.error) for pl in players if pl.error or pl.is_alive()]
        assert not errors, errors

        for gid in gids:
            served = [api.get(f"/games/{gid}/transcript").get_json() for _ in range(6)]  # both workers answer
            assert all(s == served[0] for s in served), f"game {gid}: the workers serve different transcripts"
            t = served[0]
            stored = stored_transcript(r, gid)
            assert t["records"] == stored["records"] and t["end"] == stored["end"], (
                f"game {gid}: the transcript served is not the store's"
            )
            parsed = parse_transcript(t)
            assert check_transcript(parsed) == [], gid
            replay_records(parsed["start"], game_seed_of(parsed), parsed["records"])
            run_verifier(t)
