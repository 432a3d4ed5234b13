"""Honest seats over an unreliable in-memory network: messages dropped (and resent on
request), duplicated, delayed and reordered, through plays, the talon's top, two
exchanges (the second followed by both traders' re-masks, each taking the positions
both transfers made for it, and a play from a re-masked position). Nobody is ever
blamed and every hand ends with the same audited deal."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from lodam_p2p.fairdeal import AuditPassed, Hand, Phase, Transcript, verify_transcript
from tests.fairdeal.table import Table, make_config

Step = tuple[Callable[[], bool], Callable[[], None]]


class LossyNetwork(RuleBasedStateMachine):
    """Three seats; every envelope in flight is a (receiver, sender, bytes) triple."""

    def __init__(self) -> None:
        super().__init__()
        self.table = Table.build(make_config(3, 32), seed=b"lossy")
        self.flight: list[tuple[int, int, bytes]] = []
        self.new: dict[int, tuple[int, ...]] = {}
        self.script = self._script()
        self._collect()

    # --- the hand's commands, each run once its seat is ready ---------------------------

    def _script(self) -> list[Step]:
        c, hands = self.table.config, self.table.hands
        top, p1, p2 = c.schedule.index(None), c.positions_of(1)[0], c.positions_of(2)[0]

        def playing(seat: int) -> Callable[[], bool]:
            return lambda: hands[seat].phase in (Phase.PLAY, Phase.AUDIT)

        def do(seat: int, command: Callable[[Hand], None]) -> Callable[[], None]:
            return lambda: command(hands[seat])

        steps: list[Step] = [(playing(0), do(0, lambda h: h.reveal(c.positions_of(0)[0], 0.0)))]
        steps += [(playing(s), do(s, lambda h: h.reveal(top, 0.0))) for s in c.seats]
        steps.append((playing(1), do(1, lambda h: h.transfer(p1, 2, 0.0))))
        steps.append((playing(2), do(2, lambda h: h.transfer(p2, 1, 0.0))))
        steps += self._second_exchange(playing)
        steps += [(playing(s), do(s, lambda h: h.finish(0.0))) for s in c.seats]
        return steps

    def _second_exchange(self, playing: Callable[[int], Callable[[], bool]]) -> list[Step]:
        """Seats 1 and 2 trade their second cards, then both re-mask their holdings (with
        the positions both transfers made for them) and seat 2 plays the card it
        received from its new position."""
        c, hands = self.table.config, self.table.hands
        p1, q1 = c.positions_of(1)[:2]
        p2, q2 = c.positions_of(2)[:2]

        def holding(seat: int) -> set[int]:
            mine, theirs = (c.positions_of(1), (p2, q2)) if seat == 1 else (
                c.positions_of(2), (p1, q1))
            made = hands[seat].record.switched
            return set(mine) - {mine[0], mine[1]} | {made[p] for p in theirs}

        def remask(seat: int) -> Callable[[], None]:
            def step() -> None:
                self.new[seat] = hands[seat].remask(holding(seat), 0.0)
            return step

        def play_received() -> None:
            card = hands[1].cards[q1]
            hands[2].reveal(next(p for p in self.new[2] if hands[2].cards[p] == card), 0.0)

        return [
            (playing(1), lambda: hands[1].transfer(q1, 2, 0.0)),
            (playing(2), lambda: hands[2].transfer(q2, 1, 0.0)),
            (lambda: q2 in hands[1].cards, remask(1)),
            (lambda: q1 in hands[2].cards, remask(2)),
            (lambda: 2 in self.new, play_received),
        ]

    def _collect(self) -> None:
        for sender, hand in self.table.hands.items():
            self.table.events[sender].extend(hand.events())
            for raw in hand.outgoing():
                self.flight.extend((to, sender, raw) for to in self.table.config.seats
                                   if to != sender)

    def _deliver(self, index: int) -> None:
        to, sender, raw = self.flight.pop(index)
        self.table.deliver(sender, raw, to)
        self._collect()

    # --- what the network and the seats may do -------------------------------------------

    @precondition(lambda self: self.flight)
    @rule(data=st.data())
    def deliver(self, data: st.DataObject) -> None:
        self._deliver(data.draw(st.integers(0, len(self.flight) - 1)))

    @precondition(lambda self: self.flight)
    @rule(data=st.data())
    def drop(self, data: st.DataObject) -> None:
        self.flight.pop(data.draw(st.integers(0, len(self.flight) - 1)))

    @precondition(lambda self: self.flight)
    @rule(data=st.data())
    def duplicate(self, data: st.DataObject) -> None:
        self.flight.append(self.flight[data.draw(st.integers(0, len(self.flight) - 1))])

    @rule()
    def resend(self) -> None:
        """Every seat asks every other for what it still wants (its next sequence)."""
        hands = self.table.hands
        for to, hand in hands.items():
            for sender, seq in hand.wanted().items():
                self.flight.extend((to, sender, raw) for raw in hands[sender].sent_since(seq))

    @precondition(lambda self: self.script and self.script[0][0]())
    @rule()
    def act(self) -> None:
        self.script.pop(0)[1]()
        self._collect()

    @invariant()
    def nobody_blamed(self) -> None:
        assert not any(self.table.errors.values()), self.table.errors

    def teardown(self) -> None:
        for _ in range(20000):
            if all(h.phase is Phase.DONE for h in self.table.hands.values()):
                break
            if self.script and self.script[0][0]():
                self.act()
            elif self.flight:
                self._deliver(0)
            else:
                self.resend()
        self.nobody_blamed()
        deals = {
            next(e.deal for e in self.table.events[s] if isinstance(e, AuditPassed))
            for s in self.table.config.seats
        }
        assert len(deals) == 1
        transcript = Transcript(self.table.config, tuple(self.table.hands[0].envelopes()))
        verdict = verify_transcript(transcript)
        # two re-masks of ten positions each, and the four positions the transfers made
        assert verdict.sound and verdict.masked is not None and len(verdict.masked) == 24


LossyNetwork.TestCase.settings = settings(
    max_examples=30, stateful_step_count=80, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestLossyNetwork = LossyNetwork.TestCase
