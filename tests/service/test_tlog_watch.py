"""`fairdeal-verify log` and `audit --log` against a running service (both stores): the log only grew; a fork
(two heads of one size) and a rewritten leaf are detected; commitments with no ending are listed; a game dropped
from an export is reported, with the share of dealt games cancelled or abandoned."""

from __future__ import annotations

import json

import pytest

from fairdeal.core import exportaudit, keys, logtrust, logwatch, merkle, tlog
from fairdeal.core.fetch import InputError
from fairdeal.verify.audit import Outcome
from tests.service.client import Api
from tests.service.tlog_isolation import redis_url  # noqa: F401 - a database of its own


def getter(app):
    client = app.test_client()

    def get(url: str):
        r = client.get(url.replace("http://fairdeal.test", ""))
        assert r.status_code == 200, (url, r.get_json())
        return r.get_json()

    return get


URL = "http://fairdeal.test"


def games(api: Api, n: int, end: bool = True) -> list[str]:
    out = []
    for _ in range(n):
        p = api.player()
        t = api.table(p, rule_set="spades")
        api.get(f"/tables/{t['id']}")
        if end:
            api.post(f"/tables/{t['id']}/cancel", p)
            api.get(f"/log/games/{t['id']}")  # sequenced, and a head covering it signed
        out.append(t["id"])
    return out


def watch(app, state: logwatch.LogCopy, **kw) -> logwatch.LogReport:
    return logwatch.watch_source(URL, state, get=getter(app), **kw)


def test_the_log_grows_and_holds_together_run_after_run(app):
    api = Api(app.test_client())
    games(api, 2)
    first = watch(app, logwatch.LogCopy())
    assert first.ok, first.findings
    assert first.size == first.copy.latest["size"] and first.committed >= 2
    games(api, 3)
    second = watch(app, first.state)
    assert second.ok, second.findings
    assert second.new_leaves >= 6 and second.heads == 2
    third = watch(app, second.state)  # nothing new: still fine
    assert third.ok and third.new_leaves == 0


def test_a_rewritten_leaf_is_detected(app):
    api = Api(app.test_client())
    games(api, 2)
    before = watch(app, logwatch.LogCopy())
    store, s = app.extensions["fairdeal"].store, app.extensions["fairdeal"]
    # the operator rewrites an old leaf (a cancelled game now "finished") and signs heads over the new tree
    victim = next(i for i, leaf in enumerate(before.copy.leaves) if leaf["type"] == "ending")
    forged = dict(before.copy.leaves[victim], reason="finished")
    text = tlog.leaf_bytes(forged).decode()
    # ... and the tree's stored hashes with it (the store's own fill, as for a log older than its hashes)
    if hasattr(store, "r"):
        from fairdeal.service.store import keys as rkeys

        store.r.lset(rkeys.tlog_leaves(), victim, text)
        store.r.delete(rkeys.tlog_head(), rkeys.tlog_hashed(), rkeys.tlog_hashes(0))
    else:
        conn = store._conn()
        conn.execute("UPDATE tlog SET leaf=? WHERE idx=?", (text, victim))
        conn.execute("DELETE FROM tlog_head")
        conn.execute("DELETE FROM tlog_hash")
    store.tlog_fill_hashes()
    games(api, 1)
    after = watch(app, before.state)
    codes = {f.code for f in after.findings}
    assert "inconsistent" in codes and "root-mismatch" in codes, after.findings
    # a watcher who downloads the whole log again sees that one of the leaves it had checked was rewritten
    fresh = watch(app, logwatch.LogState())
    offline = logwatch.watch(before.state, source=fresh.copy)
    assert "rewritten-leaf" in {f.code for f in offline.findings}


