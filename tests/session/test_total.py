"""No message crashes a session: random and mutated bodies, validly signed, from a seat.

A three-seat table of table machines is wired by the test router (no event loop, no
broker: each machine's bodies are handed to the others as its link would deliver them,
already authenticated), until the first hand is dealt. Then one seat turns hostile:
hypothesis draws bodies — fresh ones of every kind with arguments that pass the wire
format (moves of every tag, of their tag's shape or of another the hand's codec must
refuse), mutations of what that seat really sent (other kinds, hands, steps, envelopes
moved or flipped), and bodies carrying fair-deal envelopes the hostile seat *signed
itself* with its real key: its next envelope in the hand's chain (so it passes the
signature, context and chain checks and reaches the protocol) with a body that is a
mutation of one it really sent, or a re-signed variant at another place in its chain —
and they go into the honest machines' receive path. The honest machines are strict:
a handler must return, refuse, or convict; none may raise, and no honest machine may
blame anybody but the hostile seat.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal import RemoteProtocolError
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN, open_envelope, seal
from lodam_p2p.games.lodam import Options
from lodam_p2p.session.movebody import Tag
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import MAX_ENVELOPES, BadMessage, Body, Msg, raw_public
from tests.session.helpers import PATIENT, bots
from tests.session.machines import Router, machines

HOSTILE = 2


def dealt() -> Router:
    """A three-seat table, run until every seat's first hand is dealt."""
    table = machines(bots(["random"] * 3), Options.parse_assignments(["lives=1"]),
                     timing=PATIENT)
    router = Router(table)
    router.start()
    seats = table[1:]
    router.until("the first hand dealt", lambda: all(
        s.hand is not None and s.hand.dealt for s in seats))
    return router


_SMALL = st.integers(0, 255)
#: Lodam's moves, each with fields of its tag's shape (movebody.EXCHANGE_FIELDS)
_EXCHANGE_MOVES: dict[Tag, Any] = {
    Tag.PLAY: st.tuples(st.integers(0, 120)),
    Tag.OFFER: st.tuples(st.sampled_from([None, "coat", "card"]),
                         st.one_of(st.none(), st.binary(min_size=32, max_size=32))),
    Tag.ANSWER: st.tuples(st.one_of(st.none(), st.integers(0, 120))),
    Tag.OUTCOME: st.tuples(st.booleans(), st.integers(0, 120)),
    Tag.SWALLOW: st.tuples(st.booleans()),
    Tag.DECLARE: st.tuples(st.booleans(), st.one_of(st.none(), _SMALL)),
    Tag.CHALLENGE: st.tuples(st.one_of(st.none(), _SMALL)),
    Tag.REMASK: st.just(()),
}
#: a MOVE the wire passes: a move of the right shape, or any tag (Lorum's too) with
#: fields that may not read (the hand's codec must refuse those, blaming nobody)
_FIELD = st.one_of(st.none(), st.booleans(), st.integers(0, 2**32 - 1),
                   st.text(max_size=8), st.binary(max_size=40),
                   st.lists(st.one_of(st.none(), st.booleans(), _SMALL), max_size=3))
_MOVES = st.one_of(
    st.sampled_from(list(Tag)).flatmap(
        lambda tag: _EXCHANGE_MOVES[tag].map(lambda fields: (tag.value, *fields))),
    st.tuples(st.sampled_from([*map(str, Tag), "pass", "lay", "x"]),
              st.lists(_FIELD, max_size=3)).map(lambda m: (m[0], *m[1])),
)
_ARGS: dict[Msg, Any] = {
    Msg.MOVE: _MOVES,
    Msg.NOTES: st.tuples(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 120),
                                            st.binary(min_size=16, max_size=16)).map(list),
                                  max_size=4)),
    Msg.VOID: st.tuples(_SMALL, st.text(max_size=20)),
    Msg.TIMEOUT: st.tuples(_SMALL),
    Msg.PROTO: st.just(()),
    Msg.LOT_COMMIT: st.tuples(st.binary(min_size=32, max_size=32)),
    Msg.LOT_REVEAL: st.tuples(st.binary(min_size=32, max_size=32)),
    Msg.RESULT: st.tuples(st.lists(_SMALL, max_size=3), _SMALL, _SMALL,
                          st.lists(_SMALL, max_size=3), st.lists(st.text(max_size=30),
                                                                  max_size=2)),
    Msg.BYE: st.just(()),
    Msg.LEAVE: st.just(()),
}
#: the kinds a fresh body is drawn from: a move as often as all the rest, as when each
#: of Lodam's moves had a kind of its own
_KINDS = [*[Msg.MOVE] * (len(_ARGS) - 1), *sorted(_ARGS)]


