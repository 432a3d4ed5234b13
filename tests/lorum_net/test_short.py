"""The short First-and-last at the networked table (LORUM.md 4, option
``first_last_short``): the rest of the shuffled, still-encrypted deck carries over to
the next deal unshuffled, and nobody — a watcher, a seat — learns an undealt card
(protocol/SPEC.md 14, "The short First-and-last")."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from lodam_p2p.fairdeal import Hand
from lodam_p2p.session import Session
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.transport.memory import MemoryHub
from tests.lorum_net.helpers import lorum_table
from tests.session.helpers import PATIENT, run_all
from tests.support.aio import MATCH_PATIENCE
from tests.support.virtual import run_on_table_clock as run


@dataclass
class _Seen:
    """What one session's fair-deal hand showed at the end of one deal."""

    fair: Hand
    dealt_now: set[int]
    revealed: set[int]
    shared: set[int]  #: positions with any share public
    known: set[int]  #: positions this session could read
    mine: set[int]  #: positions dealt to this session's seat now
    opened: set[int]


def _note_deals(session: Session, seen: list[_Seen]) -> None:
    settle = session.course.settle

    def noting() -> None:
        hand = session.hand
        assert isinstance(hand, GameHand)
        record = hand.fair.record
        seen.append(_Seen(hand.fair, {j for j, s in enumerate(hand.deal.plan.schedule)
                                      if s is not None},
                          set(record.revealed), {j for j, d in record.shares.items() if d},
                          set(hand.fair.cards),
                          set() if hand.seat is None
                          else set(hand.deal.plan.positions_of(hand.seat)),
                          hand.fair.opened()))
        settle()

    session.course.settle = noting  # type: ignore[method-assign]


@pytest.mark.parametrize(("seats", "options", "decks"), [
    (4, ("contracts=first_last", "first_last_short=true"), 1),
    (3, ("contracts=first_last", "first_last_short=true", "rounds=2"), 2),
])
def test_the_short_first_and_last_deals_on_from_the_encrypted_deck(
        seats: int, options: tuple[str, ...], decks: int) -> None:
    sessions = lorum_table(MemoryHub(), seats, *options, timing=PATIENT)
    seen: dict[int, list[_Seen]] = {i: [] for i in range(len(sessions))}
    for i, session in enumerate(sessions):
        _note_deals(session, seen[i])
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    assert all(o == outcomes[0] for o in outcomes)
    deals = seats * (2 if "rounds=2" in options else 1)
    assert outcomes[0].blames == () and outcomes[0].deals == outcomes[0].audits_passed == deals
    for notes in seen.values():
        assert len(notes) == deals
        # one shuffled deck for as many deals as it holds (five of 30 cards, four of 32)
        assert len({id(n.fair) for n in notes}) == decks
        dealt: dict[int, set[int]] = {}
        mine: set[int] = set()
        for n in notes:
            so_far = dealt.setdefault(id(n.fair), set())
            so_far |= n.dealt_now
            mine |= n.mine
            assert n.opened == set()  # no secret of the deck is opened
            assert n.dealt_now <= n.revealed  # every card dealt now was played, in public
            assert n.revealed <= so_far and n.shared <= so_far  # nothing of the stack
            # a watcher reads nothing but what is public; a seat also its own cards
            assert n.known <= n.revealed | mine
        # the first deal of each deck left a stack that nobody saw then
        firsts = {id(n.fair): n for n in reversed(notes)}
        assert all(len(n.dealt_now) < n.fair.config.deck_size for n in firsts.values())
