"""`fairdeal-verify audit`: files, folders and JSON Lines; every core; the summary; broken input goes on."""

import io
import json
import os
import sys

import pytest

from fairdeal.core.selfplay import selfplay
from fairdeal.verify.audit import audit, find_items, run_checks
from fairdeal.verify.auditpool import PoolCpu
from tests.verifier.cli_run import run
from tests.verifier.tamper_kit import SERVER_KEY, SERVER_PUBLIC, resign, valid_transcript


def _bad_score(rule_set):
    t = valid_transcript(rule_set)
    t["end"]["result"]["scores"][0] += 5
    return resign(t)


@pytest.fixture
def archive(tmp_path):
    """A folder with two good games, one with a changed score, one broken file, and an export of three lines
    (good, truncated, good) in a sub-folder."""
    root = tmp_path / "archive"
    (root / "week").mkdir(parents=True)
    (root / "a.json").write_text(json.dumps(valid_transcript("spades")))
    (root / "b.json").write_text(json.dumps(valid_transcript("120s-house")))
    (root / "c.json").write_text(json.dumps(_bad_score("twenty-down")))
    (root / "broken.json").write_text('{"protocol": "fairdeal/1", ')
    (root / "notes.txt").write_text("not a transcript, not looked at")
    good = [selfplay("120s-auction", SERVER_KEY, bytes([i]) * 32) for i in range(2)]
    lines = [json.dumps(good[0]), json.dumps(good[1])[:500], json.dumps(good[1])]
    (root / "week" / "export.jsonl").write_text("\n".join(lines) + "\n\n")
    return root


def test_summary_counts_and_lists_each_failure(archive, capsys):
    code, out, _ = run(["audit", "--jobs", "1", "--key", SERVER_PUBLIC, str(archive)], capsys)
    assert code == 1
    assert "audited 7 game(s)" in out and "4 passed, 1 failed, 2 broken" in out
    assert "failed by check: result 1" in out
    assert "FAILED" in out and "c.json" in out and ": result" in out
    assert "BROKEN" in out and "export.jsonl:2" in out
    assert "broken.json" not in out.split("BROKEN")[0]


def test_json_summary(archive, capsys):
    code, out, _ = run(["audit", "--json", "--key", SERVER_PUBLIC, str(archive)], capsys)
    data = json.loads(out)
    assert code == 1 and data["exit_code"] == 1 and data["ok"] is False
    assert (data["games"], data["passed"], data["failed"], data["broken"]) == (7, 4, 1, 2)
    assert data["failed_by_check"] == {"result": 1}
    assert {p["status"] for p in data["problems"]} == {"failed", "broken"}
    failed = next(p for p in data["problems"] if p["status"] == "failed")
    assert failed["rule_set"] == "twenty-down" and failed["failed"][0]["id"] == "result"
    assert data["moves"] > 0 and data["checked_only_against_own_key"] == 0


def test_two_processes_give_the_same_outcomes_as_one(archive):
    one = audit([str(archive)], key=SERVER_PUBLIC, jobs=1, progress=False)
    two = audit([str(archive)], key=SERVER_PUBLIC, jobs=2, progress=False)
    assert [o.to_json() for o in one.outcomes] == [o.to_json() for o in two.outcomes]


def test_an_audit_on_two_processes_leaves_the_garbage_collector_as_it_found_it(archive):
    import gc

    assert gc.get_freeze_count() == 0
    audit([str(archive)], key=SERVER_PUBLIC, jobs=2, progress=False)
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_many_games_on_two_processes(tmp_path):
    # More games than one chunk, so the pool really shares them out.
    lines = [json.dumps(selfplay("twenty-down", SERVER_KEY, bytes([i]) * 32)) for i in range(40)]
    export = tmp_path / "export.jsonl"
    export.write_text("\n".join(lines))
    summary = audit([str(export)], key=SERVER_PUBLIC, jobs=2, progress=False)
    assert summary.games == 40 and summary.count("passed") == 40 and summary.exit_code == 0
    assert [o.source for o in summary.outcomes] == [f"{export}:{i}" for i in range(1, 41)]


