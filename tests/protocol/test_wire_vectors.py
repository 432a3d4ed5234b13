"""The stream- and session-layer vectors (protocol/vectors/wire.json), recomputed from
protocol/WIRE.md's formulas: the msgpack bytes by a small encoder written here from the
msgpack format (not the msgpack package), the hashes with hashlib and the signatures with
the Ed25519 of ``cryptography``. Then the production code must agree with the same
bytes: it encodes them, decodes them, and checks their signatures.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import struct
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from lodam_p2p.session import lot
from lodam_p2p.session.movebody import BadMove, ExchangeMove, GameMove, Tag
from lodam_p2p.session.wire import (
    MAX_PAYLOAD,
    RETIRED,
    BadMessage,
    Body,
    Msg,
    open_frame,
    peer_name,
)
from lodam_p2p.transport.frames import Frame, FrameKind, ResendRequest
from lodam_p2p.transport.lobby import BadAnnouncement, TableAnnouncement
from lodam_p2p.transport.presence import Presence, check_signed

PROTOCOL = Path(__file__).resolve().parents[2] / "protocol"
VECTORS: dict[str, Any] = json.loads((PROTOCOL / "vectors" / "wire.json").read_text("utf-8"))
#: The frame signature's domain, as WIRE.md spells it.
SESSION_DOMAIN = b"lodam/session/v1\x00"


# --- msgpack, from its specification (only what the wire uses) -------------------------


def pack(value: Any) -> bytes:
    """The smallest msgpack encoding of ``value`` (as WIRE.md requires of a sender)."""
    if value is None:
        return b"\xc0"
    if value is True or value is False:
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, int):
        return _pack_int(value)
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        return _sized(value.encode(), 0xA0, 31, b"\xd9", b"\xda", b"\xdb")
    if isinstance(value, bytes):
        return _sized(value, None, 0, b"\xc4", b"\xc5", b"\xc6")
    if isinstance(value, list):
        return _head(len(value), 0x90, b"\xdc", b"\xdd") + b"".join(pack(v) for v in value)
    if isinstance(value, dict):
        return _head(len(value), 0x80, b"\xde", b"\xdf") + b"".join(
            pack(k) + pack(v) for k, v in value.items())
    raise TypeError(value)


def _pack_int(n: int) -> bytes:
    if 0 <= n < 0x80:
        return bytes([n])
    if -32 <= n < 0:
        return struct.pack(">b", n)
    if n >= 0:
        for code, fmt, top in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16),
                               (0xCE, ">I", 1 << 32), (0xCF, ">Q", 1 << 64)):
            if n < top:
                return bytes([code]) + struct.pack(fmt, n)
    for code, fmt, low in ((0xD0, ">b", -(1 << 7)), (0xD1, ">h", -(1 << 15)),
                           (0xD2, ">i", -(1 << 31)), (0xD3, ">q", -(1 << 63))):
        if n >= low:
            return bytes([code]) + struct.pack(fmt, n)
    raise ValueError(n)


def _sized(data: bytes, fix: int | None, fix_max: int, *codes: bytes) -> bytes:
    c8, c16, c32 = codes
    n = len(data)
    if fix is not None and n <= fix_max:
        return bytes([fix | n]) + data
    if n < 1 << 8:
        return c8 + struct.pack(">B", n) + data
    if n < 1 << 16:
        return c16 + struct.pack(">H", n) + data
    return c32 + struct.pack(">I", n) + data


def _head(n: int, fix: int, c16: bytes, c32: bytes) -> bytes:
    if n < 16:
        return bytes([fix | n])
    return (c16 + struct.pack(">H", n)) if n < 1 << 16 else (c32 + struct.pack(">I", n))


def unjson(value: Any) -> Any:
    """A vector's argument back to its wire value (``{"bin": hex}`` is bytes)."""
    if isinstance(value, dict):
        if set(value) == {"bin"}:
            return bytes.fromhex(value["bin"])
        return {k: unjson(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unjson(v) for v in value]
    return value


# --- identities and signed frames ------------------------------------------------------


def _key(index: int) -> tuple[Ed25519PrivateKey, bytes, str]:
    entry = VECTORS["identities"][index]
    key = Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(b"lodam/vectors/wire/" + entry["label"].encode()).digest())
    pub = bytes.fromhex(entry["public_key"])
    name = "p" + hashlib.sha256(b"lodam/peer\x00" + pub).hexdigest()[:20]
    return key, pub, name


