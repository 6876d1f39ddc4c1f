"""The audit's worker processes: tasks balanced by bytes, the workers started once with what every task shares.

The main process only finds the items (fairdeal.verify.audit) and hands out tasks; each worker reads its items'
byte ranges itself, so what goes to a worker is a short list of ranges and what comes back is the small outcomes.

- This process checks items too: `jobs` processes are this one and jobs - 1 workers, so one process fewer is
  started (the pool's fixed cost, about a tenth of a second a run at two processes) and none sits idle waiting.
  It tops the workers' queue up between its own tasks, each worker holding the task it runs and one more (a task
  is at most a quarter of what is left, so the next one is always smaller than the work a worker holds).
- The check's arguments (keys, pins, a cosigner policy) go to each worker once, when it starts, not with every task.
- Tasks are cut by bytes, not by items (an item's CPU time follows its size: about 0.11 s a MB of transcript
  in every rule set, bench/README.md), and shrink as the bytes left do (guided self-scheduling): a task takes
  at most 1/(GUIDE * jobs) of the bytes not yet handed out, and at most TASK_BYTES, so the first tasks are large
  (few round trips) and the last ones small (no process waits long for the other at the end).
- Each task's answer carries the worker's process id and CPU time so far (this process's own: the CPU time of its
  tasks), so a caller can see what each process got (bench/bench_audit.py prints it: on a shared machine a process
  may not get a whole core).
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")  # an item
R = TypeVar("R")  # its outcome

TASK_BYTES = 4 << 20  # the largest task: big enough that a task's round trip (about a ms) is lost in it
GUIDE = 2  # a task takes at most 1/(GUIDE * jobs) of the bytes not yet handed out (160 games, 2 jobs: 19 tasks)
ITEM_BYTES = 1024  # what an item weighs beyond its bytes (an empty one still costs a check)
IN_FLIGHT = 1  # tasks queued per worker beyond the one it runs: refilled between this process's own tasks


def tasks_by_bytes(sizes: Sequence[int], jobs: int) -> Iterator[range]:
    """The items' indexes cut into consecutive tasks (ranges), in order, by their sizes in bytes: each task as
    many items as make up min(TASK_BYTES, what is left / (GUIDE * jobs)) bytes, and at least one."""
    weights = [max(0, s) + ITEM_BYTES for s in sizes]
    left = sum(weights)
    start, n = 0, len(weights)
    while start < n:
        want = min(TASK_BYTES, left // (GUIDE * max(1, jobs)))
        end, got = start + 1, weights[start]
        while end < n and got + weights[end] <= want:
            got += weights[end]
            end += 1
        yield range(start, end)
        left -= got
        start = end


@dataclass
class PoolCpu:
    """The CPU seconds each worker process had used when it sent its last answer, by process id."""

    by_process: dict[int, float] = field(default_factory=dict)
    tasks: int = 0

    def note(self, pid: int, cpu: float) -> None:
        self.tasks += 1
        self.by_process[pid] = max(cpu, self.by_process.get(pid, 0.0))

    @property
    def seconds(self) -> list[float]:
        return sorted(self.by_process.values(), reverse=True)


_SHARED: tuple[Any, ...] = ()  # in a worker: the arguments every task shares, set when it starts


def _start(shared: tuple[Any, ...]) -> None:
    global _SHARED
    _SHARED = shared


def _task(work: Callable[..., list[R]], items: list[T]) -> tuple[list[R], int, float]:
    return work(items, *_SHARED), os.getpid(), time.process_time()


@dataclass
class Pool(Generic[T, R]):
    """`work(items, *shared)` over every item on `jobs` processes (this one and jobs - 1 workers, jobs >= 2; one
    job is the caller's own loop); `sizes[i]` the bytes of item i."""

    work: Callable[..., list[R]]
    shared: tuple[Any, ...]
    jobs: int

    def run(
        self,
        items: Sequence[T],
        sizes: Sequence[int],
        progress: Callable[[int], None] | None = None,
        cpu: PoolCpu | None = None,
    ) -> list[R]:
        """The outcomes in the items' order."""
        if self.jobs < 2:
            raise ValueError("a pool is two processes at least: this one and a worker")
        tasks = [list(items[r.start : r.stop]) for r in tasks_by_bytes(sizes, self.jobs)]
        # The workers are forked from this process: its objects are frozen out of the cyclic collector first (the
        # gc module's advice for fork), so that a worker's collections do not write to every object it inherited
        # and copy the parent's pages one by one (measured: 1.7x -> 1.8x-2.1x on two processes beside a large
        # parent heap).
        gc.freeze()
        try:
            results = self._run(tasks, progress, cpu)
        finally:
            gc.unfreeze()
        return [o for i in range(len(tasks)) for o in results[i]]

    def _run(
        self, tasks: list[list[T]], progress: Callable[[int], None] | None, cpu: PoolCpu | None
    ) -> dict[int, list[R]]:
        results: dict[int, list[R]] = {}
        queue = iter(enumerate(tasks))
        workers = self.jobs - 1  # this process is the last of the jobs
        held = (1 + IN_FLIGHT) * workers  # the tasks the workers hold at most: running or queued
        own_cpu, me = 0.0, os.getpid()

        def answered(index: int, outcomes: list[R], pid: int, used: float) -> None:
            results[index] = outcomes
            if cpu is not None:
                cpu.note(pid, used)
            if progress:
                progress(len(outcomes))

        with ProcessPoolExecutor(max_workers=workers, initializer=_start, initargs=(self.shared,)) as pool:
            pending: dict[Future[tuple[list[R], int, float]], int] = {}

            def collect(block: bool) -> None:
                done, _ = wait(pending, timeout=None if block else 0, return_when=FIRST_COMPLETED)
                for fut in done:
                    answered(pending.pop(fut), *fut.result())

            while True:
                collect(block=False)
                while len(pending) < held:
                    nxt = next(queue, None)
                    if nxt is None:
                        break
                    pending[pool.submit(_task, self.work, nxt[1])] = nxt[0]
                mine = next(queue, None)
                if mine is None:
                    break
                start = time.process_time()
                outcomes = self.work(mine[1], *self.shared)
                own_cpu += time.process_time() - start
                answered(mine[0], outcomes, me, own_cpu)
            while pending:
                collect(block=True)
        return results
