"""Each broker adversary's decisions (:class:`~lodam_p2p.redteam.broker.Relay`) in front
of the in-memory hub, on the table clock: host + 4 bot seats (Lodam, one life). The
match ends with one result on every seat the broker did not censor, the seat shown a
split view included; nobody is blamed for cheating; a will fired on command only holds
its seat as away until its next frame; a joiner censored in the lobby is told what it
waits for and nobody is blamed."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from lodam_p2p.games.lodam import Options
from lodam_p2p.player import Progress, TableEvent
from lodam_p2p.redteam.broker import Relay
from lodam_p2p.session import Session, SessionError
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from tests.adversary.relay_hub import relayed_table
from tests.session.helpers import PATIENT, bots, run_all
from tests.support.aio import MATCH_PATIENCE
from tests.support.virtual import run_on_table_clock as run


def _play(relay: Relay) -> tuple[list[MatchOutcome], list[str]]:
    async def scenario() -> tuple[list[MatchOutcome], list[str]]:
        sessions = await relayed_table(relay, bots(["random"] * 4), Options(lives=1))
        return await run_all(sessions), [s.link.peer for s in sessions]

    return run(scenario(), MATCH_PATIENCE)


def _faults(outcomes: list[MatchOutcome], *kinds: str) -> list[str]:
    return [f for o in outcomes for f in o.broker_faults if f.startswith(kinds)]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["broker-replay", "broker-split-view", "broker-fire-will"])
def test_every_seat_ends_alike_through_a_broker_that_does_not_censor(kind: str) -> None:
    relay = Relay(kind, seed=4)
    outcomes, _ = _play(relay)
    assert len({o.winners for o in outcomes}) == 1 and outcomes[0].winners, outcomes
    assert all(not o.blames for o in outcomes), [o.blames for o in outcomes]
    assert relay.attempted > 0 and relay.report()["learned"] == []
    if kind == "broker-replay":
        assert _faults(outcomes, "replay:")
    if kind == "broker-split-view":
        assert _faults(outcomes, "withheld:", "replay:", "split:")


@pytest.mark.slow
def test_a_censored_seat_is_the_only_one_named_and_never_for_cheating() -> None:
    relay = Relay("broker-censor", victim_seat=1, seed=4)
    outcomes, peers = _play(relay)
    victim = peers.index(relay.victim_peer)
    assert relay.report()["victim"] == victim - 1 == 1  # session 0 is the host's watcher
    # every seat ends alike, the censored one too: it accepts the verdict that every
    # other seat voted, though it knows it answered
    assert len({o.winners for o in outcomes}) == 1 and outcomes[0].winners, outcomes
    assert len({o.blames for o in outcomes}) == 1, [o.blames for o in outcomes]
    assert all(b.startswith("seat 1: ") for o in outcomes for b in o.blames)
    for outcome in outcomes:
        assert all(": left: " in b or ": timeout: " in b for b in outcome.blames), outcome


@pytest.mark.slow
def test_a_will_fired_on_command_only_starts_the_away_clock() -> None:
    """The broker fires seat 2's will after every 10 frames it publishes once seated: the
    others hold it as away until its next frame, it plays on, nobody is blamed or named
    as gone, and every seat ends alike."""
    relay = Relay("broker-fire-will", victim_seat=2, seed=4, will_after=10)
    timing = dataclasses.replace(PATIENT, grace_s=2.0)  # a will taken as an end would show
    held: list[int] = []

    async def scenario() -> list[MatchOutcome]:
        sessions = await relayed_table(relay, bots(["random"] * 4), Options(lives=1),
                                       timing=timing)
        tasks = [asyncio.create_task(s.run()) for s in sessions]
        while not all(t.done() for t in tasks):
            held.extend(2 for s in sessions if 2 in s.away)
            await asyncio.sleep(0.005)
        return [t.result() for t in tasks]

    outcomes = run(scenario(), MATCH_PATIENCE)
    assert relay.attempted >= 2 and relay.report()["victim"] == 2
    assert held  # the will was taken as a hint: seat 2 held as away for a while
    assert len({o.winners for o in outcomes}) == 1 and outcomes[0].winners
    assert all(not o.blames for o in outcomes), [o.blames for o in outcomes]


class _Told:
    """Keeps what a seat's player is told (and passes it on)."""

    def __init__(self, plan: SeatPlan) -> None:
        self.events: list[TableEvent] = []
        notify = plan.player.notify

        def keep(event: TableEvent) -> None:
            self.events.append(event)
            notify(event)

        setattr(plan.player, "notify", keep)  # noqa: B010 - a recorder in front of it

    def details(self) -> list[str]:
        return [e.detail for e in self.events if isinstance(e, Progress) and e.detail]


def test_a_joiner_censored_in_the_lobby_is_told_what_it_waits_for_and_nobody_is_blamed(
        ) -> None:
    relay = Relay("broker-lobby-censor", seed=4)
    seats = bots(["random"] * 4)
    told = {plan.name: _Told(plan) for plan in seats}
    timing = dataclasses.replace(PATIENT, lobby_s=12.0)

    async def scenario() -> tuple[list[Session], list[MatchOutcome | BaseException]]:
        sessions = await relayed_table(relay, seats, Options(lives=1), timing=timing)
        ends = await asyncio.gather(*(s.run() for s in sessions), return_exceptions=True)
        return sessions, list(ends)

    sessions, ends = run(scenario(), MATCH_PATIENCE)
    assert relay.victim_peer and relay.report()["victim"] == 0 and relay.attempted > 0
    assert relay.report()["learned"] == []
    victim = next(s for s in sessions if s.link.peer == relay.victim_peer)
    assert victim.plan is not None
    # the joiner asked again, saying why it waits; the host never seated it
    assert any(d.startswith("no answer from the host yet")
               for d in told[victim.plan.name].details())
    for end in ends:  # the table did not fill: nobody blamed, nobody played
        assert isinstance(end, (MatchOutcome, SessionError)), end
        if isinstance(end, MatchOutcome):
            assert not end.blames and not end.deals, end



def test_a_will_on_command_fires_after_every_nth_frame_of_the_victim_only() -> None:
    relay = Relay("broker-fire-will", victim_seat=1, will_after=3)
    relay.victim_peer = "pvictim"
    relay.note_will("lodam/v3/t/oak/presence/pvictim", b"gone")
    relay.note_will("lodam/v3/t/oak/presence/pother", b"gone too")
    fired = []
    for n in range(1, 10):
        for peer in ("pother", "pvictim"):
            topic = f"lodam/v3/t/oak/p/{peer}"
            assert relay.from_seat(peer, topic, b"a frame %d" % n)
            if relay.will_to_fire(peer, topic) is not None:
                fired.append((peer, n))
    assert fired == [("pvictim", 3), ("pvictim", 6), ("pvictim", 9)]
    assert relay.attempted == 3
