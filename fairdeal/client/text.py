"""The game in the terminal's words: moves typed and shown, the hints of each rule set, the table's state, each
trick's winner and each hand's result. Reads only the game view's fields (docs/api.md, docs/rules/)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairdeal.core.cards import BadCard, card_from_str

SUITS: dict[Any, str] = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}  # looked up with any view value
WORD_MOVES = {
    "pass": "pass",
    "mine": "mine",
    "redeal": "redeal",
    "stay": "stay",
    "drop": "drop",
    "newdeal": "newdeal",
    "new deal": "newdeal",
    "stay in": "stay",
    "drop out": "drop",
}
KEEP_WORDS = ("keep", "keep all", "throw nothing", "throw none")
LIST_AT_MOST = 24  # more legal moves than this (a big throw) are typed, not listed


def trump_word(view: dict | None) -> str:
    return (view or {}).get("trump_word") or "trump"


def hand_number(view: dict | None) -> int | None:
    """The hand as people count it: the view's hand_number counts from 0 (every deal, redeals included)."""
    n = (view or {}).get("hand_number")
    return n + 1 if isinstance(n, int) else None


def last_hand(view: dict | None) -> dict | None:
    last = (view or {}).get("last_hand")
    return last if isinstance(last, dict) else None


# ------------------------------------------------------------------------------------------ reading moves


def _card(text: str) -> str:
    try:
        return str(card_from_str(text.upper()))
    except BadCard as exc:
        raise ValueError(str(exc)) from None


def parse_move(text: str, numbered: list[dict], legal: list[dict], trump_word: str = "trump") -> dict:
    """A number from the list, or a move typed out: 10H, play 10H, bid 20, nil, pass, trump H, next, throw 2C 3D,
    keep, stay, drop. ValueError with the sentence when it reads as no move at all; whether the move is legal is
    the server's to say (its sentence is the one the player sees)."""
    said = " ".join(text.strip().lower().split())
    words = said.split()
    if not words:
        raise ValueError("Type a number from the list, or a move.")
    head, rest = words[0], words[1:]
    if head.isdigit() and not rest:
        i = int(head)
        if 1 <= i <= len(numbered):
            return numbered[i - 1]
        if not numbered:
            raise ValueError("Type the move itself; there is no list to choose from.")
        raise ValueError(f"There is no move {i}: choose 1 to {len(numbered)}.")
    if said in WORD_MOVES:
        return {"kind": WORD_MOVES[said]}
    if said in ("nil", "bid nil", "bid 0"):
        return {"kind": "bid", "value": 0}
    if said in KEEP_WORDS or said == "throw":
        return _throw_as_listed([], legal)
    if said in ("next", "blind", "trump next", "trump blind"):
        return {"kind": "trump", "value": words[-1]}
    if head == "bid" and len(rest) == 1:
        try:
            return {"kind": "bid", "value": int(rest[0])}
        except ValueError:
            raise ValueError(f"A bid is a number, as in 'bid 20', not {rest[0]!r}.") from None
    if head in ("trump", "drumpf", "trumps", "drumpfs") and len(rest) == 1:
        suit = rest[0].upper()[:1]
        if suit not in SUITS:
            raise ValueError("Name the suit as C, D, H or S (or clubs, diamonds, hearts, spades).")
        return {"kind": "trump", "value": suit}
    if head == "throw":
        return _throw_as_listed([_card(w) for w in rest], legal)
    if head == "play" and len(rest) == 1:
        return {"kind": "play", "card": _card(rest[0])}
    if not rest:
        try:
            return {"kind": "play", "card": _card(head)}
        except ValueError:
            pass
    raise ValueError(
        f"{text.strip()!r} is no move I know: type a number from the list, or a move such as "
        f"{examples(legal, trump_word) or 'a card'}."
    )


def _throw_as_listed(cards: list[str], legal: list[dict]) -> dict:
    """The server's own form of that throw when it lists one (its order of the cards), else the cards as typed."""
    want = sorted(cards)
    same = [m for m in legal if m.get("kind") == "throw" and sorted(m.get("cards") or []) == want]
    return same[0] if same else {"kind": "throw", "cards": want}


