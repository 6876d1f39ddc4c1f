"""Duplicate tournaments anyone can verify (docs/tournaments.md): the pure core.

seeds     the tournament commitment, the entries' client-seed commitments, the tournament seed, its streams and
          the round board seeds with their commitments
pairing   round-robin and Swiss pairings, byes and the sides each entry takes at its table
scoring   per-deal results of a table's game, matchpoints and the standings with their tie-breaks
play      a whole tournament played by the policies, as a signed export (tests, the example, the bench)
check     `fairdeal-verify tournament`: every check on an export
"""
