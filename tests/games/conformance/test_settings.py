"""Settings are validated the same way for every rule set (fairdeal/core/games/base.py)."""

import pytest

from fairdeal.core.games import RULE_SETS, available, make_rules, rules_class
from fairdeal.core.games.base import BadSettings


@pytest.mark.parametrize("rule_set", available())
def test_defaults_are_the_seed_defaults_and_reminder_is_empty(rule_set):
    rules = make_rules(rule_set)
    assert rules.settings == {s.name: s.default for s in rules.SETTINGS}
    assert rules.reminder() == ""
    assert rules.describe()


@pytest.mark.parametrize("rule_set", available())
def test_unknown_setting_is_refused_naming_the_allowed_ones(rule_set):
    cls = rules_class(rule_set)
    with pytest.raises(BadSettings) as err:
        make_rules(rule_set, {"no-such-setting": True})
    for s in cls.SETTINGS:
        assert s.name in err.value.message


@pytest.mark.parametrize("rule_set", available())
def test_a_number_is_not_an_on_off_value(rule_set):
    for s in rules_class(rule_set).SETTINGS:
        if isinstance(s.default, bool):
            with pytest.raises(BadSettings):
                make_rules(rule_set, {s.name: 1})
            with pytest.raises(BadSettings):
                make_rules(rule_set, {s.name: "yes"})


@pytest.mark.parametrize("rule_set", available())
def test_every_setting_value_offered_is_accepted_and_named_in_the_reminder(rule_set):
    cls = rules_class(rule_set)
    for s in cls.SETTINGS:
        for value in s.choices:
            rules = make_rules(rule_set, {s.name: value}, cls.table_sizes[-1])
            assert rules.settings[s.name] == value
            if value != s.default:
                assert rules.reminder(), f"{rule_set}: {s.name}={value!r} changes the game but the reminder is empty"


@pytest.mark.parametrize("rule_set", available())
def test_table_sizes_not_offered_are_refused(rule_set):
    cls = rules_class(rule_set)
    for n in (0, 1, 5, 6, 7):
        if n not in cls.table_sizes:
            with pytest.raises(BadSettings) as err:
                make_rules(rule_set, {}, n)
            assert str(n) in err.value.message


def test_unknown_rule_set_names_the_rule_sets():
    with pytest.raises(BadSettings) as err:
        make_rules("poker")
    for rid in RULE_SETS:
        assert rid in err.value.message
