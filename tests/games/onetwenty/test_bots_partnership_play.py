"""120s bots in play: leads, and playing behind a partner who is winning the trick (bots.py `lead_card`,
`support_card`). Hearts are trumps throughout; seat 1 bid. The house and traditional first lead is the bidder's
left (seat 2); the auction bidder leads.
"""

from fairdeal.core.games.base import FirstChoiceRng
from tests.games.onetwenty.helpers import bid_and_throw, new_game, play
from tests.games.onetwenty.scenes import ready, trick

BOT = FirstChoiceRng()
A, H, T = "120s-auction", "120s-house", "120s-traditional"


def bot(g, seat=None):
    s = g.to_move if seat is None else seat
    return g.rules.bot_move(g.view(s), BOT)


# --- Behind a winning partner -------------------------------------------------------------------------------------
def test_last_to_play_behind_a_winning_partner_the_bot_plays_low_rather_than_trump():
    hands = {2: "4D 2C 3C 4C 6C", 3: "AD 2S 3S 4S 6S", 0: "6D 7S 8S 9S 10S", 1: "5H KD 7D 8C 9C"}
    g = ready(H, hands, kitty="7C JC QC")
    for c in ("4D", "AD", "6D"):  # seat 3, seat 1's partner, wins with the ace
        g.apply(g.to_move, play(c))
    assert bot(g, 1) == play("7D")  # not the 5 of trumps, not the king


def test_last_to_play_behind_a_winning_opponent_the_same_hand_takes_the_trick():
    hands = {2: "4D 2C 3C 4C 6C", 3: "6D 2S 3S 4S 6S", 0: "AD 7S 8S 9S 10S", 1: "5H KD 7D 8C 9C"}
    g = ready(H, hands, kitty="7C JC QC")
    for c in ("4D", "6D", "AD"):  # seat 0, an opponent, wins with the ace
        g.apply(g.to_move, play(c))
    assert bot(g, 1) == play("5H")  # only a trump beats it: the cheapest card that wins


def test_the_bot_does_not_overtake_its_partners_trump():
    # Seat 2 leads a trump; seat 3 has none; seat 0 (seat 2's partner) could take over with the J but plays its
    # lowest trump (it must play one: the 4 is not one of the top three that may be kept back).
    hands = {2: "6H 2C 3C 4C 6C", 3: "2S 3S 4S 6S 7S", 0: "JH 4H KC 8S 9S", 1: "AD KD 7D 8C 9C"}
    g = ready(H, hands, kitty="7C JC QC")
    g.apply(2, play("6H"))
    g.apply(3, play("2S"))
    assert bot(g, 0) == play("4H")


def test_with_an_opponent_still_to_play_the_bot_covers_its_partners_low_card_with_the_top_card():
    hands = {2: "4D 2C 3C 4C 6C", 3: "2D 2S 3S 4S 6S", 0: "AD 6D 8S 9S 10S", 1: "KD 7D 8C 9C JS"}
    g = ready(H, hands, kitty="7C JC QC")
    g.apply(2, play("4D"))
    g.apply(3, play("2D"))  # seat 2, the bot's partner, is winning with the 4
    assert bot(g, 0) == play("AD")  # seat 1 could beat the 4; nothing but a trump beats the ace
    g.apply(0, play("AD"))
    assert bot(g, 1) == play("7D")  # and seat 1, behind a winning opponent it cannot beat, plays low


def test_without_the_top_card_the_bot_plays_low_behind_its_partner():
    hands = {2: "4D 2C 3C 4C 6C", 3: "2D 2S 3S 4S 6S", 0: "KD 6D 8S 9S 10S", 1: "AD 7D 8C 9C JS"}
    g = ready(H, hands, kitty="7C JC QC")
    g.apply(2, play("4D"))
    g.apply(3, play("2D"))
    assert bot(g, 0) == play("6D")  # the king is not spent: the ace may be out


def test_behind_a_partner_winning_with_the_top_card_the_bot_plays_low_even_with_an_opponent_to_play():
    hands = {2: "AC 2C 3C 4C 6C", 3: "KC 2S 3S 4S 6S", 0: "JH QC 8S 9S 10S", 1: "AD 7D 8C 9C JS"}
    g = ready(T, hands, kitty="8D 9D 10D")
    g.apply(2, play("AC"))
    g.apply(3, play("KC"))
    assert bot(g, 0) == play("QC")  # no trump on its partner's ace


# --- Leads ---------------------------------------------------------------------------------------------------------
def test_the_bidder_leads_its_highest_trump_to_pull_trumps():
    g = new_game(A, {1: "JH 6H 4H AC 2S"})
    bid_and_throw(g, 1, 15, "H")
    assert bot(g, 1) == play("JH")


def test_the_bidder_with_a_single_trump_leads_its_best_plain_card():
    g = new_game(A, {1: "JH AC KS 2D 3S"})
    bid_and_throw(g, 1, 15, "H")
    assert bot(g, 1) == play("AC")


def test_an_opponent_leads_its_best_plain_card_not_its_trumps():
    hands = {2: "5H JH KD 2C 3S", 1: "AH 2H 3H 4H 6H"}
    g = ready(H, hands, kitty="7C JC QC")
    assert bot(g, 2) == play("KD")


def test_the_bidders_partner_leads_its_best_plain_card_and_keeps_its_trumps():
    hands = {1: "7C 2D 3D 4D 6D", 2: "2C 3S 4S 6S 7S", 3: "4H JH 6H AD 8S", 0: "3C 9S 10S JS QS"}
    g = new_game(A, hands)
    bid_and_throw(g, 1, 15, "H")
    assert trick(g, "7C", "2C", "4H", "3C") == 3  # seat 3, void in clubs, must trump and wins
    assert bot(g, 3) == play("AD")


def test_in_hearts_not_trump_the_king_of_hearts_is_the_top_plain_card():
    # The ace of hearts is always a trump, so the king is the best plain heart: the bot covers its partner with it.
    hands = {2: "4H 2C 3C 4C 6C", 3: "2H 2S 3S 4S 6S", 0: "KH 6H 8S 9S 10S", 1: "QH 7H 8C 9C JS"}
    g = ready(H, hands, suit="D", kitty="7C JC QC")
    g.apply(2, play("4H"))
    g.apply(3, play("2H"))
    assert bot(g, 0) == play("KH")
