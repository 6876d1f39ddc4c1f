"""The `tournament-log` check (docs/tournaments.md, "In the transparency log"): a served export's `log` member
proves the tournament's commitment and ending leaves in the service's transparency log, as a game transcript's
`log` member proves a game's (docs/log.md), under the same trust rules (fairdeal.core.logtrust): the head must be
signed by the key given, else by the key that signed the tournament."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.core import logtrust, tlog
from fairdeal.core.keysets import KeySet, TrustedKey
from fairdeal.core.results import key_id_or_none
from fairdeal.core.tournament.records import commitment_leaf, ending_leaf

CHECK = "tournament-log"


def check_log(export: Mapping[str, Any], given_key: str | None) -> tuple[bool, str]:
    """(passed, the sentence) for an export that carries a `log` member: {"head" and/or "checkpoint",
    "commitment": {"index", "proof"}, "ending": {"index", "proof"}}; the leaves are recomputed from the export."""
    log = export["log"]
    commit = export["tournament"]
    try:
        tree = tlog.check_log_tree({"log": log, "commit": commit})
        for kind, leaf in (("commitment", commitment_leaf(commit)), ("ending", ending_leaf(export))):
            entry = log.get(kind)
            if not isinstance(entry, dict) or set(entry) != {"index", "proof"} or type(entry["index"]) is not int:
                return False, f'the log member has no {kind} entry {{"index", "proof"}}'
            if not tlog.inclusion(leaf, entry["index"], tree, entry["proof"]):
                return False, (
                    f"the tournament's {kind} is not leaf {entry['index']} of the log whose head of size "
                    f"{tree['size']} is signed"
                )
    except (tlog.LogError, KeyError, TypeError, ValueError) as exc:
        return False, f"the log member does not hold: {exc}"
    given = KeySet([TrustedKey(given_key, "--key")]) if given_key else None
    trusted, source = logtrust.head_keys(given, None, commit.get("key"))
    head = log.get("head") if isinstance(log.get("head"), dict) else {}
    problem = logtrust.head_key_problem(dict(tree, time=head.get("time")), trusted, source)
    if problem is not None:
        return False, logtrust.head_problem_text(problem)
    return True, (
        f"the commitment (leaf {log['commitment']['index']}) and the ending (leaf {log['ending']['index']}) are "
        f"in the log of {tree['size']} leaves signed by {key_id_or_none(tree['key'])}"
    )
