"""The verify page's call into the verifier: the checks of `fairdeal-verify TRANSCRIPT --json`, with the page's
fields read as the command line reads its options (the same functions)."""

import json

from fairdeal.core.checks import parse_client_seed, parse_commitment, parse_receipt, verify_transcript
from fairdeal.core.keysets import KeySet, KeySetError, keys_from_text
from fairdeal.core.tournament.seeds import seed_from_hex


def verify(text: str, options_json: str) -> str:
    """options: {keys: [key texts], receipts: ["SEQ:HASH"], client_seeds: ["SEAT:SEED"], commitment: "HEX"|null,
    board_seed: "HEX"|null (a tournament table's, as `--board-seed`)}.
    The report as `--json` writes it, or {"usage": sentence} for a field the command line would refuse."""
    options = json.loads(options_json)
    try:
        keys = [k for k in options.get("keys") or [] if k.strip()]
        given = KeySet(keys_from_text("\n".join(keys), "the service's key")) if keys else None
        receipts = [parse_receipt(r) for r in options.get("receipts") or []]
        seeds = [parse_client_seed(s) for s in options.get("client_seeds") or []]
        noted = options.get("commitment")
        commitment = parse_commitment(noted) if noted else None
        board = options.get("board_seed")
        board_seed = seed_from_hex(board) if board else None
    except (KeySetError, ValueError) as exc:
        return json.dumps({"usage": str(exc)})
    report = verify_transcript(
        text, key=given, receipts=receipts, client_seeds=seeds, commitment=commitment, board_seed=board_seed
    )
    return json.dumps(report.to_json(), ensure_ascii=False)
