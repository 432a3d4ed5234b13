"""Returning is for seats that were away (protocol/SPEC.md, "Returning"), and no seat
ever signs two envelopes for one (hand, seq): table machines on a fake clock, no broker.

Each test plays a whole match of bots through :class:`~tests.session.machines.Router`,
with one seat asking back, or one seat forging a coordinator's answer, at a chosen
moment; the property test does so over random schedules of drops, returns and forged
answers and reads every envelope every seat published.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lodam_p2p.games import get_game
from lodam_p2p.games.lodam import Options
from lodam_p2p.player import DealEnded
from lodam_p2p.session.course import Timing
from lodam_p2p.session.link import OwnWillSeen, PresenceSeen
from lodam_p2p.session.resumestate import MAX_RETURNS, pack_state
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.signed import envelope_place
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome
from tests.session.helpers import bots
from tests.session.machines import Router, machines

#: The limits of a table: a seat is silent after 20 s of the fake clock.
TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)
LORUM = get_game("lorum")
#: Lorum's short First-and-last: the deck the first deal leaves carries over.
SHORT = ("contracts=first_last", "first_last_short=true")


def _table(*, seats: int = 4, lives: int = 1, lorum: bool = False
           ) -> tuple[list[TableMachine], Router]:
    options = LORUM.parse_options(list(SHORT)) if lorum else Options(lives=lives)
    table = machines(bots(["random"] * seats), options, timing=TIMING,
                     game=LORUM if lorum else None)
    router = Router(table)
    router.start()
    router.until("the seats seated", lambda: all(m.seat is not None for m in table[1:]))
    return table, router


def _seat(table: Sequence[TableMachine], seat: int) -> TableMachine:
    return next(m for m in table if m.seat == seat)


def _dealt(table: Sequence[TableMachine]) -> Callable[[], bool]:
    return lambda: all(m.hand is not None and m.hand.dealt for m in table[1:])


def _bounce(router: Router, seat: TableMachine) -> None:
    """``seat``'s connection dies and comes back (its will fires): every other peer sees
    it go and come back, and it asks to be taken back (REJOIN) from the same process."""
    for state in (False, True):
        for other in router.machines:
            if other is not seat:
                other.receive(PresenceSeen(seat.me, state), router.now)
    seat.receive(OwnWillSeen(), router.now)


def _resumes(router: Router) -> list[Body]:
    return [b for sent in router.sent.values() for b in sent if b.kind is Msg.RESUME]


def _one_result(table: Sequence[TableMachine]) -> MatchOutcome:
    outcomes = [m.outcome for m in table]
    first = outcomes[0]
    assert first is not None
    assert all(o is not None and o.to_json() == first.to_json() for o in outcomes), outcomes
    return first


def signed_twice(router: Router, table: Sequence[TableMachine]) -> list[tuple[int, int, int]]:
    """Every (seat, hand, seq) at which a seat published two different envelopes of its
    own; checks too that each seat's record saw what it published."""
    clashes = []
    for machine in table:
        if machine.seat is None:
            continue
        seen: dict[tuple[int, int], bytes] = {}
        for body in router.sent[machine.me]:
            for data in body.envelopes:
                place = envelope_place(data)
                if place is None or place[1] != machine.seat:
                    continue
                key, digest = (place[0], place[2]), hashlib.sha256(data).digest()
                if seen.setdefault(key, digest) != digest:
                    clashes.append((machine.seat, *key))
        assert seen.keys() <= machine.signed.digests.keys()
        assert machine.signed.refused == 0  # the guard never had to hold anything back
    return clashes


# --- who may come back ----------------------------------------------------------------------


def test_a_connected_seat_asking_back_is_refused_without_a_void_or_a_blame() -> None:
    table, router = _table()
    router.until("a hand dealt", _dealt(table))
    asker = _seat(table, 2)
    asker.send(Body(Msg.REJOIN, args=(asker.hand_no, [])))  # present and answering
    router.play_out()
    result = _one_result(table)
    assert not _resumes(router)
    assert result.blames == () and result.winners
    assert table[1].hand_no - 1 == result.deals  # every hand begun was played out
    assert all(m.return_desk.returns == {} for m in table)


def test_a_seat_asking_back_once_the_hand_is_played_out_is_refused() -> None:
    """It drops once the cards are all played (its connection dies and comes back) and
    its REJOIN about that hand reaches the coordinator then: the hand stands, and at its
    audit the request lapses."""
    table, router = _table()
    coordinator, away = _seat(table, 0), _seat(table, 2)
    router.until("the coordinator's hand played out", lambda: (
        coordinator.hand is not None and coordinator.hand.public.is_over))
    hand = coordinator.hand_no
    for state in (False, True):
        for other in router.machines:
            if other is not away:
                other.receive(PresenceSeen(away.me, state), router.now)
    assert 2 in coordinator.return_desk.went_away  # seen gone: only the played-out hand refuses it
    coordinator.return_desk.take_rejoin(2, [], hand)  # its REJOIN arrives: the hand is decided
    assert coordinator.return_desk.return_refused(2) == (
        "the hand's play is over or its audit openings are out")
    router.play_out()
    result = _one_result(table)
    assert not _resumes(router)
    assert result.blames == () and table[1].hand_no - 1 == result.deals