def examples(legal: list[dict], trump_word: str = "trump", hand: Sequence[str] = ()) -> str:
    """What may be typed now, from the legal moves: 'bid 3, nil' at a Spades bid, 'bid 20, pass' at a 120s bid,
    '10H' for a card, 'drumpf H' for trumps, 'throw 2C 3D, keep' for a throw, 'stay, drop'..."""
    out: list[str] = []
    kinds: list[Any] = list(dict.fromkeys(m.get("kind") for m in legal))
    for kind in kinds:
        of = [m for m in legal if m.get("kind") == kind]
        if kind == "play":
            out.append(of[0]["card"])
        elif kind == "bid":
            values = [m["value"] for m in of]
            nonzero = [v for v in values if v]
            if nonzero:
                out.append(f"bid {nonzero[min(len(nonzero) - 1, 2) if 0 in values else 0]}")
            if 0 in values:
                out.append("nil")
        elif kind == "trump":
            values = [m["value"] for m in of]
            suits = [v for v in values if v in SUITS]
            if suits:
                out.append(f"{trump_word} {suits[-1]}")
            out += [v for v in ("next", "blind") if v in values]
        elif kind == "throw":
            sizes = sorted({len(m.get("cards") or []) for m in of})
            size = next((s for s in sizes if s), 0)
            sample = next((m for m in of if len(m.get("cards") or []) == size), None)
            if sample and sample.get("cards"):
                out.append("throw " + " ".join(sample["cards"]))
            if 0 in sizes:
                out.append("keep")
        else:
            out.append(kind)
    return ", ".join(out)


def throw_hint(legal: list[dict]) -> str:
    """Too many throws to list: how many cards may go, with one legal throw as the example."""
    throws = sorted((m for m in legal if m.get("kind") == "throw"), key=lambda m: len(m["cards"]))
    least, most = len(throws[0]["cards"]), len(throws[-1]["cards"])
    example = next((m for m in throws if m["cards"]), throws[0])
    return f"type 'throw' and {least} to {most} of your cards, e.g. '{move_text(example)}'" + (
        " ('keep' keeps them all)" if least == 0 else ""
    )


def suggested_or_first(game: dict) -> dict:
    return game["suggested"] if game.get("suggested") in game["legal_moves"] else game["legal_moves"][0]


# ------------------------------------------------------------------------------------------ showing moves


def move_text(move: dict, trump_word: str = "trump", rule_set: str = "") -> str:
    kind = move.get("kind")
    if kind == "play":
        return move["card"]
    if kind == "bid":
        return "nil" if move["value"] == 0 and rule_set == "spades" else f"bid {move['value']}"
    if kind == "trump":
        value = move.get("value")
        if value in ("next", "blind"):
            return f"{trump_word}s {value}"
        return f"{trump_word} {SUITS.get(value, value)}"
    if kind == "throw":
        if "cards" not in move:
            return f"throw {move.get('count', '?')} card(s) face down"
        return "throw " + (" ".join(move["cards"]) if move["cards"] else "nothing")
    return str(kind)


def _past(move: dict, trump_word: str, rule_set: str) -> str:
    """'played 7H', 'bid 20', 'passed', ... for 'the table ... for you'."""
    kind: Any = move.get("kind")
    if kind == "play":
        return f"played {move['card']}"
    if kind == "bid":
        return "bid nil" if move["value"] == 0 and rule_set == "spades" else f"bid {move['value']}"
    if kind == "throw":
        if "cards" not in move:
            return f"threw {move.get('count', '?')} card(s)"
        return "threw " + (" ".join(move["cards"]) if move["cards"] else "nothing")
    if kind == "trump":
        return "named " + move_text(move, trump_word)
    return {
        "pass": "passed",
        "stay": "stayed in",
        "drop": "dropped out",
        "mine": "said Mine",
        "redeal": "called a redeal",
        "newdeal": "asked for a new deal",
    }.get(kind, str(kind))


class Table:
    """Who sits where: names by seat, and which seat is mine ("you")."""

    def __init__(self, game: dict):
        self.seat = game.get("seat")
        self.names = {s["seat"]: s["name"] or f"seat {s['seat']}" for s in game["seats"]}

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "-"
        return "you" if seat == self.seat else self.names.get(seat, f"seat {seat}")

    def group(self, seats) -> str:
        return " & ".join(self.who(s) for s in seats)


