"""The verify page's checks as the tests read them: the rows the browser's own checks fill and their statuses."""

from __future__ import annotations

BROWSER_CHECKS = [
    "protocol",
    "signature-start",
    "signature-transcript",
    "header",
    "commitment",
    "client-seeds",
    "hash-chain",
    "deals",
]


def statuses(page) -> dict:
    page.wait_for_selector("#checks tr[data-check=receipts]")
    return {r.get_attribute("data-check"): r.get_attribute("data-status") for r in page.locator("#checks tr").all()}
