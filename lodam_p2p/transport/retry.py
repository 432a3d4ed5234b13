"""Where and when a supervisor tries its brokers: the rounds of a connection.

The supervisor (:mod:`.supervisor`) knows how to make one connection to the broker at
an index of its list (its ``open_at``); what to try next, and when to stop, is here.

The first connection (:func:`first_connection`) goes round the brokers once, in the
order given, and takes the first that answers. No broker, or a refusal that retrying
will not cure (:class:`~.connection.Unrecoverable`), fails at once; a broker that took
the connection but did not answer it, or its set-up, in time, or closed it without a
refusal (:class:`~.connection.SetupLost`: a NATS node whose cluster is still placing its
streams does that) is busy, not wrong, so the round is made again, :data:`SETUP_TRIES`
times in all, after the backoff's delays.

A reconnection (:func:`reconnect`) moves on to the next broker of the list after each
delay of the backoff, cycling through them all, until one answers, a refusal that will
not be cured, or the deadline (``give_up_after``) passes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from lodam_p2p.transport.base import ConnectError
from lodam_p2p.transport.connection import Backoff, BrokerConnection, SetupLost, Unrecoverable

#: the MQTT transport's logger, as before the client driver had a module of its own
log = logging.getLogger("lodam_p2p.transport.mqtt")

#: Attempts at the first connection when the broker takes it but does not answer the
#: set-up (its subscriptions, the presence) in time: a busy broker, not a wrong address.
SETUP_TRIES = 3

#: One connection attempt to the broker at an index of the list, with its set-up.
OpenAt = Callable[[int], Awaitable[BrokerConnection]]


async def first_connection(count: int, open_at: OpenAt, backoff: Backoff) -> BrokerConnection:
    """The first connection to one of ``count`` brokers: rounds over them in order, a
    round again (:data:`SETUP_TRIES` in all) only while a set-up went unanswered."""
    delay = backoff.initial
    for _ in range(SETUP_TRIES - 1):
        try:
            return await _round(count, open_at)
        except SetupLost as err:
            log.info("%s; trying again", err)
        await asyncio.sleep(delay)
        delay = min(delay * backoff.factor, backoff.maximum)
    return await _round(count, open_at)


async def _round(count: int, open_at: OpenAt) -> BrokerConnection:
    """One round over the brokers in order: the first that answers. A refusal that
    retrying will not cure fails at once; :class:`SetupLost` if any broker took the
    connection but did not answer its set-up, else the last broker's error."""
    failures: list[ConnectError] = []
    for index in range(count):
        try:
            return await open_at(index)
        except Unrecoverable:
            raise
        except ConnectError as err:
            if count > 1:
                log.info("%s; trying the next broker", err)
            failures.append(err)
    lost = [err for err in failures if isinstance(err, SetupLost)]
    if lost:
        raise lost[-1]
    if len(failures) == 1:
        raise failures[0]
    raise ConnectError("no broker answered: " + "; ".join(map(str, failures)))


async def reconnect(at: int, count: int, open_at: OpenAt, backoff: Backoff,
                    give_up_after: float | None) -> BrokerConnection:
    """A connection again, after the broker at index ``at`` was lost: the next broker
    after each delay, cycling; :class:`~.base.ConnectError` on a refusal that will not
    be cured, or once ``give_up_after`` seconds have passed."""
    loop = asyncio.get_running_loop()
    deadline = None if give_up_after is None else loop.time() + give_up_after
    last: ConnectError | None = None
    async for _delay in backoff.delays():
        if deadline is not None and loop.time() > deadline:
            break
        at = (at + 1) % count
        try:
            return await open_at(at)
        except Unrecoverable:
            raise
        except ConnectError as err:
            last = err
    raise ConnectError(f"gave up reconnecting: {last}")