def test_a_seat_seen_gone_is_taken_back_and_its_return_counted() -> None:
    table, router = _table()
    router.until("a hand dealt", _dealt(table))
    hand = table[1].hand_no
    told: list[DealEnded] = []
    tell = table[1].tell
    table[1].tell = lambda event: (  # type: ignore[method-assign]
        told.append(event) if isinstance(event, DealEnded) else None, tell(event))
    _bounce(router, _seat(table, 2))
    router.until("the return taken", lambda: all(m.return_desk.returns == {2: 1} for m in table))
    assert all(m.hand_no == hand + 1 and m.voids_in_row == 1 for m in table)
    assert told[0].void and told[0].reason == (
        f"seat 2 came back: the hand is void and dealt again, no blame (return 1 of "
        f"{MAX_RETURNS} it may make this match)")
    router.play_out()
    result = _one_result(table)
    assert result.blames == () and table[1].hand_no - 2 == result.deals


def test_a_seat_that_missed_its_clock_is_taken_back_before_the_vote() -> None:
    """Its will reached nobody else (its next connection announced first, so the late
    will was stale to them): it asks back while present to them, which stands, and is
    taken back once its time at the step runs out, before the coordinator's vote, which
    every conviction at a table of three needs."""
    table, router = _table(seats=3)
    coordinator, late = _seat(table, 0), _seat(table, 2)
    router.mute.add(late.me)  # its player never answers: its step's time runs out
    router.until("the hand awaits seat 2", lambda: coordinator.hand is not None and (
        coordinator.hand.awaited() or (None,))[0] == 2)
    late.receive(OwnWillSeen(), router.now)
    router.settle()
    assert not _resumes(router) and 2 in coordinator.return_desk.pending  # not away: it stands
    router.now += TIMING.timeout_s
    router.until("the return taken", lambda: all(m.return_desk.returns == {2: 1} for m in table))
    router.mute.discard(late.me)
    router.play_out()
    result = _one_result(table)
    assert result.blames == () and result.winners


def test_a_third_return_counts_as_leaving() -> None:
    table, router = _table(lives=3)
    back = _seat(table, 2)
    router.until("a hand dealt", _dealt(table))
    for count in range(1, MAX_RETURNS + 2):
        _bounce(router, back)
        router.until(f"return {count} taken", lambda count=count: all(
            m.return_desk.returns.get(2) == count for m in table))
    router.play_out()
    result = _one_result(table)
    assert len(result.blames) == 1
    assert result.blames[0].startswith(f"seat 2: left: came back more than {MAX_RETURNS} times")
    assert 2 not in result.winners


def test_a_resume_without_a_rejoin_is_never_taken() -> None:
    table, router = _table()
    router.until("a hand dealt", _dealt(table))
    zero = _seat(table, 0)
    nxt = zero.hand_no + 1
    state = pack_state(zero.return_desk.return_state(2, nxt))
    zero.send(Body(Msg.RESUME, zero.hand_no, 0, (2, nxt, state)))
    router.play_out()
    honest = [m for m in table if m.seat != 0]
    assert all(m.return_desk.returns == {} for m in table)
    result = _one_result(honest)
    assert all(blame.startswith("seat 0: ") for blame in result.blames), result.blames


def test_a_resume_naming_a_hand_already_begun_is_refused_and_frames_nobody() -> None:
    """Lorum's short First-and-last: a seat that came back, and a coordinator that
    answers it with a RESUME naming the hand under way (whose deck carries over). Were it
    taken, every seat would deal that hand again and sign a second KEY at its seq 0."""
    table, router = _table(lorum=True)
    zero = _seat(table, 0)
    router.until("a short deal dealt", lambda: _dealt(table)() and getattr(
        zero.hand, "short", False))

    def forged(seat: int) -> None:
        for hand in (zero.hand_no - 1, zero.hand_no):
            state = zero.return_desk.return_state(seat, zero.hand_no)
            zero.send(Body(Msg.RESUME, hand, 0, (seat, zero.hand_no, pack_state(state))))
    zero.return_desk._answer = forged  # type: ignore[method-assign]
    _bounce(router, _seat(table, 2))
    router.play_out()
    assert len(_resumes(router)) == 2
    assert signed_twice(router, table) == []
    result = _one_result(table)
    assert result.blames == () and all(m.return_desk.returns == {} for m in table)


# --- the invariant over random schedules --------------------------------------------------

#: One event of a schedule: what happens, to which seat, and a number it may need.
_EVENTS = st.tuples(st.sampled_from(["forge", "bounce", "ask", "forge", "drop", "wait"]),
                    st.integers(0, 3), st.integers(-2, 2))


