"""The end of a game in the terminal: save the published transcript, verify it on the spot with the verifier's
own code, and print the `fairdeal-verify` command that repeats the check (or, for a game that goes on without
this client, when and how to fetch and verify it)."""

from __future__ import annotations

import json
import shlex

import click

from fairdeal.client.http import Client


def verify_saved(
    client: Client,
    game_id: str,
    out: str,
    seat: int | None,
    client_seed: str | None,
    table_key: str | None,
    receipts: dict[int, str],
    commitment: str | None = None,
) -> bool:
    """Save the published transcript, verify it here with the verifier's own code (the key from /keys, your
    client seed, the receipts of your moves, the commitment the table showed before the first card) and print
    the command that repeats the check."""
    from fairdeal.core import render_report, verify_transcript

    data = client.get(f"/games/{game_id}/transcript")
    if data.get("complete") is False:  # still running: only a finished game's transcript verifies
        published = client.get("/keys")
        _fetch_later(client, game_id, seat, client_seed, table_key or published["current"], receipts, commitment)
        return True
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    click.echo(f"Transcript saved to {out}")
    published = client.get("/keys")
    known = {k.get("key") for k in published.get("keys", []) if isinstance(k, dict)}
    key = table_key if table_key in known else published["current"]
    seeds = [(seat, client_seed)] if seat is not None and client_seed is not None else []
    report = verify_transcript(
        data, key=key, client_seeds=seeds, receipts=sorted(receipts.items()), commitment=commitment
    )
    click.echo(render_report(report, out))
    click.echo("\nCheck it yourself, offline:")
    last = f" --receipt {max(receipts)}:{receipts[max(receipts)]}" if receipts else ""
    mine = f" --client-seed {shlex.quote(f'{seat}:{client_seed}')}" if seeds else ""
    noted = f" --commitment {commitment}" if commitment else ""
    click.echo(f"  fairdeal-verify {shlex.quote(out)} --key {key}{mine}{last}{noted}")
    return report.ok


def _fetch_later(
    client: Client,
    game_id: str,
    seat: int | None,
    client_seed: str | None,
    key: str | None,
    receipts: dict[int, str],
    commitment: str | None,
) -> None:
    """The game goes on without this client: say exactly when and how to fetch and verify its transcript."""
    url = f"{client.base}/games/{game_id}/transcript"
    last = f" --receipt {max(receipts)}:{receipts[max(receipts)]}" if receipts else ""
    mine = f" --client-seed {shlex.quote(f'{seat}:{client_seed}')}" if seat is not None and client_seed else ""
    noted = f" --commitment {commitment}" if commitment else ""
    click.echo(
        f"The game goes on at the table. Its signed transcript is published when it ends, at\n  {url}\n"
        f"Verify it then with:\n  fairdeal-verify {url} --key {key}{mine}{last}{noted}"
    )
    if seat is not None:
        click.echo(f"Or come back to your seat now: fairdeal play --server {client.base} --resume {game_id}")
