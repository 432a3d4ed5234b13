"""Stopping asyncio tasks for sure: the transport's supervisor and a link's tasks alike."""

from __future__ import annotations

import asyncio


async def stop_tasks(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait until every one has ended.

    One cancellation is not always enough. On Python 3.11 an ``asyncio.wait_for``
    whose operation completes in the same turn of the loop as the cancellation returns
    the result and drops the cancellation; the ticker, cancelled just as a heartbeat's
    publish was acknowledged, would then tick on for ever and the process would never
    end (seen on a loaded machine, after the match). So a task still running a moment
    after its cancellation is cancelled again."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _ended, pending = await asyncio.wait(pending, timeout=0.1)
    for task in tasks:
        if not task.cancelled():
            task.exception()  # retrieved: a failure while stopping is of no interest
