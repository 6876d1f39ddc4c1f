"""Dealer-blind Spades tables played through the service (docs/api.md, "Dealer-blind tables")."""

from __future__ import annotations

import json

import pytest

from fairdeal.core import keys
from fairdeal.core.blind.check import audit
from fairdeal.core.blind.deal import spades_holders
from fairdeal.core.blind.group import card_points
from fairdeal.core.checks import verify_transcript
from fairdeal.core.games.base import FixedChance, Move
from fairdeal.core.games.spades import SpadesRules, SpadesState
from fairdeal.core.transcript import transcript_body
from tests.service.blind_kit import BlindHuman, blind_table, play_out
from tests.service.client import Api
from tests.service.conftest import make_app
from tests.service.metrics_kit import samples
from tests.service.sse import in_thread, sse_lines
from tests.waiting import scaled, wait_for


def check_signed_transcript(api: Api, tid: str, p: dict) -> dict:
    t = api.get(f"/games/{tid}/transcript", p).get_json()
    assert t["end"]["reason"] == "finished"
    assert keys.verify(t["commit"]["key"], transcript_body(t), t["signature"])  # the blind member is signed too
    blind = t["blind"]
    assert blind["protocol"] == "fairdeal-blind/1" and blind["blame"] == []
    kinds = [m["type"] for m in blind["messages"]]
    assert kinds[:4] == ["commit"] * 4 and kinds[-4:] == ["reveal"] * 4
    plays = [r for r in t["records"] if r["move"]["kind"] == "play"]
    opens = [m for m in blind["messages"] if m["type"] == "open"]
    assert len(opens) == len(plays) == 52 * len(t["end"]["deals"])
    for m, r in zip(opens, plays, strict=True):  # each play's open, in the order played
        assert (m["seat"], m["card"]) == (r["seat"], r["move"]["card"])
    verdict = blind_audit(t)
    assert verdict.findings == [] and sorted(verdict.decks) == list(range(len(t["end"]["deals"])))
    return t


def blind_audit(t: dict):
    """blind-core's verifier of the blind messages (fairdeal.core.blind.check), offline, from the transcript."""
    holders = {d["hand"]: spades_holders(d["dealer"]) for d in t["end"]["deals"]}
    return audit(t["commit"]["game_id"], 4, t["blind"]["messages"], holders)


def test_a_blind_game_against_three_bots(api):
    tid, humans = blind_table(api, 1)
    g = play_out(humans, api, tid)
    assert g["end_reason"] == "finished" and g["result"]["winners"]
    check_signed_transcript(api, tid, humans[0].p)


def test_the_score_sheet_of_a_blind_game_is_the_one_its_true_deals_give(api):
    """The seed deals no card at a blind table: the sheet comes from the cards as opened. It equals the ordinary
    engine's replay of the records over the decks the verifier derives from the revealed secrets."""
    tid, humans = blind_table(api, 1)
    mid = None
    for _ in range(20000):
        g = api.get(f"/games/{tid}", humans[0].p).get_json()
        if g["status"] == "over":
            break
        if mid is None and g["view"] and g["view"].get("hand_number", 0) >= 1:
            mid = api.get(f"/games/{tid}/sheet")  # while the game runs, after its first hand
        humans[0].step()
    assert mid is not None and mid.status_code == 200 and len(mid.get_json()["hands"]) >= 1
    t = api.get(f"/games/{tid}/transcript", humans[0].p).get_json()
    r = api.get(f"/games/{tid}/sheet")
    assert r.status_code == 200
    sheet = r.get_json()["hands"]
    decks = blind_audit(t).decks
    replay = SpadesState(SpadesRules(), FixedChance([decks[k] for k in sorted(decks)], t["end"]["deals"][0]["dealer"]))
    expected, last = [], None
    for record in t["records"]:
        replay.apply(record["seat"], Move.from_json(record["move"]))
        if replay.last_hand is not None and replay.last_hand is not last:
            last = replay.last_hand
            expected.append({k: v for k, v in last.items() if k != "tricks"})
    assert sheet == expected and len(sheet) == len(t["end"]["deals"])
    assert sheet[-1]["scores"] == t["end"]["result"]["scores"]
    assert mid.get_json()["hands"] == sheet[: len(mid.get_json()["hands"])]