def test_identities_and_peer_names_follow_the_formula() -> None:
    for index, entry in enumerate(VECTORS["identities"]):
        key, pub, name = _key(index)
        assert key.public_key().public_bytes_raw() == pub
        assert entry["peer"] == name == peer_name(pub)
        assert entry["peer_name_input"] == (b"lodam/peer\x00" + pub).hex()


def test_topics_are_built_from_the_table_and_peer_names() -> None:
    _key0, _pub, name = _key(0)
    t = VECTORS["topics"]
    assert t == {"peer": f"lodam/v3/t/oak/p/{name}", "peers": "lodam/v3/t/oak/p/+",
                 "presence": f"lodam/v3/t/oak/presence/{name}", "lobby": "lodam/v3/lobby/oak/+",
                 "lobby_all": "lodam/v3/lobby/+/+"}


def _check_signed(vector: dict[str, Any], frame: bytes) -> None:
    """The frame's signature and publication, by hand, then through production."""
    key, pub, name = _key(0)
    signed = SESSION_DOMAIN + VECTORS["table"].encode() + b"\x00" + frame
    assert vector["frame"] == frame.hex()
    assert vector["signing_input"] == signed.hex()
    signature = key.sign(signed)  # Ed25519 is deterministic
    assert vector["signature"] == signature.hex()
    Ed25519PublicKey.from_public_bytes(pub).verify(signature, signed)
    publication = pub + signature + frame
    assert vector["publication"] == publication.hex()
    assert open_frame(publication, VECTORS["table"], name) == (pub, frame)
    forged = publication[:-1] + bytes([publication[-1] ^ 1])
    with pytest.raises(BadMessage):
        open_frame(forged, VECTORS["table"], name)
    with pytest.raises(BadMessage):  # the same bytes at another table
        open_frame(publication, "elm", name)


@pytest.mark.parametrize("name", ["data", "data_2", "status", "resend", "data_epoch_1"])
def test_stream_frames_recompute_by_hand(name: str) -> None:
    vector = VECTORS["stream"][name]
    body = bytes.fromhex(vector["body"])
    if name == "resend":
        request = vector["request"]
        assert body == pack([request["target"], request["ranges"]])
        decoded = ResendRequest.decode(body)
        assert decoded.target == request["target"]
        assert [list(r) for r in decoded.ranges] == request["ranges"]
    prev = bytes.fromhex(vector["prev"])
    heads = [[p, s, bytes.fromhex(d)] for p, s, d in vector["heads"]]
    frame = pack([2, vector["kind"], vector["sender"], vector["seq"], body, prev, heads])
    _check_signed(vector, frame)
    made = Frame(FrameKind(vector["kind"]), vector["sender"], vector["seq"], body, prev,
                 tuple((p, s, d) for p, s, d in heads))
    assert Frame.decode(frame) == made
    assert made.encode() == frame
    if name == "data_2":  # chained: the first frame's SHA-256, its first 16 bytes
        first = bytes.fromhex(VECTORS["stream"]["data"]["frame"])
        assert prev == hashlib.sha256(first).digest()[:16]
    if name == "data_epoch_1":
        assert vector["seq"] == 2**40 + 1


def test_every_session_kind_has_a_vector() -> None:
    assert {v["kind"] for v in VECTORS["session"]} == {int(m) for m in Msg}
    assert [v["seq"] for v in VECTORS["session"]] == list(range(1, len(VECTORS["session"]) + 1))
    lodam = [v for v in VECTORS["session"] if v.get("game") == "lodam"]
    assert sorted(v["args"][0] for v in lodam) == sorted(map(str, Tag))
    assert [v["game"] for v in VECTORS["session"] if v["name"] == "MOVE"
            and v not in lodam] == ["lorum"]


