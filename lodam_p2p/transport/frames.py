"""The session's frame header: who sent a message and its place in their stream.

Every message a session publishes on its peer topic is one frame, a msgpack array::

    [2, kind, sender, seq, body, prev, heads]

``2``
    the frame format version (1 had no ``prev`` and ``heads``: its frames are refused).
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
``prev``
    DATA only: the :func:`digest` of the sender's DATA frame ``seq - 1`` (empty for the
    first frame of a stream epoch, and in STATUS and RESEND). The signature over the
    frame covers it, so each sender's stream is a hash chain: two signed frames at one
    position, or a frame whose ``prev`` is not the digest of the frame before it, prove
    that the signer forked its stream.
``heads``
    at most :data:`MAX_HEADS` triples ``[peer prefix, seq, digest]``: for each other
    sender followed, the first :data:`HEAD_PREFIX` characters of its peer name, the
    number of the last DATA frame delivered from it and that frame's digest. Every
    receiver compares them with what it holds: a different digest at one position is a
    split view, a position it never received is a frame withheld from it (both broker
    faults, see protocol/SPEC.md, "The broker and strangers").

Decoding is strict: exact types, bounded sizes (msgpack limits set before parsing), and
anything else raises :class:`FrameError` — bad input from the network never escapes
as another exception.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import msgpack

from lodam_p2p.transport.topics import is_valid_name

#: Frame format version (the first array element).
FRAME_VERSION = 2
#: Largest encoded frame accepted by default, in bytes.
MAX_FRAME_BYTES = 256 * 1024
#: Most ranges one resend request may carry.
MAX_RANGES = 32
#: Sequence numbers stay below this.
SEQ_LIMIT = 2**63
#: Bytes of a frame digest (a truncated SHA-256 of the encoded frame).
DIGEST_BYTES = 16
#: Characters of a peer name that identify a sender in ``heads``.
HEAD_PREFIX = 8
#: Most heads one frame may carry (a table seats at most ten).
MAX_HEADS = 16

#: A head: (peer-name prefix, last DATA number delivered, that frame's digest).
Head = tuple[str, int, bytes]


def digest(frame: bytes) -> bytes:
    """The digest of an encoded frame (what the next frame's ``prev`` names)."""
    return hashlib.sha256(frame).digest()[:DIGEST_BYTES]


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
    prev: bytes = b""
    heads: tuple[Head, ...] = ()

    def encode(self) -> bytes:
        """The bytes to publish."""
        fields = [FRAME_VERSION, int(self.kind), self.sender, self.seq, self.body,
                  self.prev, [list(head) for head in self.heads]]
        return bytes(msgpack.packb(fields, use_bin_type=True))

    @classmethod
    def decode(cls, data: bytes, max_bytes: int = MAX_FRAME_BYTES) -> Frame:
        """Parse a received frame; raise :class:`FrameError` on anything malformed."""
        if len(data) > max_bytes:
            raise FrameError(f"frame of {len(data)} bytes exceeds {max_bytes}")
        fields = _unpack(data, max_bytes)
        if not isinstance(fields, list) or len(fields) != 7:
            raise FrameError("frame is not a 7-element array (frame version 2)")
        version, kind, sender, seq, body, prev, heads = fields
        if version != FRAME_VERSION:
            raise FrameError(f"unknown frame version {version!r}")
        if not isinstance(kind, int) or kind not in FrameKind._value2member_map_:
            raise FrameError(f"unknown frame kind {kind!r}")
        if not (isinstance(sender, str) and is_valid_name(sender)):
            raise FrameError(f"frame sender {sender!r} is not a peer name")
        _check_seq(seq, minimum=1 if kind == FrameKind.DATA else 0)
        if not isinstance(body, bytes):
            raise FrameError("frame body is not binary")
        if not (isinstance(prev, bytes) and len(prev) in (0, DIGEST_BYTES)):
            raise FrameError("frame prev is not a digest")
        if prev and kind != FrameKind.DATA:
            raise FrameError("only a DATA frame names the frame before it")
        if not isinstance(heads, list) or len(heads) > MAX_HEADS:
            raise FrameError(f"frame heads are not a list of at most {MAX_HEADS}")
        return cls(FrameKind(kind), sender, seq, body, prev,
                   tuple(_head(item) for item in heads))


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


def _head(item: Any) -> Head:
    """One ``[peer prefix, seq, digest]`` triple, checked."""
    if not isinstance(item, list) or len(item) != 3:
        raise FrameError("frame head is not a triple")
    prefix, seq, value = item
    if not (isinstance(prefix, str) and 0 < len(prefix) <= HEAD_PREFIX):
        raise FrameError("frame head does not name a peer")
    _check_seq(seq, minimum=1)
    if not (isinstance(value, bytes) and len(value) == DIGEST_BYTES):
        raise FrameError("frame head digest has the wrong size")
    return prefix, seq, value


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
