"""The transparency log's records (docs/log.md): its leaves, its signed tree heads, and the proofs a transcript
carries in its `log` member. The hashing is fairdeal.core.merkle (RFC 9162); this module says what is hashed.

  leaf bytes      canonical_json(leaf record)       one per commitment and one per ending
  leaf hash       merkle.leaf_hash(leaf bytes)       SHA-256(0x00 || leaf bytes)
  tree head       {"type": "tree-head", "size", "root", "time", "key"}, signed: "signature" beside them
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core import checkpoint, keys, merkle, note
from fairdeal.core.canonical import canonical_json, sha256_hex
from fairdeal.core.transcript import record_hash, transcript_body

HEAD_TYPE = "tree-head"
LEAF_TYPES = ("commitment", "ending")
HEAD_MEMBERS = ("type", "size", "root", "time", "key")
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class LogError(ValueError):
    """A log record or proof is not in its documented form; the message says what is wrong."""


# ------------------------------------------------------------------------------------------------ leaves


def commitment_leaf(commit: Mapping[str, Any]) -> dict[str, Any]:
    """The leaf of a table's commitment: published with the commit record, before anyone sits down."""
    return {
        "type": "commitment",
        "game_id": commit["game_id"],
        "commit": record_hash(commit),
        "commitment": commit["commitment"],
        "time": commit["created"],
    }


def ending_leaf(transcript: Mapping[str, Any]) -> dict[str, Any]:
    """The leaf of a game's end, however it ended. `transcript` is the SHA-256 of the bytes the final signature
    covers; `dealt` says whether cards existed (the transcript has a start record) before it ended. A table that
    ended in the reveal phase (seated, never started: its end names `reveals`) also names, in `unrevealed`, the
    committed seats that did not reveal, each {"seat", "name"}: who walked away, readable from the log alone."""
    end = transcript["end"]
    leaf = {
        "type": "ending",
        "game_id": transcript["commit"]["game_id"],
        "reason": end["reason"],
        "dealt": transcript.get("start") is not None,
        "transcript": sha256_hex(transcript_body(transcript)),
        "time": end["ended"],
    }
    if "reveals" in end and transcript.get("seating") is not None:
        names = {s.get("seat"): s.get("name") for s in transcript["seating"].get("seats", [])}
        leaf["unrevealed"] = [{"seat": s, "name": names.get(s)} for s in end.get("unrevealed") or ()]
    return leaf


