"""How every bench here times work on a shared machine: CPU time, rounds that alternate, median and spread.

Wall-clock time on a machine shared with other work measures the other work as much as ours, and the best of a
few rounds keeps whichever round the neighbours happened to spare. So every figure here is:
  - CPU time of the process doing the work (`time.process_time`, or getrusage for children), which other
    processes' load changes far less than wall time;
  - taken over several rounds, the rounds of all the things compared alternating, so that load hits them alike;
  - reported as the median of the rounds with their spread (min to max), and a ratio as the median of the
    per-round ratios (each round's figure against the baseline's from the same round) with its spread;
  - printed with the load average before and after;
  - where one process's layout moves a figure (a fresh process of the same code can run 10 to 30 % faster or
    slower than another, whatever its hash seed or core: bench/README.md, 2026-12-04), taken in several fresh
    processes one after the other (`in_processes`), each with its own rounds, and judged by the median of the
    processes' ratios (`verdict_across`).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field


def cpu() -> float:
    """CPU seconds of this process so far (user + system)."""
    return time.process_time()


def cpu_with_children() -> float:
    """CPU seconds of this process and its waited-for children (a pool's workers, once they have exited)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def timed(work: Callable[[], object], clock: Callable[[], float] = cpu) -> tuple[float, object]:
    """(seconds on `clock`, result) of one call."""
    t0 = clock()
    result = work()
    return clock() - t0, result


@dataclass
class Series:
    """Rounds of one measurement: the seconds each round took for the same work (`units` of it)."""

    name: str
    units: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, seconds: float, units: int | None = None) -> None:
        self.seconds.append(seconds)
        if units is not None:
            self.units = units

    @property
    def rates(self) -> list[float]:
        return [self.units / s for s in self.seconds]

    @property
    def rate(self) -> float:
        """The median rate (units per CPU second)."""
        return statistics.median(self.rates)

    def spread(self) -> str:
        rates = self.rates
        return f"{min(rates):,.0f} to {max(rates):,.0f}"

    def ratio_to(self, baseline: Series) -> tuple[float, float, float]:
        """(median, min, max) of the per-round ratios of this rate to the baseline's, round i with round i."""
        ratios = [a / b for a, b in zip(self.rates, baseline.rates, strict=True)]
        return statistics.median(ratios), min(ratios), max(ratios)


def alternate(rounds: int, measurements: list[Callable[[], None]]) -> None:
    """Run every measurement once per round, in turn, `rounds` times (their rounds interleave)."""
    for _ in range(rounds):
        for measure in measurements:
            measure()


def ratio_text(ratio: tuple[float, float, float]) -> str:
    median, low, high = ratio
    return f"{median:.2f}x (rounds {low:.2f} to {high:.2f})"


def verdict(what: str, ratio: tuple[float, float, float], baseline: str, target: float | None) -> tuple[str, bool]:
    """One plain line: the median ratio with its spread, and whether the target (None: information) is met."""
    if target is None:
        return f"{what} = {ratio_text(ratio)} {baseline} (for information; no target)", True
    met = ratio[0] >= target
    return f"{what} = {ratio_text(ratio)} {baseline} (target {target:g}x, median): {'met' if met else 'NOT met'}", met


# ------------------------------------------------------------------------- several fresh processes

RATIOS_LINE = "MEASURE-RATIOS "  # how a child process hands its ratios back: this prefix, then JSON


def ratios_line(ratios: list[tuple[str, tuple[float, float, float], str, float | None]]) -> str:
    """The line a child process prints last: each comparison's (what, (median, min, max), baseline, target)."""
    return RATIOS_LINE + json.dumps([[w, list(r), b, t] for w, r, b, t in ratios])


