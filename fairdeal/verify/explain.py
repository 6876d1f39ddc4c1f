"""`fairdeal-verify --explain`: the game told hand by hand and trick by trick, in plain words.

Built only from the replay (the revealed seed, the recorded moves and the rules engine): the public view after
each move gives completed tricks and each hand's summary; with `seat`, that seat's own view at the start of each
hand shows its cards as they were. For players learning a game and for auditors reading a dispute.

Every view has the common keys (docs/rules/views.md: hand_number, dealer, trump, trick, tricks, last_hand, ...);
a hand summary's own fields differ by rule set and are read defensively (a field that is not there is not told).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.blind.verify import BlindVerification
from fairdeal.core.cards import SUIT_NAMES, card_from_str
from fairdeal.core.games.base import Move
from fairdeal.core.integrity import game_seed_of
from fairdeal.core.messages import render
from fairdeal.core.reader import parse_transcript
from fairdeal.core.replay import LiveGame, ReplayError
from fairdeal.core.results import PASS, Check

ORDINAL = {
    1: "first",
    2: "second",
    3: "third",
    4: "fourth",
    5: "fifth",
    6: "sixth",
    7: "seventh",
    8: "eighth",
    9: "ninth",
    10: "tenth",
    11: "eleventh",
    12: "twelfth",
    13: "thirteenth",
}


class Teller:
    """Words for one game: seat names, sides, suits in the rule set's own vocabulary (120s-auction: drumpf)."""

    def __init__(self, start: Mapping[str, Any], trump_word: str):
        self.rule_set = start["rules"]["id"]
        # 120s: the ace of hearts is always a trump (docs/rules/<id>.md "Play")
        self.always_trump = {"AH"} if self.rule_set.startswith("120s") else set()
        self.names = {s["seat"]: s["name"] for s in start["seats"]}
        self.bots = {s["seat"] for s in start["seats"] if s["bot"]}
        self.trump_word = trump_word
        self.players = len(self.names)

    def who(self, seat: Any) -> str:
        name = self.names.get(seat)
        if name is None:
            return f"seat {seat}"
        return f"{name} (seat {seat}{', bot' if seat in self.bots else ''})"

    def short(self, seat: Any) -> str:
        return self.names.get(seat) or f"seat {seat}"

    def side(self, index: int, sides: Sequence[Sequence[int]] | None) -> str:
        if sides and index < len(sides):
            return " & ".join(self.short(s) for s in sides[index])
        return self.short(index)

    def card(self, text: str, trump: str | None = None) -> str:
        try:
            c = card_from_str(text)
        except ValueError:
            return str(text)
        # Only 120s-auction's own word is used as a suit name ("the 5 of drumpfs"); elsewhere a spade is a spade.
        drumpf = self.trump_word != "trump" and trump and c.suit == trump
        return c.name(self.trump_word + "s" if drumpf else None)

    def is_trump(self, text: str, trump: str | None) -> bool:
        return trump is not None and (text in self.always_trump or card_from_str(text).suit == trump)

    def suit(self, suit: Any) -> str:
        return SUIT_NAMES.get(suit, str(suit))


def _why(teller: Teller, trick: Mapping[str, Any], trump: str | None) -> str:
    plays = trick.get("plays") or []
    card = trick.get("winning_card")
    if not plays or not card:
        return ""
    led = card_from_str(plays[0][1])
    win = card_from_str(card)
    if teller.is_trump(card, trump):
        n_trumps = sum(1 for _, c in plays if teller.is_trump(c, trump))
        return f"the highest {teller.trump_word}" if n_trumps > 1 else f"the only {teller.trump_word}"
    if win.suit == led.suit:
        if len(plays) == 1:
            return "led alone"
        why = f"the highest {teller.suit(led.suit)[:-1]}, the suit led"
        beaten = [card_from_str(c) for _, c in plays if card_from_str(c).suit == win.suit and c != card]
        if (
            teller.rule_set.startswith("120s")
            and not win.red
            and win.rank <= 10
            and any(b.rank > win.rank and b.rank <= 10 for b in beaten)
        ):
            why += " (in black plain suits the small cards rank the other way round: 2 is the best)"
        return why
    return ""