def ending_leaf_forms(transcript: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ending leaves a transcript may have in the log, newest form first: a reveal-phase ending logged before
    leaves named the unrevealed seats has the form without `unrevealed` (docs/log.md, "Leaf forms"). Both forms
    bind the same transcript hash, so accepting the older one weakens no check; it only names no seat."""
    leaf = ending_leaf(transcript)
    if "unrevealed" not in leaf:
        return [leaf]
    return [leaf, {m: v for m, v in leaf.items() if m != "unrevealed"}]


def leaf_bytes(leaf: Mapping[str, Any]) -> bytes:
    return canonical_json(leaf)


def leaf_hash_of(leaf: Mapping[str, Any]) -> bytes:
    return merkle.leaf_hash(leaf_bytes(leaf))


def check_leaf(leaf: Any) -> dict[str, Any]:
    """A leaf record read from a log, in its one form (else LogError)."""
    common = {"type", "game_id", "time"}
    forms = {"commitment": common | {"commit", "commitment"}, "ending": common | {"reason", "dealt", "transcript"}}
    if (
        not isinstance(leaf, dict)
        or leaf.get("type") not in forms
        or set(leaf) - {"unrevealed"} != forms[leaf["type"]]
        or ("unrevealed" in leaf and leaf["type"] != "ending")
    ):
        raise LogError(f"not a log leaf: {leaf!r:.120}")
    if "unrevealed" in leaf and not _seats_named(leaf["unrevealed"]):
        raise LogError(f'a log leaf\'s \'unrevealed\' is a list of {{"seat": number, "name"}}: {leaf!r:.120}')
    if not all(isinstance(leaf[m], str) for m in leaf if m not in ("dealt", "unrevealed")) or (
        "dealt" in leaf and type(leaf["dealt"]) is not bool
    ):
        raise LogError(f"a log leaf's members are texts (and 'dealt' true or false): {leaf!r:.120}")
    for m in ("commit", "commitment", "transcript"):
        if m in leaf and not _HEX64.match(leaf[m]):
            raise LogError(f"a log leaf's {m!r} is 64 lowercase hex digits: {leaf!r:.120}")
    return leaf


def _seats_named(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(s, dict)
        and set(s) == {"seat", "name"}
        and type(s["seat"]) is int
        and s["seat"] >= 0
        and (s["name"] is None or isinstance(s["name"], str))
        for s in value
    )


# ------------------------------------------------------------------------------------------------ heads


def make_head(size: int, root: bytes, time: str, key: str) -> dict[str, Any]:
    return {"type": HEAD_TYPE, "size": size, "root": root.hex(), "time": time, "key": key}


def sign_head(private_key: Any, head: Mapping[str, Any]) -> dict[str, Any]:
    body = {m: head[m] for m in HEAD_MEMBERS}
    return dict(body, signature=keys.sign(private_key, canonical_json(body)))


def check_head(head: Any, key: str | None = None) -> dict[str, Any]:
    """A signed tree head in its one form, its signature valid under its own key (and that key `key` when
    given); else LogError."""
    if not isinstance(head, dict) or set(head) != set(HEAD_MEMBERS) | {"signature"} or head["type"] != HEAD_TYPE:
        raise LogError(f"not a signed tree head: {head!r:.160}")
    if (
        type(head["size"]) is not int
        or head["size"] < 0
        or not isinstance(head["root"], str)
        or not _HEX64.match(head["root"])
        or not isinstance(head["time"], str)
    ):
        raise LogError(f"a tree head has a size (an integer >= 0), a root (64 hex digits) and a time: {head!r:.160}")
    if key is not None and head["key"] != key:
        raise LogError(f"the tree head is signed by {head['key']!r}, not by the key expected ({key!r})")
    body = {m: head[m] for m in HEAD_MEMBERS}
    if not isinstance(head["signature"], str) or not keys.verify(head["key"], canonical_json(body), head["signature"]):
        raise LogError(f"the tree head of size {head['size']} is not signed by its key {head['key']!r}")
    return head


def head_root(head: Mapping[str, Any]) -> bytes:
    return bytes.fromhex(head["root"])


# ------------------------------------------------------------------------------------------------ proofs


def proof_hex(proof: Sequence[bytes]) -> list[str]:
    return [h.hex() for h in proof]


def proof_bytes(proof: Any) -> list[bytes]:
    if not isinstance(proof, list) or not all(isinstance(h, str) and _HEX64.match(h) for h in proof):
        raise LogError("a proof is a list of hashes, each 64 lowercase hex digits")
    return [bytes.fromhex(h) for h in proof]


def inclusion(leaf: Mapping[str, Any], index: int, head: Mapping[str, Any], proof: Any) -> bool:
    """Whether the leaf is number `index` of the tree the (checked) head signs."""
    return merkle.verify_inclusion(leaf_hash_of(leaf), index, head["size"], proof_bytes(proof), head_root(head))


def transcript_leaves(transcript: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The leaves a transcript must have in the log, each kind with the forms it may take (ending_leaf_forms):
    its commitment, and its ending once it has one."""
    out = {"commitment": [commitment_leaf(transcript["commit"])]}
    if transcript.get("end") is not None and transcript.get("signature") is not None:
        out["ending"] = ending_leaf_forms(transcript)
    return out


def check_log_tree(
    transcript: Mapping[str, Any], key: str | None = None, witnesses: Sequence[Any] = ()
) -> dict[str, Any]:
    """The tree a transcript's `log` member proves its leaves in: its signed head (fairdeal/2's JSON head) and/or
    its checkpoint (a C2SP signed note, docs/log.md "Checkpoints"), which must then sign the same tree with the
    same key. {"size", "root" (hex), "key", "cosigners": [(witness verifier, timestamp)] of `witnesses`}. `key`:
    the one key the head must be signed by (which keys count for a service is fairdeal.core.logtrust's)."""
    log = transcript.get("log")
    if not isinstance(log, dict) or not ("head" in log or "checkpoint" in log):
        raise LogError("the transcript's log member has no tree head and no checkpoint")
    head = check_head(log["head"], key) if "head" in log else None
    tree = {"size": head["size"], "root": head["root"], "key": head["key"], "cosigners": []} if head else None
    if "checkpoint" in log:
        if not isinstance(log["checkpoint"], str):
            raise LogError("the log member's checkpoint is a signed note (a text)")
        signer = head["key"] if head else key or transcript["commit"]["key"]
        try:
            cp = checkpoint.open_checkpoint(log["checkpoint"], [signer], witnesses)
        except note.NoteError as exc:
            raise LogError(f"the log member's checkpoint does not hold: {exc}") from None
        if tree is not None and (cp.size, cp.root.hex()) != (tree["size"], tree["root"]):
            raise LogError(
                f"the log member's checkpoint ({cp.size} leaves) and tree head ({tree['size']} leaves) "
                f"sign different trees"
            )
        tree = {"size": cp.size, "root": cp.root.hex(), "key": cp.key, "cosigners": cp.cosigners}
    assert tree is not None  # a head or a checkpoint: refused above without either
    return tree


def check_log_member(transcript: Mapping[str, Any], key: str | None = None) -> dict[str, int]:
    """Check a transcript's `log` member offline: {"head": signed head and/or "checkpoint": signed note,
    "commitment": {"index", "proof"}, "ending": {"index", "proof"} (once the game has ended)}. Returns
    {leaf type: index}; LogError says what fails."""
    head = check_log_tree(transcript, key)  # first: it refuses a log member that is not an object
    log = transcript["log"]
    found = {}
    expected = transcript_leaves(transcript)
    for kind, forms in expected.items():
        entry = log.get(kind)
        if not isinstance(entry, dict) or set(entry) != {"index", "proof"} or type(entry["index"]) is not int:
            raise LogError(f'the log member has no {kind} entry {{"index", "proof"}}')
        if not any(inclusion(leaf, entry["index"], head, entry["proof"]) for leaf in forms):
            raise LogError(
                f"the {kind} of game {forms[0]['game_id']} is not leaf {entry['index']} of the log "
                f"whose head of size {head['size']} is signed"
            )
        found[kind] = entry["index"]
    extra = set(log) - {"head", "checkpoint", *expected}
    if extra:
        raise LogError(f"the log member has {sorted(extra)[0]!r}, which this transcript has no leaf for")
    return found
