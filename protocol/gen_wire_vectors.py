"""Generate the stream- and session-layer vectors in protocol/vectors/wire.json.

    python protocol/gen_wire_vectors.py           # (re)write the vectors
    python protocol/gen_wire_vectors.py --check   # exit 1 if the file differs from a fresh run

Everything is deterministic: the identity keys are Ed25519 keys whose 32-byte seeds are
SHA-256 of a fixed label, Ed25519 signatures are deterministic, and every nonce is
fixed. The layouts are those of protocol/WIRE.md. Session arguments are written as JSON
with each msgpack ``bin`` as ``{"bin": hex}`` (JSON has no bytes); the fair-deal envelope
the bodies carry is the one of vectors/envelope.json (a REVEAL of position 3).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.session.audit import offer_commitment
from lodam_p2p.session.lot import commitment, draw
from lodam_p2p.session.movebody import ExchangeMove, GameMove, Tag
from lodam_p2p.session.resumestate import pack_state
from lodam_p2p.session.wire import (
    DOMAIN,
    RETIRED,
    Body,
    Msg,
    peer_name,
    raw_public,
    seal_frame,
)
from lodam_p2p.transport import topics
from lodam_p2p.transport.frames import Frame, FrameKind, ResendRequest, digest
from lodam_p2p.transport.lobby import TableAnnouncement, signed_bytes
from lodam_p2p.transport.presence import PRESENCE_DOMAIN, PresenceSpec
from lodam_p2p.transport.stream import EPOCH_SPAN

HERE = Path(__file__).parent / "vectors"
TABLE = "oak"
#: The fair-deal context of the session examples: that of vectors/envelope.json.
TABLE_ID = b"lodam-vectors-01"
HAND = 7


def identity(label: str) -> Ed25519PrivateKey:
    """The fixed identity key named ``label``."""
    return Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(b"lodam/vectors/wire/" + label.encode()).digest())


def jsonable(value: Any) -> Any:
    """A session argument as JSON: bytes as ``{"bin": hex}``."""
    if isinstance(value, bytes):
        return {"bin": value.hex()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    return value


def key_entry(label: str) -> dict[str, str]:
    """A fixed identity: seed, public key, and the peer name derived from it."""
    key = identity(label)
    pub = raw_public(key)
    return {"label": label,
            "ed25519_seed": hashlib.sha256(b"lodam/vectors/wire/" + label.encode()).hexdigest(),
            "public_key": pub.hex(), "peer_name_input": (b"lodam/peer\x00" + pub).hex(),
            "peer": peer_name(pub)}


def publication(key: Ed25519PrivateKey, frame: bytes) -> dict[str, str]:
    """A frame signed for publication at :data:`TABLE`: the signed input, the signature
    and the published bytes (public key ‖ signature ‖ frame)."""
    pub = raw_public(key)
    sealed = seal_frame(key, pub, TABLE, frame)
    signed = DOMAIN + TABLE.encode() + b"\x00" + frame
    return {"frame": frame.hex(), "signing_input": signed.hex(),
            "signature": sealed[32:96].hex(), "publication": sealed.hex()}


def stream_vectors(me: Ed25519PrivateKey, other: str) -> dict[str, Any]:
    """A DATA frame (echoing one head of ``other``'s stream), the DATA after it (chained
    to it), a STATUS and a RESEND frame, and the first DATA of epoch 1."""
    peer = peer_name(raw_public(me))
    body = Body(Msg.LEAVE).encode()
    resend = ResendRequest(other, ((1, 2), (5, 5))).encode()
    heads = ((other[:8], 4, hashlib.sha256(b"lodam/vectors/wire/head").digest()[:16]),)
    first = Frame(FrameKind.DATA, peer, 1, body, b"", heads)
    frames = {
        "data": first,
        "data_2": Frame(FrameKind.DATA, peer, 2, body, digest(first.encode())),
        "status": Frame(FrameKind.STATUS, peer, 3, b"", b"", heads),
        "resend": Frame(FrameKind.RESEND, peer, 3, resend),
        "data_epoch_1": Frame(FrameKind.DATA, peer, EPOCH_SPAN + 1, body),
    }
    out: dict[str, Any] = {}
    for name, frame in frames.items():
        out[name] = {"kind": int(frame.kind), "sender": frame.sender, "seq": frame.seq,
                     "body": frame.body.hex(), "prev": frame.prev.hex(),
                     "heads": [[p, s, d.hex()] for p, s, d in frame.heads],
                     **publication(me, frame.encode())}
    out["resend"]["request"] = {"target": other, "ranges": [[1, 2], [5, 5]]}
    return out


#: A session example: kind, hand, step, args, envelopes, and for a MOVE the game whose
#: codec reads it (movebody: "lodam", a hand with exchanges; "lorum", a game hand).
Example = tuple[Msg, int, int, tuple[Any, ...], tuple[bytes, ...], str | None]


def _lodam(tag: Tag, step: int, fields: tuple[Any, ...], envs: tuple[bytes, ...]) -> Example:
    return (Msg.MOVE, HAND, step, ExchangeMove(tag, fields).args(), envs, "lodam")


def session_examples(me: str, my_key: bytes, other: str, other_key: bytes,
                     envelope: bytes) -> list[Example]:
    """One body of each session kind, and a MOVE of each of Lodam's moves and of a
    Lorum play: (kind, hand, step, args, envelopes, game)."""
    nonce = hashlib.sha256(b"lodam/vectors/wire/lot-nonce").digest()
    salt = hashlib.sha256(b"lodam/vectors/wire/offer-salt").digest()[:16]
    offer = offer_commitment(TABLE_ID, HAND, 2, step=11, position=3, salt=salt)
    state = pack_state({"hand": 8, "scores": [2, 0, 1]})
    env = (envelope,)
    return [
        (Msg.JOIN, 0, 0, ("ann", "bot:random"), (), None),
        (Msg.LEAVE, 0, 0, (), (), None),
        (Msg.SEATS, 0, 0, ([[me, "ann", "bot:random"], [other, "bob", "human"]], 3), (), None),
        (Msg.START, 0, 0, (TABLE_ID, {"lives": 3}, [[me, my_key, "ann", "bot:random"],
                                                    [other, other_key, "bob", "human"]],
                           30.0), (), None),
        (Msg.LOT_COMMIT, 0, 0, (commitment(TABLE_ID, 0, nonce),), (), None),
        (Msg.LOT_REVEAL, 0, 0, (nonce,), (), None),
        (Msg.PROTO, HAND, 0, (), env, None),
        _lodam(Tag.PLAY, 12, (3,), env),
        _lodam(Tag.OFFER, 11, ("card", offer), ()),
        _lodam(Tag.ANSWER, 12, (None,), ()),
        _lodam(Tag.OUTCOME, 13, (False, 5), ()),
        _lodam(Tag.SWALLOW, 14, (True,), ()),
        _lodam(Tag.DECLARE, 15, (True, 1), ()),
        _lodam(Tag.CHALLENGE, 16, (None,), ()),
        (Msg.NOTES, HAND, 0, ([[11, 3, salt]],), env, None),
        (Msg.VOID, HAND, 0, (1, "seat 1: share: the share proof fails"), env, None),
        (Msg.RESULT, 0, 0, ([0], 9, 9, [2, 0, 1], []), (), None),
        (Msg.BYE, 0, 0, (), (), None),
        _lodam(Tag.REMASK, 14, (), env),
        (Msg.REJOIN, 0, 0, (HAND, [1]), (), None),
        (Msg.RESUME, HAND, 0, (1, 8, state), (), None),
        (Msg.ATTEST, HAND, 0, (1, 8, state), (), None),
        (Msg.TIMEOUT, HAND, 12, (1,), (), None),
        (Msg.MOVE, HAND, 12, GameMove("play", (), 3).args(), env, "lorum"),
    ]


def session_vectors(me: Ed25519PrivateKey, other: Ed25519PrivateKey,
                    envelope: bytes) -> list[dict[str, Any]]:
    """Each session body, framed as DATA number 1, 2, … of one stream (each frame
    chained to the one before) and signed."""
    peer, other_pub = peer_name(raw_public(me)), raw_public(other)
    out = []
    examples = session_examples(peer, raw_public(me), peer_name(other_pub), other_pub, envelope)
    prev = b""
    for seq, (kind, hand, step, args, envs, game) in enumerate(examples, start=1):
        body = Body(kind, hand, step, args, envs).encode()
        frame = Frame(FrameKind.DATA, peer, seq, body, prev).encode()
        out.append({"name": kind.name, **({"game": game} if game else {}),
                    "kind": int(kind), "hand": hand, "step": step,
                    "args": jsonable(list(args)), "envelopes": [e.hex() for e in envs],
                    "body": body.hex(), "seq": seq, "prev": prev.hex(),
                    **publication(me, frame)})
        prev = digest(frame)
    return out


def presence_vectors(me: Ed25519PrivateKey) -> dict[str, Any]:
    """A signed "online" presence and the matching Last Will."""
    pub = raw_public(me)
    peer = peer_name(pub)
    spec = PresenceSpec(TABLE, peer, signer=me.sign, pubkey=pub, epoch=0)
    nonce = "0123456789abcdef"
    out: dict[str, Any] = {"topic": spec.topic, "nonce": nonce, "epoch": 0, "conn": 1}
    for name, online in (("online", True), ("will", False)):
        state = b"1" if online else b"0"
        signed = b"\x00".join([PRESENCE_DOMAIN + TABLE.encode(), peer.encode(),
                               nonce.encode(), state, b"0.1"])
        out[name] = {"signing_input": signed.hex(), "payload": spec.payload(nonce, online, 1)
                     .decode()}
    return out


def lobby_vectors(key: Ed25519PrivateKey) -> dict[str, Any]:
    """Two announcements signed by ``key``, the host's: a Lodam table open, a Lorum
    table full with its brokers; the signing input of the first, its fingerprint."""
    host = peer_name(raw_public(key))
    lodam = TableAnnouncement(TABLE, host, 3, ("ann",), (("lives", "3"), ("time_limit_s", "30.0")))
    lorum = TableAnnouncement("elm", host, 4, ("ann", "bob", "cy", "di"), (), "full",
                              game="lorum", brokers=("mqtt://192.168.1.20:1883",))
    lodam, lorum = lodam.signed(key), lorum.signed(key)
    unsigned = json.loads(lodam.encode())
    del unsigned["sig"]
    return {"topic": lodam.topic, "open_lodam": lodam.encode().decode(),
            "open_lodam_signing_input": signed_bytes(unsigned).hex(),
            "fingerprint": lodam.fingerprint, "label": lodam.label,
            "full_lorum": lorum.encode().decode(), "withdrawal": ""}


def lot_vectors() -> dict[str, Any]:
    """The commitments and the draw of a three-seat lot."""
    nonces = [hashlib.sha256(b"lodam/vectors/wire/lot-%d" % s).digest() for s in range(3)]
    return {"table_id": TABLE_ID.hex(), "nonces": [n.hex() for n in nonces],
            "commitments": [commitment(TABLE_ID, s, n).hex() for s, n in enumerate(nonces)],
            "draw_digest": hashlib.sha256(b"lodam/lot-draw\x00" + TABLE_ID + b"".join(nonces))
            .hexdigest(), "dealer": draw(TABLE_ID, nonces)}


def build() -> dict[str, Any]:
    """The whole vector file's content."""
    me, other = identity("ann"), identity("bob")
    envelope = bytes.fromhex(json.loads((HERE / "envelope.json").read_text())["envelope"])
    peer, other_peer = peer_name(raw_public(me)), peer_name(raw_public(other))
    return {
        "table": TABLE, "table_id": TABLE_ID.hex(), "hand": HAND,
        "identities": [key_entry("ann"), key_entry("bob")],
        "topics": {"peer": topics.peer_topic(TABLE, peer),
                   "peers": topics.table_peers_pattern(TABLE),
                   "presence": topics.presence_topic(TABLE, peer),
                   "lobby": topics.lobby_topic(TABLE), "lobby_all": topics.LOBBY_PATTERN},
        "stream": stream_vectors(me, other_peer),
        "session": session_vectors(me, other, envelope),
        #: kinds no peer sends: a body of one is refused by name (Lodam's moves before MOVE)
        "retired_kinds": {str(kind): name for kind, name in sorted(RETIRED.items())},
        "presence": presence_vectors(me),
        "lobby": lobby_vectors(me),
        "lot": lot_vectors(),
    }


def render(content: Any) -> str:
    """The exact file text."""
    return json.dumps(content, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Write the vectors, or with ``--check`` say whether the file is stale (exit 1)."""
    path, text = HERE / "wire.json", render(build())
    if "--check" in argv:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            print("stale vectors: wire.json")
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