def test_the_retired_kinds_are_refused_by_name() -> None:
    retired = {int(k): name for k, name in VECTORS["retired_kinds"].items()}
    assert retired == RETIRED and not set(retired) & {int(m) for m in Msg}
    for kind, name in retired.items():
        with pytest.raises(BadMessage, match=f"{name}\\) is retired"):
            Body.decode(pack([1, kind, 7, 12, [3], []]))


@pytest.mark.parametrize("vector", [v for v in VECTORS["session"] if v.get("game")],
                         ids=lambda v: f"{v['game']}-{v['args'][0]}")
def test_each_move_reads_through_its_games_codec(vector: dict[str, Any]) -> None:
    body = Body.decode(bytes.fromhex(vector["body"]))
    args = unjson(vector["args"])
    if vector["game"] == "lodam":
        move = ExchangeMove.read(body)
        assert (move.tag.value, *move.fields) == tuple(args)
    else:
        lorum = GameMove.read(body)
        assert [lorum.kind, list(lorum.values), lorum.position] == args


@pytest.mark.parametrize("vector", VECTORS["session"], ids=lambda v: v["name"])
def test_session_bodies_recompute_by_hand(vector: dict[str, Any]) -> None:
    args = unjson(vector["args"])
    envelopes = [bytes.fromhex(e) for e in vector["envelopes"]]
    body = pack([1, vector["kind"], vector["hand"], vector["step"], args, envelopes])
    assert vector["body"] == body.hex()
    decoded = Body.decode(body)
    assert decoded.kind == Msg(vector["kind"]) and decoded.kind.name == vector["name"]
    assert (decoded.hand, decoded.step) == (vector["hand"], vector["step"])
    assert list(decoded.args) == args and list(decoded.envelopes) == envelopes
    assert Body(decoded.kind, vector["hand"], vector["step"], tuple(args),
                tuple(envelopes)).encode() == body
    _key0, _pub, name = _key(0)
    index = VECTORS["session"].index(vector)
    before = VECTORS["session"][index - 1]["frame"] if index else ""
    prev = hashlib.sha256(bytes.fromhex(before)).digest()[:16] if before else b""
    assert vector["prev"] == prev.hex()
    _check_signed(vector, pack([2, 0, name, vector["seq"], body, prev, []]))


def test_a_session_body_with_a_wrong_argument_is_refused() -> None:
    play = next(v for v in VECTORS["session"] if v.get("game") == "lodam"
                and v["args"][0] == "play")
    with pytest.raises(BadMessage):  # a move's tag is a text
        Body.decode(pack([1, play["kind"], play["hand"], play["step"], [70000], []]))
    with pytest.raises(BadMessage):  # its fields are bounded
        Body.decode(pack([1, play["kind"], play["hand"], play["step"], ["play", bytes(65)],
                          []]))
    for wrong in (70000, True):  # the wire bounds it; Lodam's codec wants a position
        body = Body.decode(pack([1, play["kind"], play["hand"], play["step"],
                                 ["play", wrong], []]))
        with pytest.raises(BadMove):
            ExchangeMove.read(body)


def test_presence_is_signed_json() -> None:
    vector = VECTORS["presence"]
    key, pub, name = _key(0)
    for state, online in (("online", True), ("will", False)):
        signed = b"\x00".join([b"lodam/presence/v1\x00" + VECTORS["table"].encode(),
                               name.encode(), vector["nonce"].encode(),
                               b"1" if online else b"0",
                               b"%d.%d" % (vector["epoch"], vector["conn"])])
        assert vector[state]["signing_input"] == signed.hex()
        payload = json.dumps({"peer": name, "nonce": vector["nonce"], "online": online,
                              "epoch": vector["epoch"], "conn": vector["conn"],
                              "key": pub.hex(), "sig": key.sign(signed).hex()},
                             separators=(",", ":"))
        assert vector[state]["payload"] == payload
        presence = Presence.decode(payload.encode())
        check_signed(presence, VECTORS["table"], name, peer_name)
        assert presence.online is online


