"""Issue 23 §1, the verifier's trust in the transparency log, offline: which keys a tree head counts under (given,
pinned, a key set with its times, or the key that signed the game), a rollback, a copy that holds fewer leaves
than its head claims, rewritten-leaf findings, reveal-phase aborts and their leaves, and what `log` and
`audit --log` do with --key, pins and FAIRDEAL_VERIFY_KEYS. The service's side is tests/service/test_tlog_trust.py."""

from __future__ import annotations

import json

import pytest

from fairdeal.core import keys, logwatch, merkle, tlog
from fairdeal.core.checks import verify_transcript
from fairdeal.core.selfplay import CREATED, selfplay
from fairdeal.verify.pins import save_pin
from tests.verifier.cli_run import run
from tests.verifier.unrevealed import unrevealed_table

SERVICE = keys.generate_private_key()
PUB = keys.public_key_text(SERVICE)
NEXT = keys.generate_private_key()  # the service's key after a rotation
NEXT_PUB = keys.public_key_text(NEXT)
STRANGER = keys.generate_private_key()
NAMES = ["ann", "bob", "cat", "dan"]
HEAD_TIME = "2026-01-01T02:00:00Z"


@pytest.fixture(scope="module")
def finished():
    return selfplay("spades", SERVICE, b"\x02" * 32, game_id="g-finished")


def aborted(game_id: str, **kw) -> dict:
    return unrevealed_table(
        "spades", SERVICE, bytes.fromhex(("%02x" % (len(game_id) % 250)) * 32), game_id=game_id, names=NAMES, **kw
    )


def leaves_of(transcripts, old_form: bool = False) -> list[dict]:
    out = []
    for t in transcripts:
        out.append(tlog.commitment_leaf(t["commit"]))
        out.append(tlog.ending_leaf_forms(t)[-1] if old_form else tlog.ending_leaf(t))
    return out


def head(leaves, signer=SERVICE, size=None, time=HEAD_TIME) -> dict:
    size = len(leaves) if size is None else size
    tree = merkle.Tree(tlog.leaf_hash_of(x) for x in leaves[:size])
    return tlog.sign_head(signer, tlog.make_head(size, tree.root(size), time, keys.public_key_text(signer)))


def with_log(t: dict, leaves: list[dict], h: dict) -> dict:
    """The transcript with the log member of `leaves` under the head `h`."""
    tree = merkle.Tree(tlog.leaf_hash_of(x) for x in leaves)
    idx = {(x["type"], x["game_id"]): i for i, x in enumerate(leaves)}
    gid = t["commit"]["game_id"]
    member = {"head": h}
    for kind in ("commitment", "ending"):
        i = idx[(kind, gid)]
        member[kind] = {"index": i, "proof": tlog.proof_hex(tree.inclusion_proof(i, h["size"]))}
    return dict(t, log=member)


def log_check(report):
    return {c.id: c for c in report.checks}["log-inclusion"]


def keys_json(tmp_path, retired_first="2026-06-01T00:00:00Z", created_first="2025-01-01T00:00:00Z") -> str:
    """The service's saved GET /keys: PUB until `retired_first`, NEXT_PUB since."""
    path = tmp_path / "keys.json"
    path.write_text(
        json.dumps(
            {
                "current": NEXT_PUB,
                "keys": [
                    {"key": PUB, "created": created_first, "retired": retired_first, "current": False},
                    {"key": NEXT_PUB, "created": retired_first, "retired": None, "current": True},
                ],
            }
        )
    )
    return str(path)


# ------------------------------------------------------------------------------------------ log-inclusion


