"""Lorum at a networked table of sessions on the in-memory hub: whole deals with the fair
deal, three seats with ``7S 8S`` set aside, breaches found at the audit, and what a
watcher or an honest seat may learn (LORUM.md 2, 5, 6, 7; protocol/SPEC.md, "Lorum")."""

from __future__ import annotations

from collections import defaultdict

import pytest

from lodam_p2p.fairdeal.messages import RevealMsg, decode
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from lodam_p2p.games import Holder
from lodam_p2p.games.lorum.actions import Announce
from lodam_p2p.games.lorum.cards import RED_KING, Card
from lodam_p2p.games.lorum.records import DealResult
from lodam_p2p.games.lorum.view import PlayerView
from lodam_p2p.player import DealEnded
from lodam_p2p.session import Session
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.table import _sessions
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport.memory import MemoryHub
from tests.lorum_net.helpers import (
    LORUM,
    EarlyOpenHand,
    PassingHand,
    SilentHand,
    cheat,
    lorum_table,
)
from tests.session.helpers import PATIENT, run_all
from tests.support.aio import MATCH_PATIENCE
from tests.support.virtual import run_on_table_clock as run


def _agree(outcomes: list[MatchOutcome]) -> MatchOutcome:
    first = outcomes[0]
    assert all(o == first for o in outcomes), outcomes
    return first


@pytest.mark.slow
def test_four_seats_play_lorum_over_the_hub() -> None:
    sessions = lorum_table(MemoryHub(), 4, "contracts=red_king,quartet,lorum",
                           timing=PATIENT)
    outcome = _agree(run(run_all(sessions), MATCH_PATIENCE))
    assert outcome.game == "lorum" and outcome.blames == ()
    assert outcome.deals == outcome.audits_passed == 12
    assert sorted(outcome.standings) == [0, 1, 2, 3]


@pytest.mark.slow
def test_three_seats_set_7s_8s_aside_outside_the_encrypted_deck() -> None:
    sessions = lorum_table(MemoryHub(), 3, "contracts=quartet,lorum", timing=PATIENT)
    sizes: set[int] = set()
    for session in sessions:
        new_hand = session.course.new_hand

        def noting(new_hand=new_hand, session=session) -> None:
            new_hand()
            if isinstance(session.hand, GameHand):
                hand = session.hand
                sizes.add(hand.config.deck_size)
                assert set(hand.deal.plan.set_aside) == {Card.parse("7S"), Card.parse("8S")}
                assert not set(hand.deal.plan.set_aside) & set(hand.deal.plan.pack)

        session.course.new_hand = noting  # type: ignore[method-assign]
    outcome = _agree(run(run_all(sessions), MATCH_PATIENCE))
    assert sizes == {30}
    assert outcome.deals == outcome.audits_passed == 6 and outcome.blames == ()


@pytest.mark.slow
def test_a_pass_while_able_to_lay_is_a_breach_found_at_the_audit() -> None:
    PassingHand.cheated = False
    sessions = lorum_table(MemoryHub(), 4, "contracts=lorum", "scoring=beans")
    cheat(sessions, 2, PassingHand)
    outcome = _agree(run(run_all(sessions), MATCH_PATIENCE))
    assert PassingHand.cheated
    assert len(outcome.blames) == 1 and outcome.blames[0].startswith("seat 2: false-pass")
    # the void deal counts as played, and the same dealer dealt the contract again
    assert outcome.deals == 5 and outcome.audits_passed == 4
    # beans (pfennigs at 20) as every peer counted them: the breach paid into the pot,
    # and the pot went to whoever went out first in the last Lorum deal
    assert sum(outcome.lives) == 4 * (20 + 20)


@pytest.mark.slow
def test_a_seat_silent_while_holding_a_run_card_is_caught_at_the_audit() -> None:
    SilentHand.silent_at = None
    sessions = lorum_table(MemoryHub(), 4, "contracts=quartet")
    cheat(sessions, 1, SilentHand)
    outcome = _agree(run(run_all(sessions), MATCH_PATIENCE))
    assert SilentHand.silent_at is not None
    assert len(outcome.blames) == 1 and outcome.blames[0].startswith("seat 1: silent-holder")
    assert outcome.deals == 5 and outcome.audits_passed == 4


@pytest.mark.slow
def test_one_seat_cannot_have_a_holder_named_silent_by_opening_early() -> None:
    EarlyOpenHand.opened_at = None
    sessions = lorum_table(MemoryHub(), 4, "contracts=quartet")
    cheat(sessions, 2, EarlyOpenHand)
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    honest = _agree([o for i, o in enumerate(outcomes) if i != 3])  # the host and seats 0, 1, 3
    assert EarlyOpenHand.opened_at is not None
    assert honest.blames and honest.blames[0].startswith("seat 2: early-audit"), honest.blames
    assert all(blame.startswith("seat 2: ") for blame in honest.blames), honest.blames


def _watch(session: Session, seen: dict[int, list[tuple[Body, frozenset[object], object]]]
           ) -> None:
    """Record each hand message ``session`` takes, with the cards public before it and
    the turn the public part named then."""
    take = session.judge.hand_message

    def recording(seat: int, body: Body) -> None:
        hand = session.hand
        if isinstance(hand, GameHand):
            public = frozenset(hand.deal.plan.pack[i] for i in hand.fair.record.revealed.values())
            turn = LORUM.turn(hand.public) if hand.dealt else None
            seen[session.hand_no].append((body, public, turn))
        take(seat, body)

    session.judge.hand_message = recording  # type: ignore[method-assign]


