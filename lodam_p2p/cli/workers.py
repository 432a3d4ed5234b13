"""Worker processes of a command that can be interrupted: started, gathered, stopped.

A :class:`Worker` is a ``spawn`` process running ``target(*args, reply)``, where ``reply``
is the writing end of a pipe the target sends its one answer down. :func:`start_all`
starts workers with SIGINT ignored — a disposition a new program inherits (a handler or
a blocked mask it does not), so Ctrl-C at the terminal reaches the command alone and no
worker dies half-way with a traceback of its own. An interrupt that arrives while they
start is held (blocked, which Linux never discards) and raised once they have.
:func:`gather` waits for the answers; :func:`stop` ends, by PID, whatever is still
running (the command's ``finally``, and its answer to Ctrl-C).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

#: How long a worker has to end after SIGTERM before it is killed.
TERM_GRACE_S = 5.0


@dataclass
class Worker:
    """A worker process and the end of the pipe its answer comes by."""

    process: BaseProcess
    answer: Connection

    @classmethod
    def start(cls, target: Callable[..., None], args: tuple[Any, ...], name: str) -> Worker:
        """Start ``target(*args, reply)`` in a new process."""
        context = multiprocessing.get_context("spawn")
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(target=target, args=(*args, writer), daemon=True, name=name)
        process.start()
        writer.close()
        return cls(process, reader)

    def collect(self) -> Any:
        """The worker's answer once it is in, None if it ended without one."""
        try:
            answer = self.answer.recv()
        except (EOFError, OSError):
            answer = None
        self.process.join()
        return answer


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT ignored while the body runs, so that the processes it starts ignore it;
    an interrupt that came meanwhile is held and raised when the body ends. Call it
    from the main thread."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def start_all(target: Callable[..., None], jobs: Sequence[tuple[Any, ...]],
              name: str, started: list[Worker]) -> None:
    """Start one worker per job into ``started`` (the caller's list, so that the ones
    already started are known to its ``finally`` whatever happens)."""
    with interrupts_held():
        for i, job in enumerate(jobs):
            started.append(Worker.start(target, job, f"{name} {i + 1}"))


def gather(workers: Sequence[Worker]) -> list[Any]:
    """Every worker's answer (None for one that ended without), in the workers' order,
    taken as each comes in."""
    waiting = {id(w.answer): w for w in workers}
    answers: dict[int, Any] = {}
    while waiting:
        for ready in multiprocessing.connection.wait([w.answer for w in waiting.values()]):
            answers[id(ready)] = waiting.pop(id(ready)).collect()
    return [answers[id(w.answer)] for w in workers]


def stop(workers: Sequence[Worker]) -> int:
    """End the workers still running — SIGTERM to each PID, SIGKILL to any still there
    after :data:`TERM_GRACE_S` — and close their pipes; how many were running."""
    running = [w.process for w in workers if w.process.is_alive()]
    for process in running:
        process.terminate()
    for process in running:
        process.join(TERM_GRACE_S)
        if process.is_alive():
            process.kill()
            process.join()
    for worker in workers:
        worker.answer.close()
    return len(running)
