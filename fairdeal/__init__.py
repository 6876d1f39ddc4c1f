"""fairdeal: a provably fair card-game service and its offline verifier.

Three sub-packages, one job each:
- fairdeal.verifier: the deterministic core (cards, fairness protocol, transcripts, rules engines, replay and the
  `fairdeal-verify` command). Needs only click and cryptography; touches no network, clock or database.
- fairdeal.service: the Flask JSON API and everything that touches the world (stores, clocks, keys). Needs the
  `service` extras.
- fairdeal.client: programs that use the public API like any other client (the terminal table, `fairdeal play`).
"""

__version__ = "0.2.0"
