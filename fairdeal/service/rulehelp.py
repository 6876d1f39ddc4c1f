"""Rules at the table: a rule set's rules line (Rules.describe(), the engine's own text of docs/rules) cut into
short sections a player can read at a glance, the word the table uses for trumps (120s-auction's "drumpf"), and
a card-ranking aid: the order of the cards of each suit when it is trumps, highest first (120s' 5, J, A of hearts,
A ... is what newcomers trip on). Public, the same for every table of the rule set and settings."""

from __future__ import annotations

import re

from fairdeal.core.cards import SUITS
from fairdeal.core.games import make_rules
from fairdeal.core.games.onetwenty import ranks

# Each sentence goes to the first section whose words it has (the rules line reads deal, bidding, play, scoring).
SECTIONS = (
    ("Table settings", ("table settings",)),
    ("Card order", ("highest first", "plain suits:", "order a")),
    ("Bidding and trumps", ("names the", "round of bidding", "bids once")),
    ("The deal", ("cards each", "players", "kitty", "dealt", "pack")),
    ("Scoring", ("score", "worth", "points", "made", "bags", "nil made", "down the amount", "-1 a trick")),
    ("Winning", ("wins", "game ends", "first side to reach", "first to zero")),
    ("Bidding and trumps", ("bid", "pass", "names the", "trump maker", "stay in", "drop out")),
    ("Playing", ("follow", "lead", "trick", "renege", "play a")),
)
DRUMPF = (
    '"Drumpf" is what 120s (Auction) calls the trump suit, and a drumpf is a card of it: the high bidder '
    "names the drumpf suit, and any drumpf beats any card of a plain suit."
)


def sections(text: str) -> list[dict]:
    """The rules line as sections: [{"title", "items": [sentences]}], in the order of SECTIONS' first use."""
    sentences = []
    for s in (x.strip() for x in re.split(r"(?<=\.)\s+(?=[A-Z0-9\"'(-])", text)):
        if len(s) > 160 and not s.startswith("Table settings"):  # a long sentence of clauses: one a line
            sentences += [part.strip() for part in s.split("; ") if part.strip()]
        elif s:
            sentences.append(s)
    out: dict[str, list[str]] = {}
    for s in sentences:
        low = s.lower()
        title = next((t for t, words in SECTIONS if any(w in low for w in words)), "The game")
        out.setdefault(title, []).append(s)
    order = [
        "The game",
        "The deal",
        "Bidding and trumps",
        "Card order",
        "Playing",
        "Scoring",
        "Winning",
        "Table settings",
    ]  # the order a newcomer needs them in
    return [{"title": t, "items": out[t]} for t in order if t in out]


def ranking(rule_set: str, settings: dict, players: int) -> dict:
    """For each suit, its cards highest first when it is trumps (120s: the 5, the J, the A of hearts, ...)."""
    rules = make_rules(rule_set, settings, players)
    out: dict[str, list[str]] = {}
    if rule_set.startswith("120s"):
        for suit in SUITS:
            out[suit] = [str(c) for c in ranks.trump_order(suit)]
    elif rule_set == "spades":
        out["S"] = [f"{r}S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")]
    else:
        order = (
            ("J", "9", "A", "10", "K", "Q", "8", "7")
            if rules.settings.get("jass_order")
            else ("A", "K", "Q", "J", "10", "9", "8", "7")
            if rules.settings.get("standard_order")
            else ("A", "10", "K", "Q", "J", "9", "8", "7")
        )
        out = {suit: [f"{r}{suit}" for r in order] for suit in SUITS}
    return out


def rule_help(rule_set: str, settings: dict, players: int) -> dict:
    rules = make_rules(rule_set, settings, players)
    word = getattr(rules, "trump_word", "trump")
    return {
        "rule_set": rule_set,
        "title": rules.title,
        "trump_word": word,
        "terms": {"drumpf": DRUMPF} if word == "drumpf" else {},
        "sections": sections(rules.describe()),
        "trump_order": ranking(rule_set, rules.settings, players),
    }
