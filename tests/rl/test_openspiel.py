"""The OpenSpiel python games of both games: OpenSpiel's own random simulation test,
random playouts to the end, the parameters, and an OpenSpiel algorithm running on them."""

from __future__ import annotations

import random

import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import lodam_p2p.rl.openspiel  # noqa: F401 -- registers the games
from lodam_p2p.games.lorum import CONTRACTS

GAMES = ["python_lodam", "python_lorum"]


def test_no_parameters_give_four_players_and_one_deal() -> None:
    for name in GAMES:
        game = pyspiel.load_game(name)
        assert game.num_players() == 4
        kind = game.get_type()
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
        state = game.new_initial_state()
        assert state.is_chance_node()
        _play_out(state, random.Random(1))
        assert state.is_terminal()
        assert state.inner.deals == 1


@pytest.mark.parametrize("spec", [
    "python_lodam", "python_lodam(players=5)", "python_lorum", "python_lorum(players=3)"])
def test_random_sim_test(spec: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=2, serialize=False,
                            verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("spec", [
    "python_lorum(players=3,match=True,options=rounds:1)",
    "python_lodam(match=True,options=lives:1)"])
def test_random_sim_test_of_a_whole_match(spec: str) -> None:
    """A match settles deal after deal; its returns come at its end, as the terminal
    reward model says (the rewards summed over the episode are the returns)."""
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=1, serialize=False,
                            verbose=False)


@pytest.mark.parametrize("spec,cards", [
    ("python_lodam(options=exchanges:off)", 52), ("python_lodam(players=5)", 52),
    ("python_lorum", 32), ("python_lorum(players=3)", 32)])
def test_the_information_state_tensor_adds_card_planes_to_the_observation(
        spec: str, cards: int) -> None:
    game = pyspiel.load_game(spec)
    players = game.num_players()
    assert game.get_type().provides_information_state_tensor
    (observed,) = game.observation_tensor_shape()
    assert game.information_state_tensor_shape() == [observed + (players + 2) * cards]
    state = game.new_initial_state()
    rng = random.Random(spec)
    while not state.is_terminal() and len(state.inner.history) < len(state.inner.pack) + 12:
        state.apply_action(rng.choice(state.legal_actions()))
    inner = state.inner
    schedule = inner.game.deal_plan(inner.match).schedule
    exchanges = "exchanges:off" not in spec and "lodam" in spec
    for seat in range(players):
        tensor = state.information_state_tensor(seat)
        assert list(tensor[:observed]) == list(state.observation_tensor(seat))
        planes = [{i for i in range(cards) if tensor[observed + k * cards + i]}
                  for k in range(players + 2)]
        dealt, own_plays, passed = planes[0], planes[1], planes[players + 1]
        assert dealt == {inner.pack[i].index for j, i in enumerate(inner.drawn)
                         if schedule[j] == seat}
        played = [planes[1 + (other - seat) % players] for other in range(players)]
        assert sum(len(p) for p in played) == len(set().union(*played))  # one seat each
        held = {card.index for card in inner.deal.view(seat).hand}
        if not exchanges:  # every card dealt is still held or was played, nothing else
            assert dealt == held | own_plays and not passed
        assert not held & set().union(*played)


@pytest.mark.parametrize("name", GAMES)
def test_two_hundred_random_playouts(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(name)
    for _ in range(200):
        state = game.new_initial_state()
        _play_out(state, rng)
        returns = state.returns()
        assert len(returns) == 4 and any(returns)
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_parameters_choose_players_options_and_a_match() -> None:
    game = pyspiel.load_game("python_lorum(players=3,match=True,options=rounds:1)")
    state = game.new_initial_state()
    _play_out(state, random.Random(2))
    assert game.num_players() == 3
    assert state.inner.deals == 3 * len(CONTRACTS)  # one round: each contract, each dealer
    lodam = pyspiel.load_game("python_lodam(players=6,options=exchanges:off)")
    assert lodam.num_players() == 6
    assert lodam.new_initial_state().inner.setup.options.exchanges.value == "off"


def test_mcts_runs_a_few_iterations() -> None:
    game = pyspiel.load_game("python_lorum")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator,
                       random_state=None, solve=False)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    action = bot.step(state)
    assert action in state.legal_actions()


def _play_out(state: pyspiel.State, rng: random.Random) -> None:
    """Chance outcomes and legal actions at random, to the end."""
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
