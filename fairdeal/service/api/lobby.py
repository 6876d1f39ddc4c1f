"""The lobby: open tables and the rule sets on offer."""
from __future__ import annotations

from flask import Blueprint

from fairdeal.verifier.games import available, rules_class

from fairdeal.service.api.common import svc
from fairdeal.service.tables import default_size

bp = Blueprint("lobby", __name__)


def rule_set_info(rid: str) -> dict:
    cls = rules_class(rid)
    rules = cls(None, default_size(rid))
    return {"id": rid, "title": cls.title, "table_sizes": list(cls.table_sizes), "default_size": default_size(rid),
            "rules": rules.describe(),
            "settings": [{"name": s.name, "default": s.default, "choices": list(s.choices),
                          "labels": [s.label(c) for c in s.choices], "text": s.text} for s in cls.SETTINGS]}


@bp.get("/lobby")
def lobby():
    return {"tables": svc().tables.lobby(), "running": svc().tables.running(),
            "rule_sets": [rule_set_info(r) for r in available()]}


@bp.get("/rule-sets")
def rule_sets():
    return {"rule_sets": [rule_set_info(r) for r in available()]}