@pytest.mark.parametrize("app", ["sqlite"], indirect=True)
def test_a_blind_game_of_four_humans(api):
    tid, humans = blind_table(api, 4)
    g = play_out(humans, api, tid)
    assert g["end_reason"] == "finished"
    t = check_signed_transcript(api, tid, humans[0].p)
    assert all(r["by"] == "player" for r in t["records"])


@pytest.mark.parametrize("app", ["sqlite"], indirect=True)
def test_a_humans_unplayed_cards_are_nowhere_the_server_keeps_or_serves(api, app, tmp_path, caplog):
    """After the deal (the human holds its 13 cards, none played), neither the store's file, nor the blind log
    and game view served, nor the logs name one of its cards: not as text, not as its card point."""
    tid, humans = blind_table(api, 1)
    h = humans[0]
    for _ in range(50):  # its deal steps, until its hand is there and it is to bid or play
        b = h.read()
        if b["ready"]:
            break
        h.step()
    hand = h.hand(b["deal"]["deal"], b["deal"]["dealer"])
    assert len(hand) == 13
    served = (
        json.dumps(api.get(f"/games/{tid}/blind", h.p).get_json())
        + json.dumps(api.get(f"/games/{tid}", h.p).get_json())
        + json.dumps(api.get(f"/games/{tid}/events?after=0&blind_after=0", h.p).get_json())
    )
    app.extensions["fairdeal"].store.close()
    stored = b"".join(p.read_bytes() for p in (tmp_path / "data").glob("fairdeal.sqlite3*"))
    logs = caplog.text
    for card, point in zip(hand.values(), card_points(list(hand.values())), strict=True):
        for text in (served, logs):
            assert f'"{card}"' not in text and point.hex() not in text
        assert f'"{card}"'.encode() not in stored and point.hex().encode() not in stored and point not in stored


def test_a_blind_table_takes_only_spades_and_needs_every_commit(api):
    p = api.player()
    r = api.post("/tables", p, json={"rule_set": "twenty-down", "blind": True})
    assert r.status_code == 422 and r.get_json()["type"].endswith("blind-not-supported")
    t = api.table(p, rule_set="spades", blind=True)
    r = api.post(f"/tables/{t['id']}/start", p)
    assert r.status_code == 409 and r.get_json()["seats"] == [0]
    assert api.get(f"/tables/{t['id']}").get_json()["status"] == "open"


def test_bad_blind_input_is_refused_and_changes_nothing(api):
    tid, humans = blind_table(api, 1)
    h = humans[0]
    b = h.read()
    assert b["due"]["type"] == "shuffle" and b["due"]["seat"] == 0
    good = h.me.shuffle(0, None)
    forged = dict(good, deck=list(reversed(good["deck"])))  # the signature no longer covers it
    r = api.post(f"/games/{tid}/blind", h.p, json=forged)
    assert r.status_code == 422 and r.get_json()["type"].endswith("bad-blind-signature")
    r = api.post(f"/games/{tid}/blind", h.p, json=h.me.lock(0, good["deck"]))
    assert r.status_code == 409 and r.get_json()["due"]["type"] == "shuffle"
    r = api.post(f"/games/{tid}/blind", h.p, json=dict(good, deck=good["deck"][:51]))
    assert r.status_code == 422 and r.get_json()["type"].endswith("bad-blind-message")
    assert h.read()["count"] == 4  # the commits only
    r = api.post(f"/games/{tid}/blind", h.p, json=good)
    assert r.status_code == 201
    taken = r.get_json()["index"]
    again = api.post(f"/games/{tid}/blind", h.p, json=good)  # a retry: nothing new, the same place named
    assert again.status_code == 200 and again.get_json()["index"] == taken
    while not h.read()["ready"]:
        h.step()
    late = api.post(f"/games/{tid}/blind", h.p, json=good)  # a retry long after: found by its signature
    assert (
        late.status_code == 200
        and late.get_json()["index"] == taken
        and late.get_json()["count"] > again.get_json()["count"]
    )
    g = api.get(f"/games/{tid}", h.p).get_json()
    while g["to_move"] != 0 or g["view"]["phase"] != "play":
        h.step()
        g = api.get(f"/games/{tid}", h.p).get_json()
    b = h.read()
    k, dealer = b["deal"]["deal"], b["deal"]["dealer"]
    move, j = h.choose(g["view"], k, dealer)
    count = b["count"]
    r = api.post(f"/games/{tid}/moves", h.p, json={"seq": g["seq"], "move": move})
    assert r.status_code == 422 and r.get_json()["type"].endswith("open-missing")
    other = next(jj for jj, c in h.hand(k, dealer).items() if c != move["card"])
    r = api.post(f"/games/{tid}/moves", h.p, json={"seq": g["seq"], "move": move, "open": h.me.open(k, other)})
    assert r.status_code == 422 and r.get_json()["why"] == "not-this-card"
    lying = dict(h.me.open(k, j))
    lying["keys"] = list(reversed(lying["keys"]))
    r = api.post(f"/games/{tid}/moves", h.p, json={"seq": g["seq"], "move": move, "open": lying})
    assert r.status_code == 422 and r.get_json()["type"].endswith("bad-open")
    r = api.post(
        f"/games/{tid}/moves", h.p, json={"seq": g["seq"], "move": move, "open": h.me.open(k, j), "timeout": True}
    )
    assert r.status_code == 409 and r.get_json()["type"].endswith("clock-not-out")
    assert h.read()["count"] == count and api.get(f"/games/{tid}", h.p).get_json()["seq"] == g["seq"]
    r = api.post(f"/games/{tid}/moves", h.p, json={"seq": g["seq"], "move": move, "open": h.me.open(k, j)})
    assert r.status_code == 201


