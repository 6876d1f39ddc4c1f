"""The audit's shortcuts give exactly what the general code gives: parsing JSON bytes without the canonical walk,
hashing a parsed transcript without validating it again, one quick test for a plain move record, card texts
precomputed, a complete trick's JSON made once."""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fairdeal.core import fastpath, keys
from fairdeal.core.canonical import canonical_json, canonical_json_of_parsed
from fairdeal.core.cards import PACK_52, RANK_TEXT, Card, card_from_str, cards_to_str
from fairdeal.core.games import available
from fairdeal.core.games.tricks import Trick, TrickPlay
from fairdeal.core.integrity import check_chain
from fairdeal.core.reader import TranscriptError, parse_transcript
from fairdeal.core.selfplay import selfplay
from fairdeal.core.transcript import record_hash, transcript_body

KEY = keys.private_key_from_hex("3c" * 32)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def games() -> list[dict]:
    return [
        selfplay(rule_set, KEY, bytes([i + 1]) * 32, bots=(1, 3), timeout_every=3)
        for i, rule_set in enumerate(available())
    ]


def _outcome(data):
    try:
        return "ok", parse_transcript(data)
    except TranscriptError as exc:
        return "refused", str(exc)


def _swap_first(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _hostile(text: str) -> list[str]:
    """Texts that the canonical walk refuses (or must not refuse), at several places of a real transcript."""
    seq = '"seq":1,'
    return [
        _swap_first(text, seq, '"seq":9007199254740992,'),  # 2**53: out of range
        _swap_first(text, seq, '"seq":-9007199254740992,'),
        _swap_first(text, seq, '"seq":9007199254740991,'),  # 2**53 - 1: in range
        _swap_first(text, seq, '"seq":100000000000000000000,'),
        _swap_first(text, '"settings":{', '"settings":{"x":[1,[12345678901234567890]],'),
        _swap_first(text, '"name":"', '"name":"\\ud800'),  # a lone surrogate
        _swap_first(text, '"name":"', '"name":"\\uDFFF'),
        _swap_first(text, '"name":"', '"name":"\\ud83d\\ude00'),  # a pair: one character, fine
        _swap_first(text, '"name":"', '"name":"\\\\ud800'),  # an escaped backslash: plain text
        _swap_first(text, '"name":"', '"name":"\\u00e9 1234567890123456 '),
    ]


def test_parsing_bytes_refuses_and_accepts_exactly_what_the_canonical_walk_does(games):
    for t in games:
        text = json.dumps(t, separators=(",", ":"), ensure_ascii=False)
        for hostile in _hostile(text):
            walked = _outcome(hostile)  # text input always takes the walk
            fast = _outcome(hostile.encode("utf-8"))  # bytes skip it unless it can find something
            assert fast == walked


def test_an_out_of_range_integer_in_bytes_is_refused_with_the_walks_sentence(games):
    text = json.dumps(games[0], separators=(",", ":"))
    data = _swap_first(text, '"seq":2,', '"seq":9007199254740992,').encode()
    with pytest.raises(
        TranscriptError,
        match=r"no canonical JSON form: \$\.records\[1\]\.seq: integer "
        r"9007199254740992 is outside",
    ):
        parse_transcript(data)


def test_a_parsed_transcript_hashes_and_signs_to_the_same_bytes(games):
    for t in games:
        parsed = parse_transcript(json.dumps(t).encode())
        assert canonical_json_of_parsed(parsed) == canonical_json(parsed)
        assert transcript_body(parsed, parsed=True) == transcript_body(parsed)
        for record in parsed["records"] + [parsed["seating"], parsed["start"], parsed["end"]]:
            assert canonical_json_of_parsed(record) == canonical_json(record)
        assert check_chain(parsed, parsed=True) == check_chain(parsed) == []


def test_a_broken_chain_is_reported_alike_on_the_quick_path(games):
    parsed = parse_transcript(json.dumps(games[1]).encode())
    parsed["records"][4]["prev"] = record_hash(parsed["records"][1])
    del parsed["records"][7]
    assert check_chain(parsed, parsed=True) == check_chain(parsed)
    assert len(check_chain(parsed)) >= 2


def test_move_records_that_fail_the_quick_test_get_the_full_sentences(games):
    t = copy.deepcopy(games[0])
    rec = t["records"][3]
    cases = [
        ("seq", True, r"records\[3\]\.seq should be integer"),
        ("by", "ghost", "by should be one of"),
        ("move", [], r"records\[3\]\.move should be object"),
        ("salt", "ab", "salt should be 64 hex"),
        ("at", 5, r"records\[3\]\.at should be text"),
        ("extra", 1, "unknown field 'extra'"),
        ("type", "end", "type should be 'move'"),
    ]
    for key, value, message in cases:
        bad = copy.deepcopy(t)
        bad["records"][3][key] = value
        with pytest.raises(TranscriptError, match=message):
            parse_transcript(json.dumps(bad).encode())
    for key in rec:
        bad = copy.deepcopy(t)
        del bad["records"][3][key]
        with pytest.raises(TranscriptError, match=rf"records\[3\] has no '{key}'"):
            parse_transcript(json.dumps(bad).encode())


def test_card_texts_are_the_rank_and_suit_written_out():
    for c in PACK_52:
        text = RANK_TEXT.get(c.rank, str(c.rank)) + c.suit
        assert str(c) == text and cards_to_str([c]) == [text]
        assert card_from_str(text) is c and card_from_str(" " + text.lower() + " ") is c
    assert card_from_str("TH") is card_from_str("10H")
    assert str(Card(1, "X")) == "1X" and cards_to_str([Card(15, "S")]) == ["15S"]


def test_a_complete_tricks_json_is_made_once_and_stays_right():
    hands = {0: [card_from_str("2H")], 1: [card_from_str("9H")]}
    play = TrickPlay(hands, [0, 1], 0, lambda c, led: c.rank if c.suit == led.suit else -1, 1)
    play.play(0, card_from_str("2H"))
    play.play(1, card_from_str("9H"))
    done = play.done[0]
    first = done.to_json()
    assert first == {"leader": 0, "plays": [[0, "2H"], [1, "9H"]], "winner": 1, "winning_card": "9H"}
    assert done.to_json() is first  # not made again
    fresh = Trick(done.leader, list(done.plays), done.winner, done.winning_card)
    assert fresh == done and fresh.to_json() == first  # the cache is no field: == ignores it
    done.plays.append((0, card_from_str("3H")))  # a changed trick is never served from the cache
    assert done.to_json()["plays"][-1] == [0, "3H"]


def test_the_one_form_check_of_a_played_card_agrees_with_the_general_one():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from fairdeal.core.games.base import GameError, Move
    from fairdeal.core.replay import is_canonical

    texts = [str(c) for c in PACK_52] + ["TH", "th", "10h", "ah", " AS", "10S "]
    extra = st.dictionaries(st.sampled_from(["value", "cards", "seat", "x"]), st.integers(0, 3), max_size=2)

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from(texts), extra)
    def check(card, more):
        data = {"kind": "play", "card": card, **more}
        try:
            move = Move.from_json(data)
        except GameError:
            return
        if more:  # a member a play does not have: never its one form (transcript.md, "Moves")
            assert not is_canonical(move, data)
        else:
            assert is_canonical(move, data) == (move.to_json() == data) == (card in [str(c) for c in PACK_52])

    check()