@st.composite
def hostile_bodies(draw: st.DrawFn, sent: list[Body]) -> Body:
    """A fresh body of any kind, or a mutation of one the hostile seat really sent."""
    envelopes = [e for b in sent for e in b.envelopes]
    kind = draw(st.sampled_from(_KINDS))
    hand = draw(st.sampled_from([0, 1, 2]))
    step = draw(st.integers(0, 12))
    if sent and draw(st.booleans()):
        base = draw(st.sampled_from(sent))
        kind = draw(st.sampled_from([base.kind, kind]))
        args = base.args if kind is base.kind else draw(_ARGS[kind])
        return dataclasses.replace(base, kind=kind, hand=draw(st.sampled_from(
            [base.hand, hand])), step=draw(st.sampled_from([base.step, step])),
            args=tuple(args), envelopes=draw(_envelopes(envelopes)))
    return Body(kind, hand, step, tuple(draw(_ARGS[kind])), draw(_envelopes(envelopes)))


@st.composite
def _envelopes(draw: st.DrawFn, known: list[bytes]) -> tuple[bytes, ...]:
    if not known:
        return ()
    chosen = draw(st.lists(st.sampled_from(known), max_size=3))
    out = []
    for env in chosen:
        if draw(st.booleans()):
            at = draw(st.integers(0, len(env) - 1))
            out.append(env[:at] + bytes([env[at] ^ draw(st.integers(1, 255))]) + env[at + 1:])
        else:
            out.append(env)
    return tuple(out)


@st.composite
def _mutated(draw: st.DrawFn, body: bytes) -> bytes:
    """A fair-deal message body like ``body``: the same, bytes flipped or cut, a field
    of its msgpack list changed (its kind kept), or another value altogether."""
    how = draw(st.sampled_from(["same", "flip", "cut", "field", "field", "field", "value"]))
    if how == "same":  # a real message of this seat, out of its place
        return body
    if how == "flip" and body:
        at = draw(st.integers(0, len(body) - 1))
        return body[:at] + bytes([body[at] ^ draw(st.integers(1, 255))]) + body[at + 1:]
    if how == "cut":
        return body[:draw(st.integers(0, max(0, len(body) - 1)))]
    try:
        fields = msgpack.unpackb(body)
    except ValueError:
        fields = None
    if how == "field" and isinstance(fields, list) and len(fields) > 1:
        at = draw(st.integers(1, len(fields) - 1))  # the kind stays: past the decoder
        old = fields[at]
        if isinstance(old, bytes) and old:
            fields[at] = draw(st.sampled_from([old[:-1], old + b"\0", bytes(len(old)),
                                               old[::-1]]))
        elif isinstance(old, int):
            fields[at] = draw(st.sampled_from([old + 1, old - 1, 0, 2**32, -1]))
        else:
            fields[at] = draw(_VALUES)
        return msgpack.packb(fields, use_bin_type=True)
    return msgpack.packb(draw(_VALUES), use_bin_type=True)


_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-1, 2**33),
                                 st.binary(max_size=80)),
                       lambda inner: st.lists(inner, max_size=6), max_leaves=12)


