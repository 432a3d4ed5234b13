"""An event loop on a table clock that load cannot stretch.

A seat's time limit is measured on its event loop's clock. On a real clock a loaded
machine stretches a seat's work until another seat's limit runs out, and an honest
seat is voted out: a race between the test and the machine's load. Here the clock
counts turns of the loop instead of seconds: every turn moves it on by :data:`TICK`,
however long the turn took, and when every task waits it jumps straight to the next
timer. A silent seat still runs out of time, a slow machine does not make a seat
silent, and a test that looks every few milliseconds still sees the table move. For
scenarios over the in-memory hub only; a socket, a subprocess or a thread waits on the
real clock, so the loop does real, blocking waits whenever one is registered.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

#: What one turn of the loop costs on the table clock, in seconds.
TICK = 0.001


class _JumpingSelector(selectors.BaseSelector):
    """Polls the real selector without waiting; a wait becomes a jump of the clock."""

    def __init__(self, loop: VirtualClockLoop) -> None:
        self._inner = selectors.DefaultSelector()
        self._loop = loop

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.register(fileobj, events, data)

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        return self._inner.unregister(fileobj)

    def modify(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.modify(fileobj, events, data)

    def get_map(self) -> Mapping[Any, selectors.SelectorKey]:
        return self._inner.get_map()

    def close(self) -> None:
        self._inner.close()

    def select(self, timeout: float | None = None
               ) -> list[tuple[selectors.SelectorKey, int]]:
        ready = self._inner.select(0)
        if ready or timeout == 0:
            self._loop.jump(TICK)
            return ready
        if timeout is None or len(self._inner.get_map()) > 1:  # beyond the self-pipe
            return self._inner.select(timeout)  # something real to wait for
        self._loop.jump(timeout)
        return []


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """A selector event loop on a virtual clock (see the module docstring)."""

    def __init__(self) -> None:
        self._now = 0.0
        super().__init__(_JumpingSelector(self))

    def time(self) -> float:
        return self._now

    def jump(self, seconds: float) -> None:
        """Move the clock on by ``seconds``: every task is waiting for a timer."""
        self._now += max(0.0, seconds)


def run_on_table_clock(scenario: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
    """Run ``scenario`` on a :class:`VirtualClockLoop`, failing it after ``timeout``
    seconds of the table's clock."""
    with asyncio.Runner(loop_factory=VirtualClockLoop) as runner:
        return runner.run(asyncio.wait_for(scenario, timeout))