def test_two_processes_are_this_one_and_one_worker(tmp_path):
    # --jobs 2 forks one worker; this process checks items too (it would only wait), so both answer tasks
    lines = [json.dumps(selfplay("spades", SERVER_KEY, bytes([i]) * 32)) for i in range(12)]
    export = tmp_path / "export.jsonl"
    export.write_text("\n".join(lines))
    cpu = PoolCpu()
    outcomes = run_checks(find_items([str(export)], []), SERVER_PUBLIC, {}, 2, cpu=cpu)
    assert [o.status for o in outcomes] == ["passed"] * 12
    assert len(cpu.by_process) == 2 and os.getpid() in cpu.by_process
    assert all(seconds > 0 for seconds in cpu.by_process.values())


def test_all_passed_exits_0(tmp_path, capsys):
    (tmp_path / "g.json").write_text(json.dumps(valid_transcript("spades")))
    code, out, err = run(["audit", "--key", SERVER_PUBLIC, str(tmp_path)], capsys)
    assert code == 0 and "1 passed, 0 failed, 0 broken" in out


def test_without_a_key_the_summary_warns(tmp_path, capsys):
    (tmp_path / "g.json").write_text(json.dumps(valid_transcript("spades")))
    code, out, _ = run(["audit", str(tmp_path)], capsys)
    assert code == 0 and "checked only against the key they carry" in out


def test_standard_input_json_lines(capsys, monkeypatch):
    text = json.dumps(valid_transcript("spades")) + "\n" + "garbage\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run(["audit", "--key", SERVER_PUBLIC, "-"], capsys)
    assert code == 1 and "1 passed, 0 failed, 1 broken" in out and "<stdin>:2" in out


def test_missing_paths_are_reported_and_the_audit_goes_on(tmp_path, capsys):
    (tmp_path / "g.json").write_text(json.dumps(valid_transcript("spades")))
    code, out, _ = run(["audit", "--key", SERVER_PUBLIC, str(tmp_path / "nope"), str(tmp_path / "g.json")], capsys)
    assert code == 1 and "1 passed" in out and "There is no file or folder" in out


def test_no_transcript_at_all_exits_2(tmp_path, capsys):
    code, out, err = run(["audit", str(tmp_path)], capsys)
    assert code == 2 and "no transcript found" in err


def test_a_json_list_file_is_broken_not_a_crash(tmp_path, capsys):
    (tmp_path / "list.json").write_text("[1, 2, 3]")
    code, out, _ = run(["audit", str(tmp_path / "list.json")], capsys)
    assert code == 1 and "BROKEN" in out


def test_find_items_reads_json_lines_by_byte_range(tmp_path):
    export = tmp_path / "x.ndjson"
    export.write_bytes(b'{"a": 1}\n\n  \n{"b": "\xc3\xa9"}\n')
    problems = []
    items = find_items([str(export)], problems)
    assert [(i.line, export.read_bytes()[i.offset : i.offset + i.length]) for i in items] == [
        (1, b'{"a": 1}'),
        (4, b'{"b": "\xc3\xa9"}'),
    ]
    assert problems == []


def test_bad_jobs_value_exits_2(tmp_path, capsys):
    code, _, err = run(["audit", "--jobs", "0", str(tmp_path)], capsys)
    assert code == 2 and err


def test_a_json_file_that_holds_json_lines_is_split_into_games(tmp_path, capsys):
    games = [valid_transcript("spades"), valid_transcript("twenty-down")]
    export = tmp_path / "export.json"  # an export saved under the wrong suffix
    export.write_text("\n".join(json.dumps(t) for t in games) + "\n")
    pretty = tmp_path / "one.json"  # a pretty-printed single transcript stays one game
    pretty.write_text(json.dumps(games[0], indent=1))
    problems = []
    assert [(i.path, i.line) for i in find_items([str(export), str(pretty)], problems)] == [
        (str(export), 1),
        (str(export), 2),
        (str(pretty), None),
    ]
    code, out, _ = run(["audit", str(export), str(pretty)], capsys)
    assert code == 0, out
