"""Duplicate tournaments (docs/tournaments.md): an honest export passes every check of `fairdeal-verify
tournament`; each way a dishonest organiser holding the signing key could change one fails the check it must."""

import pytest

from fairdeal.core.cards import PACK_52
from fairdeal.core.checks import verify_transcript
from fairdeal.core.fairness import BoardChance, SeedChance
from fairdeal.core.tournament import pairing, scoring
from fairdeal.core.tournament.check import CHECKS, verify_tournament
from fairdeal.core.tournament.play import play_tournament
from fairdeal.core.tournament.seeds import board_seed, seed_from_hex
from tests.verifier.tamper_kit import resign
from tests.verifier.tournament_kit import KEY, PUBLIC, SERVER_SEED, entries, resign_end, resign_round, tournament


def statuses(report):
    return {cid: status for cid, status, _ in report.checks}


@pytest.mark.parametrize(
    "rule_set,players,fmt,rounds,n,size",
    [
        ("spades", 4, "swiss", 2, 5, 2),  # odd: a bye each round
        ("spades", 4, "round-robin", 3, 4, 2),
        ("120s-house", 4, "swiss", 2, 4, 2),
        ("120s-house", 3, "swiss", 2, 7, 1),  # cutthroat: individual entries, a bye
        ("twenty-down", 4, "swiss", 2, 8, 1),
    ],
)
def test_an_honest_tournament_passes_every_check(rule_set, players, fmt, rounds, n, size):
    report = verify_tournament(tournament(rule_set, players, fmt, rounds, n, size), key=PUBLIC)
    assert report.unusable is None
    assert statuses(report) == {cid: "pass" for cid in CHECKS}, report.checks


def test_every_table_of_a_round_is_dealt_the_same_packs_and_first_dealer():
    ex = tournament()
    for rnd in ex["rounds"]:
        seed = seed_from_hex(rnd["result"]["board_seed"])
        deals = [[(d["hand"], d["dealer"]) for d in g["end"]["deals"]] for g in rnd["games"]]
        assert len({ds[0] for ds in deals}) == 1  # one first dealer at every table
        assert len(rnd["games"]) >= 2
    a, b = BoardChance(b"\x01" * 32, seed), BoardChance(b"\x02" * 32, seed)
    assert a.deck(3, PACK_52) == b.deck(3, PACK_52) == SeedChance(seed).deck(3, PACK_52)
    assert a.first_dealer(4) == b.first_dealer(4)
    assert a.bot_rng(5).randbelow(10**9) != b.bot_rng(5).randbelow(10**9)  # bots still the table's own


def test_a_table_game_verifies_alone_with_its_board_seed_and_not_without():
    rnd = tournament()["rounds"][0]
    game, seed = rnd["games"][0], seed_from_hex(rnd["result"]["board_seed"])
    assert verify_transcript(game, key=PUBLIC, board_seed=seed).ok
    without = verify_transcript(game, key=PUBLIC)
    assert without.exit_code == 2 and "board seed" in without.unusable
    wrong = verify_transcript(game, key=PUBLIC, board_seed=bytes(32))
    assert wrong.exit_code == 2 and "does not open" in wrong.unusable


def test_a_changed_standing_fails_standings():
    ex = tournament()
    table = ex["rounds"][0]["result"]["standings"]
    table[0]["points"] += 1
    report = verify_tournament(resign_round(ex, 0), key=PUBLIC)
    assert statuses(report)["standings"] == "fail"
    assert statuses(report)["games"] == "pass"


def test_a_swapped_final_standing_fails_standings():
    ex = tournament()
    s = ex["end"]["standings"]
    s[0]["entry"], s[1]["entry"] = s[1]["entry"], s[0]["entry"]
    assert statuses(verify_tournament(resign_end(ex), key=PUBLIC))["standings"] == "fail"


def test_a_changed_board_pack_at_one_table_fails():
    # The organiser deals round 1's table 1 from another seed, committing (as it must) to the round's board.
    other = lambda r, t, seed: bytes(32) if (r, t) == (1, 1) else seed  # noqa: E731
    ex = play_tournament(KEY, SERVER_SEED, tournament_id="T-spades-swiss", entries=entries(5, 2), board_seed_of=other)
    report = verify_tournament(ex, key=PUBLIC)
    assert statuses(report)["games"] == "fail"
    assert "round 1 table 1" in dict((c, m) for c, _, m in report.checks)["games"]


def test_a_game_committed_to_another_board_fails_same_packs():
    ex = tournament()
    game = ex["rounds"][0]["games"][1]
    game["commit"]["board"]["board_commitment"] = "0" * 64
    resign(game, KEY)
    assert statuses(verify_tournament(resign_round(ex, 0), key=PUBLIC))["same-packs"] == "fail"


def test_a_swapped_seat_fails_seats():
    ex = tournament()
    game = ex["rounds"][1]["games"][0]
    for name in ("seating", "start"):
        seats = game[name]["seats"]
        seats[0]["name"], seats[1]["name"] = seats[1]["name"], seats[0]["name"]
    resign(game, KEY)
    report = verify_tournament(resign_round(ex, 1), key=PUBLIC)
    assert statuses(report)["games"] == "pass"  # the game itself is intact and re-signed
    assert statuses(report)["seats"] == "fail"