def _move_text(
    teller: Teller, seat: int, move: Move, by: str, before: Mapping[str, Any], after: Mapping[str, Any]
) -> str | None:
    who = teller.who(seat)
    how = {"timeout": " (the clock ran out; the table moved)", "stand-in": " (the table's bot, standing in)"}.get(
        by, ""
    )
    k = move.kind
    if k == "play":
        return None  # told with its trick
    said = _SAID.get(k)
    if said is not None:
        return f"{who} {said.format(value=move.value)}{how}."
    if k == "mine":
        return f'{who} says "Mine": the dealer takes the bid at {before.get("bid") or "the standing amount"}{how}.'
    if k == "trump":
        if move.value in SUIT_NAMES:
            return f"{who} names {teller.suit(move.value)} {teller.trump_word}{how}."
        return f'{who} chooses "{move.value}" for the {teller.trump_word}{how}.'
    if k == "throw":
        cards = list(move.cards or ())
        if not cards:
            return f"{who} keeps every card{how}."
        return f"{who} throws {len(cards)} card(s) ({' '.join(str(c) for c in cards)}) and is dealt back{how}."
    return f"{who}: {move}{how}."


# What a seat did, for the kinds told in one fixed phrase ({value}: the move's value)
_SAID = {
    "bid": "bids {value}",
    "pass": "passes",
    "redeal": "calls a redeal",
    "stay": "stays in",
    "drop": "drops out of this deal",
    "newdeal": "demands a new deal",
}


def _trick_text(teller: Teller, number: int, trick: Mapping[str, Any], trump: str | None) -> str:
    plays = trick.get("plays") or []
    parts = []
    for i, (seat, card) in enumerate(plays):
        parts.append(f"{teller.short(seat)} {'leads' if i == 0 else 'plays'} {card}")
    winner, card = trick.get("winner"), trick.get("winning_card")
    why = _why(teller, trick, trump)
    won = (
        (f" — {teller.short(winner)} wins it with {teller.card(card, trump)}{', ' + why if why else ''}.")
        if winner is not None and card
        else "."
    )
    return f"  Trick {number}: " + ", ".join(parts) + won


def _hand_end_text(teller: Teller, summary: Mapping[str, Any], before: Mapping[str, Any]) -> list[str]:
    lines = []
    sides = before.get("sides")
    if summary.get("thrown_in"):
        lines.append(
            "  Everybody passed: the hand is thrown in"
            + (" and a redeal is called." if summary.get("redeal_called") else ".")
        )
    if summary.get("bidder") is not None and summary.get("bid") is not None:
        trump = summary.get("trump")
        tw = f" with {teller.suit(trump)} as {teller.trump_word}" if trump else ""
        made = summary.get("made")
        lines.append(
            f"  {teller.who(summary['bidder'])} bid {summary['bid']}{tw} and "
            f"{'made it' if made else 'went down' if made is False else 'played it'}."
        )
    points = summary.get("points")
    if isinstance(points, list):
        lines.append("  Points taken: " + ", ".join(f"{teller.side(i, sides)} {p}" for i, p in enumerate(points)) + ".")
    ten = summary.get("ten_trick")
    tricks = summary.get("tricks") or []
    if isinstance(ten, int) and 0 <= ten < len(tricks):
        t = tricks[ten]
        lines.append(
            f"  The 10-point trick was trick {ten + 1}: {teller.short(t.get('winner'))} took it with "
            f"{teller.card(summary.get('ten_card') or t.get('winning_card'), summary.get('trump'))}, "
            f"the highest card that won a trick this hand."
        )
    bids = summary.get("bids")
    taken = summary.get("tricks_taken") or summary.get("tricks_won")
    if isinstance(bids, list) and isinstance(taken, list):
        lines.append(
            "  Bid / taken: "
            + ", ".join(f"{teller.short(s)} {b if b != 0 else 'nil'}/{taken[s]}" for s, b in enumerate(bids))
            + "."
        )
    elif isinstance(taken, list):
        lines.append("  Tricks taken: " + ", ".join(f"{teller.short(s)} {n}" for s, n in enumerate(taken)) + ".")
    if summary.get("dropped"):
        lines.append("  Dropped out: " + ", ".join(teller.short(s) for s in summary["dropped"]) + ".")
    for i, team in enumerate(summary.get("teams") or []):
        if isinstance(team, Mapping):
            lines.append(
                f"  {teller.side(i, sides)}: contract {team.get('contract')}, "
                f"{'made' if team.get('made') else 'set'}, {team.get('points'):+d} points"
                f"{', bag penalty' if team.get('penalties') else ''}."
            )
    old = summary.get("scores_before") or before.get("scores")
    new = summary.get("scores")
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        moves = []
        for i, (a, b) in enumerate(zip(old, new)):
            moves.append(f"{teller.side(i, sides)} {a} → {b}")
        lines.append("  Score: " + "; ".join(moves) + ".")
    return lines


