"""The matches a person's screen plays, one at a time, for both games' clients.

A match is a task started with the person's seat (``start_match``); "play again" starts
another once the last is over. The outcomes of the finished ones are kept in order; a
match that fails is logged with its traceback and told to ``failed``, and the screen is
closed at once: :meth:`Matches.around` then raises :class:`TableStopped`, so that the
command prints one line saying what failed and exits non-zero (a screen left open with
the error on it looked like a table still waiting). The match under way when the person
leaves is cancelled and awaited.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from lodam_p2p.tableplan import MatchOutcome

log = logging.getLogger(__name__)


class TableStopped(Exception):
    """The match failed while the screen was open; the screen is closed. ``cause``: the
    error the table stopped with."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause) or type(cause).__name__)
        self.cause = cause


class Matches:
    """The screen's matches; see the module docstring."""

    def __init__(self, start_match: Callable[[Any], Coroutine[Any, Any, MatchOutcome]],
                 failed: Callable[[BaseException], None]) -> None:
        self.start_match = start_match
        self.failed = failed
        self.outcomes: list[MatchOutcome] = []
        self.error: BaseException | None = None  #: what the table stopped with
        self._task: asyncio.Task[MatchOutcome] | None = None
        self._screen: asyncio.Future[object] | None = None
        self._then: Callable[[], None] | None = None

    @property
    def under_way(self) -> bool:
        """Whether a match is being played."""
        return self._task is not None and not self._task.done()

    async def around(self, person: Any, screen: Awaitable[object]) -> list[MatchOutcome]:
        """Begin a match with ``person`` and run ``screen`` until the person leaves;
        then stop the match under way. The outcomes of the matches finished;
        :class:`TableStopped` when a match failed (the screen is closed then)."""
        self._screen = asyncio.ensure_future(screen)
        self.begin(person)
        try:
            await self._screen
        except asyncio.CancelledError:
            if self.error is None:
                raise
        finally:
            await self.stop()
        if self.error is not None:
            raise TableStopped(self.error)
        return self.outcomes

    def begin(self, person: Any) -> None:
        """Start a match with ``person`` seated."""
        self._task = asyncio.create_task(self.start_match(person))
        self._task.add_done_callback(self._finished)

    def then(self, start: Callable[[], None]) -> None:
        """Call ``start`` once the match under way has finished, at once if none is: the
        end of a match is on the screen while its session still lingers a moment for
        the other seats, and "play again" pressed then begins the next one after it."""
        if self.under_way:
            self._then = start
        else:
            start()

    def _finished(self, task: asyncio.Task[MatchOutcome]) -> None:
        then, self._then = self._then, None
        if task.cancelled():
            return
        err = task.exception()
        if err is None:
            self.outcomes.append(task.result())
            log.info("match over: %s", task.result())
            if then is not None:
                then()
            return
        log.error("the table stopped", exc_info=err)
        self.error = err
        self.failed(err)
        if self._screen is not None:
            self._screen.cancel()  # closes the screen, whether or not it is drawn yet

    async def stop(self) -> None:
        """Cancel the match under way, if any, and wait for it to end."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
