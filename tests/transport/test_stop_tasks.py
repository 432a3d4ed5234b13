"""A link's tasks end when it closes, even one that lets a cancellation pass."""

from __future__ import annotations

import asyncio

from lodam_p2p.transport.tasks import stop_tasks


async def _stubborn(ticks: list[int]) -> None:
    """A loop that drops its first cancellation, as an ``asyncio.wait_for`` of Python
    3.11 does when its operation completes in the same turn as the cancellation."""
    dropped = False
    while True:
        try:
            await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            if dropped:
                raise
            dropped = True
        ticks.append(1)


async def _closing() -> tuple[bool, bool]:
    ticks: list[int] = []
    stubborn = asyncio.create_task(_stubborn(ticks))
    failing = asyncio.create_task(asyncio.sleep(0))
    await asyncio.sleep(0.05)
    stopping = asyncio.create_task(stop_tasks([stubborn, failing]))
    await asyncio.wait({stopping}, timeout=30)  # no cancellation from outside on timeout
    ended = stopping.done(), stubborn.done()
    stubborn.cancel()
    return ended


def test_every_task_has_ended_when_the_link_is_stopped() -> None:
    assert asyncio.run(_closing()) == (True, True)