def _trick_done(before: Mapping[str, Any], after: Mapping[str, Any], plays: list) -> Mapping[str, Any] | None:
    """The trick the last card completed, or None while it goes on."""
    b_tricks, a_tricks = before.get("tricks") or [], after.get("tricks") or []
    if len(a_tricks) > len(b_tricks):
        return a_tricks[-1]
    summary = after["last_hand"]
    if summary != before["last_hand"] and summary is not None:
        done = summary.get("tricks") if isinstance(summary, Mapping) else None
        if done:
            return done[-1]
        # No tricks in the summary: the winner is the seat whose trick count went up.
        before_taken = before.get("tricks_taken")
        after_taken = summary.get("tricks_taken") if isinstance(summary, Mapping) else None
        if isinstance(before_taken, list) and isinstance(after_taken, list):
            for seat, (x, y) in enumerate(zip(before_taken, after_taken)):
                if y > x:
                    card = next((c for s, c in plays if s == seat), None)
                    return {"plays": plays, "winner": seat, "winning_card": card}
        return {"plays": plays, "winner": None, "winning_card": None}
    return None


TOLD_FIRST = ("commitment-noted",)  # checks the player asked for about the game as a whole: told before the story


def _verdict(check: Check) -> str:
    """A failed check, as the story tells it where it happened."""
    return f"  >> {check.id} fails here: {check.detail}."


def _not_started(teller_names: Mapping[int, str], end: Mapping[str, Any]) -> str:
    who = ", ".join(f"{teller_names.get(s, f'seat {s}')} (seat {s})" for s in end.get("unrevealed") or ())
    if end.get("reason") == "not-revealed" and who:
        return (
            f"The table never started: {who} did not reveal the client seed committed to, so no card was ever "
            f"dealt. The server seed is revealed all the same."
        )
    return f"The table never started ({end.get('reason')}): no card was ever dealt."


