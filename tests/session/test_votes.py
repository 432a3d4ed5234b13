"""TIMEOUT votes are checked facts (protocol/SPEC.md, "Rules the table enforces"): each
machine counts a vote only once its own hand awaits the named seat at the named step
and its own clock says that seat's time ran out; the accused's answer cancels the votes;
two independent voters convict, and where fewer are left the match ends as a draw. On
the fake clock of :mod:`tests.session.machines`, with lying votes sent by hand."""

from __future__ import annotations

from lodam_p2p.games.lodam import Options
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.effects import Decided
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import Body, Msg
from tests.session.helpers import bots
from tests.session.machines import Router, decide_now, machines

#: A seat is silent after 20 s of the fake clock; an away seat has 40 s to come back.
TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)


class Table(Router):
    """A router that also moves one machine at a time and answers for a muted seat."""

    def tick(self, machine: TableMachine) -> None:
        """``machine`` alone moves at the router's time; what it says is carried."""
        machine.handle_timer(self.now)
        self._carry(machine)

    def answer(self, machine: TableMachine) -> None:
        """The muted ``machine``'s player answers its pending decision now."""
        hand, plan = machine.hand, machine.plan
        assert hand is not None and hand.my_turn() and plan is not None
        action = decide_now(plan.player, hand.view())
        machine.receive(Decided(machine.hand_no, hand.step, action), self.now)
        self.tick(machine)

    def lie(self, voter: TableMachine, accused: int, step: int | None = None) -> None:
        """``voter`` signs a TIMEOUT vote against ``accused`` whatever its own clock says
        (at the current step, or at ``step``), and it is carried to every machine."""
        hand = voter.hand
        assert hand is not None
        at = hand.step if step is None else step
        voter.send(Body(Msg.TIMEOUT, voter.hand_no, at, (accused,)))
        self._carry(voter)


def stopped_at_a_turn(seats: int, *, lives: int = 1, timing: Timing = TIMING
                      ) -> tuple[Table, list[TableMachine], TableMachine]:
    """A table of random bots stopped at the first decision: the router, the machines
    (the watcher first) and the muted seat whose player is to answer."""
    table = machines(bots(["random"] * seats), Options(lives=lives), timing=timing)
    router = Table(table)
    router.mute.update(m.me for m in table)
    router.start()
    router.settle()
    waiting = [m for m in table if m.hand is not None and m.hand.my_turn()]
    assert len(waiting) == 1
    router.mute = {waiting[0].me}
    return router, table, waiting[0]


def seat_of(machine: TableMachine) -> int:
    assert machine.seat is not None
    return machine.seat


def blamed(machine: TableMachine, seat: int) -> bool:
    return any(line.startswith(f"seat {seat}: ") for line in machine.blames)


def test_a_pair_of_early_votes_does_not_expel_a_seat_that_answers() -> None:
    """Three seats: the two others vote against the seat to decide before its time is
    up. No machine counts those votes (the accused's deadline has not passed on any
    clock), its answer cancels them, and nobody is blamed once that deadline passes."""
    router, table, accused = stopped_at_a_turn(3)
    victim = seat_of(accused)
    start, hand_no = router.now, accused.hand_no
    assert accused.hand is not None
    step = accused.hand.step
    liars = [m for m in table[1:] if m is not accused]
    router.now = start + 5.0
    for liar in liars:
        router.lie(liar, victim)
    router.settle()
    key = (hand_no, step, victim)
    assert all(key not in m.votes and key in m.ballot.pending for m in table)
    router.answer(accused)
    router.settle()
    assert all(key not in m.ballot.pending and key not in m.votes for m in table)
    router.now = start + TIMING.timeout_s + 1.0
    router.settle()
    assert not any(m.blames for m in table)
    assert all(m.hand is not None and m.hand.step > step for m in table)


def test_a_lone_vote_with_two_seats_left_does_not_expel_a_seat_that_answers() -> None:
    """Two seats left (a third put out for silence): one seat's vote against the other
    before its time is up counts nowhere, and the answer cancels it."""
    router, table, first = stopped_at_a_turn(3)
    out = seat_of(first)
    router.now += TIMING.timeout_s
    router.until("the first silent seat put out", lambda: all(blamed(m, out) for m in table))
    router.mute = {m.me for m in table}
    router.settle()
    waiting = [m for m in table if m.hand is not None and m.hand.my_turn()]
    assert len(waiting) == 1 and waiting[0] is not first
    accused = waiting[0]
    router.mute = {accused.me, first.me}
    (liar,) = [m for m in table[1:] if m not in (first, accused)]
    start = router.now
    router.now = start + 1.0
    router.lie(liar, seat_of(accused))
    router.settle()
    router.answer(accused)
    router.settle()
    router.now = start + TIMING.timeout_s + 1.0
    router.settle()
    assert all(m.blames == table[0].blames for m in table)
    assert len(table[0].blames) == 1  # the first seat's silence alone
    assert all(m.outcome is None or m.outcome.blames == tuple(table[0].blames) for m in table)


