"""`fairdeal-verify witness-key NAME FILE` (docs/verify.md, docs/log.md "Witnesses"): make a witness's key, for
`fairdeal-verify log URL --witness KEYFILE` (whose work is fairdeal.core.witnessing's)."""

from __future__ import annotations

import os

import click

from fairdeal.core import note, witness


@click.command("witness-key")
@click.argument("name")
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
def witness_key_cmd(name: str, path: str) -> int:
    """Make a witness's key: its signer key is written to PATH (private, mode 600); its verifier key, which a
    service lists in FAIRDEAL_LOG_WITNESSES and a verifier gives with --cosigner, is printed."""
    try:
        skey, vkey = witness.new_key(name)
    except note.NoteError as exc:
        raise click.UsageError(str(exc)) from None
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(skey + "\n")
    click.echo(vkey)
    return 0
