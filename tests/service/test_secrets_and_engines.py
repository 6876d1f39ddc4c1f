"""A game's seed is written once and never replaced (issue 21, §4): a commit for an id already in use leaves the
seed of the game there alone; ending a game whose seed is missing says so (it raised TypeError); a rule set
whose engine does not load fails the service's start (it silently left the lobby)."""

from __future__ import annotations

import pytest

from fairdeal.core.games import RULE_SETS, make_rules
from fairdeal.service.app import create_app
from fairdeal.service.config import Config
from fairdeal.service.store import keys
from fairdeal.service.store.base import SecretMissing


@pytest.fixture
def svc(app):
    return app.extensions["fairdeal"]


def test_a_commit_for_an_id_in_use_leaves_that_games_seed_alone(api, svc):
    p = api.player()
    gid = api.table(p, rule_set="spades")["id"]
    seed = svc.store.get_secret(gid)
    with pytest.raises(RuntimeError, match="already in use"):
        svc.games.append_commit(gid, make_rules("spades", {}, 4).to_json())
    assert svc.store.get_secret(gid) == seed  # the seed its published commitment binds


def test_ending_a_game_whose_seed_is_missing_says_so(api, svc):
    p = api.player()
    gid = api.table(p, rule_set="spades")["id"]
    c = svc.games.get(gid)
    if hasattr(svc.store, "r"):  # Redis
        svc.store.r.delete(keys.secret(gid))
    else:
        svc.store._exec("DELETE FROM secrets WHERE game_id=?", (gid,))
    with pytest.raises(SecretMissing, match=gid):
        svc.games.finish(c, "cancelled")


def test_a_rule_set_whose_engine_does_not_load_fails_the_start(tmp_path, monkeypatch):
    import sys

    from fairdeal.core.games import spades

    # the engine's module does not import (None in sys.modules: Python's own way to make an import fail)
    monkeypatch.setitem(sys.modules, "fairdeal.core.games.spades", None)
    with pytest.raises(RuntimeError, match="'spades'.*cannot be loaded.*fairdeal.core.games.spades"):
        create_app(Config(data_dir=str(tmp_path)))
    monkeypatch.undo()
    # the engine imports but lacks its class
    monkeypatch.delattr(spades, "SpadesRules")
    with pytest.raises(RuntimeError, match="'spades'.*cannot be loaded.*SpadesRules"):
        create_app(Config(data_dir=str(tmp_path)))
    monkeypatch.undo()
    # an id registered with another rule set's class
    monkeypatch.setitem(RULE_SETS, "spades", RULE_SETS["twenty-down"])
    with pytest.raises(RuntimeError, match="'spades'.*cannot be loaded.*TwentyDownRules"):
        create_app(Config(data_dir=str(tmp_path)))
    monkeypatch.undo()
    create_app(Config(data_dir=str(tmp_path)))  # the engine whole again: the service starts


def test_a_broken_engine_does_not_stop_the_others(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "fairdeal.core.games.spades", None)
    assert make_rules("twenty-down").id == "twenty-down"
    with pytest.raises(ImportError):
        make_rules("spades")
