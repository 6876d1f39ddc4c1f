"""Rules at the table in the terminal (GET /tables/{id}/rules): the rules in short sections instead of one long
paragraph, what "drumpf" means, and the trump suit's order, highest first ("?" at the prompt shows it)."""

from __future__ import annotations

import textwrap


def fetch_rules(client, table_id: str) -> dict | None:
    try:
        return client.get(f"/tables/{table_id}/rules")
    except Exception:  # noqa: BLE001 - an older service: the rules line alone is shown
        return None


def rules_lines(help_: dict) -> list[str]:
    lines = [term for term in (help_.get("terms") or {}).values()]
    for section in help_.get("sections") or []:
        lines.append(f"  {section['title']}:")
        for item in section["items"]:
            lines += textwrap.wrap(item, 110, initial_indent="    - ", subsequent_indent="      ")
    return lines


def order_lines(help_: dict | None, trump: str | None) -> list[str]:
    """The trump suit's cards, highest first: this hand's suit, or every suit before one is named."""
    if not help_:
        return []
    word = help_.get("trump_word", "trump")
    orders = help_.get("trump_order") or {}
    suits = [trump] if trump in orders else list(orders)
    head = f"{word.capitalize()}s, highest first" + (" (this hand)" if trump in orders else "") + ":"
    return [head] + [f"  {s}: {' '.join(orders[s])}" for s in suits]
