"""`fairdeal-verify log URL --witness KEYFILE` (docs/verify.md, docs/log.md "Witnesses"): the watcher acts as a
witness. It fetches the service's checkpoint and the consistency proof from the last checkpoint it cosigned,
puts them to its own tlog-witness add-checkpoint handler (fairdeal.core.witness), keeps the new state, and
gives the service the cosigned checkpoint (POST /log/cosignatures).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fairdeal.core import checkpoint, note, witness
from fairdeal.core.fetch import InputError, fetch_url, parse_json, post_text
from fairdeal.core.logwatch import base_url

Poster = Callable[[str, str], tuple[int, str]]  # post_text's shape: (url, text) -> (status, the answer's start)


@dataclass
class Cosigned:
    ok: bool
    text: str  # one line for the report


def state_path_for(key_path: str, given: str | None) -> str:
    return given or key_path + ".state.json"


def post_cosignature(base: str, cosigned_note: str, post: Poster = post_text) -> str:
    status, body = post(f"{base}/log/cosignatures", cosigned_note)
    if status == 200:
        return "the service keeps it"
    if status == 0:
        return f"the service could not be told ({body})"
    return f"the service refused it ({status}: {body})"


def act_as_witness(
    url: str,
    key_path: str,
    state_file: str | None,
    log_key: str | None,
    now: int,
    get: Callable[[str], bytes] = fetch_url,
    post: Poster = post_text,
) -> Cosigned:
    """Cosign the service's current checkpoint if it is consistent with the last one this witness cosigned.
    `get(url) -> bytes` and `post(url, text) -> (status, body)` reach the service."""
    if log_key is None:
        raise InputError(
            "A witness cosigns only checkpoints signed by a key it trusts: give the service's key with --key."
        )
    try:
        name, private = witness.load_key(key_path)
        path = state_path_for(key_path, state_file)
        state = witness.load_state(path)
    except (note.NoteError, ValueError) as exc:
        raise InputError(str(exc)) from None
    base = base_url(url)
    checkpoint_note = get(f"{base}/log/checkpoint").decode("utf-8", "replace")
    try:
        cp = checkpoint.parse_text(note.parse(checkpoint_note)[0])
    except note.NoteError as exc:
        return Cosigned(False, f"WITNESS refused: {base}/log/checkpoint is not a checkpoint: {exc}")
    w = witness.for_log_key(name, private, state, log_key, cp.origin)
    old = state.get(cp.origin, {}).get("size", 0)
    proof: list[bytes] = []
    if 0 < old <= cp.size:
        got = parse_json(get(f"{base}/log/consistency?first={old}&second={cp.size}"), base)
        try:
            proof = [bytes.fromhex(h) for h in got["proof"]]
        except (KeyError, TypeError, ValueError):
            return Cosigned(False, f"WITNESS refused: {base} sent no consistency proof from {old} to {cp.size}")
    status, body, _ = w.add_checkpoint(witness.request_body(old, proof, checkpoint_note), now)
    if status != 200:
        why = f"the witness last cosigned size {body.strip()}" if status == 409 else body.strip()
        return Cosigned(
            False, f"WITNESS refused the checkpoint of {cp.origin} at size {cp.size} (last cosigned: {old}): {why}"
        )
    witness.save_state(path, w.state)  # kept before the cosignature leaves this machine
    told = post_cosignature(base, checkpoint_note + body, post)
    # cosigned either way; a service that will not serve the cosignature is worth a look (exit status 1)
    return Cosigned(
        told == "the service keeps it",
        f"WITNESS cosigned {cp.origin} at size {cp.size} as {name} (consistent with size {old}); {told}",
    )