def test_a_log_signed_by_a_stranger_fails_log_inclusion(finished, tmp_path, capsys, no_pins):
    """The issue's reproduction: the log member replaced by a two-leaf tree of the game's own leaves, signed by a
    freshly made key. It proves nothing about the service's log, whatever the verifier trusts."""
    leaves = leaves_of([finished])
    forged = with_log(finished, leaves, head(leaves, STRANGER))
    game = tmp_path / "game.json"
    game.write_text(json.dumps(forged))
    code, out, _ = run([str(game), "--key", PUB], capsys)
    assert code == 1 and "FAIL  log-inclusion" in out and "VERIFIED" not in out.replace("NOT VERIFIED", "")
    assert keys.key_id(keys.public_key_text(STRANGER)) in out
    for kw in ({"key": PUB}, {}, {"pins": {"cards.example": PUB}}):
        check = log_check(verify_transcript(forged, **kw))
        assert (check.status, check.code) == ("fail", "log-head-untrusted"), kw
    export = tmp_path / "export.jsonl"
    export.write_text(json.dumps(forged) + "\n")
    code, out, _ = run(["audit", str(export), "--key", PUB, "--jobs", "1", "--json"], capsys)
    assert code == 1 and json.loads(out)["failed_by_check"] == {"log-inclusion": 1}
    save_pin("cards.example", PUB, no_pins)
    code, out, _ = run(["audit", str(export), "--jobs", "1", "--json"], capsys)
    assert code == 1 and json.loads(out)["failed_by_check"] == {"log-inclusion": 1}


def test_a_head_by_a_key_trusted_for_the_service_counts(tmp_path):
    finished = aborted("g-trusted")  # (nothing to replay: the check is the same for every transcript)
    leaves = leaves_of([finished])
    by_game_key = with_log(finished, leaves, head(leaves))
    by_next_key = with_log(finished, leaves, head(leaves, NEXT, time="2026-07-01T00:00:00Z"))
    assert log_check(verify_transcript(by_game_key)).status == "pass"  # no key: the game's own key
    assert log_check(verify_transcript(by_game_key, key=PUB)).status == "pass"
    # after a rotation the head is the new key's: it counts with the service's key set, given or pinned
    from fairdeal.core.keysets import read_key_options

    for trusted in (read_key_options([PUB, NEXT_PUB]), read_key_options([keys_json(tmp_path)])):
        assert log_check(verify_transcript(by_next_key, key=trusted)).status == "pass"
    from fairdeal.core.keysets import KeySet, TrustedKey

    pinned = KeySet([TrustedKey(PUB, "cards.example"), TrustedKey(NEXT_PUB, "cards.example")])
    assert log_check(verify_transcript(by_next_key, pins=pinned)).status == "pass"
    # a key pinned for another service signs no head of this one's
    elsewhere = KeySet([TrustedKey(PUB, "cards.example"), TrustedKey(NEXT_PUB, "elsewhere.example")])
    assert log_check(verify_transcript(by_next_key, pins=elsewhere)).code == "log-head-untrusted"
    # and not with the game's key alone: another key's head is not the game's service's, as far as it shows
    assert log_check(verify_transcript(by_next_key)).code == "log-head-untrusted"


def test_a_head_signed_by_a_key_after_its_retirement_or_before_its_creation_fails(tmp_path):
    from fairdeal.core.keysets import read_key_options

    finished = aborted("g-timed")
    trusted = read_key_options([keys_json(tmp_path)])
    leaves = leaves_of([finished])
    late = with_log(finished, leaves, head(leaves, SERVICE, time="2026-09-01T00:00:00Z"))  # PUB retired in June
    check = log_check(verify_transcript(late, key=trusted))
    assert (check.status, check.code) == ("fail", "log-head-key-time") and "retired already" in check.detail
    early = with_log(finished, leaves, head(leaves, NEXT, time="2026-03-01T00:00:00Z"))  # NEXT made in June
    check = log_check(verify_transcript(early, key=trusted))
    assert check.code == "log-head-key-time" and "not made yet" in check.detail


def test_a_reveal_phase_ending_names_who_walked_away_and_older_leaves_still_verify(finished):
    t = aborted("g-walked")
    leaf = tlog.ending_leaf(t)
    assert leaf["dealt"] is False and leaf["unrevealed"] == [{"seat": 0, "name": "ann"}, {"seat": 2, "name": "cat"}]
    tlog.check_leaf(leaf)
    for old_form in (False, True):  # the form logged before leaves named seats still verifies
        leaves = leaves_of([t], old_form=old_form)
        assert ("unrevealed" in leaves[1]) is not old_form
        assert log_check(verify_transcript(with_log(t, leaves, head(leaves)), key=PUB)).status == "pass"
    lying = leaves_of([t])
    lying[1] = dict(lying[1], unrevealed=[{"seat": 0, "name": "ann"}])  # cat is not named
    assert log_check(verify_transcript(with_log(t, lying, head(lying)), key=PUB)).code == "log-not-included"
    # an ending in any other phase has the one form it always had
    assert tlog.ending_leaf_forms(finished) == [tlog.ending_leaf(finished)]
    assert "unrevealed" not in tlog.ending_leaf(finished)
    with pytest.raises(tlog.LogError):
        tlog.check_leaf(dict(leaf, unrevealed=[0, 2]))


