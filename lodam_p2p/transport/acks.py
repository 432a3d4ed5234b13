"""The acknowledgements one connection to a broker awaits.

A client driver (:mod:`.mqtt`'s) sends a packet that the broker acknowledges (a QoS 1
publication, a subscription) and awaits its answer by the packet's id, inline: no task
and no wake-up of its own (:class:`Acks`). When the link breaks, every acknowledgement
still awaited fails with the link's error (:func:`fail_quietly`); one that nobody
awaits any more (its publisher gave up in the meantime) is nobody's news, and is marked
retrieved so that asyncio does not print it as a "Future exception was never
retrieved" traceback.

Nothing here imports the MQTT client.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from lodam_p2p.transport.connection import LinkError


class Acks:
    """Acknowledgements awaited, by packet id, on one connection's event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        #: the answer awaited for each packet id
        self.waiting: dict[int, asyncio.Future[None]] = {}

    async def wait(self, mid: int) -> None:
        """Await the answer to the packet ``mid``; the error it was given, if any."""
        future = self.waiting[mid] = self._loop.create_future()
        try:
            await future
        finally:
            self.waiting.pop(mid, None)

    def answer(self, mid: int, error: LinkError | None = None) -> None:
        """The broker answered the packet ``mid``: acknowledged, or refused (``error``).
        An answer that nobody awaits (any more) is dropped."""
        future = self.waiting.get(mid)
        if future is None or future.done():
            return
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)

    def fail(self, error: LinkError) -> None:
        """The link broke: every answer still awaited fails with ``error``."""
        fail_quietly(self.waiting.values(), error)


def fail_quietly(futures: Iterable[asyncio.Future[None]], error: BaseException) -> None:
    """Fail each of ``futures`` not yet done with ``error``, marked retrieved: nobody may
    be waiting for it any more."""
    for future in list(futures):
        if not future.done():
            future.set_exception(error)
            future.exception()
