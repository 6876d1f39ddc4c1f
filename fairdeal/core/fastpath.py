"""One registry of the fast paths: each fast path names, where it is defined, the general code it stands for.

    @fast_path(general=read_move)
    def read_move_fast(record, protocol): ...

`fast_path` records the pair and hands back the fast function itself: nothing is added to a call. Which of the two
a name is bound to is decided once, when the module is imported, by the environment variable FAIRDEAL_GENERAL_PATHS:

  unset or ""  the fast form (what the service and the verifier run);
  "1"          the general form, everywhere (`fairdeal-verify audit --general-paths` runs itself again so);
  "shadow"     both, on every call: the fast form's answer is returned once it is the general form's, and a
               difference raises FastPathDiffers naming the pair and its arguments (tests/verifier/test_fast_paths.py
               runs whole games and audits so, which makes every pair's equality test out of real positions).

Deciding at import, not at call time, keeps the fast form free and reaches every way a name is held (a `from`
import, a cache, a table built at import). The contract of a pair: for every input the fast form is given, it
returns what the general form returns (or raises the same exception with the same words) and changes nothing the
general form would not. `equal` compares two answers that are not equal by ==; `factory=True` marks a pair that
makes functions (compared by what they answer); `consumes` names arguments a call uses up (an Rng), copied for the
second call in shadow mode; `changes_state=True` marks a pair that changes its object (GameState.apply), which shadow
mode cannot run twice: it is held to its general form by the whole report only. docs/design.md ("Fast paths")
lists the pairs.
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import os
import pkgutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

ENV = "FAIRDEAL_GENERAL_PATHS"
MODES = {"": "fast", "0": "fast", "1": "general", "shadow": "shadow"}
F = TypeVar("F", bound=Callable[..., Any])


def _mode_of_environment() -> str:
    value = os.environ.get(ENV, "")
    if value not in MODES:
        raise ValueError(f"{ENV} is 1 (the general code), shadow (both, compared) or unset, not {value!r}")
    return MODES[value]


MODE = _mode_of_environment()


@dataclass(frozen=True)
class Pair:
    """A fast path and the general code it stands for."""

    name: str  # module.qualname of the fast form
    fast: Callable[..., Any]
    general: Callable[..., Any]
    equal: Callable[[Any, Any], bool] | None = None
    factory: bool = False
    consumes: tuple[str, ...] = ()
    changes_state: bool = False


REGISTRY: dict[str, Pair] = {}
CALLS: Counter[str] = Counter()  # shadow mode: the calls compared, by pair
DIFFERENCES: list[str] = []  # shadow mode: every difference raised (kept even where a caller catches the error)


class FastPathDiffers(AssertionError):
    """Shadow mode: a fast path answered otherwise than its general form."""


def fast_path(
    *,
    general: Callable[..., Any],
    equal: Callable[[Any, Any], bool] | None = None,
    factory: bool = False,
    consumes: tuple[str, ...] = (),
    changes_state: bool = False,
) -> Callable[[F], F]:
    """Declare the decorated function a fast path of `general` (same arguments, same answers)."""
    if not callable(general):
        raise TypeError("a fast path declares the general form it stands for: fast_path(general=...)")

    def declare(fast: F) -> F:
        if fast is general or not callable(fast):
            raise TypeError(f"{fast!r} is no fast path of {general!r}")
        name = f"{fast.__module__}.{fast.__qualname__}"
        if name in REGISTRY:
            raise ValueError(f"the fast path {name} is declared twice")
        pair = REGISTRY[name] = Pair(name, fast, general, equal, factory, tuple(consumes), changes_state)
        if MODE == "general":
            return general  # type: ignore[return-value]
        if MODE == "shadow":
            return _shadowed(pair)  # type: ignore[return-value]
        return fast

    return declare


def pairs() -> list[Pair]:
    """Every pair declared by the modules imported so far."""
    return list(REGISTRY.values())


def import_the_core() -> list[str]:
    """Every module of fairdeal.core imported, so that every pair is declared; their names. The package is found
    from this module's own place, not imported by name: the core imports this module."""
    core = __name__.rpartition(".")[0]
    names = [m.name for m in pkgutil.walk_packages([os.path.dirname(__file__)], core + ".")]
    for name in names:
        importlib.import_module(name)
    return names


# ------------------------------------------------------------------------------------------- shadow mode


def outcome(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, Any]:
    """("returned", value) or ("raised", exception) of one call."""
    try:
        return "returned", fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - an exception is an answer to compare
        return "raised", exc


def same_outcome(a: tuple[str, Any], b: tuple[str, Any], equal: Callable[[Any, Any], bool] | None = None) -> bool:
    """Two outcomes agree: the same value (by `equal`, else ==), or the same exception type with the same words."""
    if a[0] != b[0]:
        return False
    if a[0] == "raised":
        return type(a[1]) is type(b[1]) and str(a[1]) == str(b[1])
    return bool(equal(a[1], b[1])) if equal is not None else bool(a[1] == b[1])


def _shadowed(pair: Pair) -> Callable[..., Any]:
    if pair.changes_state:  # both cannot run on one state: the whole-report comparison holds this pair
        fast = pair.fast

        @functools.wraps(fast)
        def counted(*args: Any, **kwargs: Any) -> Any:
            CALLS[pair.name] += 1
            return fast(*args, **kwargs)

        return counted
    consumed: list[int] = []
    names: frozenset[str] = frozenset(pair.consumes)
    if pair.consumes:
        params = list(inspect.signature(pair.fast).parameters)
        consumed = [params.index(n) for n in pair.consumes]

    def compared(name: str, fast: Callable[..., Any], general: Callable[..., Any], makes: bool) -> Callable[..., Any]:
        @functools.wraps(fast)
        def both(*args: Any, **kwargs: Any) -> Any:
            CALLS[name] += 1
            second_args = tuple(copy.copy(a) if i in consumed else a for i, a in enumerate(args))
            second_kwargs = {k: copy.copy(v) if k in names else v for k, v in kwargs.items()}
            a = outcome(fast, args, kwargs)
            b = outcome(general, second_args, second_kwargs)
            if makes and a[0] == b[0] == "returned":  # two functions: compared at each of their calls
                return compared(name + "()", a[1], b[1], False)
            if not same_outcome(a, b, pair.equal):
                DIFFERENCES.append(f"{name}{args!r} {kwargs or ''}: fast {a!r}, general {b!r}")
                raise FastPathDiffers(DIFFERENCES[-1])
            if a[0] == "raised":
                raise a[1]
            return a[1]

        return both

    return compared(pair.name, pair.fast, pair.general, pair.factory)