def aborts(app) -> float:
    text = app.test_client().get("/metrics").get_data(as_text=True)
    return sum(s.value for s in samples(text, "fairdeal_blind_aborts_total"))


@pytest.fixture
def clocked(request, tmp_path, clock):
    app = make_app(tmp_path, "sqlite", request, now=clock, blind_step=20, blind_grace=10, other_clock=20, card_clock=20)
    return app, Api(app.test_client()), clock


def test_a_seat_that_does_not_shuffle_in_time_aborts_the_game_blamed(clocked):
    app, api, clock = clocked
    tid, humans = blind_table(api, 2)
    before = aborts(app)
    assert humans[0].step()  # seat 0 shuffles; seat 1 (a human) owes the next shuffle and stays silent
    clock.advance(25)
    assert api.get(f"/games/{tid}").get_json()["status"] == "playing"  # within the grace period
    clock.advance(10)
    g = api.get(f"/games/{tid}").get_json()
    assert g["blind"]["abort"] == {"seat": 1, "why": "step-timeout", "deal": 0, "step": "shuffle"}
    assert g["blind"]["due"]["type"] == "reveal" and g["blind"]["due"]["seats"] == [0, 1]
    r = api.post(f"/games/{tid}/moves", humans[0].p, json={"seq": 0, "move": {"kind": "bid", "value": 3}})
    assert r.status_code == 409
    assert humans[0].step()  # seat 0 reveals; seat 1 does not and is past its time
    clock.advance(31)
    g = api.get(f"/games/{tid}").get_json()
    assert g["status"] == "over" and g["end_reason"] == "aborted"
    t = api.get(f"/games/{tid}/transcript").get_json()
    assert t["blind"]["blame"] == [1] and t["end"]["reason"] == "aborted"
    assert blind_audit(t).at_fault == [1]  # the verifier names the same seat
    abort = t["blind"]["abort"]  # signed with the end: whom, for what, after which message, when, past which deadline
    assert {k: abort[k] for k in ("seat", "why", "deal", "step", "after")} == {
        "seat": 1,
        "why": "step-timeout",
        "deal": 0,
        "step": "shuffle",
        "after": 5,  # the four commits and seat 0's shuffle
    }
    assert abort["deadline"] <= abort["at"] <= t["end"]["ended"]
    blame = verify_transcript(t).check("blind-blame")
    assert (blame.status, blame.code, blame.fields["named"]) == ("pass", "blind-blame-ok", [1])
    assert sorted(m["seat"] for m in t["blind"]["messages"] if m["type"] == "reveal") == [0, 2, 3]
    assert aborts(app) == before + 1


