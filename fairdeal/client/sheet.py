"""The score sheet in the terminal: every hand that has ended (GET /games/{id}/sheet), a line or two each, as the
table tells a hand's result, then the running scores."""

from __future__ import annotations

from fairdeal.client.text import Table, hand_summary


def sheet_lines(hands: list[dict], view: dict, table: Table) -> list[str]:
    if not hands:
        return []
    lines = ["Score sheet:"]
    for h in hands:
        lines += ["  " + line.strip() for line in hand_summary(h, view, table)]
    return lines


def fetch_sheet(client, game_id: str) -> list[dict]:
    try:
        return client.get(f"/games/{game_id}/sheet").get("hands") or []
    except Exception:  # noqa: BLE001 - an older service without a sheet: the game's story already told each hand
        return []
