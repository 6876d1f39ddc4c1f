"""Idempotency keys for the requests that create something outside a game's log: a player (POST /players), a
table (POST /tables) and a seat (POST /tables/{id}/join). A move's key lives in its game's log (store.append);
these live in a document of their own, ("request", sha256 of [scope, what, key]), whose `answer` names what the
request made.

The ids are chosen first and claimed with the key (compare-and-set: of two requests racing with one key, one
claims), then made. A retry with the same key and body finds the claim and answers what it names, made once; with
another body it is refused (422 idempotency-key-reused). A claim whose request never finished (the process died
between the claim and the making, or the making was refused) is taken over after CLAIM_STALE seconds, or at once
when its request was refused: nothing was made under it. Keys are scoped like a move's (the player who sent it;
POST /players, which has no player yet, by the client's address) and kept for FAIRDEAL_IDEM_TTL (0: for ever).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from flask import request

from fairdeal.service.errors import ApiError

IDEM_MAX = 128  # the longest key (as for moves)
CLAIM_STALE = 30.0  # seconds after which a claim with nothing made under it is taken over


def request_key() -> str | None:
    """The request's Idempotency-Key header (None without one); 400 when it is empty or too long."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= IDEM_MAX:
        raise ApiError(400, "bad-idempotency-key", f"An Idempotency-Key is 1 to {IDEM_MAX} characters.")
    return key


def body_hash(body: Any) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Once:
    """One keyed request: what an earlier request with the key made, or a claim for this one."""

    KIND = "request"

    def __init__(self, store, scope: str, what: str, key: str, body: Any, now: float, ttl: float):
        self.store, self.now, self.ttl = store, now, ttl
        self.id = hashlib.sha256(json.dumps([scope, what, key]).encode()).hexdigest()
        self.body = body_hash(body)

    def run(self, fresh: dict, made: Callable[[dict], bool], make: Callable[[dict], Any]) -> tuple[dict, bool]:
        """(answer, replayed): the earlier request's answer when `made(answer)` says it was made, else the claim of
        `fresh` (the ids to make) and make(fresh). A refused make (ApiError) releases the claim."""
        for _ in range(10):
            doc, version = self.store.get_doc(self.KIND, self.id)
            if doc is not None and self.ttl and doc["at"] < self.now - self.ttl:
                doc = None  # expired: the key is taken anew
            if doc is not None:
                if doc["body"] != self.body:
                    raise ApiError(
                        422,
                        "idempotency-key-reused",
                        "This Idempotency-Key was used for another request; use a new key for a new request.",
                    )
                if not doc.get("failed") and made(doc["answer"]):
                    return doc["answer"], True
                if not doc.get("failed") and doc["at"] > self.now - CLAIM_STALE:
                    raise ApiError(
                        409,
                        "request-in-progress",
                        "A request with this Idempotency-Key is still being answered; try again in a moment.",
                        headers={"Retry-After": "1"},
                    )
            claim = {"body": self.body, "answer": fresh, "at": self.now}
            if self.store.put_doc(self.KIND, self.id, claim, version):
                try:
                    make(fresh)
                except ApiError:
                    self.store.put_doc(self.KIND, self.id, dict(claim, failed=True), version + 1)
                    raise
                return fresh, False
        raise ApiError(
            503, "busy", "This Idempotency-Key is changing too fast; try again.", headers={"Retry-After": "1"}
        )
