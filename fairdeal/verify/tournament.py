"""`fairdeal-verify tournament EXPORT|URL`: the command line of tournament.check."""

from __future__ import annotations

import json
from pathlib import Path

import click

from fairdeal.core.fetch import InputError, fetch_url, is_url, parse_json, read_file, read_stdin
from fairdeal.core.reporttext import render_tournament
from fairdeal.core.tournament.check import TournamentReport, verify_tournament


def load_export(source: str):
    if source == "-":
        return parse_json(read_stdin(), "standard input")
    if is_url(source):
        return parse_json(fetch_url(source), source)
    return parse_json(read_file(source), source)


@click.command("tournament")
@click.argument("export")
@click.option(
    "--key",
    "key",
    metavar="KEY|FILE",
    default=None,
    help="The service's public key (ed25519:..., or a file holding it): every record and game must be signed by it.",
)
@click.option("--json", "as_json", is_flag=True, help="The report as JSON, for programs.")
def tournament_cmd(export: str, key: str | None, as_json: bool) -> int:
    """Verify a duplicate tournament: seeds, pairings, boards, every game, standings (docs/tournaments.md).

    EXPORT is a file, - for standard input, or the URL of a finished tournament's export.
    Exit status: 0 every check passed, 1 a check failed, 2 the input could not be used.
    """
    if key is not None and Path(key).is_file():
        key = Path(key).read_text().strip()
    try:
        data = load_export(export)
    except InputError as exc:
        report = TournamentReport(unusable=exc.message)
    else:
        report = verify_tournament(data, key=key)
    click.echo(json.dumps(report.to_json(), indent=2) if as_json else render_tournament(report, export))
    return report.exit_code
