"""No message crashes a session: random and mutated bodies, validly signed, from a seat.

A three-seat table is driven by hand, in process (no broker: each session's bodies are
handed to the others as its link would deliver them, already authenticated), until the
first hand is dealt. Then one seat turns hostile: hypothesis draws bodies — fresh ones
of every kind with arguments that pass the wire format, and mutations of what that seat
really sent (other kinds, hands, steps, envelopes moved or flipped) — and they go into
an honest session's receive path. Every handler must return, refuse, or convict; none
may raise, and the honest session may blame nobody but the hostile seat.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lodam_p2p.rules import Options
from lodam_p2p.session import Session
from lodam_p2p.session.link import Delivered
from lodam_p2p.session.wire import BadMessage, Body, Msg, raw_public
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import PATIENT, bots, table

HOSTILE = 2


class Table:
    """Sessions whose bodies are passed around by hand (see the module docstring)."""

    def __init__(self) -> None:
        self.sessions = table(MemoryHub(), bots(["random"] * 3),
                              Options.parse_assignments(["lives=1"]), timing=PATIENT)
        self.sent: list[Body] = []  #: what the hostile seat sent

    def seat_of(self, session: Session) -> int | None:
        return session.seat

    async def pump(self, rounds: int = 1) -> None:
        for _ in range(rounds):
            for s in self.sessions:
                while s.outgoing:
                    body = s.outgoing.pop(0)
                    if s.seat == HOSTILE:
                        self.sent.append(body)
                    self.deliver(s, body.encode())
                s._step()
            await asyncio.sleep(0)

    def deliver(self, sender: Session, data: bytes, only: Session | None = None) -> None:
        for s in self.sessions:
            if s is not sender and (only is None or s is only):
                s._intake(Delivered(sender.me, raw_public(sender.identity), data))

    async def dealt(self) -> None:
        for s in self.sessions:
            s._begin()
        for _ in range(400):
            await self.pump()
            seats = [s for s in self.sessions if s.seat is not None]
            if seats and all(s.hand is not None and s.hand.dealt for s in seats):
                return
        raise AssertionError("the table never dealt")


_SMALL = st.integers(0, 255)
_ARGS: dict[Msg, Any] = {
    Msg.PLAY: st.tuples(st.integers(0, 120)),
    Msg.OFFER: st.tuples(st.sampled_from([None, "coat", "card"]),
                         st.one_of(st.none(), st.binary(min_size=32, max_size=32))),
    Msg.ANSWER: st.tuples(st.one_of(st.none(), st.integers(0, 120))),
    Msg.OUTCOME: st.tuples(st.booleans(), st.integers(0, 120)),
    Msg.SWALLOW: st.tuples(st.booleans()),
    Msg.DECLARE: st.tuples(st.booleans(), st.one_of(st.none(), _SMALL)),
    Msg.CHALLENGE: st.tuples(st.one_of(st.none(), _SMALL)),
    Msg.NOTES: st.tuples(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 120),
                                            st.binary(min_size=16, max_size=16)).map(list),
                                  max_size=4)),
    Msg.VOID: st.tuples(_SMALL, st.text(max_size=20)),
    Msg.TIMEOUT: st.tuples(_SMALL),
    Msg.PROTO: st.just(()),
    Msg.REMASK: st.just(()),
    Msg.LOT_COMMIT: st.tuples(st.binary(min_size=32, max_size=32)),
    Msg.LOT_REVEAL: st.tuples(st.binary(min_size=32, max_size=32)),
    Msg.RESULT: st.tuples(st.lists(_SMALL, max_size=3), _SMALL, _SMALL,
                          st.lists(_SMALL, max_size=3), st.lists(st.text(max_size=30),
                                                                  max_size=2)),
    Msg.BYE: st.just(()),
    Msg.LEAVE: st.just(()),
}


@st.composite
def hostile_bodies(draw: st.DrawFn, sent: list[Body]) -> Body:
    """A fresh body of any kind, or a mutation of one the hostile seat really sent."""
    envelopes = [e for b in sent for e in b.envelopes]
    kind = draw(st.sampled_from(sorted(_ARGS)))
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


def _run(bodies_for: Any) -> None:
    async def scenario() -> None:
        t = Table()
        await t.dealt()
        hostile = next(s for s in t.sessions if s.seat == HOSTILE)
        honest = [s for s in t.sessions if s.seat not in (HOSTILE, None)]
        for body in bodies_for(t.sent):
            try:
                data = body.encode()
                Body.decode(data)
            except (BadMessage, ValueError, TypeError, OverflowError):
                continue
            t.deliver(hostile, data)
            for s in honest:
                s._advance()  # not _step: anything a handler lets out fails the test
                s.check_timers(s.now())
            await t.pump(2)
        for s in honest:
            assert s.unexpected == 0
            assert all(line.startswith(f"seat {HOSTILE}: ") for line in s.blames), s.blames

    asyncio.run(scenario())


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_no_body_from_a_seated_peer_crashes_a_session(data: st.DataObject) -> None:
    _run(lambda sent: data.draw(st.lists(hostile_bodies(sent), min_size=1, max_size=8)))