# ------------------------------------------------------------------------------------------ the watcher


def copy_file(tmp_path, name: str, heads, leaves) -> str:
    path = tmp_path / name
    logwatch.save_copy(str(path), logwatch.LogCopy(list(heads), list(leaves)))
    return str(path)


def test_the_watcher_counts_reveal_phase_aborts_and_names_who_walked_away(finished, tmp_path, capsys):
    games = [
        finished,
        aborted("g-a1"),
        aborted("g-a2", revealed=[0]),
        aborted("g-a3", revealed=[0, 2], reason="cancelled"),
    ]
    leaves = leaves_of(games)
    older = leaves_of([aborted("g-old")], old_form=True)  # a not-revealed ending of the older form: counted
    leaves += older
    report = logwatch.watch(logwatch.LogCopy(), source=logwatch.LogCopy([head(leaves)], leaves), key=PUB)
    assert report.ok, report.findings
    assert (report.dealt, report.reveal_aborts) == (1, 4)
    assert report.walked_away == {"ann": 1, "cat": 2}
    assert report.seated_cut_short_share == pytest.approx(4 / 5)
    path = copy_file(tmp_path, "log.json", [head(leaves)], leaves)
    code, out, _ = run(["log", path, "--key", PUB, "--json"], capsys)
    assert code == 0
    out = json.loads(out)
    assert out["reveal_phase_aborts"] == 4 and out["walked_away"] == [
        {"name": "cat", "games": 2},
        {"name": "ann", "games": 1},
    ]
    code, out, _ = run(["log", path, "--key", PUB], capsys)
    assert "4 game(s) aborted in the reveal phase (seated, never dealt; did not reveal: cat 2, ann 1)" in out


class FakeService:
    """A service's log endpoints over a list of leaves and the head it shows (for a URL source, offline)."""

    def __init__(self, leaves, shown):
        self.leaves, self.head = leaves, shown
        self.tree = merkle.Tree(tlog.leaf_hash_of(x) for x in leaves)

    def get(self, url: str):
        from urllib.parse import parse_qs, urlsplit

        parts = urlsplit(url)
        q = {k: int(v[0]) for k, v in parse_qs(parts.query).items()}
        if parts.path == "/log/head":
            return self.head
        if parts.path == "/log/leaves":
            return {"leaves": self.leaves[q["start"] : min(self.head["size"], q["start"] + q["limit"])]}
        assert parts.path == "/log/consistency", url
        return {"proof": tlog.proof_hex(self.tree.consistency_proof(q["first"], q["second"]))}


def test_a_rollback_is_a_finding(finished):
    """The issue's reproduction, smaller: a watcher whose state holds the log up to a head of 6 leaves, pointed at
    the service restored from a backup taken at 4 leaves."""
    games = [finished, aborted("g-r1"), aborted("g-r2")]
    leaves = leaves_of(games)
    seen = logwatch.watch(logwatch.LogCopy(), source=logwatch.LogCopy([head(leaves)], leaves), key=PUB).copy
    restored = FakeService(leaves[:4], head(leaves, size=4, time="2026-01-02T00:00:00Z"))
    report = logwatch.watch_source("http://cards.example", seen, key=PUB, get=restored.get)
    assert [f.code for f in report.findings] == ["rollback"], report.findings
    assert "6 leaves was seen before" in report.findings[0].detail and "LOG FAILED" in report.text()
    grown = FakeService(leaves, head(leaves, time="2026-01-02T00:00:00Z"))  # the same head size again: fine
    assert logwatch.watch_source("http://cards.example", seen, key=PUB, get=grown.get).ok