def test_a_vote_naming_a_seat_not_awaited_is_not_counted() -> None:
    """The seat to decide is silent; two seats vote against the third, which owes
    nothing at that step. Nobody counts those votes, and once the time is up the silent
    seat alone is put out."""
    router, table, silent = stopped_at_a_turn(3)
    (bystander, other) = [m for m in table[1:] if m is not silent]
    assert silent.hand is not None
    dropped = (silent.hand_no, silent.hand.step, seat_of(bystander))
    start = router.now
    router.now = start + TIMING.timeout_s + 1.0
    router.lie(silent, seat_of(bystander))
    router.lie(other, seat_of(bystander))
    router.settle()
    assert all(dropped not in m.ballot.pending and dropped not in m.votes for m in table)
    assert not any(blamed(m, seat_of(bystander)) for m in table)
    assert all(m.blames and m.blames[0].startswith(f"seat {seat_of(silent)}: timeout:")
               for m in table)


def test_a_vote_for_a_step_not_reached_never_counts() -> None:
    """A seat votes ahead against every other seat for the next steps and the next
    hand: no machine keeps those votes, so none counts when the step comes."""
    router, table, accused = stopped_at_a_turn(3)
    assert accused.hand is not None
    step, hand_no = accused.hand.step, accused.hand_no
    liar = next(m for m in table[1:] if m is not accused)
    targets = [seat_of(m) for m in table[1:] if m is not liar]
    for seat in targets:
        for ahead in (1, 2):
            router.lie(liar, seat, step + ahead)
        liar.send(Body(Msg.TIMEOUT, hand_no + 1, 0, (seat,)))
    router.settle()
    router.answer(accused)
    router.settle()
    assert all(not m.ballot.pending and not m.votes for m in table)
    assert not any(m.blames for m in table)


def test_a_vote_before_the_deadline_here_waits_until_it_passes() -> None:
    """A voter whose clock runs ahead votes 5 s early: the others keep its vote pending
    and count it when the accused's time runs out on their own clocks."""
    router, table, silent = stopped_at_a_turn(4)
    victim = seat_of(silent)
    assert silent.hand is not None
    start, key = router.now, (silent.hand_no, silent.hand.step, victim)
    hasty, *_rest = [m for m in table[1:] if m is not silent]
    router.now = start + TIMING.timeout_s - 5.0
    router.lie(hasty, victim)
    router.settle()
    assert all(key in m.ballot.pending and key not in m.votes for m in table)
    assert not any(m.blames or m.clocks.silence.overdue(victim, router.now) for m in table)
    router.now = start + TIMING.timeout_s
    assert all(m.clocks.silence.overdue(victim, router.now) for m in table if m is not silent)
    router.settle()
    line = table[0].blames[0]
    assert line.startswith(f"seat {victim}: timeout:")
    assert all(m.blames == [line] for m in table)  # one line, the same everywhere


def test_the_accuseds_answer_cancels_a_vote_already_counted() -> None:
    """At the watcher and at the accused's own machine one vote is counted when the time
    runs out; the accused then answers, and a second vote for that step, which would
    have made two, is dropped: nobody is blamed there."""
    router, table, accused = stopped_at_a_turn(3)
    victim = seat_of(accused)
    assert accused.hand is not None
    step, watcher = accused.hand.step, table[0]
    first, second = [m for m in table[1:] if m is not accused]
    router.now += TIMING.timeout_s
    router.tick(first)  # its time is up: it votes, and the vote goes out
    for machine in (watcher, accused):
        router.tick(machine)
    key = (accused.hand_no, step, victim)
    assert watcher.votes[key] == {seat_of(first)} and accused.votes[key] == {seat_of(first)}
    router.answer(accused)
    router.tick(watcher)
    router.lie(second, victim, step)
    for machine in (watcher, accused):
        router.tick(machine)
    assert not watcher.blames and not accused.blames
    assert key not in watcher.votes and key not in accused.votes


