"""What the aiomqtt adapter spends per message: turns of the event loop, tasks, wake-ups.

A match receives thousands of messages, and every asyncio hop between the socket and
the session costs a task wake-up. These tests pin the short path (see the docstring of
:mod:`lodam_p2p.transport.mqtt`) against a scripted broker, which sends the bytes a test
asks for in one write, so that they are all in the client's socket at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from lodam_p2p.transport.base import Transport
from lodam_p2p.transport.mqtt import MqttTransport
from lodam_p2p.transport.presence import Presence, PresenceSpec
from lodam_p2p.transport.topics import peer_topic, table_peers_pattern
from tests.support.aio import run
from tests.support.scripted_broker import ScriptedBroker

TOPIC = peer_topic("oak", "ann")


class Turns:
    """Counts the turns of the event loop: a task that yields once at every turn."""

    def __init__(self) -> None:
        self.count = 0
        self._task = asyncio.create_task(self._spin())

    async def _spin(self) -> None:
        while True:
            await asyncio.sleep(0)
            self.count += 1

    def stop(self) -> None:
        self._task.cancel()


class Collector:
    """Takes a transport's messages, noting the turn of the loop at which each came."""

    def __init__(self, transport: Transport, turns: Turns, want: int) -> None:
        self.payloads: list[bytes] = []
        self.turns: list[int] = []
        self.enough = asyncio.Event()
        self._want, self._turns = want, turns
        self._task = asyncio.create_task(self._collect(transport))

    async def _collect(self, transport: Transport) -> None:
        async for message in transport.messages():
            self.payloads.append(message.payload)
            self.turns.append(self._turns.count)
            if len(self.payloads) >= self._want:
                self.enough.set()

    def stop(self) -> None:
        self._task.cancel()


def count_tasks(loop: asyncio.AbstractEventLoop) -> Callable[[], int]:
    """From now on count the tasks created on ``loop``; returns the reader of the count."""
    created = [0]

    def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any],
                **kwargs: Any) -> asyncio.Task[Any]:
        created[0] += 1
        return asyncio.Task(coro, loop=loop, **kwargs)

    loop.set_task_factory(factory)  # type: ignore[arg-type]
    return lambda: created[0]


def count_threadsafe_calls(loop: asyncio.AbstractEventLoop) -> Callable[[], int]:
    """From now on count the loop's ``call_soon_threadsafe`` calls (each one a wake-up
    through the loop's self-pipe)."""
    calls = [0]
    original = loop.call_soon_threadsafe

    def counted(*args: Any, **kwargs: Any) -> asyncio.Handle:
        calls[0] += 1
        return original(*args, **kwargs)

    loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
    return lambda: calls[0]


PAYLOADS = [b"frame %d" % index for index in range(20)]


def test_messages_that_arrive_together_are_handed_on_in_one_turn() -> None:
    """Twenty messages in the socket at once reach the consumer in the same turn of the
    loop, in order: the reader takes every packet the socket holds, and each goes
    straight to the transport's queue."""
    async def scenario() -> tuple[list[bytes], list[int]]:
        async with ScriptedBroker() as broker, MqttTransport(broker.url) as bob:
            await bob.subscribe(table_peers_pattern("oak"))
            turns = Turns()
            got = Collector(bob, turns, want=len(PAYLOADS))
            broker.push(TOPIC, PAYLOADS)
            await got.enough.wait()
            got.stop()
            turns.stop()
            return got.payloads, got.turns

    payloads, turns = run(scenario())
    assert payloads == PAYLOADS
    assert len(set(turns)) == 1, f"handed on over turns {turns}"


def test_a_received_message_costs_no_task() -> None:
    """aiomqtt's message iterator spends a task and an ``asyncio.wait`` on every message;
    the adapter's messages do not go through it."""
    async def scenario() -> int:
        async with ScriptedBroker() as broker, MqttTransport(broker.url) as bob:
            await bob.subscribe(table_peers_pattern("oak"))
            got = Collector(bob, Turns(), want=len(PAYLOADS))
            tasks = count_tasks(asyncio.get_running_loop())
            broker.push(TOPIC, PAYLOADS)
            await got.enough.wait()
            created = tasks()
            got.stop()
            return created

    assert run(scenario()) == 0


def test_pubacks_go_out_without_waking_the_loop_through_its_self_pipe() -> None:
    """Each message received at QoS 1 is answered by a PUBACK; it is written at once,
    not by a writer registered thread-safely (one self-pipe wake-up each)."""
    async def scenario() -> tuple[int, int]:
        async with ScriptedBroker() as broker, MqttTransport(broker.url) as bob:
            await bob.subscribe(table_peers_pattern("oak"))
            wakeups = count_threadsafe_calls(asyncio.get_running_loop())
            broker.push(TOPIC, PAYLOADS)
            await broker.until(lambda: broker.pubacks >= len(PAYLOADS))
            return broker.pubacks, wakeups()

    assert run(scenario()) == (len(PAYLOADS), 0)


def test_a_publication_costs_no_task_and_no_self_pipe_wake_up() -> None:
    """A QoS-1 publication waits for its PUBACK inline (no ``asyncio.wait_for`` task)
    and is written at once; the publications reach the broker in order."""
    async def scenario() -> tuple[list[bytes], int, int]:
        async with ScriptedBroker() as broker, MqttTransport(broker.url) as ann:
            await ann.publish(TOPIC, b"first")  # the connection's own task has started
            loop = asyncio.get_running_loop()
            tasks, wakeups = count_tasks(loop), count_threadsafe_calls(loop)
            for payload in PAYLOADS:
                await ann.publish(TOPIC, payload)
            created, woken = tasks(), wakeups()
            return [p.payload for p in broker.published], created, woken

    assert run(scenario()) == ([b"first", *PAYLOADS], 0, 0)


def test_a_publication_larger_than_the_socket_buffer_goes_out_whole() -> None:
    """When the socket's buffer is full, the rest waits for room and is written then."""
    big = bytes(range(256)) * (16 * 1024 * 1024 // 256)

    async def scenario() -> list[bytes]:
        async with ScriptedBroker() as broker, MqttTransport(broker.url) as ann:
            await ann.publish(TOPIC, big)
            await ann.publish(TOPIC, b"after")
            return [p.payload for p in broker.published]

    assert run(scenario()) == [big, b"after"]


def test_a_stale_will_that_came_with_the_connack_is_healed_as_of_the_new_nonce() -> None:
    """What a connection receives before its set-up is done (here an older connection's
    will, sent with the CONNACK) is taken once the set-up is: checked against the new
    connection's nonce, it is a stale will, and the presence is announced again."""
    spec = PresenceSpec("oak", "ann")
    will = spec.payload("older", online=False, conn=1)

    async def scenario() -> tuple[list[Presence], str | None]:
        async with ScriptedBroker(with_connack=[(spec.topic, will)]) as broker:
            ann = MqttTransport(broker.url, spec)
            await ann.connect()

            def online() -> list[Presence]:
                said = [Presence.decode(p.payload) for p in broker.published
                        if p.topic == spec.topic]
                return [presence for presence in said if presence.online]

            await broker.until(lambda: len(online()) >= 2)
            nonce = ann.nonce
            await ann.close()
            return online(), nonce

    announced, nonce = run(scenario())
    assert [(p.nonce, p.online) for p in announced] == [(nonce, True), (nonce, True)]
