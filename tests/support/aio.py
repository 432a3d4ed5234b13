"""Running async scenarios from plain pytest tests (the project has no async plugin)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from lodam_p2p.transport.base import Message, Transport

T = TypeVar("T")

#: Safety net for a whole match in one test, in seconds: generous, since CI shares two
#: cores with other work and a loaded run is many times slower (whole-match tests ran out
#: of 120 s and 240 s beside a dozen busy processes); below pytest's per-test timeout
#: (pyproject.toml), so that the failure names the match rather than the runner.
MATCH_PATIENCE = 600.0


async def until(what: str, check: Callable[[], object], patience: float = 120.0) -> None:
    """Wait until ``check()`` holds, looking every few milliseconds; fail the test,
    naming ``what``, if it has not after ``patience`` seconds (a safety net only)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


def run(scenario: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
    """Run ``scenario`` in a fresh event loop, failing it after ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(scenario, timeout))


class Inbox:
    """Collects one transport's messages in the background, to wait on by predicate."""

    def __init__(self, transport: Transport) -> None:
        self.received: list[Message] = []
        self._changed = asyncio.Event()
        self._task = asyncio.create_task(self._collect(transport.messages()))

    async def _collect(self, messages: AsyncIterator[Message]) -> None:
        async for message in messages:
            self.received.append(message)
            self._changed.set()

    async def wait_for(self, accept: Callable[[Message], bool], timeout: float = 30.0
                       ) -> Message:
        """The first message (already received or to come) that ``accept`` takes."""
        async def look() -> Message:
            while True:
                for message in self.received:
                    if accept(message):
                        return message
                self._changed.clear()
                await self._changed.wait()
        return await asyncio.wait_for(look(), timeout)

    async def topic(self, topic: str, timeout: float = 30.0) -> Message:
        """The first message on ``topic``."""
        return await self.wait_for(lambda m: m.topic == topic, timeout)

    def stop(self) -> Awaitable[None]:
        """Stop collecting."""
        self._task.cancel()
        return asyncio.gather(self._task, return_exceptions=True)  # type: ignore[return-value]
