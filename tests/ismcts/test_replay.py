"""The public deal replayed from a view is the engine's deal at that point."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from lodam_p2p.games.lodam import Options, PublicDeal
from lodam_plugins.lodam.replay import WindowLog, replay
from tests.ismcts.helpers import OPTION_SETS, Moment, moments, new_deal, option_id


def _same_point(replayed: PublicDeal, moment: Moment) -> None:
    engine = moment.deal.public
    assert replayed.to_act == engine.to_act
    assert replayed.awaiting is engine.awaiting
    assert replayed.points == engine.points
    assert replayed.hand_sizes == engine.hand_sizes
    assert replayed.leader == engine.leader
    assert replayed.current_trick == engine.current_trick
    assert replayed.tricks_played == engine.tricks_played
    assert replayed.trump_card == engine.trump_card
    assert replayed.pending_offer == engine.pending_offer
    assert replayed.talon_size == engine.talon_size


@pytest.mark.parametrize("values", OPTION_SETS, ids=option_id)
def test_replay_reaches_every_decision(values: dict[str, object]) -> None:
    options = Options.from_mapping(values)
    rng = random.Random(option_id(values))
    for _ in range(25):
        deal = new_deal(rng, options)
        logs = [WindowLog() for _ in range(deal.players)]
        for moment in moments(rng, deal):
            view = moment.view
            windows = logs[view.seat].observe(view)
            for (low, high), truth in zip(windows, moment.windows, strict=True):
                assert low == high == truth
            _same_point(replay(view, windows), moment)
            _same_point(replay(view), moment)


def test_without_the_record_the_log_bounds_each_window() -> None:
    """A view whose exchanges lack ``before_trick``: the log's bounds hold the truth,
    exactly so for a seat that saw every decision of its own."""
    options = Options()
    rng = random.Random(4)
    for _ in range(10):
        deal = new_deal(rng, options)
        logs = [WindowLog() for _ in range(deal.players)]
        for moment in moments(rng, deal):
            view = replace(
                moment.view,
                exchanges=tuple(replace(e, before_trick=-1) for e in moment.view.exchanges),
            )
            windows = logs[view.seat].observe(view)
            for (low, high), truth in zip(windows, moment.windows, strict=True):
                assert low <= truth <= high
                if view.active[view.seat]:
                    assert low == high == truth
            _same_point(replay(view, windows), moment)


def test_a_log_forgets_the_last_deal() -> None:
    rng = random.Random(2)
    options = Options()
    log = WindowLog()
    for _ in range(3):
        deal = new_deal(rng, options)
        seat_moments = [m for m in moments(rng, deal) if m.view.seat == deal.public.order[0]]
        for moment in seat_moments:
            windows = log.observe(moment.view)
            assert len(windows) == len(moment.view.exchanges)
            assert [low for low, _high in windows] == list(moment.windows)
