"""CPU of dealer-blind tables (docs/blind.md) beside an ordinary table's same work, and the targets of issue 26:
a deal under 200 ms on a client, a whole game's extra server CPU under 50 ms, a verifier under 1 s a game.

Measured (CPU time, ROUNDS alternating rounds, median with the spread, load printed: bench/measure.py):
  client deal      one seat's part of a deal: its shuffle, its lock, its release, receiving its 13 cards, and the
                   signatures of the 11 other messages it uses; the point and key caches emptied first (a new
                   deal reuses nothing). The same work is a bot seat's on the server. Baseline: the ordinary
                   table's deal, the seed's shuffle of the pack (SeedChance.deck), which is all the dealing an
                   ordinary table does.
  client opens     checking the 39 other seats' opens of a deal as they are played (one multiplication each).
  server relay     a whole 4-human game's messages as the server takes them: the form of each (hex, sizes,
                   members) and, for each open, the holder and "no card twice"; (+mul) also each open's
                   multiplication; (+sig) also every signature. Baseline: the ordinary game's deals (one seeded
                   shuffle a hand).
  verifier         fairdeal-verify of the whole blind game, beside the ordinary game from the same seeds.

Run: python bench/bench_blind.py   (about a minute)
"""

from __future__ import annotations

import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import measure as ms  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from fairdeal.core.blind import deal as blind_deal  # noqa: E402
from fairdeal.core.blind import group  # noqa: E402
from fairdeal.core.blind.deal import spades_holders  # noqa: E402
from fairdeal.core.blind.local import final_deck, run_deal  # noqa: E402
from fairdeal.core.blind.messages import check_form, verify_signature  # noqa: E402
from fairdeal.core.blind.seat import BlindSeat  # noqa: E402
from fairdeal.core.blind.selfplay import blind_selfplay  # noqa: E402
from fairdeal.core.cards import PACK_52  # noqa: E402
from fairdeal.core.checks import verify_transcript  # noqa: E402
from fairdeal.core.fairness import SeedChance  # noqa: E402
from fairdeal.core.selfplay import selfplay  # noqa: E402

ROUNDS = 5
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
SEED = bytes(range(32))
GAME = "bench-blind"
TARGETS = {"client deal": 0.200, "server extra a game": 0.050, "verifier a game": 1.0}


def cold() -> None:
    """Empty the group's caches: a new deal's points and scalars are new."""
    group._public_keys.clear()
    group._private_keys.clear()


def one_deal_setup():
    seats = [BlindSeat(GAME, s, 4, secret=bytes([s + 7]) * 32) for s in range(4)]
    commits = [s.commit() for s in seats]
    holders = spades_holders(0)
    messages = run_deal(seats, 0, holders)
    return seats, commits, holders, messages


def client_deal(seats, commits, holders, messages, who: int = 1) -> None:
    """Seat `who`'s whole part of deal 0, from the other seats' messages."""
    cold()
    me = BlindSeat(GAME, who, 4, secret=seats[who].secret, identity=seats[who].identity)
    keys = {c["seat"]: c["sign_key"] for c in commits}
    shuffles = [m for m in messages if m["type"] == "shuffle"]
    locks = [m for m in messages if m["type"] == "lock"]
    releases = {m["seat"]: m for m in messages if m["type"] == "release"}
    used = [shuffles[who - 1], shuffles[-1] if who == 0 else locks[who - 1], locks[-1]]
    used += [r for s, r in releases.items() if s != who]
    for m in [*used, *(c for c in commits if c["seat"] != who)]:
        verify_signature(m, keys[m["seat"]])
    me.shuffle(0, shuffles[who - 1]["deck"] if who else None)
    me.lock(0, (locks[who - 1] if who else shuffles[-1])["deck"])
    box = [c["box_key"] for c in commits]
    me.release(0, holders, box)
    me.receive(0, locks[-1]["deck"], releases, holders, box)


def client_opens(seats, holders, messages, who: int = 1) -> None:
    cold()
    final = [group.element_from_hex(x) for x in final_deck(messages)]
    for j, h in enumerate(holders):
        if h != who:
            o = seats[h].open(0, j)
            assert blind_deal.opens([int(k, 16) for k in o["keys"]], o["card"], final[j])


