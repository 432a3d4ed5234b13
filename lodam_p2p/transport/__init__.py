"""Moving bytes between peers: the transport contract and what surrounds it.

- :mod:`.base` — the :class:`Transport` protocol, :class:`Message`, the errors.
- :mod:`.topics` — topic names (DESIGN section 4) and table/peer name validation.
- :mod:`.presence` — presence payloads, Last Wills with per-connection nonces.
- :mod:`.lobby` — retained table announcements.
- :mod:`.frames`, :mod:`.stream` — the session's frame header and reliable streams.
- :mod:`.url` — ``mqtt://`` and ``mqtts://`` broker URLs.
- :mod:`.memory` — the in-process hub with fault injection, for tests.
- :mod:`.mqtt` — the paho-mqtt adapter (imported lazily: only it imports paho).

How a session uses it (``tests/transport/test_stream_over_memory.py`` runs exactly
this on a faulty network)::

    from lodam_p2p.transport import PresenceSpec, open_transport, topics
    from lodam_p2p.transport.stream import StreamEndpoint

    transport = open_transport(url, PresenceSpec(table, me))   # or MemoryHub().transport(…)
    stream = StreamEndpoint(me)
    async with transport:
        await transport.subscribe(topics.table_peers_pattern(table))
        await transport.subscribe(topics.table_answers_pattern(table, me))
        await transport.subscribe(topics.table_presence_pattern(table))
        await transport.publish(topics.peer_topic(table, me), stream.send(body, now))
        async for message in transport.messages():
            topic = topics.parse_topic(message.topic)       # BadName: not ours, ignore
            stream.receive(topic.peer, message.payload, now)  # FrameError: log, ignore
            for delivery in stream.deliveries(): ...          # in order, exactly once
            for frame in stream.frames_to_send():             # resend requests
                await transport.publish(topics.peer_topic(table, me), frame)
            for asker, frame in stream.answers_to_send():     # for the asker alone
                await transport.publish(topics.answer_topic(table, me, asker), frame)
        # beside it: sleep until stream.timer(), call stream.handle_timer(now), publish
        # both again; when transport.epoch changes, publish stream.status(now).

Presence messages go to a :class:`PresenceTracker`; lobby announcements are
:class:`~.lobby.TableAnnouncement` values, signed by their host, published retained on
``topics.announcement_topic`` (one topic per announcer).
The embedded broker for solo play is :class:`lodam_p2p.transport.broker.EmbeddedBroker`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lodam_p2p.transport import topics
from lodam_p2p.transport.base import (
    QOS_AT_LEAST_ONCE,
    ConnectError,
    Message,
    Transport,
    TransportClosed,
    TransportError,
    topic_matches,
)
from lodam_p2p.transport.presence import Presence, PresenceSpec, PresenceTracker
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

if TYPE_CHECKING:
    from lodam_p2p.transport.mqtt import MqttTransport

__all__ = [
    "QOS_AT_LEAST_ONCE",
    "BadBrokerUrl",
    "BrokerUrl",
    "ConnectError",
    "Message",
    "Presence",
    "PresenceSpec",
    "PresenceTracker",
    "Transport",
    "TransportClosed",
    "TransportError",
    "open_transport",
    "topic_matches",
    "topics",
]


def open_transport(url: BrokerUrl | str, presence: PresenceSpec | None = None) -> MqttTransport:
    """An unconnected MQTT transport for ``url`` with default settings (``async with`` it).

    Raises :class:`BadBrokerUrl` for a malformed URL. For other settings (keepalive,
    timeouts, backoff) build :class:`~lodam_p2p.transport.mqtt.MqttTransport` directly.
    """
    from lodam_p2p.transport.mqtt import MqttTransport  # noqa: PLC0415 - keeps paho lazy

    return MqttTransport(url, presence)
