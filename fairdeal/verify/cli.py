"""`fairdeal-verify`: check that a finished game was dealt and played fairly, on your own machine.

    fairdeal-verify TRANSCRIPT            one game (a file, "-" for standard input, or a finished game's URL)
    fairdeal-verify audit PATH...         many games: files, folders, `fairdeal export` JSON Lines
    fairdeal-verify log URL|FILE          watch the service's transparency log over time

Exit status: 0 every check passed, 1 a check failed, 2 the input could not be used. The report goes to standard
output, messages to standard error, and there is never a traceback (docs/verify.md).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from fairdeal.core import keys
from fairdeal.core.checks import (
    Report,
    parse_client_seed,
    parse_commitment,
    parse_receipt,
    verify_transcript,
)
from fairdeal.core.exportaudit import export_against_log
from fairdeal.core.fetch import InputError, is_url, load_transcript
from fairdeal.core.keysets import KeySet
from fairdeal.core.reporttext import render_report
from fairdeal.core.tournament.seeds import seed_from_hex
from fairdeal.verify.audit import audit as run_audit
from fairdeal.verify.audit import default_jobs
from fairdeal.verify.common import PROG, emit, head_trust, say
from fairdeal.verify.keyopts import UsageProblem, key_options
from fairdeal.verify.keyopts import trusted_keys as _trusted_keys
from fairdeal.verify.logcli import log_cmd
from fairdeal.verify.pins import PinError, save_pin
from fairdeal.verify.tournament import tournament_cmd
from fairdeal.verify.witnesscli import witness_key_cmd

COMMANDS = ("verify", "audit", "log")


def cosigner_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--cosigner VKEY (repeatable) and --cosignatures N: the log's checkpoint must be cosigned by witnesses."""
    command = click.option(
        "--cosignatures",
        "quorum",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help="How many of the --cosigner witnesses must have cosigned (default: all).",
    )(command)
    return click.option(
        "--cosigner",
        "cosigner_keys",
        multiple=True,
        metavar="VKEY",
        envvar="FAIRDEAL_VERIFY_COSIGNERS",
        help="A witness's verifier key (fairdeal-verify witness-key): the transcript's log checkpoint "
        "must carry its cosignature (repeatable; see --cosignatures).",
    )(command)


def _cosigners(vkeys: Sequence[str], quorum: int | None) -> Any:
    from fairdeal.core.checkpoint import CosignerPolicy
    from fairdeal.core.note import NoteError

    try:
        return CosignerPolicy.of(vkeys, quorum)
    except NoteError as exc:
        raise UsageProblem(str(exc)) from None


# ------------------------------------------------------------------------------------------- commands


