"""The transparency log's commands of `fairdeal-verify` (docs/verify.md): `log SOURCE`, and `audit --log`.

Registered in fairdeal.verifier.cli; the work is fairdeal.verifier.logwatch's.
"""
from __future__ import annotations

import json
from typing import Any

import click

from fairdeal.verifier import logwatch
from fairdeal.verifier.fetch import InputError


def _emit(text: str) -> None:
    from fairdeal.verifier.cli import _emit as emit   # the CLI's printing (a closed pipe is no error)
    emit(text)


def _key(value: str | None) -> str | None:
    from fairdeal.verifier.cli import _read_key
    return _read_key(value)


def _say(message: str) -> None:
    from fairdeal.verifier.cli import _say as say
    say(message)


def read_log(source: str, state_path: str | None, key: str | None, pending_after: float
             ) -> logwatch.LogReport | None:
    """The log report of a source against the state, or None (said why) when the input cannot be used."""
    try:
        state = logwatch.load_state(state_path)
        return logwatch.watch_source(source, state, key=key, pending_after=pending_after)
    except InputError as exc:
        _say(f"cannot check the log {source}: {exc.message}")
        return None


@click.command("log")
@click.argument("source")
@click.option("--state", "state_path", metavar="FILE", envvar="FAIRDEAL_VERIFY_LOG_STATE",
              help="The copy of the log kept between runs (read, and written when every check passes).")
@click.option("--key", "key_opt", metavar="KEY|FILE", help="The service's public key: every head must be signed by it.")
@click.option("--pending-after", type=click.FloatRange(min=0), default=3600.0, show_default=True,
              envvar="FAIRDEAL_VERIFY_PENDING_AFTER", metavar="SECONDS",
              help="List the commitments with no ending this much older than the newest head.")
@click.option("--witness", "witness_key", metavar="KEYFILE",
              help="Act as a witness with this key (fairdeal-verify witness-key): cosign the service's checkpoint "
                   "when it is consistent with the last one this witness cosigned, and give it to the service.")
@click.option("--witness-state", metavar="FILE", help="The witness's own state (default: KEYFILE.state.json).")
@click.option("--json", "as_json", is_flag=True, help="The report as JSON, for programs.")
def log_cmd(source: str, state_path: str | None, key_opt: str | None, pending_after: float, as_json: bool,
            witness_key: str | None = None, witness_state: str | None = None) -> int:
    """Watch a service's transparency log: SOURCE is its URL (or a saved copy of the log).

    Each run checks the new signed head against the ones seen before (--state): the log only grew, no two heads
    of one size differ (a fork), no leaf was rewritten; and lists commitments that never ended.
    Exit status: 0 the log holds together, 1 a finding, 2 the input could not be used.
    """
    key = _key(key_opt)
    report = read_log(source, state_path, key, pending_after)
    if report is None:
        return 2
    cosigned = None
    if witness_key is not None and report.ok:
        from fairdeal.verifier.cli import now_seconds
        from fairdeal.verifier.witnesscli import act_as_witness
        try:
            cosigned = act_as_witness(source, witness_key, witness_state, key, now_seconds())
        except InputError as exc:
            _say(f"cannot act as a witness: {exc.message}")
            return 2
    if as_json:
        out = report.to_json()
        if cosigned is not None:
            out["witness"] = {"ok": cosigned.ok, "text": cosigned.text}
        _emit(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        _emit(report.text() + ("\n" + cosigned.text if cosigned is not None else ""))
    if report.ok and state_path is not None:
        logwatch.save_copy(state_path, report.copy)
    return 0 if report.ok and (cosigned is None or cosigned.ok) else 1


def audit_against_log(summary: Any, source: str, key: str | None, pending_after: float = 3600.0
                      ) -> tuple[logwatch.ExportFindings | None, int]:
    """`audit --log SOURCE`: the audited export against the log. (findings, exit status: 0, 1, or 2)."""
    report = read_log(source, None, key, pending_after)
    if report is None:
        return None, 2
    findings = logwatch.against_export(report, [o.game_id for o in summary.outcomes])
    return findings, 0 if findings.ok else 1