def record_line(rec: dict, table: Table, view: dict, own: bool = False) -> str | None:
    """Another seat's move, or a move the clock or the stand-in made (for you it is said plainly); `own`: your own
    moves are told too (the game so far, told to a player who comes back)."""
    if rec.get("type") != "move":
        return None
    word, rid = trump_word(view), view.get("rule_set", "")
    if rec.get("by") == "stand-in":
        if rec.get("seat") == table.seat:
            return f"Standing in for you, the table's bot {_past(rec['move'], word, rid)}."
        return f"  {table.who(rec['seat'])} (the table's bot standing in): {move_text(rec['move'], word, rid)}"
    if own and rec.get("seat") == table.seat and rec.get("by") == "player":
        return f"  you: {move_text(rec['move'], word, rid)}"
    if rec.get("by") == "timeout":
        if rec.get("seat") == table.seat:
            return f"The clock ran out: the table {_past(rec['move'], word, rid)} for you."
        return f"  {table.who(rec['seat'])}'s clock ran out: the table {_past(rec['move'], word, rid)} for them."
    if rec.get("seat") == table.seat:
        return None
    return f"  {table.who(rec['seat'])}: {move_text(rec['move'], word, rid)}"


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def spades_trick(plays: list) -> dict:
    """A finished Spades trick from its plays [[seat, card], ...]: "the highest spade takes the trick; with no spade
    in it, the highest card of the led suit does" (docs/rules/spades.md). Spades' last_hand lists no tricks, so
    the last trick of a hand is told from its plays."""
    led = plays[0][1][-1]

    def power(play) -> int:
        card = play[1]
        return (100 if card[-1] == "S" else 0 if card[-1] == led else -100) + RANKS.index(card[:-1])

    winner, card = max(plays, key=power)
    return {"leader": plays[0][0], "plays": plays, "winner": winner, "winning_card": card}


def trick_line(trick: dict | None, table: Table) -> str | None:
    if not trick or trick.get("winner") is None:
        return None
    who = table.who(trick["winner"])
    card = f" with {trick['winning_card']}" if trick.get("winning_card") else ""
    return f"  {'You take' if who == 'you' else who + ' takes'} the trick{card}."


def scores_text(scores: list, sides: list | None, table: Table) -> str:
    if sides and len(sides) == len(scores):
        return ", ".join(f"{table.group(side)} {s}" for side, s in zip(sides, scores, strict=True))
    return ", ".join(f"{table.who(i)} {s}" for i, s in enumerate(scores))


def hand_summary(last: dict, view: dict, table: Table) -> list[str]:
    """A finished hand: the bid and whether it was made, the points each side took, the scores after it."""
    rid = view.get("rule_set", "")
    sides = view.get("sides")
    n = last["hand_number"] + 1 if isinstance(last.get("hand_number"), int) else "?"
    lines: list[str] = []
    if rid == "spades":
        lines.append(f"Hand {n} over.")
        for i, team in enumerate(last.get("teams") or []):
            side = table.group(sides[i]) if sides else f"team {i + 1}"
            nils = ", ".join(
                f"{table.who(x['seat'])}'s nil {'made' if x['made'] else 'lost'}" for x in team.get("nils") or []
            )
            lines.append(
                f"    {side}: bid {team['contract']}, took {team['tricks']}, "
                f"{'made' if team['made'] else 'set'}: {team['points']:+d} points"
                + (f", {team['bags']} bag(s)" if team.get("bags") else "")
                + (", -100 for ten bags" if team.get("penalties") else "")
                + (f"; {nils}" if nils else "")
            )
    elif rid == "twenty-down":
        if last.get("walkover"):
            lines.append(
                f"Hand {n} over: everybody else dropped out; {table.who(last['trump_maker'])} takes all five tricks."
            )
        else:
            times = f", counting x{last['multiplier']}" if last.get("multiplier", 1) > 1 else ""
            lines.append(f"Hand {n} over ({SUITS.get(last.get('trump'), last.get('trump'))} trumps{times}).")
        stayed = last.get("stayed") or []
        won = last.get("tricks_won") or []
        parts = [
            f"{table.who(s)} {won[s] if s < len(won) else '?'} trick(s), {c:+d}"
            if s in stayed
            else f"{table.who(s)} out"
            for s, c in enumerate(last.get("changes") or [])
        ]
        if parts:
            lines.append("    " + "; ".join(parts))
    else:
        if last.get("thrown_in"):
            lines.append(
                f"Hand {n} over: everybody passed"
                + (" and the dealer called a redeal" if last.get("redeal_called") else "")
                + "; the hand is thrown in."
            )
        else:
            lines.append(
                f"Hand {n} over: {table.who(last.get('bidder'))} bid {last.get('bid')} in "
                f"{SUITS.get(last.get('trump'), last.get('trump'))} and "
                f"{'made it' if last.get('made') else 'went down'}."
            )
            points = last.get("points")
            if isinstance(points, list):
                groups = sides if sides and len(sides) == len(points) else [[i] for i in range(len(points))]
                ten = f" (the 10-point trick: {last['ten_card']})" if last.get("ten_card") else ""
                lines.append(
                    "    Points taken: "
                    + ", ".join(f"{table.group(g)} {p}" for g, p in zip(groups, points, strict=True))
                    + ten
                )
    if isinstance(last.get("scores"), list):
        lines.append("    Scores: " + scores_text(last["scores"], sides, table))
    return lines


