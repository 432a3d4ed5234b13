"""Whole matches: over the in-memory hub (clean and lossy) and over in-process amqtt."""

from __future__ import annotations

import io

from lodam_p2p.games.lodam import Action, Options, PlayerView
from lodam_p2p.player import DealEnded, MatchEnded, TableEvent, ViewChanged
from lodam_p2p.session import SpectatorLog, play_table
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import PATIENT, bots, lossy, run_all, table
from tests.support.aio import MATCH_PATIENCE
from tests.support.virtual import run_on_table_clock as run


def _check(outcomes: list[MatchOutcome], seats: int) -> MatchOutcome:
    """Every peer reached the same clean result."""
    first = outcomes[0]
    assert first.winners and first.deals >= 1
    assert first.audits_passed == first.deals
    assert first.blames == ()
    assert len(first.lives) == seats
    assert all(o.to_json() == first.to_json() and o.lives == first.lives for o in outcomes)
    return first


def test_a_whole_match_over_the_memory_hub() -> None:
    sessions = table(MemoryHub(), bots(["random", "heuristic", "random"]), Options(lives=2))
    outcome = _check(run(run_all(sessions), MATCH_PATIENCE), 3)
    assert sum(1 for life in outcome.lives if life > 0) == 1


def test_a_match_survives_drops_duplicates_and_reorders() -> None:
    hub = MemoryHub(lossy())
    sessions = table(hub, bots(["random"] * 4), Options(lives=1))
    _check(run(run_all(sessions), MATCH_PATIENCE), 4)
    assert sum(s.link.ignored + s.ignored for s in sessions) == 0


def test_declarations_and_challenges_over_the_wire() -> None:
    options = Options.from_mapping({"lives": 1, "declare_out": True, "out_at": 20,
                                    "exchanges": "first_trick", "trump_memory": True,
                                    "stake": 10})
    sessions = table(MemoryHub(), bots(["heuristic", "random", "heuristic"]), options)
    outcome = _check(run(run_all(sessions), MATCH_PATIENCE), 3)
    assert sum(outcome.payouts) == 0 and max(outcome.payouts) > 0


class Recorder:
    """A player that plays the first legal action and keeps every event it is told."""

    def __init__(self) -> None:
        self.events: list[TableEvent] = []

    def notify(self, event: TableEvent) -> None:
        self.events.append(event)

    async def decide(self, view: PlayerView) -> Action:
        assert view.to_act == view.seat and view.legal
        return view.legal[0]


def test_play_table_over_embedded_amqtt_tells_the_player_everything() -> None:
    recorder = Recorder()
    seats = [SeatPlan("me", recorder), *bots(["random", "random", "random"])[1:]]
    story = io.StringIO()
    outcome = run(play_table(table="amqtt-oak", options=Options(lives=1), seats=seats,
                             seed=5, timing=PATIENT, spectator=SpectatorLog("amqtt-oak", story)),
                  MATCH_PATIENCE)
    assert outcome.audits_passed == outcome.deals >= 1 and outcome.winners
    ends = [e for e in recorder.events if isinstance(e, DealEnded)]
    assert len(ends) == outcome.deals and all(e.audit == "passed" for e in ends)
    ended = [e for e in recorder.events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].winners == outcome.winners
    views = [e.view for e in recorder.events if isinstance(e, ViewChanged)]
    assert views and all(v.seat == 0 for v in views)
    # a view never shows another seat's hidden cards: only this seat's own hand
    assert all(len(v.hand) == v.hand_sizes[0] for v in views)
    text = story.getvalue()
    assert "first dealer by lot" in text and "audit passed" in text and "match over" in text


class ViewlessRecorder(Recorder):
    """A player that decides from the view it is asked with alone, as a bot does."""

    wants_views = False


def test_a_player_that_wants_no_views_is_told_everything_else() -> None:
    plain, viewless = Recorder(), ViewlessRecorder()
    seats = [SeatPlan("plain", plain), SeatPlan("viewless", viewless),
             *bots(["random", "random", "random"])[2:]]
    outcome = _check(run(run_all(table(MemoryHub(), seats, Options(lives=1))),
                         MATCH_PATIENCE), 3)
    assert any(isinstance(e, ViewChanged) for e in plain.events)
    assert not any(isinstance(e, ViewChanged) for e in viewless.events)
    for player in (plain, viewless):
        ends = [e for e in player.events if isinstance(e, DealEnded)]
        assert len(ends) == outcome.deals
        assert [type(e) for e in player.events].count(MatchEnded) == 1
