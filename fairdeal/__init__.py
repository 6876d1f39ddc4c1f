"""fairdeal: a provably fair card-game service and its offline verifier.

Three sub-packages, one job each:
- fairdeal.core: the deterministic core (cards, fairness protocol, transcripts, rules engines, replay and the
  `fairdeal-verify` command). Needs only click and cryptography; touches no network, clock or database.
- fairdeal.service: the Flask JSON API and everything that touches the world (stores, clocks, keys). Needs the
  `service` extras.
- fairdeal.client: programs that use the public API like any other client (the terminal table, `fairdeal play`).
"""

from importlib import metadata as _metadata

try:  # the version is pyproject.toml's, read from the installed package (one place for every command)
    __version__ = _metadata.version("fairdeal")
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