# ----------------------------------------------------------------- the audit's fast paths, against the general code


def test_a_keyed_hmac_is_hmac_sha256():
    import hashlib
    import hmac
    import random

    from fairdeal.core.fairness import KeyedHmac

    rng = random.Random(5)
    for size in (0, 1, 31, 32, 33, 63, 64, 65, 100, 200):
        key = rng.randbytes(size)
        mac = KeyedHmac(key)
        for msg in (b"", b"salt/1\x00\x00\x00\x00\x00", rng.randbytes(64), rng.randbytes(1000)):
            assert mac.digest(msg) == hmac.digest(key, msg, "sha256") == hmac.new(key, msg, hashlib.sha256).digest()
    assert KeyedHmac(b"k").digest(b"a") != KeyedHmac(b"k").digest(b"b")


def test_record_salts_are_record_salt_one_by_one():
    from fairdeal.core.fairness import record_salt, record_salts

    for seed in (bytes(32), bytes(range(32)), b"\xff" * 32):
        assert record_salts(seed, 300) == [record_salt(seed, seq) for seq in range(1, 301)]
    assert record_salts(bytes(32), 0) == []
    with pytest.raises(ValueError):
        record_salts(b"short", 3)


def test_a_bot_rng_made_fast_draws_what_bot_rng_draws():
    from fairdeal.core.fairness import SeedChance

    for seed in (bytes(32), bytes(range(32))):
        chance = SeedChance(seed)
        for seq in (1, 2, 9, 10, 255, 256, 1000, 123456):
            fast, general = chance.bot_rng_fast(seq), chance.bot_rng(seq)
            draws = [1, 2, 3, 7, 13, 256, 257, 1 << 40, 5] * 4
            assert [fast.randbelow(n) for n in draws] == [general.randbelow(n) for n in draws]
            assert fast.read(70) == general.read(70)