@st.composite
def signed_bodies(draw: st.DrawFn, router: Router, hostile: TableMachine,
                  honest: TableMachine) -> Body:
    """A body from ``hostile`` carrying envelopes it signed with its own key (see the
    module docstring), placed where ``honest`` would take it."""
    hand, seat = honest.hand, hostile.seat
    assert hand is not None and seat is not None
    table_id, number = hand.config.table_id, hand.config.hand
    key = raw_public(hostile.identity)
    sent = [b for b in router.sent[hostile.me] if b.envelopes]
    chain = {}
    for body in sent:
        for raw in body.envelopes:
            try:
                env = open_envelope(raw, seat, key, table_id, number)
            except RemoteProtocolError:
                continue  # another hand's
            chain[env.seq] = raw
    known = [e for b in sent for e in b.envelopes]
    bodies = [raw[SIG_LEN + HEADER_LEN:] for raw in known] or [b"\x90"]
    envelopes = []
    for _ in range(draw(st.integers(1, 2))):
        nxt = len(chain)
        seq = draw(st.sampled_from([nxt, nxt, nxt, nxt + 1, max(0, nxt - 1), 0]))
        prev = hashlib.sha256(chain[seq - 1]).digest() if 0 < seq <= nxt else bytes(32)
        if draw(st.integers(0, 9)) == 0:
            prev = draw(st.binary(min_size=32, max_size=32))
        body = draw(_mutated(draw(st.sampled_from(bodies))))
        raw = seal(hostile.identity, body, table_id=table_id, hand=number, seat=seat, seq=seq,
                   prev=prev)
        envelopes.append(raw)
        if seq == nxt:
            chain[seq] = raw
    step = hand.step
    if sent and draw(st.booleans()):
        base = draw(st.sampled_from(sent))
        return dataclasses.replace(base, hand=honest.hand_no, step=draw(st.sampled_from(
            [step, base.step])), envelopes=tuple(envelopes[:MAX_ENVELOPES]))
    return Body(Msg.PROTO, honest.hand_no, 0, (), tuple(envelopes))


def _run(draw_body: Any, count: int) -> None:
    router = dealt()
    hostile = next(m for m in router.machines if m.seat == HOSTILE)
    hostile.strict = False  # it does not know what was sent in its name
    honest = [m for m in router.machines if m.seat not in (HOSTILE, None)]
    for _ in range(count):
        body = draw_body(router, hostile, honest[0])
        try:
            data = body.encode()
            Body.decode(data)
        except (BadMessage, ValueError, TypeError, OverflowError):
            continue
        router.deliver(hostile, data)
        router.pump()  # honest machines are strict: anything let out fails the test
        router.pump()
    for machine in router.machines:
        if machine is not hostile:
            assert machine.unexpected == 0
            assert all(line.startswith(f"seat {HOSTILE}: ") for line in machine.blames), \
                machine.blames


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_no_body_from_a_seated_peer_crashes_a_session(data: st.DataObject) -> None:
    _run(lambda router, _hostile, _honest: data.draw(hostile_bodies(
        router.sent[_hostile.me])), data.draw(st.integers(1, 8)))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_no_envelope_a_seated_peer_signs_crashes_a_session(data: st.DataObject) -> None:
    _run(lambda router, hostile, honest: data.draw(signed_bodies(router, hostile, honest)),
         data.draw(st.integers(1, 8)))


def test_a_move_the_hand_cannot_read_is_refused_with_its_reason_and_the_match_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    """The wire only bounds a MOVE; the hand's codec refuses one it cannot read, by name,
    as the wire refused a malformed body: nobody is blamed and the hand goes on."""
    router = dealt()
    hostile = next(m for m in router.machines if m.seat == HOSTILE)
    honest = [m for m in router.machines if m.seat not in (HOSTILE, None)]
    hand = honest[0].hand
    assert hand is not None
    unreadable = [("play", "twelve"), ("play", [], 3), ("offer", "spade", bytes(32)),
                  ("outcome", 1, 5), ("shuffle",)]
    with caplog.at_level(logging.INFO, logger="lodam_p2p.session"):
        for args in unreadable:
            body = Body(Msg.MOVE, honest[0].hand_no, hand.step, args)
            router.deliver(hostile, Body.decode(body.encode()).encode())  # the wire passes it
        router.settle()
    for reason in ("bad arguments for MOVE play", "bad arguments for MOVE offer",
                   "bad arguments for MOVE outcome", "no move 'shuffle'"):
        assert any(reason in r.getMessage() for r in caplog.records), reason
    router.play_out()
    for machine in router.machines:
        assert machine.unexpected == 0
        assert machine.outcome is not None and machine.blames == [], machine.blames
