"""A blind table's seating: the "blind" setting at creation, each seat's commit when it is taken, the start's
check that every human seat has one (docs/api.md, "Dealer-blind tables"). Called from Tables (BLIND HOOKs)."""

from __future__ import annotations

from typing import Any

from fairdeal.core.blind import derive
from fairdeal.core.blind.hidden import BLIND_RULE_SETS
from fairdeal.core.blind.messages import BadMessage, check_form, verify_signature
from fairdeal.service.blind.log import DECK
from fairdeal.service.errors import ApiError


def is_blind(table: dict | None) -> bool:
    """Whether a table (its document) is dealer-blind."""
    return bool(table and table.get("blind"))


def blind_setting(body: dict, rule_set: str) -> bool:
    value = body.get("blind", False)
    if type(value) is not bool:
        raise ApiError(422, "bad-blind", "'blind' is true (a dealer-blind table) or false.")
    if value and rule_set not in BLIND_RULE_SETS:
        raise ApiError(
            422,
            "blind-not-supported",
            f"{rule_set} has no dealer-blind tables yet; the rule sets that have them are: "
            f"{', '.join(BLIND_RULE_SETS)}.",
            allowed=list(BLIND_RULE_SETS),
        )
    return value


def check_commit(table: dict, seat: int, message: Any) -> dict | None:
    """A seat's commit, checked: its form, the seat it is for, its own signature (under the key it commits)."""
    if message is None:
        return None
    if not table.get("blind"):
        raise ApiError(409, "not-blind", "This is not a dealer-blind table: it takes no blind commit.")
    msg = _of_type(table, message, "commit", "blind_commit")
    if msg["seat"] != seat:
        raise ApiError(422, "blind-commit-seat", f"This commit is for seat {msg['seat']}; your seat is {seat}.")
    _signed(msg, msg["sign_key"])
    return msg


def _of_type(table: dict, message: Any, kind: str, member: str) -> dict:
    """The request member `member`: a message of this table's form and of type `kind`, else a 422."""
    try:
        msg = check_form(message, table["id"], table["players"], DECK)
    except BadMessage as exc:
        raise ApiError(422, "bad-blind-message", str(exc), member=member) from None
    if msg["type"] != kind:
        raise ApiError(422, "bad-blind-message", f"'{member}' is a message of type {kind}.", member=member)
    return msg


def _signed(msg: dict, sign_key: str) -> None:
    try:
        verify_signature(msg, sign_key)
    except BadMessage as exc:
        raise ApiError(422, "bad-blind-signature", str(exc)) from None


def check_start(table: dict) -> None:
    if not table.get("blind"):
        return
    missing = [i for i, s in enumerate(table["seats"]) if s["player"] is not None and not s.get("blind_commit")]
    if missing:
        raise ApiError(
            409,
            "blind-commit-missing",
            f"Seat(s) {', '.join(map(str, missing))} have no blind commit yet: each human seat sends its commit "
            "(POST /tables/{id}/join with blind_commit) before the start.",
            seats=missing,
        )


def check_leave_reveal(table: dict, seat: int | None, message: Any) -> dict | None:
    """The reveal a seat's leave carries (POST /tables/{id}/leave "blind_reveal"), checked before anything changes:
    a dealer-blind table, the caller's seat, a signed reveal of that seat whose secret opens its commit."""
    if message is None:
        return None
    if not table.get("blind"):
        raise ApiError(409, "not-blind", "This is not a dealer-blind table: a leave carries no blind reveal.")
    if seat is None:
        raise ApiError(409, "not-at-table", "You hold no seat at this table.")
    commit = table["seats"][seat].get("blind_commit")
    msg = _of_type(table, message, "reveal", "blind_reveal")
    if msg["seat"] != seat or commit is None:
        raise ApiError(403, "not-your-seat", f"Your token holds seat {seat}, not seat {msg['seat']}.")
    _signed(msg, commit["sign_key"])
    if derive.commitment(bytes.fromhex(msg["secret"])) != commit["commitment"]:
        raise ApiError(422, "bad-reveal", "This secret does not open your commit's commitment.")
    return msg