def test_the_body_and_hashes_made_together_are_the_general_ones(games):
    from fairdeal.core.transcript import body_and_hashes_one_by_one, parsed_body_and_hashes

    examples = [json.loads(p.read_text()) for p in (ROOT / "docs" / "examples").glob("*.json")]
    unended = copy.deepcopy(games[0])
    del unended["end"], unended["signature"]
    logged = copy.deepcopy(games[1])
    logged["log"] = {"note": "unsigned \u00e9 \\u2028"}
    for t in [*games, *examples, unended, logged]:
        parsed = parse_transcript(json.dumps(t).encode())
        assert parsed_body_and_hashes(parsed) == body_and_hashes_one_by_one(parsed)


def test_reading_a_played_card_fast_is_reading_it_in_full(games):
    from fairdeal.core.replay import ReplayError, read_move, read_move_fast

    def outcome(read, record, protocol):
        try:
            return read(record, protocol)
        except ReplayError as exc:
            return exc.code, exc.fields

    odd = [{"kind": "play", "card": c} for c in ("TH", "10h", "1H", "", None, 10)]
    odd += [
        {"kind": "play", "card": "10H", "cards": []},
        {"card": "10H", "kind": "play"},
        ["play", "10H"],
        {"kind": "bid", "value": 15},
        {"kind": "play"},
    ]
    # the other moves kept once read: a bool is not the number it equals, members in any order, a member too many
    odd += [
        {"kind": "bid", "value": True},
        {"kind": "bid", "value": 1},
        {"kind": "bid", "value": False},
        {"kind": "bid", "value": 0},
        {"value": 15, "kind": "bid"},
        {"kind": "bid", "value": [15]},
        {"kind": "pass"},
        {"kind": "pass", "value": None},
        {"kind": "trump", "value": "H"},
        {"kind": "trump", "value": "h"},
        {"kind": "throw", "cards": ["5H"]},
        {"kind": "bid", "value": {"n": 1}},
    ]
    # throws, read fast only in their one form: card texts in canonical order (C D H S, 2 up to A), no repeat
    odd += [
        {"kind": "throw", "cards": c}
        for c in (
            [],
            ["2C", "10D", "AS"],
            ["10D", "2C"],
            ["2C", "2C"],
            ["TD"],
            ["10d"],
            ["2C", 5],
            ["2C", ["3C"]],
            [None],
            ("2C",),
            "2C",
            None,
            {"2C": 1},
            ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"],
            ["AS", "KS"],
        )
    ]
    odd += [
        {"kind": "throw"},
        {"kind": "throw", "cards": ["5H"], "card": "5H"},
        {"cards": ["5H", "6H"], "kind": "throw"},
    ]
    moves = [r["move"] for t in games for r in t["records"]] + odd
    for protocol in ("fairdeal/2", "fairdeal/1"):
        for _ in range(2):  # the second time, from what the first kept
            for move in moves:
                record = {"seq": 7, "move": move}
                assert outcome(read_move_fast, record, protocol) == outcome(read_move, record, protocol), move


