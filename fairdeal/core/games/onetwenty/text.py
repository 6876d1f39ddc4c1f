"""The full rules line of a 120s table (the lobby's room line), written from its Variant in the rule set's own
words: 120s-auction says "drumpf", 120s-house and 120s-traditional say "trump"."""

from __future__ import annotations

from .variant import Variant


def _bids(v: Variant) -> str:
    b = [str(x) for x in v.bids]
    return ", ".join(b[:-1]) + " or " + b[-1]


def describe(v: Variant, settings_line: str) -> str:
    w, ws = v.trump_word, v.trump_word + "s"
    parts: list[str] = []
    if v.sides.partners:
        parts.append("4 players in two sides of two, partners opposite; scores are kept by side.")
    else:
        parts.append(f"{v.players} players, each playing alone with an own score.")
    if v.deal == "auction":
        parts.append(
            "Five cards each, one at a time from the dealer's left; after each of the first four rounds "
            "one card goes face down to the kitty (4 cards); the rest of the pack (28) is drawn from later."
        )
    else:
        parts.append(f"Five cards each, one at a time from the dealer's left, then {v.kitty_size} to the kitty.")
    if v.teaser:
        parts.append("Kitty teaser: the kitty's top card, the last dealt to it, lies face up for everyone.")
    if v.bidding == "one-round":
        parts.append(
            f"One round of bidding from the dealer's left, the dealer last: {_bids(v)}, each bid higher "
            "than the one standing; anyone may pass."
        )
    else:
        parts.append(
            f"Bidding goes round from the dealer's left until one bidder is left: {_bids(v)}, each bid "
            "higher than the one before; a pass is final for the hand."
        )
    if v.min_bid_from_90:
        parts.append("From 90 points up a side's smallest bid is 20.")
    if v.need_five:
        parts.append("To bid 25 or 30 (Mine and raises included) you must hold a five.")
    if v.dealer_mine == "traditional":
        parts.append(
            "The dealer may say Mine to take the high bid at the same amount; the holder may then raise "
            "or give it up, and the dealer may take each raise again or pass."
        )
    elif v.dealer_mine == "house":
        parts.append(
            "Dealer can take it: the dealer may take the bid at the same amount, except at 30, and the "
            "bidding goes on around the table."
        )
    parts.append(
        {
            "redeal": "If everybody passes, the hand is thrown in and the same dealer deals again.",
            "next-dealer": "If everybody passes, the hand is thrown in and the deal moves on to the next player.",
            "dealer-picks": "If everybody else passes, the dealer picks a bid or calls a redeal by the same dealer.",
            "stick": "Stick the dealer: if everyone else passes, the dealer must bid 20.",
        }[v.all_pass]
    )
    parts.append(f"The high bidder names the {w} suit, then takes the kitty.")
    if v.bidder_discards_first:
        parts.append(f"The bidder throws away {v.kitty_size} to get back to five.")
        if v.others_draw:
            parts.append(
                "Then, from the dealer's left, everyone but the bidder may throw away any cards and be "
                "dealt as many from the pack."
            )
        else:
            parts.append("Nobody else throws or draws.")
    else:
        least = 4 if v.kitty_size == 4 else 3
        parts.append(
            f"Then, from the dealer's left to the dealer, each player throws away any number of cards and "
            f"is dealt back up to five from the pack; the bidder must throw at least {least}."
        )
    if v.reshuffle_thrown:
        parts.append("Thrown cards are shuffled back in at the bottom of the pack.")
    parts.append(
        "The bidder leads to the first trick."
        if v.bidder_leads
        else "The player to the bidder's left leads to the first trick."
    )
    if v.thirty_leads_trump:
        parts.append(f"On a bid of 30 the first lead must be a {w} if the leader holds one.")
    parts.append(
        f"{ws.capitalize()}, highest first: the 5, the J, the A of hearts (always a {w}), the A, K, Q, "
        "then red 10 down to 2, black 2 up to 10."
    )
    parts.append(
        "Plain suits: "
        + (
            "K Q J A 2..10 in black, K Q J 10..2 A in diamonds (plain aces low)."
            if v.aces_low
            else "A K Q J, then red 10 down to 2, black 2 up to 10."
        )
    )
    follow = (
        f"A plain suit led: follow it or play a {w}; with none of it you must play a {w} if you hold one."
        if v.void_must_trump
        else f"A plain suit led: follow it or play a {w}; with none of it play any card."
    )
    parts.append(follow)
    parts.append(
        f"A {w} led: play a {w}; the 5, the J and the A of hearts may be kept back against a lower {w} "
        f"led (reneging), the A of {ws} (when {ws} are not hearts) never."
    )
    parts.append("Every trick is worth 5; the trick of the highest card that wins a trick is worth 10: 30 a hand.")
    thirty = " A made 30 scores 60." if v.made_thirty_scores == 60 else " A made 30 scores 30."
    # 120s-house with two or three players: each plays alone, so the sentences speak of players, not sides.
    side = "side" if v.sides.partners else "player"
    others = "the other side keeps what it took" if v.sides.partners else "the others keep what they took"
    parts.append(
        f"A bidding {side} that makes its bid scores all it took; short of it, it goes Down the amount "
        f"bid; {others}." + thirty
    )
    if v.floor_zero:
        parts.append("Nobody goes below zero.")
    else:
        parts.append("Scores can go below zero.")
    if v.cap_unmade:
        parts.append(
            f"A side that has never won a bid and made it stops at {v.target - 5}: you must bid and make it to win."
        )
    if v.bid_to_go_out:
        parts.append(
            f"Bid to go out: with {v.target - 20} or more at the start of a hand, a {side} goes out only "
            f"by winning the bid and making it; otherwise it stops at {v.target - 5}."
        )
    parts.append(
        f"The first side to reach {v.target} at the end of a hand wins; if both do, the bidder wins."
        if v.sides.partners
        else f"The first player to reach {v.target} at the end of a hand wins; the bidder wins if among them."
    )
    if settings_line:
        parts.append("Table settings: " + settings_line + ".")
    return " ".join(parts)