def explain_game(data: Any, seat: int | None = None, checks: Sequence[Check] = ()) -> str:
    """The story of a finished game (the transcript as bytes, text or decoded JSON). `checks`: the report's
    results; each failed one is told at the record it is about (or after the story), from its structured result."""
    t = parse_transcript(data)
    start, end = t.get("start"), t.get("end")
    failures = [c for c in checks if c.failed]
    at_record: dict[int, list[Check]] = {}
    for c in failures:
        if c.seq is not None:
            at_record.setdefault(c.seq, []).append(c)
    if end is None:
        return "There is nothing to tell: the game has not ended."
    if start is None:
        seating = t.get("seating") or {}
        names = {s["seat"]: s["name"] for s in seating.get("seats", ())}
        return "\n".join([_not_started(names, end)] + [_verdict(c).strip() for c in failures])
    chance = None
    if "blind" in t:  # a dealer-blind table's cards are the seats' deal (docs/blind.md), when they can be derived
        blind = BlindVerification(t, game_seed_of(t))
        if blind.chance is None or blind.underived:
            return "\n".join(
                ["The cards of this blind game cannot be derived, so its story cannot be told."]
                + [_verdict(c).strip() for c in failures]
            )
        chance = blind.chance
    game = LiveGame(start, game_seed_of(t), chance=chance)
    first_view = game.state.view(None)
    teller = Teller(start, first_view["trump_word"])
    lines = [
        f"Game {start['game_id']}: {start['rules']['id']}, "
        + ", ".join(teller.who(s) for s in sorted(teller.names))
        + "."
    ]
    lines.extend(f"  ({c.id}: {c.detail}.)" for c in checks if c.id in TOLD_FIRST and c.status == PASS)
    if seat is not None and seat not in teller.names:
        lines.append(f"(There is no seat {seat}; showing no one's cards.)")
        seat = None
    before = first_view
    hand_seen = None
    plays: list = []
    trick_no = 0
    for record in t["records"]:
        hand = before["hand_number"]
        if hand != hand_seen:
            hand_seen = hand
            trick_no = 0
            plays = []
            dealer = before.get("dealer")
            lines.append("")
            lines.append(f"Hand {hand + 1}: {teller.who(dealer)} deals.")  # hand numbers count from 0
            if seat is not None:
                own = game.state.view(seat).get("hand") or []
                lines.append(f"  {teller.short(seat)} holds: {' '.join(own) if own else '(no cards shown)'}.")
            if before.get("teaser"):
                lines.append(f"  The kitty's top card lies face up: {before['teaser']}.")
        try:
            game.apply_record(record, chain=False, policies=False)  # told as recorded: the report judges
            move = Move.from_json(record["move"])
        except ReplayError as err:  # the story stops here; the report has the verdict, told in its words
            lines.append(
                f"  Record {err.seq} does not replay: {render(err.code, {'seq': err.seq, **err.fields})}; "
                f"the story stops here ({err.check})."
            )
            break
        except Exception as exc:  # noqa: BLE001 - an engine that cannot apply a record: the story stops here
            lines.append(
                f"  Record {record.get('seq')} does not replay ({type(exc).__name__}: {exc}); the story stops here."
            )
            break
        after = game.state.view(None)
        trump = before["trump"]
        if move.kind == "play":
            plays.append([record["seat"], str(move.card)])
            trick = _trick_done(before, after, plays)
            if trick is not None:
                trick_no += 1
                lines.append(_trick_text(teller, trick_no, trick, trump))
                plays = []
        else:
            text = _move_text(teller, record["seat"], move, record["by"], before, after)
            if text:
                lines.append("  " + text)
        lines.extend(_verdict(c) for c in at_record.pop(record.get("seq"), ()))
        if after["last_hand"] != before["last_hand"] and isinstance(after["last_hand"], Mapping):
            lines.extend(_hand_end_text(teller, after["last_hand"], before))
        before = after
    result = end.get("result")
    lines.append("")
    if isinstance(result, Mapping) and result.get("winners") is not None:
        sides = result.get("sides")
        scores = result.get("scores")
        score_text = ""
        if isinstance(scores, list):
            score_text = (
                " Final scores: " + "; ".join(f"{teller.side(i, sides)} {s}" for i, s in enumerate(scores)) + "."
            )
        lines.append(f"The game is over: {' & '.join(teller.short(w) for w in result['winners'])} won.{score_text}")
    else:
        lines.append(f"The game ended without a winner ({end.get('reason')}).")
    untold = {id(c) for found in at_record.values() for c in found}  # past where the story stopped
    rest = [c for c in failures if c.seq is None or id(c) in untold]
    if rest:
        lines.append("")
        lines.extend(_verdict(c).strip().replace(" fails here:", " fails:") for c in rest)
    return "\n".join(lines)
