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