def test_a_fork_two_heads_of_one_size_is_detected(app):
    api = Api(app.test_client())
    games(api, 1)
    seen = watch(app, logwatch.LogCopy())
    head = seen.copy.latest
    s = app.extensions["fairdeal"]
    # the service signs another tree of the same size for someone else
    other_leaves = list(seen.copy.leaves[:-1]) + [dict(seen.copy.leaves[-1], time="2000-01-01T00:00:00Z")]
    tree = merkle.Tree(tlog.leaf_hash_of(x) for x in other_leaves)
    key = s.keyring.current_key
    forked = tlog.sign_head(s.keyring.private_for(key), tlog.make_head(head["size"], tree.root(), head["time"], key))
    report = logwatch.watch(seen.state, source=logwatch.LogCopy([forked], other_leaves))
    codes = [f.code for f in report.findings]
    assert "fork" in codes and "rewritten-leaf" in codes
    # a head alone (no leaves) of the same size still proves the fork
    assert "fork" in {f.code for f in logwatch.watch(seen.state, source=logwatch.LogCopy([forked], [])).findings}


def test_a_head_by_another_key_is_refused(app):
    api = Api(app.test_client())
    games(api, 1)
    report = watch(app, logwatch.LogCopy(), key=keys.public_key_text(keys.generate_private_key()))
    assert {f.code for f in report.findings} == {"head-signature"}


def test_commitments_with_no_ending_are_listed_after_the_age(app, tmp_path):
    api = Api(app.test_client())
    open_ids = games(api, 2, end=False)
    games(api, 1)
    report = watch(app, logwatch.LogCopy(), pending_after=0)
    assert report.ok
    assert set(open_ids) <= {p["game_id"] for p in report.pending}
    assert not watch(app, logwatch.LogCopy(), pending_after=10**9).pending


def test_audit_reports_a_game_dropped_from_the_export_and_the_share_cut_short(app, tmp_path):
    api = Api(app.test_client())
    ended = games(api, 3)
    report = watch(app, logwatch.LogCopy())
    path = tmp_path / "log.json"
    logwatch.save_copy(str(path), report.copy)
    exported = [Outcome("x", "passed", g) for g in ended[:2]]  # the third is dropped
    findings = exportaudit.against_export(
        logwatch.watch(logwatch.LogState(), source=logwatch.load_copy(str(path))), [o.game_id for o in exported]
    )
    assert ended[2] in {m["game_id"] for m in findings.missing}
    assert ended[0] not in {m["game_id"] for m in findings.missing}
    assert not findings.ok and "MISSING game " + ended[2] in findings.text()
    # the same from the saved copy's path, as `audit --log FILE` reads it
    from_path = exportaudit.export_against_log(
        [o.game_id for o in exported], str(path), logtrust.of(None, None), pending_after=10**9
    )
    assert [m["game_id"] for m in from_path.missing] == [m["game_id"] for m in findings.missing]
    with pytest.raises(InputError):
        exportaudit.export_against_log([], str(tmp_path / "no-such-log.json"), logtrust.of(None, None))
    assert findings.to_json()["dealt"] == 0  # cancelled before any deal: not the share's business


def test_the_cli_watches_a_saved_copy_and_keeps_its_state(app, tmp_path, capsys):
    from tests.verifier.cli_run import run

    def run_cli(argv):
        return run(argv, capsys)

    api = Api(app.test_client())
    games(api, 2)
    copy = tmp_path / "copy.json"
    logwatch.save_copy(str(copy), watch(app, logwatch.LogCopy()).copy)
    state = tmp_path / "state.json"
    code, out, err = run_cli(["log", str(copy), "--state", str(state), "--json"])
    assert code == 0, err
    assert json.loads(out)["ok"] and state.exists()
    bad = json.loads(copy.read_text())
    bad["leaves"][0]["time"] = "1999-01-01T00:00:00Z"
    copy.write_text(json.dumps(bad))
    code, out, err = run_cli(["log", str(copy), "--state", str(state)])
    assert code == 1 and "rewritten-leaf" in out and "LOG FAILED" in out
    code, _, err = run_cli(["log", str(tmp_path / "none.json")])
    assert code == 2 and "no file" in err.lower()


