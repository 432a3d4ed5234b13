"""What an observer sees of exchanges (RULES.md 5: whether an exchange happened or was
void, never which cards were involved). A watcher at the table records every public
message; after an exchange the traders re-mask, so no position a card is later played
from was named by an exchange, and a void exchange looks like a done one."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import pytest

from lodam_p2p.fairdeal.messages import RemaskMsg, decode, encode
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from lodam_p2p.games.lodam import Options
from lodam_p2p.session import Session
from lodam_p2p.session.movebody import ExchangeMove, Tag
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import bots, lossy, run_all, table
from tests.support.aio import MATCH_PATIENCE
from tests.support.virtual import run_on_table_clock as run


@dataclass
class Seen:
    """One public message as the watcher took it, and the positions every transfer of
    the hand had made once it was taken (given position → new position)."""

    hand: int
    seat: int
    body: Body
    made: dict[int, int]


def _watch(watcher: Session) -> list[Seen]:
    seen: list[Seen] = []
    take = watcher.judge.hand_message

    def recording(seat: int, body: Body) -> None:
        hand_no = watcher.hand_no
        take(seat, body)
        hand = watcher.hand
        made = dict(hand.fair.record.switched) if hand is not None else {}
        seen.append(Seen(hand_no, seat, body, made))

    watcher.judge.hand_message = recording  # type: ignore[method-assign]
    return seen


def _tag(body: Body) -> Tag | None:
    """The tag of a MOVE (None: the body is no move)."""
    return ExchangeMove.read(body).tag if body.kind is Msg.MOVE else None


def _fields(body: Body) -> tuple[object, ...]:
    return ExchangeMove.read(body).fields if body.kind is Msg.MOVE else body.args


def _remask_of(body: Body) -> RemaskMsg:
    """The re-mask a REMASK body carries (nothing rides with it: nobody answers one),
    or the one the offerer's OUTCOME carries after its transfer."""
    messages = [decode(raw[SIG_LEN + HEADER_LEN:]) for raw in body.envelopes]
    (msg,) = [m for m in messages if isinstance(m, RemaskMsg)]
    assert len(messages) == (2 if _tag(body) is Tag.OUTCOME else 1)
    return msg


@pytest.mark.slow
def test_an_observer_cannot_link_a_traded_card_to_its_play() -> None:
    hub = MemoryHub(lossy(11))
    sessions = table(hub, bots(["random"] * 4), Options(lives=2), seed=3)
    seen = _watch(sessions[0])
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    assert all(o.blames == () and o.audits_passed == o.deals for o in outcomes)
    by_hand: dict[int, list[Seen]] = defaultdict(list)
    for m in seen:
        by_hand[m.hand].append(m)
    exchanges = {False: 0, True: 0}
    shapes: dict[tuple[Tag | None, int], set[int]] = defaultdict(set)
    for messages in by_hand.values():
        named: set[int] = set()  # every position an exchange named
        acceptor = -1
        for i, m in enumerate(messages):
            kind, args = _tag(m.body), _fields(m.body)
            if kind is Tag.ANSWER and args[0] is not None:
                named.add(args[0])
                acceptor = m.seat
            elif kind is Tag.OUTCOME:
                named.add(args[1])
                void = bool(args[0])
                exchanges[void] += 1
                # the offerer re-masks in its outcome, the acceptor next: both, void or not
                after = [m, *[n for n in messages[i + 1:] if _tag(n.body) is Tag.REMASK][:1]]
                assert [n.seat for n in after] == [m.seat, acceptor]
                for n in after:
                    remask = _remask_of(n.body)
                    # the traded (or offered) card in it: its giver's position after a
                    # void exchange, the position a transfer made for it after a done one
                    traded = named | {n.made[p] for p in named if p in n.made}
                    assert traded & set(remask.inputs)
                    shapes[(_tag(n.body), len(remask.inputs))].add(len(encode(remask)))
                named |= set(m.made.values())  # nobody may play those either
            elif kind is Tag.PLAY:
                assert args[0] not in named, "a play named a position an exchange named"
    assert exchanges[False] and exchanges[True], exchanges  # done and void both happened
    # a re-mask of k positions looks the same whatever the exchange was: one size per
    # body kind and k
    assert shapes and all(len(s) == 1 for s in shapes.values()), shapes