def test_a_policy_view_holds_the_view_and_the_policies_choose_alike_from_it():
    from fairdeal.core.games.base import LazyView
    from fairdeal.core.integrity import game_seed_of
    from fairdeal.core.replay import LiveGame

    positions = 0
    for i, rule_set in enumerate(available()):
        for n in range(3):
            t = selfplay(rule_set, KEY, bytes([40 + i, n]) * 16, bots=(0, 1, 2, 3), timeout_every=2)
            game = LiveGame(t["start"], game_seed_of(t))
            for record in t["records"]:
                for seat in range(game.rules.players):
                    lazy = game.state.policy_view(seat)
                    assert isinstance(lazy, LazyView) and dict(lazy) == game.state.view(seat)
                seat = record["seat"]
                lazy, full = game.state.policy_view(seat), game.state.view(seat)
                assert game.rules.timeout_move(lazy) == game.rules.timeout_move(full)
                rng_a, rng_b = game.chance.bot_rng(game.seq + 1), game.chance.bot_rng(game.seq + 1)
                assert game.rules.bot_move(lazy, rng_a) == game.rules.bot_move(full, rng_b)
                assert lazy.get("no such entry", "absent") == "absent" and "phase" in lazy
                game.apply_record(record)
                positions += 1
    assert positions > 1000


def _run(mode: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, fastpath.ENV: mode}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.verifier.fastpath_run", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE
    )


def _result(run: subprocess.Popen) -> dict:
    out, _ = run.communicate()
    assert run.returncode == 0, "the run failed (in shadow mode: a fast path answered otherwise; see its stderr)"
    return json.loads(out)


@pytest.mark.timeout(1200)  # three processes playing and auditing hundreds of games, on a shared machine
def test_the_audit_reports_alike_on_the_general_code_and_every_pair_answers_alike():
    """Over the tamper suite (every rule set, both protocols, every change) and played games of every rule set:
    on the general code (every declared fast path swapped for its general form) the same games are played and
    the same report is made, check by check, sentence by sentence; and in shadow mode every pair the core
    declares is called and gives its general form's answer at every call (the run stops at the first that
    does not)."""
    runs = {mode: _run(mode, "--games", "2") for mode in ("", "1")}
    shadow = _run("shadow", "--games", "2", "--tampers-of", "120s-auction", "--tampers-of", "spades")
    fast, general = (_result(runs[m]) for m in ("", "1"))
    assert (fast["mode"], general["mode"]) == ("fast", "general")
    assert fast["pairs"] == general["pairs"] and len(fast["pairs"]) >= 19
    assert general["transcripts"] == fast["transcripts"]
    # the mode reaches every name a fast form is imported under: the engines read may_play / winner_of from
    # their follow.py with `from` imports, bound when the module is imported
    assert {
        "fairdeal.core.games.spades.state.may_play",
        "fairdeal.core.games.spades.state.winner_of",
        "fairdeal.core.games.spades.bots.winner_of",
        "fairdeal.core.games.twenty_down.state.may_play",
    } <= set(fast["fast_forms_held"])
    assert general["fast_forms_held"] == []
    assert len(fast["reports"]) > 150
    for a, b in zip(fast["reports"], general["reports"], strict=True):
        assert a == b
    assert (
        sum(1 for r in fast["reports"] if r["ok"]) >= 2 * len(available())
        and sum(1 for r in fast["reports"] if not r["ok"]) >= 100
    )
    compared = _result(shadow)
    assert compared["mode"] == "shadow" and compared["differences"] == []
    assert [p for p in fast["pairs"] if not compared["calls"].get(p)] == []  # every pair was compared


def test_a_fast_path_without_its_general_form_is_refused():
    with pytest.raises(TypeError, match="declares the general form"):
        fastpath.fast_path(general=None)(len)
    with pytest.raises(TypeError):
        fastpath.fast_path()(len)  # general is required
    with pytest.raises(TypeError, match="no fast path"):
        fastpath.fast_path(general=len)(len)


