"""The rules line of Spades: the whole rule set in one text (the lobby's room line)."""

DESCRIPTION = (
    "Spades: four players, partners sit opposite (seats 0 and 2 against 1 and 3); 52 cards, aces high, "
    "13 each, dealt one at a time from the dealer's left; the deal passes left every hand; spades are "
    "always trump. Each player bids once, 0 (nil) to 13, from the dealer's left; no blind nil. The "
    "dealer's left leads first; follow suit if you can, else play any card; the highest spade, else the "
    "highest card of the suit led, takes the trick and leads the next. No spade may be led until a "
    "spade has been played on an earlier trick, unless the hand holds only spades. A team's contract "
    "is its two bids added; made: +10 a trick bid and +1 a bag (an extra trick); set: -10 a trick bid. "
    "Nil made +100, lost -100 (its tricks are bags and do not help the partner). Every 10 bags: -100. "
    "The game ends after a hand where a team has 500 or more or -200 or less; the higher team wins; "
    "a tie plays one more hand."
)