def test_a_silent_seat_is_put_out_by_independent_voters() -> None:
    """Four seats, one silent: the three others vote when its time is up and it is put
    out everywhere with the same blame line; the match goes on without it."""
    router, table, silent = stopped_at_a_turn(4, lives=2)
    victim = seat_of(silent)
    router.now += TIMING.timeout_s
    router.until("the silent seat put out everywhere", lambda: all(m.blames for m in table))
    line = table[0].blames[0]
    assert line.startswith(f"seat {victim}: timeout: silent at step")
    assert all(m.blames == [line] for m in table)
    assert all(m.outcome is None for m in table)  # three seats play on


def test_too_few_independent_voters_void_the_hand_and_draw_the_match() -> None:
    """Two seats left, one silent: the other would win by its exit, so its vote cannot
    convict. The hand is void, nobody more is blamed, and the match ends as a draw
    between the two seats still playing — at every machine alike."""
    router, table, first = stopped_at_a_turn(3)
    out = seat_of(first)
    router.now += TIMING.timeout_s
    router.until("the first silent seat put out", lambda: all(blamed(m, out) for m in table))
    router.mute = {m.me for m in table}
    router.settle()
    waiting = [m for m in table if m.hand is not None and m.hand.my_turn()]
    assert len(waiting) == 1
    router.now += TIMING.timeout_s
    router.settle()
    router.play_out()
    outcome = table[0].outcome
    assert outcome is not None
    playing = tuple(sorted(seat_of(m) for m in table[1:] if m is not first))
    assert tuple(sorted(outcome.winners)) == playing
    assert len(outcome.blames) == 1 and outcome.blames[0].startswith(f"seat {out}: timeout:")
    assert all(m.outcome is not None and m.outcome.to_json() == outcome.to_json()
               for m in table)
    assert all(m.phase is SessionPhase.DONE for m in table)


class WithheldLot(Table):
    """A router that never carries one machine's lot messages: the lot waits for it."""

    def __init__(self, table: list[TableMachine], silent: TableMachine) -> None:
        super().__init__(table)
        self.silent = silent

    def deliver(self, sender: TableMachine, data: bytes) -> None:
        if sender is self.silent and Body.decode(data).kind in (Msg.LOT_COMMIT,
                                                               Msg.LOT_REVEAL):
            return
        super().deliver(sender, data)


def test_lot_votes_against_a_seat_the_lot_does_not_miss_are_not_counted() -> None:
    """The lot waits for one seat's commitment; that seat and its partner vote against
    the third, whose commitment is in. The third's machine and the watcher drop those votes —
    under "every other seat voted" the third would have blamed itself — and once the
    time is up the seat that withheld its commitment is the one named."""
    table = machines(bots(["random"] * 3), Options(lives=1), timing=TIMING)
    withholder, partner, victim = table[1], table[2], table[3]
    router = WithheldLot(table, withholder)
    router.start()
    router.settle()
    assert all(m.phase is SessionPhase.LOT for m in table)
    for liar in (withholder, partner):
        liar.send(Body(Msg.TIMEOUT, 0, 0, (seat_of(victim),)))
        router._carry(liar)
    router.settle()
    assert not any(m.blames for m in table)
    router.now += TIMING.timeout_s
    router.settle()
    for machine in (table[0], victim):
        assert machine.blames and machine.blames[0].startswith(
            f"seat {seat_of(withholder)}: lot: silent"), machine.blames
        assert not blamed(machine, seat_of(victim))


def test_a_seat_named_silent_accepts_it_only_when_every_other_seat_voted_so() -> None:
    """Four seats: the seat to decide answers; then two of the three others vote it silent
    at the step it answered (a coalition short of the table): it takes no notice, nor does
    anyone. Its own machine accepts the verdict only when every other seat in play has
    voted so — what a broker that kept its answer from all of them shows — and then puts
    itself out as they did, instead of waiting alone at a table gone on without it."""
    router, table, accused = stopped_at_a_turn(4)
    victim = seat_of(accused)
    assert accused.hand is not None
    step = accused.hand.step
    router.answer(accused)
    router.settle()
    others = [m for m in table[1:] if m is not accused]
    for liar in others[:2]:
        router.lie(liar, victim, step)
    router.settle()
    assert not any(blamed(m, victim) for m in table)
    router.lie(others[2], victim, step)
    router.settle()
    assert blamed(accused, victim)
    assert all(not blamed(m, victim) for m in others)  # they saw it answer