def test_every_pair_is_found_in_the_core_and_bound_to_its_fast_form():
    """Walking the core's modules finds every pair; each fast form is what its module (or class) holds under its
    name in the ordinary mode, and its general form is another function, itself no fast path."""
    fastpath.import_the_core()
    pairs = fastpath.pairs()
    assert len(pairs) >= 35
    fast_names = {p.name for p in pairs}
    for p in pairs:
        module, qualname = _split(p.name)
        held = importlib.import_module(module)
        for part in qualname.split("."):
            held = inspect.getattr_static(held, part)
        held = getattr(held, "__func__", held)  # a staticmethod's function
        held = getattr(held, "__wrapped__", held)  # a cached one's
        assert held is p.fast, p.name
        assert callable(p.general) and p.general is not p.fast
        assert f"{p.general.__module__}.{p.general.__qualname__}" not in fast_names, p.name


def _split(name: str) -> tuple[str, str]:
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:i])
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        return module, ".".join(parts[i:])
    raise AssertionError(name)


def test_code_that_calls_itself_a_fast_path_is_declared_as_one():
    """A function named *_fast, or whose docstring speaks of a fast path, is a declared pair's fast or general form,
    or names one (a caller or a maker explaining the pair): no fast path lives undeclared beside its general code."""
    names = fastpath.import_the_core()
    pairs = fastpath.pairs()
    declared = {id(p.fast) for p in pairs} | {id(p.general) for p in pairs}
    words = {p.name.rsplit(".", 1)[1] for p in pairs} | {p.general.__name__ for p in pairs} - {"<lambda>"}
    undeclared = []
    for module_name in names:
        if module_name == fastpath.__name__:
            continue  # the registry itself
        module = importlib.import_module(module_name)
        for where, fn in _functions(module):
            doc = inspect.getdoc(fn) or ""
            if not (fn.__name__.endswith("_fast") or "fast path" in doc.replace("\n", " ")):
                continue
            if id(fn) in declared or any(re.search(rf"\b{re.escape(w)}\b", doc) for w in words):
                continue
            undeclared.append(where)
    assert undeclared == [], undeclared


def _functions(module):
    """(where, function or class) of everything a module defines, its classes' methods included."""
    for name, value in vars(module).items():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isclass(value):
            yield f"{module.__name__}.{name}", value
            for attr, member in vars(value).items():
                member = getattr(member, "__func__", member)
                member = getattr(member, "fget", member)
                if inspect.isfunction(member):
                    yield f"{module.__name__}.{name}.{attr}", member
        elif inspect.isfunction(value):
            yield f"{module.__name__}.{name}", value


def test_card_texts_read_back_at_once_are_card_from_str_one_by_one():
    from fairdeal.core.cards import BadCard, cards_of_texts

    def general(texts):
        try:
            return [card_from_str(t) for t in texts]
        except BadCard as exc:
            return str(exc)

    def fast(texts):
        try:
            return cards_of_texts(texts)
        except BadCard as exc:
            return str(exc)

    every = [str(c) for c in PACK_52]
    for texts in (every, every[::-1], [], ["TH", "10h", " as "], ["10H", "1H"], ["AS", 10], ["AS", ["AS"]], [None]):
        assert fast(texts) == general(texts), texts


