"""Concrete Twenty Down deals that several scenario modules play (the deck helpers are helpers.py's)."""

from .helpers import deck_for

# Dealer 0: seat 1 is the trump maker. Every card is named: the stock is exactly the last twelve.
DEAL = deck_for(
    0,
    first={1: "AS 10S", 2: "7C 8C", 3: "9D 10D", 0: "JH QH"},
    second={1: "KS QS JS", 2: "9C 10C JC", 3: "JD QD KD", 0: "KH AH 7H"},
    stock="7S 8S 9S 7D 8D AD QC KC AC 8H 9H 10H",
)

# Dealer 0, trump maker 1. Seat 1 leads KH, seat 2 holds 10H; seats 3 and 0 hold neither hearts nor clubs.
KING_AND_TEN = deck_for(
    0,
    first={1: "KH 7C", 2: "10H 8C", 3: "7D 8D", 0: "7S 8S"},
    second={1: "9C 10C JC", 2: "QC KC AC", 3: "9D 10D JD", 0: "9S 10S JS"},
)

# Dealer 0, trump spades: seat 1 wins three spade tricks, then seat 2 two club tricks; seats 3 and 0 take none.
THREE_AND_TWO = deck_for(
    0,
    first={1: "AS 10S", 2: "AC 10C", 3: "AD KD", 0: "AH KH"},
    second={1: "KS 7C 8C", 2: "KC QC JC", 3: "QD JD 10D", 0: "QH JH 10H"},
)
