"""GET /players/me/games: the tables a player sat down at, newest first, with their status and transcript link;
and the `you` member of a table answer (the caller's seat, host, watching), on both stores."""

from __future__ import annotations

from tests.service.client import Api, play_to_end


def test_a_players_games_list_their_seat_status_and_transcript_newest_first(app):
    api = Api(app.test_client())
    alice, bob = api.player("alice"), api.player("bob")
    finished = api.table(alice, rule_set="spades", clocks="off")
    api.start(alice, finished["id"])
    play_to_end(api, finished["id"], [alice])
    hosted_only = api.table(alice, rule_set="spades", seat=None)  # a host who does not play
    joined = api.table(bob, rule_set="120s-auction")
    assert api.post(f"/tables/{joined['id']}/join", alice, json={"seat": 2}).status_code == 200

    games = api.get("/players/me/games", alice).get_json()["games"]
    assert [g["id"] for g in games] == [joined["id"], finished["id"]]  # newest first; not the table she only hosts
    assert hosted_only["id"] not in [g["id"] for g in games]
    now, done = games
    assert (now["status"], now["seat"], now["is_host"], now["host"]) == ("open", 2, False, "bob")
    assert (done["status"], done["end_reason"], done["seat"], done["is_host"]) == ("over", "finished", 0, True)
    assert done["links"]["transcript"] == f"/games/{finished['id']}/transcript"
    assert done["links"]["verify"] == f"/verify/{finished['id']}"
    assert api.get(done["links"]["transcript"]).get_json()["end"]["reason"] == "finished"
    # bob sees only his own
    assert [g["id"] for g in api.get("/players/me/games", bob).get_json()["games"]] == [joined["id"]]


def test_a_seat_given_back_before_the_start_is_no_game_of_the_player(app):
    api = Api(app.test_client())
    host, guest = api.player(), api.player()
    t = api.table(host, rule_set="spades")
    api.post(f"/tables/{t['id']}/join", guest, json={})
    assert len(api.get("/players/me/games", guest).get_json()["games"]) == 1
    api.post(f"/tables/{t['id']}/leave", guest)
    assert api.get("/players/me/games", guest).get_json()["games"] == []


def test_the_list_needs_a_token_and_a_whole_number_limit(app):
    api = Api(app.test_client())
    assert api.get("/players/me/games").status_code == 401
    p = api.player()
    r = api.get("/players/me/games?limit=ten", p)
    assert r.status_code == 400 and r.get_json()["code"] == "bad-request"
    for _ in range(3):
        api.table(p, rule_set="spades")
    assert len(api.get("/players/me/games?limit=2", p).get_json()["games"]) == 2


def test_a_table_tells_the_caller_their_seat_and_whether_they_host_or_watch(app):
    api = Api(app.test_client())
    host, guest, fan = api.player(), api.player(), api.player()
    t = api.table(host, rule_set="spades")
    assert t["you"] == {"seat": 0, "host": True, "watching": False}
    assert api.post(f"/tables/{t['id']}/join", guest, json={"seat": 3}).get_json()["you"] == {
        "seat": 3,
        "host": False,
        "watching": False,
    }
    assert api.post(f"/tables/{t['id']}/watch", fan).get_json()["you"] == {
        "seat": None,
        "host": False,
        "watching": True,
    }
    assert api.get(f"/tables/{t['id']}", guest).get_json()["you"]["seat"] == 3
    assert "you" not in api.get(f"/tables/{t['id']}").get_json()  # no token: nobody in particular
