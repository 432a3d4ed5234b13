"""The session's frame header: who sent a message and its place in their stream.

Every message a session publishes on its peer topic is one frame, a msgpack array::

    [1, kind, sender, seq, body]

``1``
    the frame format version.
``kind``
    ``0`` DATA — ``seq`` is this frame's number in the sender's stream (1, 2, 3 …) and
    ``body`` is the session's payload (for the fair-deal protocol, its own signed
    envelope: this header is framing, not authentication).
    ``1`` STATUS — a heartbeat; ``seq`` is the sender's high-water mark (the last DATA
    number it has sent, 0 if none) and ``body`` is empty.
    ``2`` RESEND — a request; ``seq`` is again the sender's high-water mark and
    ``body`` is the msgpack array ``[target, [[first, last], …]]`` asking ``target`` to
    publish those DATA frames again.
``sender``
    the peer name; it must equal the ``<peer>`` level of the topic it came on.
``seq``
    an unsigned integer below 2**63.

Decoding is strict: exact types, bounded sizes (msgpack limits set before parsing), and
anything else raises :class:`FrameError` — bad input from the network never escapes
as another exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import msgpack

from lodam_p2p.transport.topics import is_valid_name

#: Frame format version (the first array element).
FRAME_VERSION = 1
#: Largest encoded frame accepted by default, in bytes.
MAX_FRAME_BYTES = 256 * 1024
#: Most ranges one resend request may carry.
MAX_RANGES = 32
#: Sequence numbers stay below this.
SEQ_LIMIT = 2**63


class FrameError(ValueError):
    """A frame that cannot be decoded or is inconsistent; the message is ignored."""


class FrameKind(IntEnum):
    """What a frame carries."""

    #: a numbered payload of the sender's stream
    DATA = 0
    #: a heartbeat carrying the sender's high-water mark
    STATUS = 1
    #: a request that a peer publish some of its DATA frames again
    RESEND = 2


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame (see the module docstring for the layout)."""

    kind: FrameKind
    sender: str
    seq: int
    body: bytes = b""

    def encode(self) -> bytes:
        """The bytes to publish."""
        fields = [FRAME_VERSION, int(self.kind), self.sender, self.seq, self.body]
        return bytes(msgpack.packb(fields, use_bin_type=True))

    @classmethod
    def decode(cls, data: bytes, max_bytes: int = MAX_FRAME_BYTES) -> Frame:
        """Parse a received frame; raise :class:`FrameError` on anything malformed."""
        if len(data) > max_bytes:
            raise FrameError(f"frame of {len(data)} bytes exceeds {max_bytes}")
        fields = _unpack(data, max_bytes)
        if not isinstance(fields, list) or len(fields) != 5:
            raise FrameError("frame is not a 5-element array")
        version, kind, sender, seq, body = fields
        if version != FRAME_VERSION:
            raise FrameError(f"unknown frame version {version!r}")
        if not isinstance(kind, int) or kind not in FrameKind._value2member_map_:
            raise FrameError(f"unknown frame kind {kind!r}")
        if not (isinstance(sender, str) and is_valid_name(sender)):
            raise FrameError(f"frame sender {sender!r} is not a peer name")
        _check_seq(seq, minimum=1 if kind == FrameKind.DATA else 0)
        if not isinstance(body, bytes):
            raise FrameError("frame body is not binary")
        return cls(FrameKind(kind), sender, seq, body)


@dataclass(frozen=True, slots=True)
class ResendRequest:
    """The body of a RESEND frame: ``target`` should publish ``ranges`` again."""

    target: str
    ranges: tuple[tuple[int, int], ...]

    def encode(self) -> bytes:
        """The RESEND frame body."""
        ranges = [list(pair) for pair in self.ranges]
        return bytes(msgpack.packb([self.target, ranges], use_bin_type=True))

    @classmethod
    def decode(cls, body: bytes) -> ResendRequest:
        """Parse a RESEND body; raise :class:`FrameError` if malformed."""
        fields = _unpack(body, len(body))
        if not isinstance(fields, list) or len(fields) != 2:
            raise FrameError("resend request is not a 2-element array")
        target, raw_ranges = fields
        if not (isinstance(target, str) and is_valid_name(target)):
            raise FrameError(f"resend target {target!r} is not a peer name")
        if not isinstance(raw_ranges, list) or not 0 < len(raw_ranges) <= MAX_RANGES:
            raise FrameError("resend request needs 1 to 32 ranges")
        return cls(target, tuple(_range(item) for item in raw_ranges))


def _range(item: Any) -> tuple[int, int]:
    """One ``[first, last]`` pair, checked."""
    if not isinstance(item, list) or len(item) != 2:
        raise FrameError("resend range is not a pair")
    first, last = item
    _check_seq(first, minimum=1)
    _check_seq(last, minimum=first)
    return first, last


def _check_seq(value: Any, minimum: int) -> None:
    """Raise unless ``value`` is an int in ``[minimum, SEQ_LIMIT)`` (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise FrameError(f"sequence number {value!r} is not an integer")
    if not minimum <= value < SEQ_LIMIT:
        raise FrameError(f"sequence number {value} out of range")


def _unpack(data: bytes, max_bytes: int) -> Any:
    """msgpack-decode with limits, mapping every failure to :class:`FrameError`."""
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_bin_len=max_bytes,
            max_str_len=256,
            max_array_len=MAX_RANGES,
            max_map_len=0,
            max_ext_len=0,
        )
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError,
            msgpack.StackError) as err:
        raise FrameError(f"frame is not valid msgpack: {err}") from None