def test_a_seat_that_leaves_a_running_blind_table_aborts_it_blamed(clocked):
    app, api, clock = clocked
    tid, humans = blind_table(api, 2)
    while not humans[0].read()["ready"]:
        humans[0].step() or humans[1].step()
    r = api.post(f"/tables/{tid}/leave", humans[1].p)
    assert r.status_code == 200
    assert humans[0].step()  # the seat still present reveals: the game ends at once (the leaver owes nothing)
    g = api.get(f"/games/{tid}").get_json()
    assert g["end_reason"] == "aborted" and g["blind"]["abort"]["seat"] == 1 and g["blind"]["abort"]["why"] == "left"
    assert api.get(f"/games/{tid}/transcript").get_json()["blind"]["blame"] == [1]


def test_a_run_out_clock_is_played_by_the_seats_own_client_else_the_game_aborts(clocked):
    app, api, clock = clocked
    tid, humans = blind_table(api, 1)
    h = humans[0]
    while True:
        b = h.read()
        if b["due"]["type"] == "move" and b["due"]["seat"] == 0:
            break
        h.step()
    clock.advance(
        25
    )  # past the "other" clock (a bid), within the grace period: its own client plays the suggested bid as a timeout
    assert h.step(timeout=True)
    t = api.get(f"/games/{tid}/transcript", h.p).get_json()["transcript"]
    assert [r["by"] for r in t["records"] if r["seat"] == 0] == ["timeout"]
    while True:
        b = h.read()
        if b["due"]["type"] == "move" and b["due"]["seat"] == 0:
            break
        assert h.step()
    clock.advance(60)  # the clock and the grace period pass: the client is gone
    g = api.get(f"/games/{tid}").get_json()
    assert g["blind"]["abort"]["why"] == "move-timeout" and g["blind"]["abort"]["seat"] == 0
    clock.advance(31)  # the bots have revealed; seat 0 does not within a step's time and the grace period
    t = api.get(f"/games/{tid}/transcript", h.p).get_json()
    assert t["end"]["reason"] == "aborted" and t["blind"]["blame"] == [0]
    abort = t["blind"]["abort"]
    assert abort["seq"] == len(t["records"]) + 1 and abort["deadline"] <= abort["at"]
    report = verify_transcript(t)  # the stall verifies: seat 0's turn, no record or open of its move
    assert report.check("blind-blame").code == "blind-blame-ok" and report.check("blind-blame").fields["named"] == [0]


@pytest.mark.parametrize("app", ["sqlite"], indirect=True)
def test_a_revoke_is_taken_live_and_named_when_the_hand_ends(api):
    """The server cannot see that a seat could have followed suit; when the hand's cards are all open it replays
    the hand and ends the game, blamed on the seat, at the revoking move."""
    tid, humans = blind_table(api, 1)
    h = humans[0]
    h.revoke = True
    for _ in range(5000):
        if not h.step():
            break
    g = api.get(f"/games/{tid}").get_json()  # the cheat revealed too (its client does what is due)
    assert h.revoked and g["end_reason"] == "aborted"
    abort = g["blind"]["abort"]
    assert abort["seat"] == 0 and abort["why"] == "revoke" and abort["deal"] == 0
    t = api.get(f"/games/{tid}/transcript", h.p).get_json()
    record = next(r for r in t["records"] if r["seq"] == abort["seq"])
    assert record["seat"] == 0 and record["by"] == "player"
    # every message of seat 0 is in and right: only the rules replay shows its fault, at the record the abort names
    report = verify_transcript(t)
    assert t["blind"]["blame"] == [0] and t["blind"]["abort"]["deadline"] is None
    blame = report.check("blind-blame")
    assert (blame.status, blame.code, blame.fields["named"]) == ("pass", "blind-blame-ok", [0])
    assert report.check("blind-deal").status == "pass"  # the next deal, cut off by the abort, is no seat's fault
    assert report.check("moves-legal").status == "fail" and report.check("moves-legal").seq == abort["seq"]


def blind_events(lines: list[str]) -> list[dict]:
    return [json.loads(x[len("data: ") :]) for i, x in enumerate(lines) if i and lines[i - 1] == "event: blind"]


