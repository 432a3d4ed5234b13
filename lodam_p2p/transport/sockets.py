"""The socket under a client driver's connection (:mod:`.mqtt`'s), as the driver tends
it: Nagle's algorithm off, whether more waits to be read, and a one-line reason when the
link fails. Nothing here knows the MQTT client.
"""

from __future__ import annotations

import contextlib
import select
import socket
import ssl


def no_delay(sock: socket.socket) -> None:
    """Turn Nagle's algorithm off on the connection's socket.

    paho leaves it on, so a small publication that follows another waits for the
    broker's delayed TCP acknowledgement (40 ms on Linux). The session's messages are
    small and latency-bound: measured, a seeded 5-seat match over Mosquitto took 10.4 s
    with Nagle on and 2.0 s with it off.
    """
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def more_to_read(sock: object) -> bool:
    """Whether the socket holds more to read now (or, for TLS, decoded bytes paho left)."""
    if isinstance(sock, ssl.SSLSocket) and sock.pending() > 0:
        return True
    if not isinstance(sock, socket.socket):
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return False  # closed: the reader's next turn, or the close, tells paho
    return bool(readable)


def reason_of(err: BaseException) -> str:
    """A one-line reason for a failed or broken link."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err) or type(err).__name__
