"""The terminal's prompts (fairdeal/client/session.py): the cards one reason refuses are named on one line, not
one line each ("You must follow clubs." ten times); Enter where there is no suggestion says so; a q asks first."""

from __future__ import annotations

from fairdeal.client import session as session_module
from fairdeal.client.session import Session
from fairdeal.client.text import Table
from tests.service.client import Api


def _spades_view(api: Api) -> dict:
    p = api.player()
    t = api.table(p, rule_set="spades", clocks="off")
    api.start(p, t["id"])
    return api.view(p, t["id"])


def test_one_line_per_reason_for_the_cards_that_cannot_be_played(api, capsys):
    game = _spades_view(api)
    game["why_not"] = {c: "You must follow clubs." for c in ("2H", "5H", "9H", "KD")} | {"AS": "Spades not broken."}
    s = Session(None, game["game_id"])
    s.table = Table(game)
    s.show(game)
    out = capsys.readouterr().out
    assert out.count("You must follow clubs.") == 1 and "2H 5H 9H KD: You must follow clubs." in out
    assert "AS: Spades not broken." in out


def test_enter_without_a_suggestion_says_so_and_q_asks_before_leaving(api, monkeypatch, capsys):
    game = _spades_view(api)
    game["suggested"] = None
    answers = iter(["", "q", "n", "1"])
    monkeypatch.setattr(session_module, "read_line", lambda prompt, deadline: next(answers))
    s = Session(None, game["game_id"])
    s.table = Table(game)
    move = s.ask(game, game["legal_moves"])
    out = capsys.readouterr().out
    assert "there is no suggestion here" in out
    assert "You are the only player at this table: leaving ends the game" in out, "q says what it does, and asks"
    assert move == game["legal_moves"][0], "after 'n' the player is still asked, and chose 1"
