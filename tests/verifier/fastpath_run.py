"""Games played and audited under one FAIRDEAL_GENERAL_PATHS mode (fairdeal.core.fastpath), in a process of their
own: the mode is read when the core is imported. tests/verifier/test_fast_paths.py runs this module once a mode
and compares what it prints.

    FAIRDEAL_GENERAL_PATHS=1 python -m tests.verifier.fastpath_run [--games N] [--no-tampers]

Prints one JSON object: the mode, every pair the core declares (all its modules imported), the calls shadow mode
compared by pair, the module-level names bound to a fast form, a digest of every transcript played (the writer's
side runs the same code, so the games themselves must be the same in every mode) and the audit's report of each
case."""

from __future__ import annotations

import argparse
import copy
import hashlib
import json

from fairdeal.core import fastpath


def cases(games: int, tampers: bool, tamper_rule_sets: list[str] | None = None) -> list[tuple[dict, dict]]:
    """The tamper suite (every rule set, or those named; both protocols, every change) and `games` self-played games
    a rule set."""
    from fairdeal.core.games import available
    from fairdeal.core.selfplay import selfplay
    from tests.verifier.tamper_kit import PROTOCOLS, SERVER_KEY, SERVER_PUBLIC, TAMPERS, tampered

    out = []
    if tampers:
        for protocol in PROTOCOLS:
            for rule_set in tamper_rule_sets or available():
                for tamper in TAMPERS:
                    made = tampered(rule_set, tamper, protocol)
                    if made is not None:
                        out.append(made)
    for i, rule_set in enumerate(available()):
        for n in range(games):
            t = selfplay(rule_set, SERVER_KEY, bytes([90 + i, n]) * 16, bots=(1, 2, 3), timeout_every=3)
            out.append((t, {"key": SERVER_PUBLIC}))
    return out


def fast_forms_held(modules: list[str]) -> list[str]:
    """Every module-level name of the core's modules bound to a declared fast form (a `from` import included):
    the places a mode must reach. In general mode none may remain."""
    import importlib

    fast = {id(p.fast) for p in fastpath.pairs()}
    return sorted(
        f"{name}.{attr}"
        for name in modules
        for attr, value in vars(importlib.import_module(name)).items()
        if id(value) in fast
    )


def run(games: int, tampers: bool, tamper_rule_sets: list[str] | None = None) -> dict:
    from fairdeal.core.checks import verify_transcript

    modules = fastpath.import_the_core()
    made = cases(games, tampers, tamper_rule_sets)
    digest = hashlib.sha256(json.dumps([t for t, _ in made], sort_keys=True).encode()).hexdigest()
    reports = [verify_transcript(copy.deepcopy(t), **options).to_json() for t, options in made]
    return {
        "mode": fastpath.MODE,
        "pairs": sorted(fastpath.REGISTRY),
        "calls": dict(fastpath.CALLS),
        "fast_forms_held": fast_forms_held(modules),
        "differences": fastpath.DIFFERENCES[:20],
        "transcripts": digest,
        "reports": reports,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--no-tampers", action="store_true")
    parser.add_argument("--tampers-of", action="append", metavar="RULE_SET", help="the tamper suite of these only")
    args = parser.parse_args()
    print(json.dumps(run(args.games, not args.no_tampers, args.tampers_of)))


if __name__ == "__main__":
    main()
