"""A table's document in the store: read, changed by compare-and-set, and who sits where. Tables (tables.py) and the
game's unit of work (games.py) both change it, so it lives apart from both."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from fairdeal.service.errors import ApiError


def not_found(table_id: Any) -> ApiError:
    return ApiError(404, "table-not-found", f"There is no table {table_id!r}.")


def load(store, table_id: str) -> tuple[dict, int]:
    doc, version = store.get_doc("table", table_id) if isinstance(table_id, str) else (None, 0)
    if doc is None:
        raise not_found(table_id)
    return doc, version


def update(store, table_id: str, change: Callable[[dict], None]) -> dict:
    """Apply `change` (which may refuse with ApiError) by compare-and-set, retrying lost races."""
    for _ in range(20):
        doc, version = load(store, table_id)
        new = copy.deepcopy(doc)
        change(new)
        if new == doc or store.put_doc("table", table_id, new, version):
            return new
    raise ApiError(503, "busy", "The table is changing too fast; try again.")


def seat_of(table: dict, player: dict | None) -> int | None:
    """The player's seat at the table (None: not seated, or no player)."""
    if player is None:
        return None
    for i, s in enumerate(table["seats"]):
        if s["player"] == player["id"]:
            return i
    return None