#: An announcement's signature domain, as WIRE.md spells it.
ANNOUNCEMENT_DOMAIN = b"lodam/v3/announcement\x00"


def test_lobby_announcements_are_signed_compact_json() -> None:
    vector = VECTORS["lobby"]
    key, pub, host = _key(0)
    body = {"v": 3, "table": "oak", "host": host, "seats": 3, "seated": ["ann"],
            "options": {"lives": "3", "time_limit_s": "30.0"}, "state": "open",
            "key": pub.hex()}
    signing_input = ANNOUNCEMENT_DOMAIN + json.dumps(body, sort_keys=True,
                                                     separators=(",", ":")).encode()
    assert vector["open_lodam_signing_input"] == signing_input.hex()
    lodam = json.dumps({**body, "sig": key.sign(signing_input).hex()}, sort_keys=True,
                       separators=(",", ":"))
    assert vector["open_lodam"] == lodam
    fingerprint = hashlib.sha256(pub).hexdigest()
    assert vector["fingerprint"] == fingerprint and vector["label"] == f"oak#{fingerprint[:4]}"
    assert vector["topic"] == f"lodam/v3/lobby/oak/{fingerprint[:16]}"
    decoded = TableAnnouncement.decode(lodam.encode(), "oak", fingerprint[:16])
    assert decoded.joinable and decoded.label == vector["label"]
    lorum = TableAnnouncement.decode(vector["full_lorum"].encode(), "elm")
    assert lorum.game == "lorum" and lorum.state == "full" and not lorum.joinable
    assert lorum.encode().decode() == vector["full_lorum"]


def test_a_tampered_announcement_is_refused() -> None:
    signed = json.loads(VECTORS["lobby"]["open_lodam"])
    for field, value in (("seats", 4), ("host", "p" + "0" * 20), ("state", "full")):
        tampered = json.dumps({**signed, field: value}).encode()
        with pytest.raises(BadAnnouncement, match="signature"):
            TableAnnouncement.decode(tampered, "oak")
    _key1, other, _name = _key(1)  # another key than the signer's
    with pytest.raises(BadAnnouncement, match="signature"):
        TableAnnouncement.decode(json.dumps({**signed, "key": other.hex()}).encode(), "oak")


def test_the_lot_commits_and_draws_by_the_formula() -> None:
    vector = VECTORS["lot"]
    table_id = bytes.fromhex(vector["table_id"])
    nonces = [bytes.fromhex(n) for n in vector["nonces"]]
    for seat, nonce in enumerate(nonces):
        digest = hashlib.sha256(b"lodam/lot\x00" + table_id + bytes([seat]) + nonce).digest()
        assert vector["commitments"][seat] == digest.hex()
        assert lot.commitment(table_id, seat, nonce) == digest
    drawn = hashlib.sha256(b"lodam/lot-draw\x00" + table_id + b"".join(nonces)).digest()
    assert vector["draw_digest"] == drawn.hex()
    assert vector["dealer"] == int.from_bytes(drawn, "big") % 3 == lot.draw(table_id, nonces)


def test_the_limits_wire_md_states_are_the_code_s() -> None:
    from lodam_p2p.fairdeal.wire import MAX_ENVELOPE
    from lodam_p2p.transport.frames import MAX_FRAME_BYTES, MAX_RANGES
    from lodam_p2p.transport.lobby import MAX_ANNOUNCEMENT_BYTES
    from lodam_p2p.transport.presence import MAX_PRESENCE_BYTES

    assert MAX_ENVELOPE == 16509
    assert MAX_PAYLOAD == 32 + 64 + 1024 + 8 * (16509 + 8) == 133256
    assert (MAX_FRAME_BYTES, MAX_RANGES) == (262144, 32)
    assert (MAX_PRESENCE_BYTES, MAX_ANNOUNCEMENT_BYTES) == (512, 4096)


def test_the_vector_file_is_what_the_generator_writes() -> None:
    spec = importlib.util.spec_from_file_location("gen_wire_vectors",
                                                  PROTOCOL / "gen_wire_vectors.py")
    assert spec and spec.loader
    module: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0