class DefaultGroup(click.Group):
    """`fairdeal-verify TRANSCRIPT` runs `verify`: any first argument that is not a command name goes to it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["verify", *args]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fairdeal", prog_name=PROG)  # the installed package's version
def cli() -> None:
    """Check that a finished fairdeal game was dealt and played fairly, offline.

    \b
      fairdeal-verify TRANSCRIPT [OPTIONS]   one game: a file, - (standard input) or the game's URL
      fairdeal-verify audit PATH... [OPTIONS] many games: files, folders, `fairdeal export` JSON Lines
      fairdeal-verify log URL|FILE [OPTIONS]  the service's transparency log, watched over time
      fairdeal-verify tournament EXPORT|URL   a duplicate tournament: pairings, boards, games, standings

    Exit status: 0 every check passed, 1 a check failed, 2 the input could not be used.
    See `fairdeal-verify verify --help` and docs/verify.md.
    """


@cli.command("verify")
@click.argument("transcript")
@key_options
@click.option(
    "--pin",
    is_flag=True,
    help="Remember the key this run used (with no --key: the transcript's own), "
    "and every key given with it, when every check passes.",
)
@click.option(
    "--receipt",
    "receipts",
    multiple=True,
    metavar="SEQ:HASH",
    help="Check a receipt the server gave you for move SEQ (repeatable).",
)
@click.option(
    "--commitment",
    "noted",
    metavar="HEX",
    help="Check that the game is the one whose commitment you noted at the start: all 64 hex digits or "
    "the first 16 or more.",
)
@click.option(
    "--client-seed",
    "client_seeds",
    multiple=True,
    metavar="SEAT:SEED",
    help="Check that your client seed is the one bound into the game (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="The report as JSON, for programs.")
@click.option("--explain", is_flag=True, help="Tell the game hand by hand and trick by trick.")
@click.option("--seat", type=int, default=None, metavar="N", help="With --explain: show seat N's cards each hand.")
@click.option(
    "--board-seed",
    "board_hex",
    metavar="HEX",
    default=None,
    help="A tournament table: its round's board seed, as the round result reveals it (docs/tournaments.md).",
)
@cosigner_options
def verify_cmd(
    transcript: str,
    key_opts: Sequence[str],
    service: str | None,
    pin: bool,
    receipts: Sequence[str],
    noted: str | None,
    client_seeds: Sequence[str],
    as_json: bool,
    explain: bool,
    seat: int | None,
    board_hex: str | None = None,
    cosigner_keys: Sequence[str] = (),
    quorum: int | None = None,
) -> int:
    """Verify one game: every check with a pass or a fail and the reason.

    TRANSCRIPT is a file, - for standard input, or the URL of a finished game.
    Exit status: 0 every check passed, 1 a check failed, 2 the input could not be used.
    """
    given, pins = _trusted_keys(key_opts, service)
    cosigners = _cosigners(cosigner_keys, quorum)
    try:
        parsed_receipts = [parse_receipt(r) for r in receipts]
        parsed_seeds = [parse_client_seed(s) for s in client_seeds]
        commitment = parse_commitment(noted) if noted is not None else None
        board = seed_from_hex(board_hex) if board_hex is not None else None
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    try:
        data = load_transcript(transcript)
    except InputError as exc:
        report = Report(unusable=exc.message)
        report_out(report, transcript, as_json)
        return 2
    report = verify_transcript(
        data,
        key=given,
        pins=pins,
        receipts=parsed_receipts,
        client_seeds=parsed_seeds,
        commitment=commitment,
        board_seed=board,
        cosigners=cosigners,
    )
    story = None
    if (explain or seat is not None) and not report.unusable:
        story = _story(data, seat, report)
    report_out(report, transcript, as_json, story)
    if story is not None and not as_json:
        emit("\n" + story)
    if pin:
        _pin(report, transcript, given)
    return report.exit_code


def _story(data: Any, seat: int | None, report: Report) -> str:
    """The --explain text, each failed check told where it happened; a game the story cannot be told of says so
    (the report has the verdict)."""
    from fairdeal.verify.explain import explain_game

    try:
        return explain_game(data, seat=seat, checks=report.checks)
    except Exception as exc:  # noqa: BLE001 - the verdict stands; only the story is missing
        return f"The story of this game cannot be told: {type(exc).__name__}: {exc}"


def report_out(report: Report, source: str, as_json: bool, story: str | None = None) -> None:
    if as_json:
        out = report.to_json()
        if story is not None:
            out["story"] = story
        emit(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        emit(render_report(report, source))
    for warning in report.warnings:
        say(f"warning: {warning}")
    if report.unusable:
        say(f"cannot verify {source}: {report.unusable}")


def _pin(report: Report, source: str, given: KeySet | None) -> None:
    if report.exit_code != 0 or not report.key:
        say("not pinning: the key is pinned only when every check passes")
        return
    name = keys.key_id(report.key)
    if is_url(source):
        from urllib.parse import urlsplit

        name = urlsplit(source).netloc or name
    try:
        path = save_pin(name, report.key, also=given or ())
    except PinError as exc:
        raise UsageProblem(str(exc)) from None
    say(f"pinned key {keys.key_id(report.key)} as {name!r} in {path}")


@cli.command("audit")
@click.argument("paths", nargs=-1, required=True)
@key_options
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    envvar="FAIRDEAL_VERIFY_JOBS",
    help="Processes to use (default: every core).",
)
@click.option("--json", "as_json", is_flag=True, help="The summary as JSON, for programs.")
@click.option(
    "--log",
    "log_source",
    metavar="URL|FILE",
    help="The service's transparency log: report the ended games the export lacks (docs/log.md).",
)
@click.option(
    "--pending-after",
    type=click.FloatRange(min=0),
    default=3600.0,
    show_default=True,
    envvar="FAIRDEAL_VERIFY_PENDING_AFTER",
    metavar="SECONDS",
    help="With --log: list the commitments with no ending this much older than the log's newest head.",
)
@cosigner_options
def audit_cmd(
    paths: Sequence[str],
    key_opts: Sequence[str],
    service: str | None,
    jobs: int | None,
    as_json: bool,
    log_source: str | None = None,
    pending_after: float = 3600.0,
    cosigner_keys: Sequence[str] = (),
    quorum: int | None = None,
) -> int:
    """Verify many games: files, folders and `fairdeal export` JSON Lines, on every core.

    Exit status: 0 every game passed, 1 a game failed or could not be read, 2 no transcript found.
    """
    given, pins = _trusted_keys(key_opts, service)
    summary = run_audit(
        list(paths), key=given, pins=pins, jobs=jobs or default_jobs(), cosigners=_cosigners(cosigner_keys, quorum)
    )
    against, log_code = None, 0
    if log_source:
        try:
            against = export_against_log(
                [o.game_id for o in summary.outcomes], log_source, head_trust(log_source, given, pins), pending_after
            )
            log_code = 0 if against.ok else 1
        except InputError as exc:
            say(f"cannot check the log {log_source}: {exc.message}")
            log_code = 2
    code = max(summary.exit_code, log_code)
    if as_json:
        out = summary.to_json()
        if against is not None:
            out["log"] = against.to_json()
        out["ok"], out["exit_code"] = code == 0, code  # the process's verdict, the log's included
        emit(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        emit(summary.text() + ("\n" + against.text() if against is not None else ""))
    if summary.found == 0:
        say("no transcript found")
    return code


cli.add_command(log_cmd)
cli.add_command(tournament_cmd)
cli.add_command(witness_key_cmd)


# ---------------------------------------------------------------------------------------------- entry


def main(argv: Sequence[str] | None = None) -> None:
    """The console script: never a traceback, exit status 0 / 1 / 2."""
    code = 2
    try:
        result = cli.main(args=list(argv) if argv is not None else None, prog_name=PROG, standalone_mode=False)
        code = result if isinstance(result, int) else 0
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.ClickException as exc:  # usage errors: the input could not be used
        exc.show()
        code = 2
    except click.exceptions.Abort:
        say("aborted")
        code = 2
    except UsageProblem as exc:
        say(str(exc))
        code = 2
    except KeyboardInterrupt:
        say("interrupted")
        code = 2
    except BrokenPipeError:  # the reader went away before click's own output (help text)
        code = 2
    except Exception as exc:  # noqa: BLE001 - the promise: never a traceback
        say(f"internal error, nothing verified: {type(exc).__name__}: {exc}")
        code = 2
    try:
        sys.stdout.flush()
    except Exception:  # noqa: BLE001 - a closed pipe
        pass
    sys.exit(code)


if __name__ == "__main__":
    main()
