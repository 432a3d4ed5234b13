"""The Lorum search: worlds agree with the view, the budget holds, seeds repeat."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from lodam_p2p.games.lorum import (
    Contract,
    Deal,
    Options,
    PlayerView,
)
from lodam_p2p.games.lorum.cards import PACK_MASK, mask_of
from lodam_plugins.lorum.heuristic import LorumHeuristicBot
from lodam_plugins.lorum.hooks import deal_values
from lodam_plugins.lorum.ismcts import lorum_ismcts
from lodam_plugins.lorum.sample import Worlds
from lodam_plugins.lorum.spot import exclusions
from lodam_plugins.random_bot import RandomBot
from tests.lorum_bots.positions import position
from tests.lorum_bots.runner import decks_for

VARIANTS = [
    ({}, 4), ({}, 3), ({"red_king_blind": True}, 4), ({"lorum_start": "unter"}, 4),
    ({"first_last_short": True}, 4), ({"first_last_short": True}, 3),
    ({"lorum_play_on": True}, 3), ({"fifth_trick": 6}, 4),
]


def decision_points(options: Options, players: int, seed: int) -> Iterator[
    tuple[Deal, PlayerView]
]:
    """Every decision (and, blind, every step) of one seeded match among mixed bots,
    with the full deal, in play."""
    from lodam_p2p.games.lorum import Match

    dealer, decks = decks_for(seed, options, players)
    match = Match.start(options, players, dealer)
    bots: list[Any] = [LorumHeuristicBot(seat=s, seed=seed, options={}) if s % 2 else
                       RandomBot(seat=s, seed=seed + s, options={}) for s in range(players)]
    turn = 0
    while not match.is_over:
        plan = match.plan()
        blind = options.red_king_blind and match.contract is Contract.RED_KING
        deal = match.new_deal(decks[turn] if plan.fresh else None, auto=not blind)
        turn += 1
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            yield deal, view
            deal.apply(bots[seat].decide(view))
        match.finish_deal(deal)


@pytest.mark.parametrize(("values", "players"), VARIANTS)
def test_what_the_record_proves_is_true_of_the_real_hands(
    values: dict[str, object], players: int
) -> None:
    options = Options.from_mapping(values)
    for deal, view in decision_points(options, players, 3):
        proved = exclusions(view)
        for seat in range(players):
            assert not mask_of(deal.hand(seat)) & proved[seat], (view.contract, seat)


@pytest.mark.parametrize(("values", "players"), VARIANTS)
def test_sampled_worlds_agree_with_the_view(values: dict[str, object], players: int) -> None:
    options = Options.from_mapping(values)
    rng = random.Random(4)
    for number, (deal, view) in enumerate(decision_points(options, players, 8)):
        if number % 5:
            continue
        worlds = Worlds(view)
        proved = exclusions(view)
        blind = view.contract is Contract.RED_KING and options.red_king_blind
        for _ in range(4):
            hands = worlds.sample(rng)
            if not blind:
                assert sorted(hands[view.seat]) == sorted(view.hand)
            held = 0
            for seat, hand in enumerate(hands):
                assert len(hand) == view.hand_sizes[seat]
                assert not mask_of(hand) & proved[seat]
                assert not mask_of(hand) & held
                held |= mask_of(hand)
            assert not held & mask_of(view.played)
            if not worlds.short:
                assert held == PACK_MASK & ~mask_of(view.played)
            world = worlds.deal(rng)
            if not blind:  # blind, the world plays its forced steps itself
                assert world.to_act == deal.to_act
                assert world.view(view.seat).legal == view.legal
        assert worlds.relaxed == 0


class StepClock:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.step, self.reads = step, 0

    def __call__(self) -> float:
        self.reads += 1
        return (self.reads - 1) * self.step


def _reds_view() -> PlayerView:
    _, view = position(Contract.REDS, "0:7E 1:8E 2:9E 3:TE 3:TH",
                       {0: "7H KH AE AG AS 7S 7G"})
    return view


def test_the_time_budget_is_kept_on_the_injected_clock() -> None:
    clock = StepClock(0.05)
    bot = lorum_ismcts(seat=0, seed=1, options={"time_ms": 1000}, clock=clock)
    bot.decide(_reds_view())
    # 0.9 s of budget: reads at 0.00 (start), 0.05 … 0.90; the read at 0.90 stops it.
    assert bot.last_iterations == 17
    assert clock.reads == 19


def test_fixed_iterations_never_read_the_clock() -> None:
    clock = StepClock(1.0)
    bot = lorum_ismcts(seat=0, seed=1, options={"iterations": 25}, clock=clock)
    bot.decide(_reds_view())
    assert bot.last_iterations == 25 and clock.reads == 0


def test_seeded_searches_repeat_exactly() -> None:
    view = _reds_view()
    runs = []
    for _ in range(2):
        bot = lorum_ismcts(seat=0, seed=42, options={"iterations": 60})
        bot.decide(view)
        assert bot.last is not None
        runs.append(sorted((str(a), n, round(bot.last.totals[a], 9))
                           for a, n in bot.last.visits.items()))
    assert runs[0] == runs[1]
    other = lorum_ismcts(seat=0, seed=43, options={"iterations": 60})
    other.decide(view)
    assert other.last is not None
    assert sorted((str(a), n) for a, n in other.last.visits.items()) != [
        (a, v) for a, v, _ in runs[0]]


def test_a_single_legal_answer_costs_no_search() -> None:
    _, view = position(Contract.REDS, "0:7E 1:8E 2:9E 3:TE 3:TH",
                          {0: "7H AE AG AS 7S 7G 8G"})
    bot = lorum_ismcts(seat=0, seed=1, options={"iterations": 50})
    assert bot.decide(view) == view.legal[0] and bot.last_iterations == 0


def test_values_favour_the_seat_with_fewest_points() -> None:
    deal, _ = position(Contract.TRICKS, "", {})
    rng = random.Random(1)
    while not deal.is_over:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    values = deal_values(deal)
    order = sorted(range(4), key=lambda s: deal.points[s])
    assert values[order[0]] >= values[order[-1]]
    assert all(-1.0 <= v <= 1.0 for v in values)
