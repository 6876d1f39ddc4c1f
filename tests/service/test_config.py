"""One config path: every setting has its environment variable, a bad value is refused with one sentence that
names the variable (for every command, `fairdeal keys` too), and docs/operations.md gives the code's defaults."""

from __future__ import annotations

import dataclasses
import pathlib
import re

import pytest
from click.testing import CliRunner

from fairdeal.cli import main
from fairdeal.service.config import SETTINGS, Config, ConfigError

ROOT = pathlib.Path(__file__).resolve().parents[2]

BAD = [
    ("FAIRDEAL_ABANDON_AFTER", "abc"),
    ("FAIRDEAL_ABANDON_AFTER", "-5"),
    ("FAIRDEAL_LONG_POLL_MAX", "0"),
    ("FAIRDEAL_CACHE_GAMES", "1.5"),
    ("FAIRDEAL_LOG_LEVEL", "LOUD"),
    ("FAIRDEAL_BIND", "8000"),
    ("FAIRDEAL_WORKERS", "0"),
    ("FAIRDEAL_CONNECTIONS", "lots"),
    ("FAIRDEAL_MAX_WAITS", "0"),
    ("FAIRDEAL_HEARTBEAT", "-1"),
    ("FAIRDEAL_REDIS_URL", "http://localhost:6379"),
    ("FAIRDEAL_CARD_CLOCK", "2"),
    ("FAIRDEAL_TOKEN_TTL", "5"),
    ("FAIRDEAL_RATE_LIMITS", "maybe"),
    ("FAIRDEAL_LIMIT_MOVES", "fast"),
    ("FAIRDEAL_RATE_LIMIT_STORAGE", "memcached://x"),
    ("FAIRDEAL_LOG_ORIGIN", "a log"),
    ("FAIRDEAL_LOG_ORIGIN", "a+b/log"),
    ("FAIRDEAL_LOG_WITNESSES", "w.example/1+00000000+BAAA"),
    # an Ed25519 log key (type 0x01) is no witness's cosignature key (type 0x04)
    ("FAIRDEAL_LOG_WITNESSES", "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"),
]


@pytest.mark.parametrize("var,value", BAD)
def test_a_bad_value_is_refused_naming_its_variable(var, value):
    with pytest.raises(ConfigError) as e:
        Config.from_env({var: value})
    assert str(e.value).startswith(f"{var}={value!r} is not valid: it must be ")
    assert "\n" not in str(e.value)


def test_values_are_read_and_empty_ones_mean_the_default():
    cfg = Config.from_env(
        {
            "FAIRDEAL_ABANDON_AFTER": "90",
            "FAIRDEAL_LOG_LEVEL": "debug",
            "FAIRDEAL_WORKERS": "3",
            "FAIRDEAL_CARD_CLOCK": "off",
            "FAIRDEAL_RATE_LIMITS": "off",
            "FAIRDEAL_TOKEN_TTL": "0",
            "FAIRDEAL_BIND": "[::1]:8080",
            "FAIRDEAL_CACHE_GAMES": "",
        }
    )
    assert (
        cfg.abandon_after,
        cfg.log_level,
        cfg.workers,
        cfg.card_clock,
        cfg.rate_limits,
        cfg.token_ttl,
        cfg.bind,
        cfg.cache_size,
    ) == (90.0, "DEBUG", 3, None, False, 0.0, "[::1]:8080", 512)


def test_a_password_in_a_url_is_never_shown():
    with pytest.raises(ConfigError) as e:
        Config.from_env({"FAIRDEAL_REDIS_URL": "redis://fairdeal:s3cret@:notaport"})
    assert "s3cret" not in str(e.value) and "***" in str(e.value)


def test_settings_made_in_code_are_checked_too():
    with pytest.raises(ConfigError, match="FAIRDEAL_WORKERS"):
        Config(workers=0)
    with pytest.raises(ConfigError, match="FAIRDEAL_LOG_LEVEL"):
        dataclasses.replace(Config(), log_level="chatty")


@pytest.mark.parametrize("args", [["keys"], ["keys", "list"], ["export"], ["sweep", "--once"], ["serve"]])
def test_every_command_says_what_is_wrong_in_one_line(tmp_path, monkeypatch, args):
    monkeypatch.setenv("FAIRDEAL_ABANDON_AFTER", "abc")
    r = CliRunner().invoke(main, ["-d", str(tmp_path), *args])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert lines == [
        "Error: FAIRDEAL_ABANDON_AFTER='abc' is not valid: it must be a number of seconds, greater than 0."
    ]


def test_a_bad_log_level_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("FAIRDEAL_LOG_LEVEL", "verbose")
    r = CliRunner().invoke(main, ["-d", str(tmp_path), "sweep", "--once"])
    assert r.exit_code == 2 and "FAIRDEAL_LOG_LEVEL='verbose'" in r.output


def test_the_docs_table_gives_every_variable_with_the_codes_default():
    """docs/operations.md's configuration table: one row per setting, its variable, and its default as the
    code has it (the table's last column)."""
    text = (ROOT / "docs" / "operations.md").read_text()
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(FAIRDEAL_[A-Z_]+)` \|.*\| ([^|]*) \|$", text, re.M)}
    assert set(rows) == {s.env for s in SETTINGS}
    cfg = Config()
    for s in SETTINGS:
        value = getattr(cfg, s.field)
        shown = rows[s.env].strip().strip("`")
        if s.field == "workers":
            assert "one per core, at most 8" in shown
        elif value is None:
            assert shown.startswith("none"), (s.env, shown)
        elif isinstance(value, bool):
            assert shown == ("on" if value else "off"), (s.env, shown)
        elif isinstance(value, float):
            assert float(shown.split()[0]) == value, (s.env, shown)
        else:
            assert shown.split(" (")[0].strip("`") == str(value), (s.env, shown)
