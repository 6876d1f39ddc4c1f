"""The lobby: open tables and the rule sets on offer."""

from __future__ import annotations

from flask import Blueprint

from fairdeal.core.games import available, rules_class
from fairdeal.service import rulehelp
from fairdeal.service.api.common import svc
from fairdeal.service.tables import default_size

bp = Blueprint("lobby", __name__)


def rule_set_info(rid: str) -> dict:
    cls = rules_class(rid)
    rules = cls(None, default_size(rid))
    return {
        "id": rid,
        "title": cls.title,
        "table_sizes": list(cls.table_sizes),
        "default_size": default_size(rid),
        "rules": rules.describe(),
        "settings": [
            {
                "name": s.name,
                "default": s.default,
                "choices": list(s.choices),
                "labels": [s.label(c) for c in s.choices],
                "text": s.text,
            }
            for s in cls.SETTINGS
        ],
    }


@bp.get("/lobby")
def lobby():
    return {
        "tables": svc().tables.lobby(),
        "running": svc().tables.running(),
        "rule_sets": [rule_set_info(r) for r in available()],
    }


@bp.get("/tables/<table_id>/rules")
def table_rules(table_id):
    """The table's rules in short sections, its word for trumps and the order of each suit as trumps."""
    t, _ = svc().tables.load(table_id)
    return rulehelp.rule_help(t["rule_set"], t["settings"], t["players"])


@bp.get("/rule-sets")
def rule_sets():
    return {"rule_sets": [rule_set_info(r) for r in available()]}