def test_the_120s_hand_values_from_the_table_are_card_value_one_by_one(games):
    import random

    from fairdeal.core.cards import SUITS
    from fairdeal.core.games import rules_from_json
    from fairdeal.core.games.onetwenty import bots

    variants = [rules_from_json(t["start"]["rules"]).variant for t in games if t["start"]["rules"]["id"][:4] == "120s"]
    assert len(variants) == 3
    for trump in SUITS:
        for aces_low in (False, True):
            assert bots.card_values(trump, aces_low) == {c: bots.card_value(c, trump, aces_low) for c in PACK_52}

    def general_ceiling(hand, v):  # hand_ceiling as it reads without the table and the ace-of-hearts test
        extra = bots.PARTNER_AND_KITTY if v.sides.partners else bots.ALONE_AND_KITTY
        value = max(extra + sum(bots.card_value(c, s, v.aces_low) for c in hand) for s in SUITS)
        if any(bots.sees_every_trick(hand, s) for s in SUITS):
            return 30
        fits = [b for b in v.bids if b <= value and b < 30]
        return fits[-1] if fits else 0

    rng = random.Random(15)
    thirty = [card_from_str(t) for t in "5H JH AH KH QH".split()]
    for v in variants:
        hands = [rng.sample(PACK_52, rng.choice((1, 3, 5, 8))) for _ in range(3000)] + [thirty]
        assert [bots.hand_ceiling(h, v) for h in hands] == [general_ceiling(h, v) for h in hands]
        extra = bots.PARTNER_AND_KITTY if v.sides.partners else bots.ALONE_AND_KITTY
        for h in hands[:300] + [[], list(PACK_52)]:
            values = {s: extra + sum(bots.card_value(c, s, v.aces_low) for c in h) for s in SUITS}
            assert bots.suit_values(h, v) == values, h
            assert bots._suit_sums(h, v) == bots.suit_sums_by_rows(h, v) == [values[s] - extra for s in SUITS], h
            assert bots.best_suits(h, v) == [s for s in SUITS if values[s] == max(values.values())], h
        assert bots.hand_ceiling(thirty, v) == 30


def test_the_play_of_a_pack_card_made_once_is_the_move_made_anew():
    from fairdeal.core.games.base import GameError, Move

    def outcome(make, card):
        try:
            return make(card)
        except GameError as exc:
            return type(exc).__name__, exc.message

    for c in PACK_52:
        assert Move.play(c) == Move("play", card=c) and Move.play(c) is Move.play(c) and Move.play(c).card == c
        assert Move.play(Card(c.rank, c.suit)) == Move("play", card=c)
    for odd in (Card(1, "X"), Card(15, "S"), None, "AS", (14, "S"), ["AS"]):
        assert outcome(Move.play, odd) == outcome(lambda card: Move("play", card=card), odd), odd


def test_a_live_game_hashes_its_start_when_first_asked_and_chains_from_it(games):
    from fairdeal.core.integrity import game_seed_of
    from fairdeal.core.replay import LiveGame

    for t in games:
        seed = game_seed_of(t)
        game = LiveGame(t["start"], seed)
        assert game.last_hash == record_hash(dict(t["start"])) == t["records"][0]["prev"]
        for record in t["records"]:
            game.apply_record(record)  # chain=True: each record's prev is the hash before it
        assert game.last_hash == record_hash(dict(t["records"][-1]))
        unhashed = LiveGame(t["start"], seed)
        for record in t["records"][:5]:
            unhashed.apply_record(record, chain=False)
        assert unhashed.seq == 5 and unhashed.last_hash == record_hash(dict(t["start"]))


def test_fairdeal_verify_audit_on_the_general_paths_gives_the_same_summary(games, tmp_path, capsys):
    """`fairdeal-verify audit --general-paths` runs again on the general code (a new process: the message says
    how many fast paths it replaced) and sums up every game as the ordinary run does; only the time differs."""
    from fairdeal.core.keys import public_key_text
    from tests.verifier.cli_run import run

    changed = copy.deepcopy(games[2])
    changed["records"][5]["seat"] = (changed["records"][5]["seat"] + 1) % 4  # a record rewritten: it fails
    export = tmp_path / "games.jsonl"
    export.write_text("".join(json.dumps(t) + "\n" for t in [*games, changed]))
    argv = ["audit", str(export), "--key", public_key_text(KEY), "--json", "--jobs", "1"]
    code, out, err = run(argv, capsys)
    general_code, general_out, general_err = run([*argv, "--general-paths"], capsys)
    fast, general = json.loads(out), json.loads(general_out)
    assert fast.pop("seconds") >= 0 and general.pop("seconds") >= 0
    assert (code, general_code) == (1, 1) and general == fast
    assert (fast["games"], fast["passed"], fast["failed"]) == (len(games) + 1, len(games), 1)
    replaced = re.search(r"on the general code: (\d+) fast paths replaced", general_err)
    assert replaced and int(replaced.group(1)) >= 35 and "general code" not in err