def _wait_for(router: Router, check: Callable[[], bool], turns: int = 20) -> bool:
    """Let the table move, the clock too (to its next deadline when nothing else
    moves), until ``check()`` holds; False if it never does."""
    for _ in range(turns):
        router.settle()
        if check():
            return True
        dues = [due for m in router.machines if not m.done and (due := m.timer()) is not None]
        if not dues:
            return False
        router.now = max(router.now, min(dues))
    return check()


def _happen(router: Router, table: Sequence[TableMachine], event: tuple[str, int, int]
            ) -> int | None:
    """Make ``event`` happen; the seat that forged a RESUME, if one did."""
    what, seat, delta = event
    machine = _seat(table, seat)
    if machine.done:
        return None
    if what == "bounce":
        _bounce(router, machine)
    elif what == "ask":  # a seat that never went asks back
        machine.send(Body(Msg.REJOIN, args=(max(0, machine.hand_no + delta), [])))
    elif what == "forge":  # it comes back, and its coordinator answers as it likes
        coordinator = _seat(table, machine.coordinator(seat) or 0)
        under_way = _wait_for(router, lambda: coordinator.done or (
            coordinator.hand is not None and coordinator.hand.dealt))
        _bounce(router, machine)
        if under_way and coordinator.match is not None and not coordinator.done:
            nxt = max(1, coordinator.hand_no + delta)
            hand = max(0, nxt - 1) if delta % 2 == 0 else coordinator.hand_no
            state = pack_state(coordinator.return_desk.return_state(seat, nxt))
            coordinator.send(Body(Msg.RESUME, hand, 0, (seat, nxt, state)))
            return coordinator.seat
    elif what == "drop":  # gone for a while, then back with the same process
        for other in router.machines:
            if other is not machine:
                other.receive(PresenceSeen(machine.me, False), router.now)
        router.settle()
        for other in router.machines:
            if other is not machine:
                other.receive(PresenceSeen(machine.me, True), router.now)
    else:
        router.now += TIMING.timeout_s / 2
    return None


def _schedule(lorum: bool, events: list[tuple[str, int, int]], gaps: list[int]) -> None:
    table, router = _table(lorum=lorum)
    forgers: set[int | None] = set()
    for event, gap in zip(events, gaps, strict=False):
        for _ in range(gap):
            router.pump()
        forgers.add(_happen(router, table, event))
    router.play_out()
    assert signed_twice(router, table) == []
    assert all(m.unexpected == 0 for m in table)
    # the seats that forged no answer (those that came back or asked included) agree,
    # and name none of their own
    honest = [m for m in table if m.seat not in forgers]
    result = _one_result(honest)
    named = {int(blame.split(":")[0].removeprefix("seat ")) for blame in result.blames}
    assert named <= forgers, result.blames


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lorum=st.booleans(), events=st.lists(_EVENTS, min_size=1, max_size=5),
       gaps=st.lists(st.integers(0, 60), min_size=5, max_size=5))
def test_no_seat_ever_signs_two_envelopes_for_one_hand_and_seq(
        lorum: bool, events: list[tuple[str, int, int]], gaps: list[int]) -> None:
    """Every envelope every seat published is the only one at its (hand, seq), and no
    seat that forged nothing is blamed (protocol/SPEC.md 13)."""
    _schedule(lorum, events, gaps)


def test_the_record_holds_back_a_second_envelope_for_one_hand_and_seq() -> None:
    table, router = _table()
    router.until("a hand dealt", _dealt(table))
    seat = table[1]
    assert seat.seat is not None
    mine = [e for b in router.sent[seat.me] for e in b.envelopes
            if (place := envelope_place(e)) is not None and place[1] == seat.seat]
    other = bytearray(mine[0])
    other[0] ^= 1  # another signature: another envelope at the same (hand, seq)
    before = len(seat.outgoing)
    seat.send(Body(Msg.PROTO, seat.hand_no, 0, (), (bytes(other),)))
    assert len(seat.outgoing) == before and seat.signed.refused == 1
    seat.send(Body(Msg.PROTO, seat.hand_no, 0, (), (mine[0],)))  # the same again: fine
    assert len(seat.outgoing) == before + 1



def test_a_seat_never_begins_a_hand_under_a_number_it_began_before() -> None:
    """The last line of the invariant: the hand number its journal kept (its process may
    have signed there) is never dealt again here, whatever the table says."""
    table, router = _table()
    router.until("a hand dealt", _dealt(table))
    seat = table[1]
    begun = seat.hand_no
    assert seat.signed.begun == begun
    state = seat.return_desk.return_state(2, begun)
    assert seat.coming_back._contradiction(begun, state) == (
        f"hand {begun} was begun here before (hand {begun})")
    seat.hand = None
    seat.new_hand()  # as if told to deal the same hand again
    assert seat.hand_no == begun + 1 and seat.signed.begun == begun + 1
