"""The abort record's test vectors (tests/vectors/blind-abort.json, docs/blind.md "The abort record"): the file is
what scripts/blind_abort_vectors.py prints from the reference code, and every verdict in it is computed again
here from the specification alone — the record's form, the step stall's conditions 1, 2, 4, 7 and 8 — with
json, datetime and cryptography's Ed25519, none of fairdeal.core.blind, as an independent verifier would. (The
vectors' game has no move record: the deal in play is deal 0 and condition 3 needs no rules engine.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ROOT = Path(__file__).resolve().parents[2]
FILE = ROOT / "tests" / "vectors" / "blind-abort.json"
WHYS = {
    "step-timeout": ["shuffle", "lock", "release"],
    "move-timeout": ["move"],
    "left": ["shuffle", "lock", "release", "move", "leave"],
    "bad-open": ["move"],
    "revoke": ["move"],
    "bad-timeout-move": ["move"],
}
TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d+)?Z")


@pytest.fixture(scope="module")
def v():
    return json.loads(FILE.read_text())


def test_the_file_is_what_the_script_prints():
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "blind_abort_vectors.py")], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(FILE.read_text())


def seconds(text) -> float | None:
    found = TIME.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        return None
    y, mo, d, h, mi, s = (int(x) for x in found.groups()[:6])
    return datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc).timestamp() + float(found.group(7) or 0)


def signed(m: dict, sign_key: str) -> bool:
    body = {k: x for k, x in m.items() if k != "sig"}
    data = ("fairdeal-blind/1\n" + json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)).encode()
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(sign_key)).verify(bytes.fromhex(m["sig"]), data)
    except InvalidSignature:
        return False
    return True


def form_ok(a, seats: int, count: int) -> bool:
    if not isinstance(a, dict) or a.get("why") not in WHYS or a.get("step") not in WHYS[a["why"]]:
        return False
    members = {"seat", "why", "deal", "step", "after", "at", "deadline"}
    members |= {"seq"} if a["step"] == "move" else set()
    members |= {"position"} if a["why"] == "bad-open" else set()

    def whole(x, low, high=None):
        return type(x) is int and x >= low and (high is None or x <= high)

    stall = a["why"] in ("step-timeout", "move-timeout")
    return (
        set(a) == members
        and whole(a["seat"], 0, seats - 1)
        and whole(a["deal"], 0)
        and whole(a["after"], 0, count)
        and seconds(a["at"]) is not None
        and ((seconds(a["deadline"]) is not None) if stall else a["deadline"] is None)
    )


def step_verdict(t: dict, a: dict) -> str:
    messages, seats = t["blind"]["messages"], t["commit"]["rules"]["players"]
    if not form_ok(a, seats, len(messages)):
        return "stall-unknown"
    keys = {m["seat"]: m["sign_key"] for m in messages if m["type"] == "commit"}
    good = [(i, m) for i, m in enumerate(messages) if m["seat"] in keys and signed(m, keys[m["seat"]])]
    seat, k, step, after = a["seat"], a["deal"], a["step"], a["after"]
    if any((m["type"], m["seat"], m.get("deal")) == (step, seat, k) for _, m in good):
        return "stall-framed/present"
    types = [m["type"] for m in messages]
    if "reveal" in types[:after] or any(x != "reveal" for x in types[after:]):
        return "stall-framed/after"
    if t["records"] or k != 0:  # no move record: the hand in play is the first, deal 0
        return "stall-framed/not-this-deal"
    done = {(m["type"], m["seat"]) for i, m in good if i < after and m.get("deal") == k}
    due = None
    for kind in ("shuffle", "lock"):  # each in seat order; then every seat's release
        missing = [s for s in range(seats) if (kind, s) not in done]
        if missing:
            due = (kind, [missing[0]])
            break
    if due is None:
        due = ("release", [s for s in range(seats) if ("release", s) not in done])
    if due[0] != step or seat not in due[1]:
        return "stall-framed/not-due"
    at, deadline = seconds(a["at"]), seconds(a["deadline"])
    if deadline > at:
        return "stall-framed/before-deadline"
    if at > seconds(t["end"]["ended"]):
        return "stall-framed/after-end"
    other = t["start"]["clocks"].get("other")
    since = seconds(t["start"]["started"])  # no record gives a later time
    if deadline < since + (other if type(other) is int else 0) - 0.01:
        return "stall-framed/deadline-too-early"
    return "stall-ok"


def test_every_verdict_follows_from_the_specification(v):
    got = {c["name"]: step_verdict(v["transcript"], c["abort"]) for c in v["cases"]}
    assert got == {c["name"]: c["verdict"] for c in v["cases"]}
    assert {c["verdict"].split("/")[0] for c in v["cases"]} == {"stall-ok", "stall-framed", "stall-unknown"}


def test_the_honest_stall_passes_fairdeal_verify(v):
    from fairdeal.core.checks import verify_transcript

    t = dict(v["transcript"], blind=dict(v["transcript"]["blind"], abort=v["cases"][0]["abort"]))
    blame = verify_transcript(t).check("blind-blame")  # the final signature does not cover the abort here
    assert (blame.status, blame.code, blame.fields["named"]) == ("pass", "blind-blame-ok", [2])
