"""What a verification is given beside the transcript (docs/verify.md): which key its signatures must verify under
(`choose_key`: the keys given, else the pinned ones, else only the transcript's own), and the player's own notes
read from their text: receipts, the commitment noted at the start, client seeds. No I/O: the command line reads the
files and the pins and hands them in (fairdeal.core.checks re-exports these names)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.core.keysets import KeySet
from fairdeal.core.results import key_id_or_none


def choose_key(
    transcript_key: Any, given: str | KeySet | None, pins: Mapping[str, str] | KeySet | None
) -> tuple[str | None, str, dict[str, Any] | None]:
    """Which key the signatures must verify under: (key, source, problem), the problem as the facts of a
    "key-not-given" or "key-not-pinned" result.

    Keys given (--key, a key set) win: the transcript's key must be one of them (one key given: that key, and a
    transcript naming another fails "key-differs"); else the pinned keys, of which the transcript's key must be
    one (a transcript signed by any other key fails, which is what catches a transcript re-signed by someone
    else); else only the transcript's own key, which proves nothing about who signed it (the report warns)."""
    given_set, pinned = KeySet.of(given), KeySet.of_pins(pins)
    if given_set is not None:
        if transcript_key in given_set:
            return transcript_key, "given", None
        if given_set.only is not None:
            return given_set.only.key, "given", None
        return (
            None,
            "given",
            {"key_id": key_id_or_none(transcript_key) or repr(transcript_key), "given": _names(given_set)},
        )
    if pinned is not None:
        if transcript_key in pinned:
            return transcript_key, "pinned", None
        return (
            None,
            "pinned",
            {"key_id": key_id_or_none(transcript_key) or repr(transcript_key), "pinned": _names(pinned)},
        )
    return transcript_key if isinstance(transcript_key, str) else None, "transcript", None


def _names(trusted: KeySet) -> str:
    return ", ".join(f"{e.origin} ({key_id_or_none(e.key)})" for e in trusted)


def parse_receipt(text: str) -> tuple[int, str]:
    """'SEQ:HASH' -> (seq, hash); ValueError with the sentence otherwise."""
    seq, sep, digest = str(text).partition(":")
    digest = digest.strip().lower()
    if not sep or not seq.strip().isdigit() or len(digest) != 64 or any(ch not in "0123456789abcdef" for ch in digest):
        raise ValueError(
            f"A receipt is SEQ:HASH, the move's sequence number and the 64 hex digits the server "
            f"gave back, not {text!r}."
        )
    return int(seq), digest


MIN_NOTED = 16  # hex digits of a noted commitment, at least: 64 bits


def parse_commitment(text: str) -> str:
    """A commitment a player noted: all 64 hex digits, or a prefix of at least 16 (64 bits: no server can make
    another game's commitment share it). Returns it in lower case; ValueError with the sentence otherwise."""
    digits = str(text).strip().lower()
    if any(ch not in "0123456789abcdef" for ch in digits) or not MIN_NOTED <= len(digits) <= 64:
        raise ValueError(
            f"--commitment takes the game's commitment as you noted it: {MIN_NOTED} to 64 hex digits "
            f"(the first ones of the 64), not {text!r}."
        )
    return digits


def parse_client_seed(text: str) -> tuple[int, str]:
    """'SEAT:SEED' -> (seat, seed)."""
    seat, sep, seed = str(text).partition(":")
    if not sep or not seat.strip().isdigit():
        raise ValueError(f"A client seed to check is SEAT:SEED, e.g. 2:my-lucky-words, not {text!r}.")
    return int(seat), seed
