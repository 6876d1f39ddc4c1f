"""`fairdeal-verify log SOURCE` (docs/verify.md): watch the service's transparency log over time, and act as a
witness. Registered in fairdeal.verify.cli; the work is fairdeal.core.logwatch's (and `audit --log`'s is
fairdeal.core.exportaudit's)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import click

from fairdeal.core import logtrust, logwatch
from fairdeal.core.fetch import InputError
from fairdeal.core.witnessing import act_as_witness
from fairdeal.verify.common import emit, head_trust, now_seconds, say
from fairdeal.verify.keyopts import key_options, trusted_keys


def read_log(
    source: str,
    state_path: str | None,
    trust: logtrust.HeadTrust,
    pending_after: float,
    every_leaf: bool = False,
    copy_path: str | None = None,
) -> logwatch.LogReport | None:
    """The log report of a source against the state (and the copy kept before, which names the leaf where two
    logs diverge), or None (said why) when the input cannot be used."""
    try:
        state = logwatch.load_state(state_path)
        return logwatch.watch_source(
            source,
            state,
            key=trust,
            pending_after=pending_after,
            every_leaf=every_leaf,
            known=logwatch.load_known(copy_path),
        )
    except InputError as exc:
        say(f"cannot check the log {source}: {exc.message}")
        return None


def witnessed_key(report: logwatch.LogReport) -> str | None:
    """The key a witness binds the log to: that of the latest head, when it was held to trusted keys (a witness
    cosigns nothing for a log whose heads no trusted key vouched for: None, and act_as_witness says so)."""
    head = report.state.head if report.state is not None else None
    return head["key"] if report.trust.trusted and head is not None else None


@click.command("log")
@click.argument("source")
@click.option(
    "--state",
    "state_path",
    metavar="FILE",
    envvar="FAIRDEAL_VERIFY_LOG_STATE",
    help="The watcher's state kept between runs: the last head checked and its compact range, not the leaves "
    "(read, and written when every check passes).",
)
@click.option(
    "--copy",
    "copy_path",
    metavar="FILE",
    help="Also keep a copy of the whole log (every head seen this run, every leaf) for `audit --log FILE` "
    "and other watchers: each run then fetches every leaf.",
)
@key_options
@click.option(
    "--pending-after",
    type=click.FloatRange(min=0),
    default=3600.0,
    show_default=True,
    envvar="FAIRDEAL_VERIFY_PENDING_AFTER",
    metavar="SECONDS",
    help="List the commitments with no ending this much older than the newest head.",
)
@click.option(
    "--witness",
    "witness_key",
    metavar="KEYFILE",
    help="Act as a witness with this key (fairdeal-verify witness-key): cosign the service's checkpoint "
    "when it is consistent with the last one this witness cosigned, and give it to the service.",
)
@click.option("--witness-state", metavar="FILE", help="The witness's own state (default: KEYFILE.state.json).")
@click.option("--json", "as_json", is_flag=True, help="The report as JSON, for programs.")
def log_cmd(
    source: str,
    state_path: str | None,
    copy_path: str | None,
    key_opts: Sequence[str],
    service: str | None,
    pending_after: float,
    as_json: bool,
    witness_key: str | None = None,
    witness_state: str | None = None,
) -> int:
    """Watch a service's transparency log: SOURCE is its URL (or a saved copy of the log).

    Each run checks the new signed head against the ones seen before (--state): every head is signed by a key
    given (--key, repeatable: the service's keys) or pinned, at its time; the log only grew (a smaller head is a
    rollback), no two heads of one size differ (a fork), no leaf was rewritten; and lists commitments that never
    ended. Exit status: 0 the log holds together, 1 a finding, 2 the input could not be used.
    """
    given, pins = trusted_keys(key_opts, service)
    report = read_log(
        source,
        state_path,
        head_trust(source, given, pins),
        pending_after,
        every_leaf=copy_path is not None,
        copy_path=copy_path,
    )
    if report is None:
        return 2
    cosigned = None
    if witness_key is not None and report.ok:
        try:
            cosigned = act_as_witness(source, witness_key, witness_state, witnessed_key(report), now_seconds())
        except InputError as exc:
            say(f"cannot act as a witness: {exc.message}")
            return 2
    if as_json:
        out = report.to_json()
        if cosigned is not None:
            out["witness"] = {"ok": cosigned.ok, "text": cosigned.text}
        emit(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        emit(report.text() + ("\n" + cosigned.text if cosigned is not None else ""))
    if report.ok and state_path is not None:
        logwatch.save_state(state_path, report.state)
    if report.ok and copy_path is not None and report.copy is not None:
        logwatch.save_copy(copy_path, report.copy)
    return 0 if report.ok and (cosigned is None or cosigned.ok) else 1