def test_the_watcher_holds_heads_to_the_key_set_with_its_times_and_keeps_saving_its_state(finished, tmp_path, capsys):
    """The first key rotation: heads before it are the old key's, after it the new key's; the service's /keys
    answer (with the times) checks each at its time, and the state is saved run after run."""
    games = [finished, aborted("g-k1"), aborted("g-k2")]
    leaves = leaves_of(games)
    before = head(leaves, SERVICE, size=2, time="2026-05-01T00:00:00Z")
    after = head(leaves, NEXT, size=4, time="2026-07-01T00:00:00Z")
    state, published = tmp_path / "state.json", keys_json(tmp_path)
    code, out, err = run(
        ["log", copy_file(tmp_path, "a.json", [before, after], leaves[:4]), "--state", str(state), "--key", published],
        capsys,
    )
    assert code == 0 and "LOG OK" in out, out + err
    latest = head(leaves, NEXT, time="2026-08-01T00:00:00Z")
    code, out, err = run(
        ["log", copy_file(tmp_path, "b.json", [latest], leaves), "--state", str(state), "--key", published, "--json"],
        capsys,
    )
    assert code == 0, out + err
    kept = json.loads(state.read_text())  # the checkpoint (the latest head, the new key's) and its range
    assert (kept["heads_seen"], kept["range"]["size"], kept["head"]) == (3, 6, latest)
    # the old key signing after its retirement is a finding, and the state is left as it was
    stale = head(leaves, SERVICE, time="2026-09-01T00:00:00Z")
    code, out, _ = run(
        ["log", copy_file(tmp_path, "c.json", [stale], leaves), "--state", str(state), "--key", published], capsys
    )
    assert code == 1 and "retired already" in out and json.loads(state.read_text()) == kept


def test_log_key_given_twice_is_a_key_set(finished, tmp_path, capsys):
    leaves = leaves_of([finished, aborted("g-s1")])
    path = copy_file(tmp_path, "log.json", [head(leaves, SERVICE, size=2), head(leaves, NEXT)], leaves)
    code, out, err = run(["log", path, "--key", NEXT_PUB, "--key", PUB], capsys)
    assert code == 0 and "LOG OK" in out, out + err
    code, out, _ = run(["log", path, "--key", NEXT_PUB], capsys)
    assert code == 1 and "head-signature" in out


def test_log_without_key_uses_pins_and_the_environment_and_says_loudly_when_it_has_no_key(
    finished, tmp_path, capsys, monkeypatch, no_pins
):
    leaves = leaves_of([finished])
    strangers = copy_file(tmp_path, "log.json", [head(leaves, STRANGER)], leaves)
    code, out, err = run(["log", strangers], capsys)
    assert code == 0 and "LOG OK" not in out and "LOG UNCHECKED" in out and "no key given or pinned" in err
    code, out, _ = run(["log", strangers, "--json"], capsys)
    assert json.loads(out)["heads_checked_against"] == {"source": "none", "keys": []}
    monkeypatch.setenv("FAIRDEAL_VERIFY_KEYS", PUB)
    code, out, _ = run(["log", strangers], capsys)
    assert code == 1 and "head-signature" in out
    monkeypatch.delenv("FAIRDEAL_VERIFY_KEYS")
    save_pin("cards.example", PUB, no_pins)
    code, out, _ = run(["log", strangers], capsys)
    assert code == 1 and "head-signature" in out and "not a pinned key" in out
    ours = copy_file(tmp_path, "ours.json", [head(leaves)], leaves)
    code, out, _ = run(["log", ours], capsys)
    assert code == 0 and "LOG OK" in out


def test_a_copy_whose_head_claims_more_leaves_than_it_holds_is_a_finding(finished, tmp_path, capsys):
    leaves = leaves_of([finished, aborted("g-c1"), aborted("g-c2")])
    path = copy_file(tmp_path, "short.json", [head(leaves)], leaves[:4])  # the head signs 6
    code, out, _ = run(["log", path, "--key", PUB], capsys)
    assert code == 1 and "missing-leaves" in out and "claims more leaves than the copy holds (4)" in out