def _revealed(body: Body) -> list[int]:
    out = []
    for raw in body.envelopes:
        try:
            message = decode(raw[SIG_LEN + HEADER_LEN:])
        except (ValueError, KeyError):
            continue
        if isinstance(message, RevealMsg):
            out.append(message.position)
    return out


@pytest.mark.slow
def test_a_watcher_learns_no_run_holder_before_the_reveal_and_no_passers_hand() -> None:
    sessions = lorum_table(MemoryHub(), 4, "contracts=quartet,lorum", timing=PATIENT)
    seen: dict[int, list[tuple[Body, frozenset[object], object]]] = defaultdict(list)
    _watch(sessions[0], seen)
    honest = sessions[1]
    known: list[tuple[set[int], set[int]]] = []
    settle = honest.course.settle

    def noting_settle() -> None:
        hand = honest.hand
        assert isinstance(hand, GameHand) and honest.seat is not None
        # what the honest seat was handed: only its own deal (the audit opens the rest)
        known.append((set(hand.fair.cards), set(hand.deal.plan.positions_of(honest.seat))))
        settle()

    honest.course.settle = noting_settle  # type: ignore[method-assign]
    outcome = _agree(run(run_all(sessions), MATCH_PATIENCE))
    assert outcome.blames == () and outcome.audits_passed == outcome.deals == 8
    assert known and all(cards <= dealt for cards, dealt in known)
    holder_turns = passes = 0
    for messages in seen.values():
        for body, public, turn in messages:
            if body.kind is Msg.NOTES:
                break  # the audit opens everything
            if body.kind is Msg.MOVE:
                kind, _args, position = body.args
                if kind == "pass":
                    passes += 1
                    assert body.envelopes == () and position is None
                else:
                    assert _revealed(body) in ([position], [])
                if isinstance(turn, Holder):
                    holder_turns += 1
                    assert turn.card not in public  # nobody knew where it was
            else:
                assert _revealed(body) == [], body.kind
    assert holder_turns and passes


class _Announcer:
    """Keeps the red king back and announces it whenever it may; otherwise plays the
    first legal card. Keeps every deal's record the table sends."""

    def __init__(self) -> None:
        self.records: list[object] = []

    def notify(self, event: object) -> None:
        if isinstance(event, DealEnded) and event.detail is not None:
            self.records.append(event.detail)

    async def decide(self, view: PlayerView) -> object:
        shown = [a for a in view.legal if isinstance(a, Announce) and a.announced]
        others = [a for a in view.legal if getattr(a, "card", None) != RED_KING]
        return (shown or others or list(view.legal))[0]


@pytest.mark.slow
def test_the_red_king_announcement_shows_kh_and_counts_64() -> None:
    players = [_Announcer() for _ in range(4)]
    seats = [SeatPlan(f"ann{i}", p, "bot:announcer") for i, p in enumerate(players)]
    sessions = _sessions("linden", LORUM.parse_options(["contracts=red_king"]), 4, seats,
                         connect=MemoryHub().transport, seed=4, timing=PATIENT,
                         spectator=None, game=LORUM)
    outcome = _agree(run(run_all(sessions), MATCH_PATIENCE))
    assert outcome.blames == () and outcome.deals == outcome.audits_passed == 4
    records = players[0].records
    assert len(records) == 4 and all(r == q for p in players for r, q in zip(
        p.records, records, strict=True))
    announced = [r for r in records if isinstance(r, DealResult) and r.announced]
    # holding KH back leaves it to the last trick in some deal, announced there
    assert announced and all(64 in r.points for r in announced)


@pytest.mark.slow
def test_the_blind_red_king_shows_no_seat_a_card_before_it_is_played() -> None:
    sessions = lorum_table(MemoryHub(), 3, "contracts=red_king,reds", "red_king_blind=true",
                           timing=PATIENT)
    blind_deals: list[tuple[int, dict[int, int], set[object], set[object]]] = []
    for session in sessions[1:]:
        settle = session.course.settle

        def noting(session: Session = session, settle=settle) -> None:  # type: ignore[no-untyped-def]
            hand = session.hand
            if isinstance(hand, GameHand) and hand.deal.blind:
                played = {card for trick in hand.public.tricks for _s, card in trick.cards}
                played |= {card for _s, card in hand.public.current_trick}
                revealed = {hand.deal.plan.pack[i] for i in hand.fair.record.revealed.values()}
                blind_deals.append((session.seat or 0, dict(hand.fair.cards), played,
                                    revealed))
            settle()

        session.course.settle = noting  # type: ignore[method-assign]
    outcome = _agree(run(run_all(sessions), MATCH_PATIENCE))
    assert outcome.blames == () and outcome.deals == outcome.audits_passed == 6
    assert len(blind_deals) == 3 * 3
    for _seat, privately, played, revealed in blind_deals:
        assert privately == {}  # not even its own cards were handed to it
        assert revealed == played  # every card public was played, nothing more