def test_the_audit_command_holds_an_export_against_the_log(app, tmp_path, capsys):
    from tests.verifier.cli_run import run

    api = Api(app.test_client())
    ended = games(api, 3)
    export = tmp_path / "export.jsonl"
    export.write_text("".join(json.dumps(api.get(f"/games/{g}/transcript").get_json()) + "\n" for g in ended[:2]))
    copy = tmp_path / "log.json"
    logwatch.save_copy(str(copy), watch(app, logwatch.LogCopy()).copy)
    code, out, err = run(["audit", str(export), "--log", str(copy), "--json", "--jobs", "1"], capsys)
    assert code == 1, err
    report = json.loads(out)
    assert report["passed"] == 2 and report["log"]["missing_from_export"][0]["game_id"] == ended[2]
    assert [m["game_id"] for m in report["log"]["missing_from_export"]] == [ended[2]]
    assert (report["ok"], report["exit_code"]) == (False, 1)  # the process's verdict, the log's included
    export.write_text(export.read_text() + json.dumps(api.get(f"/games/{ended[2]}/transcript").get_json()) + "\n")
    code, out, err = run(["audit", str(export), "--log", str(copy), "--jobs", "1"], capsys)
    assert code == 0, out + err
    assert "cancelled or abandoned" in out and "MISSING" not in out


@pytest.mark.parametrize("store_kind", ["sqlite", "redis"])
def test_fairdeal_verify_log_watches_a_served_log_across_two_workers(request, tmp_path, capsys, store_kind):
    """Two gunicorn workers, each with its own tree and signing heads on demand, show one log; the command
    fetches it over HTTP run after run."""
    from tests.service.http import Http, serving
    from tests.verifier.cli_run import run

    url = request.getfixturevalue("redis_url") if store_kind == "redis" else None
    state = tmp_path / "state.json"
    with serving(tmp_path / "data", url, workers=2) as base:
        api = Api(Http(base))
        for _ in range(2):
            games(api, 3)
            code, out, err = run(["log", base, "--state", str(state), "--json", "--pending-after", "0"], capsys)
            assert code == 0, out + err
            report = json.loads(out)
            assert report["ok"] and report["committed"] >= 3 and report["pending"] == []
    kept = json.loads(state.read_text())  # a checkpoint and a compact range, not the leaves
    assert kept["format"] == "fairdeal-log-state/2" and "leaves" not in kept
    assert kept["range"]["size"] == kept["head"]["size"] == report["size"] >= 12
    assert len(kept["range"]["hashes"]) == bin(report["size"]).count("1")


def counting_getter(app, asked: list[str]):
    get = getter(app)

    def counted(url: str):
        asked.append(url)
        return get(url)

    return counted


def test_a_run_fetches_only_the_new_leaves_and_equals_a_full_recomputation(app):
    api = Api(app.test_client())
    open_ids = games(api, 2, end=False)
    games(api, 3)
    state, asked = logwatch.LogState(), []
    for _ in range(3):
        done = logwatch.watch_source(URL, state, get=counting_getter(app, asked), pending_after=0)
        assert done.ok, done.findings
        state = done.state
        asked.clear()
        games(api, 2)
    last = logwatch.watch_source(URL, state, get=counting_getter(app, asked), pending_after=0)
    leaf_pages = [u for u in asked if "/log/leaves?" in u]
    assert leaf_pages == [f"{URL}/log/leaves?start={state.size}&limit={logwatch.PAGE}"]
    full = watch(app, logwatch.LogState(), pending_after=0)  # every leaf, from 0
    assert last.ok and full.ok
    assert last.state.range == full.state.range and last.state.head["root"] == full.state.head["root"]
    for member in ("size", "committed", "endings", "dealt", "dealt_cut_short"):
        assert getattr(last, member) == getattr(full, member), member
    assert last.state.open == full.state.open and set(open_ids) <= set(last.state.open)
    assert sorted(p["game_id"] for p in last.pending) == sorted(p["game_id"] for p in full.pending)
    assert last.state.range.root() == merkle.Tree(tlog.leaf_hash_of(x) for x in full.copy.leaves).root()