def relay(t, mul: bool, sig: bool) -> None:
    """The server's work on every message of the game, as the messages come."""
    cold()
    msgs = t["blind"]["messages"]
    keys = {m["seat"]: m["sign_key"] for m in msgs if m["type"] == "commit"}
    dealers = {d["hand"]: d["dealer"] for d in t["end"]["deals"]}
    finals: dict[int, list[str]] = {}
    opened: set[tuple[int, str]] = set()
    for m in msgs:
        check_form(m, GAME_ID[0], 4, 52, points=False)
        if sig:
            verify_signature(m, keys[m["seat"]])
        if m["type"] == "lock" and m["seat"] == 3:
            finals[m["deal"]] = m["deck"]
        if m["type"] == "open":
            k, j = m["deal"], m["position"]
            assert spades_holders(dealers[k])[j] == m["seat"] and (k, m["card"]) not in opened
            opened.add((k, m["card"]))
            if mul:
                element = group.element_bytes(finals[k][j])
                assert blind_deal.opens([int(x, 16) for x in m["keys"]], m["card"], element)


GAME_ID = [""]


def main() -> None:
    print(ms.load())
    seats, commits, holders, messages = one_deal_setup()
    blind = blind_selfplay(KEY, SEED, bots=())
    GAME_ID[0] = blind["commit"]["game_id"]
    plain = selfplay("spades", KEY, SEED, bots=())
    hands = len(blind["end"]["deals"])
    assert verify_transcript(blind).ok and verify_transcript(plain).ok
    chance = SeedChance(SEED)
    series = {
        name: ms.Series(name)
        for name in (
            "client deal",
            "client opens",
            "ordinary deal",
            "relay",
            "relay+mul",
            "relay+mul+sig",
            "ordinary game deals",
            "verifier",
            "ordinary verifier",
        )
    }
    work = {
        "client deal": lambda: client_deal(seats, commits, holders, messages),
        "client opens": lambda: client_opens(seats, holders, messages),
        "ordinary deal": lambda: chance.deck(0, PACK_52),
        "relay": lambda: relay(blind, False, False),
        "relay+mul": lambda: relay(blind, True, False),
        "relay+mul+sig": lambda: relay(blind, True, True),
        "ordinary game deals": lambda: [chance.deck(k, PACK_52) for k in range(hands)],
        "verifier": lambda: verify_transcript(blind),
        "ordinary verifier": lambda: verify_transcript(plain),
    }

    def measure(name):
        return lambda: series[name].add(ms.timed(work[name])[0], 1)

    ms.alternate(ROUNDS, [measure(name) for name in series])
    print(f"a blind Spades game of {hands} hands, {len(blind['blind']['messages'])} messages, 4 seats")
    print(f"{'':28}{'median ms':>12}  {'rounds (min to max)':>24}")
    for name, s in series.items():
        med = statistics.median(s.seconds) * 1000
        print(f"{name:28}{med:>12.2f}  {min(s.seconds) * 1000:>11.2f} to {max(s.seconds) * 1000:>9.2f}")
    med = {name: statistics.median(s.seconds) for name, s in series.items()}
    bot_game = med["client deal"] * hands  # a bot seat's part of every deal, on the server
    print()
    lines = [
        ("client deal", med["client deal"], "one seat's deal"),
        ("server extra a game", med["relay"] - med["ordinary game deals"], "relay of a 4-human game (forms, holders)"),
        ("server extra a game", med["relay+mul"] - med["ordinary game deals"], "... and every open's multiplication"),
        ("server extra a game", med["relay+mul+sig"] - med["ordinary game deals"], "... and every signature"),
        ("server extra a game", med["relay+mul"] + bot_game, "relay+mul and one bot seat's deals"),
        ("verifier a game", med["verifier"], "fairdeal-verify of the blind game"),
    ]
    for target, value, what in lines:
        goal = TARGETS[target]
        print(f"{what:44} {value * 1000:9.1f} ms  (target {goal * 1000:.0f} ms): {'met' if value < goal else 'NOT met'}")
    print(f"{'ordinary verifier (same seeds)':44} {med['ordinary verifier'] * 1000:9.1f} ms")
    print(ms.load())


if __name__ == "__main__":
    main()
