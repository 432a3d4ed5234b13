"""The shipped harness: rounds, envelopes, counters, the rewrite hook and transcripts."""

from __future__ import annotations

from dataclasses import replace
from itertools import count

import pytest

from lodam_p2p.fairdeal import Phase, sim, verify_transcript
from lodam_p2p.fairdeal.messages import Message, ShuffleMsg
from tests.fairdeal import cheats


def _ticks() -> sim.Clock:
    """A clock that advances one second per reading: CPU figures become call counts."""
    ticks = count()
    return lambda: float(next(ticks))


@pytest.mark.parametrize(("seats", "argument"), [(2, "tw"), (3, "none"), (4, "bg")])
def test_a_deal_takes_m_plus_2_rounds_and_3m_envelopes(seats: int, argument: str) -> None:
    config, keys = sim.table(seats, 12, argument=argument)
    bench = sim.Sim(config, keys)
    bench.deal()
    assert all(hand.phase is Phase.PLAY for hand in bench.hands.values())
    figures = bench.figures()
    assert (figures["rounds"], figures["envelopes"]) == (seats + 2, 3 * seats)
    assert figures["argument"] == argument
    assert sum(figures["bytes_by_seat"].values()) == figures["bytes_per_hand"]


def test_the_scripted_hand_is_sound_and_counted() -> None:
    config, keys = sim.table(3, 32, hand_size=9)
    bench = sim.Sim(config, keys, clock=_ticks())
    bench.play_scripted()
    assert all(hand.phase is Phase.DONE for hand in bench.hands.values())
    assert not bench.convictions
    verdict = verify_transcript(bench.transcript())
    assert verdict.sound and "6 re-masks" in verdict.summary
    figures = bench.figures()
    assert figures["envelopes"] == len(bench.log) == sum(figures["envelopes_by_seat"].values())
    # every measured call reads the clock twice, one tick apart: CPU counts calls, and the
    # critical path is at least one seat's calls and at most every seat's
    assert figures["cpu_ms_per_seat"] > 0 and figures["scalar_mults"] > 0
    slowest = figures["cpu_ms_slowest_seat"]
    assert slowest <= figures["critical_path_ms"] <= 3 * slowest


def test_without_a_clock_cpu_is_zero_and_the_same_seed_plays_the_same_hand() -> None:
    config, keys = sim.table(3, 20)
    first, second = sim.Sim(config, keys, seed=b"s"), sim.Sim(config, keys, seed=b"s")
    first.deal()
    second.deal()
    assert first.log == second.log and first.figures()["cpu_ms_per_seat"] == 0


def test_a_rewrite_plants_a_false_shuffle_and_every_other_seat_convicts_its_maker() -> None:
    config, keys = sim.table(4, 32)
    bench = sim.Sim(config, keys, rewrite={2: sim.only(ShuffleMsg, cheats.duplicated_card)})
    bench.deal()
    assert {(c.by, c.seat, c.check, c.attributable) for c in bench.convictions} == {
        (0, 2, "shuffle", True), (1, 2, "shuffle", True), (3, 2, "shuffle", True)}
    # seat 2 shuffles third: its deck goes out in round 4 and is refused as it arrives
    assert {c.round for c in bench.convictions} == {4}
    assert {c.phase for c in bench.convictions} == {"shuffle"}
    verdict = verify_transcript(bench.transcript())
    assert (verdict.guilty, verdict.blame and verdict.blame.check) == (2, "shuffle")


def test_without_proofs_the_false_shuffle_is_convicted_at_the_audit() -> None:
    config, keys = sim.table(4, 32, argument="none")
    bench = sim.Sim(config, keys, rewrite={2: sim.only(ShuffleMsg, cheats.duplicated_card)})
    bench.deal()
    assert not bench.convictions
    bench.finish()
    assert {(c.seat, c.check) for c in bench.convictions} == {(2, "shuffle")}
    assert {c.phase for c in bench.convictions} <= {"play", "audit"}
    assert min(c.round for c in bench.convictions) > config.seats[-1] + 2
    assert verify_transcript(bench.transcript()).guilty == 2


def test_a_rewrite_sees_every_message_the_key_first() -> None:
    seen: list[str] = []

    def spy(hand: object, msg: Message) -> Message:
        seen.append(type(msg).__name__)
        return msg

    config, keys = sim.table(2, 8)
    bench = sim.Sim(config, keys, rewrite={1: spy})
    bench.deal()
    assert seen == ["KeyMsg", "ShuffleMsg", "DealMsg"]


def test_tampering_classes_come_from_the_harness() -> None:
    assert cheats.tampering is sim.tampering
    config, keys = sim.table(2, 8)
    cls = sim.tampering(ShuffleMsg, lambda hand, msg: replace(msg, proof=b""))
    hand = cls(config, 0, keys[0], sim.drbg(b""), 0.0)
    assert isinstance(hand, sim.RewritingHand)


def test_run_plays_a_workload() -> None:
    config, keys = sim.table(2, 20, hand_size=6)
    dealt = sim.run(config, keys, "deal")
    assert {h.phase for h in dealt.hands.values()} == {Phase.PLAY}
    played = sim.run(config, keys, "hand", seed=b"x")
    assert {h.phase for h in played.hands.values()} == {Phase.DONE}
    with pytest.raises(ValueError, match="workload"):
        sim.run(config, keys, "match")