def test_the_stream_carries_the_blind_log_as_it_grows(app, api):
    """A seat waiting on the game's stream with ?blind_after=n learns of each new blind message from a `blind`
    event (the blind log's answer past what it was sent), with no move and no poll of GET /games/{id}/blind."""
    tid, humans = blind_table(api, 2)
    h0, h1 = humans
    start = h1.read()["count"]
    assert start == 4  # the commits: seat 0's shuffle is due
    path = f"/games/{tid}/stream?blind_after={start}"
    seen: list[str] = []

    def log_grew(lines: list[str]) -> bool:
        seen[:] = lines
        return any(e["count"] > start for e in blind_events(lines))

    th, out = in_thread(lambda: sse_lines(api, path, h1.p, stop=log_grew))
    wait_for(lambda: blind_events(list(seen)), timeout=scaled(10), what="the stream's first blind event")
    assert h0.step()  # seat 0 shuffles (no move: the game's seq does not change)
    th.join(scaled(20))
    events = blind_events(out["value"])
    assert events[0]["count"] == start and events[0]["messages"] == [] and events[0]["due"]["type"] == "shuffle"
    grown = events[-1]
    assert [m["message"]["type"] for m in grown["messages"]] == ["shuffle"] and grown["messages"][0]["index"] == start
    assert grown == api.get(f"/games/{tid}/blind?after={start}").get_json()  # GET /games/{id}/blind's answer
    # a stream that does not ask for them gets no blind event
    plain = sse_lines(api, f"/games/{tid}/stream", h1.p, stop=lambda ls: "event: game" in ls)
    assert "event: blind" not in plain


def test_a_leaver_reveals_with_its_leave_so_every_deal_can_be_checked(clocked):
    """A seat leaving a running blind table sends its reveal with the leave: the game aborts at once (its keys are
    needed for every card still to come), its σ goes into the log after the abort (nothing is left to play, so it
    exposes no card still in play), and the transcript then checks out whole: every seat revealed, no seat framed.
    A reveal while the seat stays is refused (it would show its cards still to be played); a bad one changes
    nothing."""
    app, api, clock = clocked
    tid, humans = blind_table(api, 2)
    while not humans[0].read()["ready"]:
        humans[0].step() or humans[1].step()
    leaver = humans[1]
    r = api.post(f"/games/{tid}/blind", leaver.p, json=leaver.me.reveal())
    assert r.status_code == 409 and r.get_json()["code"] == "blind-out-of-turn"  # staying: no reveal
    before = leaver.read()["count"]
    other = BlindHuman(api, leaver.p, tid, 1)  # another σ for seat 1: it does not open seat 1's commit
    for bad, status, code in (
        (humans[0].me.reveal(), 403, "not-your-seat"),
        (other.me.reveal(), 422, "bad-blind-signature"),
        ({"type": "reveal"}, 422, "bad-blind-message"),
    ):
        r = api.post(f"/tables/{tid}/leave", leaver.p, json={"blind_reveal": bad})
        assert (r.status_code, r.get_json()["code"]) == (status, code), r.get_json()
    r = api.post(f"/tables/{tid}/leave", leaver.p, json={"blind_reveal": leaver.me.reveal(), "why": "x"})
    assert r.status_code == 422 and r.get_json()["code"] == "unknown-field"
    assert leaver.read()["count"] == before and api.get(f"/tables/{tid}").get_json()["status"] == "playing"

    r = api.post(f"/tables/{tid}/leave", leaver.p, json={"blind_reveal": leaver.me.reveal()})
    assert r.status_code == 200, r.get_json()
    b = humans[0].read()
    assert b["abort"] == {"seat": 1, "why": "left", "deal": 0, "step": "leave"}
    assert humans[0].step()  # seat 0 reveals: the game ends
    g = api.get(f"/games/{tid}").get_json()
    assert g["status"] == "over" and g["end_reason"] == "aborted"
    t = api.get(f"/games/{tid}/transcript").get_json()
    assert sorted(m["seat"] for m in t["blind"]["messages"] if m["type"] == "reveal") == [0, 1, 2, 3]
    assert t["blind"]["blame"] == []  # leaving breaks no rule: the messages show no seat at fault
    verdict = blind_audit(t)
    assert verdict.findings == [] and sorted(verdict.decks) == [0]
    report = verify_transcript(t)
    failing = {c.id: c.detail for c in report.checks if c.status == "fail"}
    assert not {k for k in failing if k.startswith("blind-")}, failing