def in_processes(script: str, args: list[str], n: int) -> list[tuple[str, list]]:
    """Run `script args` in `n` fresh processes, one after the other (each its own layout of memory and code);
    each child's printed report and the ratios of its ratios_line."""
    out = []
    for i in range(n):
        done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
        lines = done.stdout.splitlines()
        found = [x for x in lines if x.startswith(RATIOS_LINE)]
        if done.returncode != 0 or not found:
            tail = done.stdout[-2000:] + done.stderr[-2000:]
            raise RuntimeError(f"process {i + 1} (exit {done.returncode}) printed no ratios:\n{tail}")
        report = "\n".join(x for x in lines if not x.startswith(RATIOS_LINE))
        out.append((report, json.loads(found[-1][len(RATIOS_LINE) :])))
    return out


def verdict_across(runs: list[list]) -> list[tuple[str, bool]]:
    """Each comparison judged by the median of the processes' median ratios, with their spread across processes."""
    verdicts = []
    for k, (what, _, baseline, target) in enumerate(runs[0]):
        medians = [run[k][1][0] for run in runs]
        ratio = statistics.median(medians), min(medians), max(medians)
        line, met = verdict(what, ratio, baseline, target)
        verdicts.append((line.replace("(rounds ", f"(processes' medians, {len(runs)}: ", 1), met))
    return verdicts


def across_processes(script: str, args: list[str], n: int, keep: Callable[[str], bool]) -> list[tuple[str, bool]]:
    """A bench's whole measurement in `n` fresh processes (in_processes, each child given `args`): each process's
    report lines that `keep` picks, then every comparison judged across them (verdict_across), printed; returned."""
    print(f"{load()} before the run; {n} fresh processes, one after the other")
    runs = in_processes(script, args, n)
    for i, (report, _) in enumerate(runs, 1):
        print(f"\n--- process {i} of {n}")
        print("\n".join(x for x in report.splitlines() if keep(x)))
    print(f"\n{load()} after the run\n")
    verdicts = verdict_across([ratios for _, ratios in runs])
    for line, _ in verdicts:
        print(line)
    return verdicts


def header(width: int = 46) -> str:
    return f"{'':{width}}{'median /s':>12}  {'rounds (min to max)':>24}"


def row(name: str, series: Series, width: int = 46) -> str:
    return f"{name:{width}}{series.rate:>12,.0f}  {series.spread():>24}"


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")


# ------------------------------------------------------------------------- other processes' CPU (Linux /proc)

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def children(pid: int) -> list[int]:
    """The direct children of `pid`."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except (OSError, IndexError):
                pass
    return out


def cpu_seconds(pids) -> float:
    """CPU seconds (user + system) the processes have used so far; a process gone counts 0."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICK


def cpu_with_reaped(pid: int, exclude=()) -> float:
    """CPU seconds of `pid`, of its children that it has waited for (a gunicorn master's workers that exited:
    a restart's old workers), and of its live children but `exclude` (the sweeper, counted apart)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    own = sum(int(x) for x in fields[11:15]) / TICK  # utime, stime, cutime, cstime
    return own + cpu_seconds([p for p in children(pid) if p not in exclude])


def listen_counters() -> dict[str, int]:
    """The kernel's TcpExt ListenOverflows (a connection completed while the accept queue was full) and
    ListenDrops (every SYN or connection a listener dropped), from /proc/net/netstat: counters of this
    network namespace, all listeners and processes in it, since boot."""
    want = ("ListenOverflows", "ListenDrops")
    try:
        with open("/proc/net/netstat") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:"):
            row = dict(zip(names.split()[1:], values.split()[1:], strict=True))
            return {k: int(row[k]) for k in want if k in row}
    return {}


def listen_text(before: dict[str, int], after: dict[str, int] | None = None) -> str:
    """The counters, or their change from `before` to `after`."""
    if after is None:
        return ", ".join(f"{k} {v}" for k, v in before.items()) or "unreadable"
    return ", ".join(f"{k} +{after[k] - before.get(k, 0)}" for k in after) or "unreadable"