def test_a_state_of_the_first_format_is_read_and_converted(app, tmp_path, capsys):
    from tests.verifier.cli_run import run

    api = Api(app.test_client())
    games(api, 2)
    old = watch(app, logwatch.LogState())
    path = tmp_path / "state.json"
    logwatch.save_copy(str(path), old.copy)  # what the watcher kept before: every head, every leaf
    state = logwatch.load_state(str(path))
    assert state.size == old.size and state.head == old.copy.latest and state.committed == old.committed
    games(api, 1)
    assert watch(app, state).ok
    code, out, err = run(["log", str(path), "--state", str(path)], capsys)  # the old state, its own source
    assert code == 0, out + err
    assert json.loads(path.read_text())["format"] == "fairdeal-log-state/2"


def test_an_altered_state_is_refused(app, tmp_path):
    api = Api(app.test_client())
    games(api, 1)
    path = tmp_path / "state.json"
    logwatch.save_state(str(path), watch(app, logwatch.LogState()).state)
    kept = json.loads(path.read_text())
    kept["range"]["hashes"][0] = "00" * 32
    path.write_text(json.dumps(kept))
    with pytest.raises(logwatch.InputError, match="does not hash to its head"):
        logwatch.load_state(str(path))


def test_a_copy_of_the_whole_log_is_kept_on_request_and_a_state_is_no_copy(app, tmp_path, capsys):
    from tests.verifier.cli_run import run

    api = Api(app.test_client())
    ended = games(api, 2)
    first = watch(app, logwatch.LogState())
    games(api, 1)
    again = logwatch.watch_source(URL, first.state, get=getter(app), every_leaf=True)
    assert again.ok and again.copy is not None and len(again.copy.leaves) == again.size
    source, state, copy = tmp_path / "source.json", tmp_path / "state.json", tmp_path / "copy.json"
    logwatch.save_copy(str(source), again.copy)
    code, out, err = run(["log", str(source), "--state", str(state), "--copy", str(copy)], capsys)
    assert code == 0, out + err
    assert json.loads(copy.read_text())["leaves"] == again.copy.leaves
    export = tmp_path / "export.jsonl"
    export.write_text("".join(json.dumps(api.get(f"/games/{g}/transcript").get_json()) + "\n" for g in ended))
    code, out, err = run(["audit", str(export), "--log", str(state), "--jobs", "1"], capsys)
    assert code == 2 and "a log watcher's state" in err
    code, out, err = run(["audit", str(export), "--log", str(copy), "--jobs", "1"], capsys)
    assert "MISSING" in out and code == 1  # the third game's transcript is not in the export


def test_another_watchers_state_shows_a_fork(app, tmp_path):
    api = Api(app.test_client())
    games(api, 1)
    seen = watch(app, logwatch.LogState())
    s = app.extensions["fairdeal"]
    head = seen.state.head
    other = list(seen.copy.leaves[:-1]) + [dict(seen.copy.leaves[-1], time="2000-01-01T00:00:00Z")]
    theirs = logwatch.watch(
        logwatch.LogState(),
        source=logwatch.LogCopy(
            [
                tlog.sign_head(
                    s.keyring.private_for(head["key"]),
                    tlog.make_head(
                        head["size"], merkle.Tree(tlog.leaf_hash_of(x) for x in other).root(), head["time"], head["key"]
                    ),
                )
            ],
            other,
        ),
    )
    assert theirs.ok
    path = tmp_path / "theirs.json"
    logwatch.save_state(str(path), theirs.state)
    mine = logwatch.watch_source(str(path), seen.state)
    assert [f.code for f in mine.findings] == ["fork"]
    logwatch.save_state(str(path), seen.state)
    assert logwatch.watch_source(str(path), seen.state).ok  # the same view: nothing to say