def test_a_rewritten_leaf_is_one_finding_naming_the_member_and_where_the_logs_diverge(finished):
    games = [finished, aborted("g-w1"), aborted("g-w2", reason="cancelled")]
    leaves = leaves_of(games)
    seen = logwatch.watch(logwatch.LogCopy(), source=logwatch.LogCopy([head(leaves)], leaves), key=PUB).copy
    other = [dict(x) for x in leaves]
    other[3]["reason"] = "cancelled"
    other[5]["time"] = "2026-01-01T00:30:00Z"
    report = logwatch.watch(seen, source=logwatch.LogCopy([], other), key=PUB)
    rewritten = [f for f in report.findings if f.code == "rewritten-leaf"]
    assert len(rewritten) == 1, report.findings
    detail = rewritten[0].detail
    assert detail.startswith(
        'the two logs first diverge at leaf 3 (game g-w1): \'reason\' is now "cancelled", it was "not-revealed"'
    ) and detail.endswith("1 more leaf(s) differ after it")


def test_with_only_a_compact_state_a_rewritten_leaf_is_placed_in_its_subtree_and_a_kept_copy_names_it(
    finished, tmp_path, capsys
):
    """The watcher's state keeps no leaves: a copy from leaf 0 that disagrees with it is placed within the first
    subtree of the state's compact range that differs; with the copy `log --copy` kept, the leaf is named."""
    leaves = leaves_of([finished, aborted("g-r1"), aborted("g-r2"), aborted("g-r3")])[:7]  # 7 = 4 + 2 + 1
    state = logwatch.watch(logwatch.LogState(), source=logwatch.LogCopy([head(leaves)], leaves), key=PUB).state
    assert state.range.size == 7 and len(state.range.hashes) == 3
    for index, where in ((1, "leaves 0 to 3"), (5, "leaves 4 to 5"), (6, "leaf 6")):
        other = [dict(x) for x in leaves]
        other[index]["time"] = "2026-01-01T00:30:00Z"
        report = logwatch.watch(state, source=logwatch.LogCopy([], other), key=PUB)
        assert [f.code for f in report.findings] == ["rewritten-leaf"], report.findings
        assert f"first diverge within {where} " in report.findings[0].detail, (index, report.findings)
    # the command, run with --copy: the second run holds the source against the leaves the first one kept
    state_path, kept = tmp_path / "state.json", tmp_path / "copy.json"
    code, out, err = run(
        [
            "log",
            copy_file(tmp_path, "a.json", [head(leaves)], leaves),
            "--state",
            str(state_path),
            "--copy",
            str(kept),
            "--key",
            PUB,
        ],
        capsys,
    )
    assert code == 0 and "LOG OK" in out, out + err
    other = [dict(x) for x in leaves]
    other[5]["reason"] = "cancelled"
    code, out, _ = run(
        [
            "log",
            copy_file(tmp_path, "b.json", [], other),
            "--state",
            str(state_path),
            "--copy",
            str(kept),
            "--key",
            PUB,
        ],
        capsys,
    )
    assert code == 1 and "the two logs first diverge at leaf 5 (game g-r2): 'reason' is now \"cancelled\"" in out
    assert out.count("rewritten-leaf") == 1


def test_reveal_phase_aborts_are_kept_in_the_state_so_incremental_runs_count_them(finished, tmp_path):
    games = [finished, aborted("g-i1"), aborted("g-i2", revealed=[0]), aborted("g-i3")]
    leaves = leaves_of(games)
    path = tmp_path / "state.json"
    first = logwatch.watch(logwatch.LogState(), source=logwatch.LogCopy([head(leaves, size=4)], leaves[:4]), key=PUB)
    assert first.ok and first.reveal_aborts == 1, first.findings
    logwatch.save_state(str(path), first.state)
    later = logwatch.watch(
        logwatch.load_state(str(path)), fetched=logwatch.Fetched(head(leaves), 4, leaves[4:]), key=PUB
    )  # only the leaves after the checkpoint
    whole = logwatch.watch(logwatch.LogState(), source=logwatch.LogCopy([head(leaves)], leaves), key=PUB)
    assert later.ok and later.new_leaves == 4, later.findings
    assert (later.reveal_aborts, later.walked_away) == (whole.reveal_aborts, whole.walked_away)
    assert whole.reveal_aborts == 3 and whole.walked_away["ann"] == 2 and len(whole.walked_away) > 1
    assert later.seated_cut_short_share == whole.seated_cut_short_share


