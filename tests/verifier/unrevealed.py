"""Tables that never start, for the tests: only the tests need a signed fairdeal/2 game whose committed seats did
not all reveal (the service's own come from its sweeper), so this lives here, not in fairdeal.core.selfplay."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.core.selfplay import ENDED, SeatedTable
from fairdeal.core.writer import finish


def unrevealed_table(
    rule_set: str,
    private_key: Any,
    server_seed: bytes,
    *,
    revealed: Sequence[int] = (),
    settings: Mapping[str, Any] | None = None,
    players: int = 4,
    client_seeds: Sequence[str | None] | None = None,
    bots: Sequence[int] = (1, 3),
    game_id: str | None = None,
    names: Sequence[str] | None = None,
    reason: str = "not-revealed",
) -> dict[str, Any]:
    """fairdeal/2: a table whose committed seats did not all reveal: commit, seating (fairdeal.core.selfplay's
    SeatedTable), then the end (the server seed revealed, the reveals of the seats in `revealed`, the others named
    as not revealed)."""
    table = SeatedTable(
        rule_set, private_key, server_seed, settings, players, client_seeds, bots, game_id, names, "fairdeal/2"
    )
    reveals = [
        {"seat": s["seat"], "client_seed": s["client_seed"], "nonce": s["nonce"]}
        for s in table.seats
        if s["seat"] in revealed and s["client_seed"] is not None
    ]
    return finish(private_key, table.transcript, reason, server_seed, None, ENDED, deals=[], reveals=reveals)