def test_a_dropped_game_fails_games_complete():
    ex = tournament()
    ex["rounds"][0]["games"].pop()
    assert statuses(verify_tournament(resign_round(ex, 0), key=PUBLIC))["games-complete"] == "fail"


def test_a_chosen_pairing_fails_pairings():
    ex = tournament()
    table = ex["rounds"][0]["round"]["tables"][0]
    table["entries"].reverse()  # the organiser turns a table
    assert statuses(verify_tournament(resign_round(ex, 0), key=PUBLIC))["pairings"] == "fail"


def test_a_record_changed_without_the_key_fails_signatures():
    ex = tournament()
    ex["rounds"][0]["result"]["standings"][0]["points"] += 1
    report = verify_tournament(ex, key=PUBLIC)
    assert statuses(report)["tournament-signatures"] == "fail"
    assert statuses(report)["standings"] == "skip"


def test_another_server_seed_fails_the_commitment():
    ex = tournament()
    ex["end"]["server_seed"] = "ab" * 32
    assert statuses(verify_tournament(resign_end(ex), key=PUBLIC))["tournament-commitment"] == "fail"


def test_a_changed_entry_seed_fails_entry_seeds():
    ex = tournament()
    ex["start"]["seeds"][0]["client_seed"] = "another seed"
    from fairdeal.core.writer import sign_record

    ex["start_signature"] = sign_record(KEY, ex["start"])
    assert statuses(verify_tournament(ex, key=PUBLIC))["entry-seeds"] == "fail"


def test_garbage_is_unusable_not_a_crash():
    assert verify_tournament({"protocol": "nope"}).exit_code == 2
    assert verify_tournament({"protocol": "fairdeal-tournament/1"}).exit_code == 2


# --------------------------------------------------------------------------- pairing and scoring, alone


def test_round_robin_meets_everyone_once():
    for n in (4, 5, 6, 7):
        met, byes = set(), []
        rounds = pairing.max_rounds("round-robin", n, 2)
        for r in range(1, rounds + 1):
            tables, bye = pairing.round_robin(list(range(n)), r)
            for a, b in tables:
                assert frozenset((a, b)) not in met
                met.add(frozenset((a, b)))
            byes += bye
        assert len(met) == n * (n - 1) // 2
        assert sorted(byes) == (list(range(n)) if n % 2 else [])


def test_swiss_avoids_a_rematch_where_it_can_and_gives_the_bye_to_the_lowest_without_one():
    tables, byes = pairing.swiss([0, 1, 2, 3, 4], {frozenset((0, 1))}, {4: 1}, 2)
    assert byes == [3]  # 4 had a bye already
    assert tables == [[0, 2], [1, 4]]
    tables, _ = pairing.swiss([0, 1], {frozenset((0, 1))}, {}, 2)
    assert tables == [[0, 1]]  # unavoidable


def test_matchpoints_compare_each_side_with_the_same_side_elsewhere():
    # three tables; deal 1 played only at tables 0 and 1 (table 2's game ended after one deal)
    tables = [[[10, -10], [5, 0]], [[10, 0], [0, 5]], [[-20, 30]]]
    mp = scoring.matchpoints(tables)
    assert mp[0] == [(1 + 2 + 2, 6), (0 + 0 + 0, 6)]
    assert mp[2] == [(0, 4), (4, 4)]
    assert scoring.round_points(5, 6) == 8333 and scoring.round_points(0, 0) == scoring.BYE_POINTS


def test_board_seeds_differ_by_round():
    assert board_seed(b"\x07" * 32, 1) != board_seed(b"\x07" * 32, 2)


def test_a_table_game_with_a_server_seed_the_organiser_chose_fails_games():
    # The game seed drives the bots: an organiser who picks it could pick how a table's bots play its boards.
    chosen = lambda r, t, seed: b"\x05" * 32 if (r, t) == (2, 0) else seed  # noqa: E731
    from fairdeal.core.tournament.play import play_rounds

    ex = tournament()
    del ex["rounds"], ex["end"], ex["end_signature"]
    ex = play_rounds(KEY, SERVER_SEED, ex, game_server_seed=chosen)
    report = verify_tournament(ex, key=PUBLIC)
    assert statuses(report)["games"] == "fail"
    assert "round 2 table 0" in dict((c, m) for c, _, m in report.checks)["games"]


def test_the_verify_page_python_takes_a_tables_board_seed():
    """The verify page's own Python entry (pyshim/verify_page.py, what Pyodide runs) takes the board seed of the
    tournament page's link as `--board-seed` does: with it the table verifies, without it the report says why."""
    import importlib.util
    import json
    from pathlib import Path

    import fairdeal.service.web as web

    # loaded by its path: the pyshim folder's stand-in `cryptography` must not shadow the real one here
    spec = importlib.util.spec_from_file_location(
        "verify_page", Path(web.__file__).parent / "pyshim" / "verify_page.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    verify = module.verify
    rnd = tournament()["rounds"][0]
    game, seed = json.dumps(rnd["games"][0]), rnd["result"]["board_seed"]
    options = {"keys": [PUBLIC], "board_seed": seed}
    assert json.loads(verify(game, json.dumps(options)))["ok"] is True
    without = json.loads(verify(game, json.dumps({"keys": [PUBLIC]})))
    assert without["ok"] is False and "board seed" in json.dumps(without)
    assert "usage" in json.loads(verify(game, json.dumps({**options, "board_seed": "XYZ"})))
