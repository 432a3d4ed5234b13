"""The one search (``plugins.search``) on both games, through the registered ``ismcts``
bot and the games' hooks: only legal answers, worlds that agree with everything the
seat has seen, and seeded runs that repeat."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.bots import BotRegistry
from lodam_p2p.games import get_game, state_game
from lodam_p2p.games.lodam import Options as LodamOptions
from lodam_p2p.games.lorum import Contract
from lodam_p2p.games.lorum import Options as LorumOptions
from lodam_p2p.games.lorum.cards import mask_of
from lodam_plugins.lodam.hooks import LodamHooks
from lodam_plugins.lodam.replay import WindowLog
from lodam_plugins.lodam.sample import World
from lodam_plugins.lorum.hooks import LorumHooks
from lodam_plugins.lorum.spot import exclusions
from lodam_plugins.search import ISMCTS, Budget, IsmctsBot
from tests.ismcts.helpers import OPTION_SETS, moments, new_deal
from tests.ismcts.test_sample import _check_world
from tests.lorum_bots.test_search import VARIANTS, decision_points

GAMES = ("lodam", "lorum")


def _play_deal(game: str, seed: int, iterations: int) -> tuple[list[Any], list[Any]]:
    """One seeded four-seat deal of ``game`` with ``ismcts`` at every seat: the actions
    taken and the root visits of every search. Every answer must be legal."""
    registry = BotRegistry.load(default_dirs=False)
    bots = [registry.get("ismcts").make(s, seed + s, {"iterations": str(iterations)}, game)
            for s in range(4)]
    rules = get_game(game)
    match = rules.start_match(rules.default_options(), 4, seed % 4)
    pack = list(rules.pack(match))
    random.Random(seed).shuffle(pack)
    deal = rules.new_deal(match, pack)
    actions, searches = [], []
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        bot = bots[seat]
        action = bot.decide(view)
        assert action in view.legal
        assert isinstance(bot, IsmctsBot) and bot.fallbacks == 0
        if bot.last is not None:
            assert 0 < bot.last.iterations <= iterations  # Lodam may stop early
            searches.append(sorted(bot.last.visits.items(), key=repr))
        actions.append(action)
        deal.apply(action)
    return actions, searches


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_deal_of_legal_answers_from_real_searches(game: str) -> None:
    _actions, searches = _play_deal(game, 5, 12)
    assert len(searches) >= 8  # decisions with a choice were searched, not answered blind


@pytest.mark.parametrize("game", GAMES)
def test_a_seeded_search_repeats_exactly(game: str) -> None:
    assert _play_deal(game, 9, 20) == _play_deal(game, 9, 20)
    assert _play_deal(game, 9, 20)[1] != _play_deal(game, 10, 20)[1]


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), draw=st.integers(0, 2**32 - 1),
       values=st.sampled_from(OPTION_SETS))
def test_lodam_worlds_agree_with_all_the_seat_saw(
    seed: int, draw: int, values: dict[str, object]
) -> None:
    """Each world the Lodam hooks give the search: the seat's own hand, the sizes of
    every hand, no card that was played, the voids shown, the cards traded with us, the
    turned trump and the offer on the table — and the checked engine accepts it."""
    rng, draws = random.Random(seed), random.Random(draw)
    deal = new_deal(rng, LodamOptions.from_mapping(values))
    hooks = [LodamHooks(s) for s in range(deal.players)]
    logs = [WindowLog() for _ in range(deal.players)]
    for number, moment in enumerate(moments(rng, deal)):
        view = moment.view
        if not view.active[view.seat]:
            continue
        hooks[view.seat].observe(view)
        logs[view.seat].observe(view)
        if number % 3 or not hooks[view.seat].searchable(view):
            continue
        hooks[view.seat].prepare(view)
        sim = hooks[view.seat].determinize(draws).sim
        _check_world(World(list(sim.hands), sim.talon_top, sim.offer_card), moment)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), draw=st.integers(0, 2**32 - 1),
       variant=st.sampled_from(VARIANTS))
def test_lorum_worlds_agree_with_all_the_seat_saw(
    seed: int, draw: int, variant: tuple[dict[str, object], int]
) -> None:
    """Each world the Lorum hooks give the search shows the seat exactly its own view,
    and no seat holds a card the record proves it does not."""
    values, players = variant
    options = LorumOptions.from_mapping(values)
    draws = random.Random(draw)
    points = decision_points(options, players, seed % 1000)
    for deal, view in itertools.islice(points, 0, 120, 7):
        hooks = LorumHooks()
        hooks.prepare(view)
        world = hooks.determinize(draws).deal
        proved = exclusions(view)
        for seat in range(players):
            assert not mask_of(world.hand(seat)) & proved[seat]
            assert len(world.hand(seat)) == len(deal.hand(seat))
        blind = view.contract is Contract.RED_KING and options.red_king_blind
        if not blind:  # blind, the world plays its forced steps itself
            assert world.view(view.seat) == view


class _SeenAll:
    """Hooks over the kit's own state API, every card known (a test of the search's
    genericity, not a bot): each world is a copy of the true state."""

    failures = ()
    secrets = False
    forced_nodes = True

    def untried(self, rng: random.Random, count: int) -> int:
        return rng.randrange(count)

    def __init__(self, state: Any) -> None:
        self.state = state

    def determinize(self, rng: random.Random) -> Any:
        return self.state.clone()

    def hidden(self, world: Any) -> None:
        return None

    def rollout(self, world: Any, rng: random.Random) -> None:
        while not world.is_terminal():
            legal = world.legal_actions()
            world.apply(legal[rng.randrange(len(legal))])

    def values(self, world: Any) -> tuple[float, ...]:
        return tuple(world.returns())


@pytest.mark.parametrize("game", GAMES)
def test_the_search_steps_the_kits_own_states(game: str) -> None:
    state = state_game(game).new_initial_state()
    rng = random.Random(3)
    while state.is_chance():
        state.apply(rng.choice([card for card, _ in state.chance_outcomes()]))
    outcomes = []
    for _ in range(2):
        search = ISMCTS(_SeenAll(state), random.Random(1), 0.5)  # type: ignore[arg-type]
        outcomes.append(search.run(Budget(iterations=30, early_stop=False), lambda: 0.0, 0.0))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0].iterations == 30
    assert outcomes[0].best in state.legal_actions()
    assert set(outcomes[0].visits) <= set(state.legal_actions())
    assert sum(outcomes[0].visits.values()) == 30