# ------------------------------------------------------------------------------------------ audit --log


def export_file(tmp_path, games) -> str:
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    return str(path)


def test_audit_log_with_pins_refuses_a_strangers_log(finished, tmp_path, capsys, no_pins):
    export = export_file(tmp_path, [finished])
    leaves = leaves_of([finished])
    strangers = copy_file(tmp_path, "log.json", [head(leaves, STRANGER)], leaves)
    save_pin("cards.example", PUB, no_pins)
    code, out, _ = run(["audit", export, "--log", strangers, "--jobs", "1", "--json"], capsys)
    report = json.loads(out)
    assert code == 1 and report["passed"] == 1
    assert [f["code"] for f in report["log"]["log_findings"]] == ["head-signature"]
    ours = copy_file(tmp_path, "ours.json", [head(leaves)], leaves)
    code, out, _ = run(["audit", export, "--log", ours, "--jobs", "1"], capsys)
    assert code == 0, out


def test_audit_json_with_log_says_the_exit_status_it_exits_with(finished, tmp_path, capsys):
    dropped = aborted("g-dropped")
    leaves = leaves_of([finished, dropped])
    log = copy_file(tmp_path, "log.json", [head(leaves)], leaves)
    code, out, _ = run(
        ["audit", export_file(tmp_path, [finished]), "--log", log, "--key", PUB, "--jobs", "1", "--json"], capsys
    )
    report = json.loads(out)
    assert code == 1 and report["log"]["missing_from_export"][0]["game_id"] == "g-dropped"
    assert (report["ok"], report["exit_code"]) == (False, 1)
    code, out, _ = run(
        ["audit", export_file(tmp_path, [finished, dropped]), "--log", log, "--key", PUB, "--jobs", "1", "--json"],
        capsys,
    )
    assert code == 0 and (json.loads(out)["ok"], json.loads(out)["exit_code"]) == (True, 0)


def test_audit_pending_after(finished, tmp_path, capsys):
    open_table = aborted("g-open")
    leaves = leaves_of([finished]) + [tlog.commitment_leaf(open_table["commit"])]
    log = copy_file(tmp_path, "log.json", [head(leaves, time="2026-01-01T00:30:00Z")], leaves)
    export = export_file(tmp_path, [finished])
    args = ["audit", export, "--log", log, "--key", PUB, "--jobs", "1", "--json"]
    code, out, _ = run(args + ["--pending-after", "600"], capsys)
    assert code == 0 and [p["game_id"] for p in json.loads(out)["log"]["pending"]] == ["g-open"]
    code, out, _ = run(args, capsys)  # an hour by default: committed 30 minutes ago
    assert code == 0 and json.loads(out)["log"]["pending"] == []


def test_audit_names_the_games_signed_by_a_retired_key_or_a_key_made_after_them(finished, tmp_path, capsys):
    export = export_file(tmp_path, [finished, aborted("g-n1")])  # committed at CREATED
    retired = keys_json(tmp_path, retired_first="2025-12-01T00:00:00Z")
    code, out, _ = run(["audit", export, "--key", retired, "--jobs", "1"], capsys)
    assert code == 0
    assert f"RETIRED KEY game g-finished ({export}:1): signed by key {keys.key_id(PUB)}, RETIRED" in out
    assert "RETIRED KEY game g-n1" in out
    made_after = keys_json(tmp_path, created_first="2026-02-01T00:00:00Z")
    code, out, _ = run(["audit", export, "--key", made_after, "--jobs", "1", "--json"], capsys)
    named = json.loads(out)["signed_by_key_not_current"]
    assert [(g["game_id"], g["status"]) for g in named] == [
        ("g-finished", "not-yet-created"),
        ("g-n1", "not-yet-created"),
    ]
    assert CREATED < "2026-02-01"