def test_a_seat_that_revealed_after_the_last_hand_leaves_without_aborting(api):
    tid, humans = blind_table(api, 1)
    h = humans[0]
    for _ in range(20000):
        b = h.read()
        if b["due"] and b["due"]["type"] == "reveal":
            break
        assert h.step()
    r = api.post(f"/tables/{tid}/leave", h.p, json={"blind_reveal": h.me.reveal()})
    assert r.status_code == 200, r.get_json()
    t = api.get(f"/games/{tid}/transcript").get_json()
    assert t["end"]["reason"] == "finished" and t["blind"]["blame"] == []


def reachable(api: Api, tid: str, callers: list[dict | None]) -> list[str]:
    """Everything a human seat or a watcher (None) can read of a running game: the game view, the blind log, the
    long-poll feed (with the blind log), the stream's first batch (with its blind event), the transcript so far,
    the score sheet, the start records, the table and the player's games."""
    out = []
    for p in callers:
        for path in (
            f"/games/{tid}",
            f"/games/{tid}/blind?after=0",
            f"/games/{tid}/events?after=0&blind_after=0",
            f"/games/{tid}/transcript",
            f"/games/{tid}/sheet",
            f"/games/{tid}/start",
            f"/tables/{tid}",
            *(["/players/me/games"] if p else []),
        ):
            r = api.get(path, p)
            assert r.status_code == 200, (path, r.get_json())
            out.append(json.dumps(r.get_json()))
        if p is not None:
            out.append(
                "\n".join(sse_lines(api, f"/games/{tid}/stream?blind_after=0", p, stop=lambda ls: "event: game" in ls))
            )
    return out


def without_choices(text: str) -> str:
    """A served body without its legal_moves: at a blind table a card decision lists every card not yet played."""

    def drop(x):
        if isinstance(x, dict):
            return {k: drop(v) for k, v in x.items() if k not in ("legal_moves", "why_not")}
        if isinstance(x, list):
            return [drop(v) for v in x]
        return x

    try:
        return json.dumps(drop(json.loads(text)))
    except ValueError:
        return "\n".join(without_choices(line[6:]) if line.startswith("data: ") else line for line in text.split("\n"))


@pytest.mark.parametrize("app", ["sqlite"], indirect=True)
@pytest.mark.parametrize("n_humans", [3, 2], ids=["three-humans-and-a-bot", "two-humans-and-two-bots"])
def test_no_human_seat_or_watcher_can_read_a_bots_unplayed_card(api, app, caplog, n_humans):
    """The server holds its bots' σ and so their cards; nothing a human seat or a watcher can reach before the
    end names one of a bot's unplayed cards, as text or as its card point: at the bidding (every bot holds its
    13), and again with cards played (the plays are public, the rest is not)."""
    tid, humans = blind_table(api, n_humans)
    bots = range(n_humans, 4)
    served_bots = app.extensions["fairdeal"].games.blind.bots
    callers: list[dict | None] = [h.p for h in humans] + [None]

    def check(played: set[str]) -> int:
        texts = reachable(api, tid, callers) + [caplog.text]
        unplayed = []
        for seat in bots:
            hand = [c for (k, _j), c in served_bots.seat(tid, seat, 4).cards.items() if k == 0]
            assert len(hand) == 13
            unplayed += [c for c in hand if c not in played]
        for card in played:  # the check can see a card: each one played is in what is served, as its text
            assert any(f'"{card}"' in without_choices(text) for text in texts), card
        for card, point in zip(unplayed, card_points(unplayed), strict=True):
            for text in texts:
                assert point.hex() not in text, (card, text[:200])
                assert f'"{card}"' not in without_choices(text), card
        return len(unplayed)

    while not humans[0].read()["ready"]:
        assert any(h.step() for h in humans)
    assert check(set()) == 13 * len(bots)  # the bidding: every bot's hand is dealt, none played
    for _ in range(2000):
        plays = [
            r
            for r in api.get(f"/games/{tid}/events?after=0&wait=0").get_json()["records"]
            if r["move"]["kind"] == "play"
        ]
        if len(plays) >= 10:
            break
        assert any(h.step() for h in humans)
    played = {r["move"]["card"] for r in plays}
    assert check(played) < 13 * len(bots)  # some of the bots' cards are played: the others still named nowhere