def state_lines(game: dict, table: Table) -> list[str]:
    """The public state, readably: scores, bidding, trump, the trick, the last trick, your hand."""
    v = game.get("view") or {}
    hand_no = hand_number(v)
    head = f"-- {v.get('rule_set', '')}"
    if hand_no is not None:
        head += f", hand {hand_no}"
    if v.get("dealer") is not None:
        head += f", {table.who(v['dealer'])} dealt"
    lines = [head + f", move {game.get('seq')} --"]
    scores, sides = v.get("scores"), v.get("sides")
    if scores is not None:
        lines.append("Scores: " + scores_text(scores, sides, table))
    if isinstance(v.get("bidding"), dict) and v["bidding"].get("log"):
        said = [
            f"{table.who(s)} {'bid ' + str(val) if kind == 'bid' else kind}" for s, kind, val in v["bidding"]["log"]
        ]
        lines.append("Bidding: " + ", ".join(said))
    if v.get("bidder") is not None:
        lines.append(f"Bid: {table.who(v['bidder'])} {v.get('bid')}")
    if isinstance(v.get("bids"), list):
        taken = v.get("tricks_taken") or [None] * len(v["bids"])
        lines.append(
            "Bids (tricks taken): "
            + ", ".join(
                f"{table.who(i)} {'-' if b is None else 'nil' if b == 0 else b} ({t})"
                for i, (b, t) in enumerate(zip(v["bids"], taken, strict=False))
            )
        )
    if isinstance(v.get("seats"), list) and v["seats"] and isinstance(v["seats"][0], dict):
        lines.append(
            "Players: "
            + ", ".join(
                f"{table.who(s['seat'])} {s.get('status') or '?'} ({s.get('tricks', 0)} tricks)" for s in v["seats"]
            )
        )
    if v.get("trump"):
        lines.append(f"{trump_word(v).capitalize()}: {SUITS.get(v['trump'], v['trump'])}")
    for key, label in (("teaser", "Kitty teaser (face up)"), ("turned_up", "Turned up")):
        if isinstance(v.get(key), str):
            lines.append(f"{label}: {v[key]}")
    done = v.get("tricks") or []
    if done and done[-1].get("winner") is not None:
        last = done[-1]
        lines.append(
            f"Last trick: {' '.join(c for _, c in last['plays'])}, won by {table.who(last['winner'])}"
            + (f" with {last['winning_card']}" if last.get("winning_card") else "")
        )
    trick = v.get("trick")
    if trick and trick.get("plays"):
        lines.append("Trick: " + ", ".join(f"{table.who(s)} {c}" for s, c in trick["plays"]))
    if v.get("hand") is not None:
        lines.append(
            "Your hand: "
            + (" ".join(v["hand"]) or "(empty)")
            + (f"  (from the kitty: {' '.join(v['kitty'])})" if v.get("kitty") else "")
        )
    return lines


def result_lines(game: dict, table: Table) -> list[str]:
    lines = [f"Game over: {game.get('end_reason')}."]
    result = game.get("result") or {}
    if result.get("winners"):
        lines.append("Winners: " + table.group(result["winners"]))
    if result.get("scores") is not None:
        lines.append("Final scores: " + scores_text(result["scores"], result.get("sides"), table))
    return lines
