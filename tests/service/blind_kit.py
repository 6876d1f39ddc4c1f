"""A scripted human seat at a dealer-blind table, over the API test client: the protocol steps with
fairdeal.core.blind's BlindSeat, bids by the suggestion, plays a legal card from its own hand."""

from __future__ import annotations

from fairdeal.core.blind.seat import BlindSeat
from fairdeal.core.cards import card_from_str, cards_of_texts
from fairdeal.core.games.base import FirstChoiceRng
from fairdeal.core.games.spades import SpadesRules, legal_cards, sort_cards, suggested_bid
from fairdeal.service.blind.log import holders
from tests.service.client import Api


class BlindHuman:
    def __init__(self, api, player: dict, table_id: str, seat: int, seats: int = 4):
        self.api, self.p, self.tid, self.seat = api, player, table_id, seat
        self.me = BlindSeat(table_id, seat, seats)
        self.log: list[dict] = []  # the blind log's messages, as served
        self.posted = 0  # messages this seat sent (shuffle/lock/release/reveal)
        self.revoke = False  # play a card the rules forbid whenever the hand has one (a cheat)
        self.revoked = False

    def commit(self) -> None:
        r = self.api.post(f"/tables/{self.tid}/join", self.p, json={"blind_commit": self.me.commit()})
        assert r.status_code == 200, r.get_json()

    def sit(self) -> None:
        r = self.api.post(
            f"/tables/{self.tid}/join", self.p, json={"seat": self.seat, "blind_commit": self.me.commit()}
        )
        assert r.status_code == 200, r.get_json()

    def read(self) -> dict:
        r = self.api.get(f"/games/{self.tid}/blind?after={len(self.log)}", self.p)
        assert r.status_code == 200, r.get_json()
        out = r.get_json()
        self.log.extend(m["message"] for m in out["messages"])
        return out

    def deal_messages(self, k: int, kind: str) -> list[dict]:
        return [m for m in self.log if m["type"] == kind and m.get("deal") == k]

    def box_keys(self) -> list[str]:
        commits = sorted((m for m in self.log if m["type"] == "commit"), key=lambda m: m["seat"])
        return [m["box_key"] for m in commits]

    def hand(self, k: int, dealer: int) -> dict[int, str]:
        """My cards of deal k {position: card} (received once)."""
        mine = {j: c for (d, j), c in self.me.cards.items() if d == k}
        if mine:
            return mine
        final = self.deal_messages(k, "lock")[-1]["deck"]
        releases = {m["seat"]: m for m in self.deal_messages(k, "release")}
        return self.me.receive(k, final, releases, holders(dealer, 4), self.box_keys())

    def step(self, timeout: bool = False) -> bool:
        """Do whatever this seat owes now; True if it did something."""
        b = self.read()
        due = b["due"]
        if b["status"] == "over" or due is None or self.seat not in due["seats"]:
            return False
        kind, k = due["type"], due["deal"]
        if kind == "shuffle":
            prev = self.deal_messages(k, "shuffle")
            msg = self.me.shuffle(k, prev[-1]["deck"] if prev else None)
        elif kind == "lock":
            msg = self.me.lock(k, (self.deal_messages(k, "lock") or self.deal_messages(k, "shuffle"))[-1]["deck"])
        elif kind == "release":
            msg = self.me.release(k, holders(b["deal"]["dealer"], 4), self.box_keys())
        elif kind == "reveal":
            msg = self.me.reveal()
        else:
            return self.move(b, timeout)
        r = self.api.post(f"/games/{self.tid}/blind", self.p, json=msg)
        assert r.status_code in (200, 201), r.get_json()
        self.posted += 1
        return True

    def choose(self, view: dict, k: int, dealer: int) -> tuple[dict, int | None]:
        """A move from my own hand: the suggested bid, else the lowest legal card."""
        hand = self.hand(k, dealer)
        if view["phase"] == "bid":
            return {"kind": "bid", "value": suggested_bid(cards_of_texts(list(hand.values())))}, None
        played = {c for t in view["tricks"] for _, c in t["plays"]} | {c for _, c in view["trick"]["plays"]}
        held = [c for c in hand.values() if c not in played]
        mine = dict(view, hand=[str(c) for c in sort_cards(cards_of_texts(held))])  # the view with my own hand
        if self.revoke:
            trick = [card_from_str(c) for _, c in view["trick"]["plays"]]
            legal = legal_cards(cards_of_texts(held), trick, view["spades_broken"])
            wrong = [str(c) for c in cards_of_texts(held) if c not in legal]
            if wrong:
                self.revoked = True
                return {"kind": "play", "card": wrong[0]}, next(j for j, c in hand.items() if c == wrong[0])
        card = str(SpadesRules().bot_move(mine, FirstChoiceRng()).card)  # plays as the bot would, from its view
        return {"kind": "play", "card": card}, next(j for j, c in hand.items() if c == card)

    def move(self, b: dict, timeout: bool = False, card: str | None = None) -> bool:
        g = self.api.get(f"/games/{self.tid}", self.p).get_json()
        if g["to_move"] != self.seat:
            return False
        k, dealer = b["deal"]["deal"], b["deal"]["dealer"]
        move, j = self.choose(g["view"], k, dealer)
        body = {"seq": g["seq"], "move": move}
        if timeout:
            body["timeout"] = True
        if j is not None:
            body["open"] = self.me.open(k, j)
        r = self.api.post(f"/games/{self.tid}/moves", self.p, json=body)
        assert r.status_code == 201, r.get_json()
        return True


def play_out(humans: list[BlindHuman], api, table_id: str, limit: int = 20000) -> dict:
    """Every human does its steps and moves until the game ends; the final game view."""
    for _ in range(limit):
        if not any(h.step() for h in humans):
            g = api.get(f"/games/{table_id}").get_json()
            if g["status"] == "over":
                return g
            raise AssertionError(f"nobody can act and the game is not over: {g.get('blind')}")
    raise AssertionError("the game did not end")


def blind_table(api: Api, n_humans: int):
    players = [api.player(f"h{i}") for i in range(n_humans)]
    t = api.table(players[0], rule_set="spades", blind=True)
    humans = [BlindHuman(api, players[0], t["id"], 0)]
    humans[0].commit()
    for i, p in enumerate(players[1:], start=1):
        humans.append(BlindHuman(api, p, t["id"], i))
        humans[-1].sit()
    api.start(players[0], t["id"])
    return t["id"], humans
