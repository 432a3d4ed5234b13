"""The PettingZoo AEC environments of both games pass PettingZoo's own tests, and
their rewards add up to the kit state's returns."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from lodam_p2p.rl.opponents import bot_policy
from lodam_p2p.rl.pettingzoo import CardTableEnv, env

TABLES = [("lodam", 4), ("lodam", 5), ("lorum", 3), ("lorum", 4)]


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_api_and_seed(game: str, seats: int) -> None:
    api_test(env(game, seats), num_cycles=300)
    seed_test(lambda: env(game, seats), num_cycles=300)


def test_defaults_are_four_seats_and_one_deal() -> None:
    table = env()
    table.reset(seed=3)
    assert table.possible_agents == ["seat_0", "seat_1", "seat_2", "seat_3"]
    _play_out(table, np.random.default_rng(3))
    raw = table.unwrapped
    assert isinstance(raw, CardTableEnv)
    assert raw.state is not None and raw.state.deals == 1


@pytest.mark.parametrize(("game", "seats", "match"),
                         [("lodam", 4, False), ("lorum", 3, False), ("lorum", 4, True)])
def test_rewards_add_up_to_the_returns(game: str, seats: int, match: bool) -> None:
    table = env(game, seats, match=match)
    for seed in range(3):
        table.reset(seed=seed)
        totals = _play_out(table, np.random.default_rng(seed))
        state = table.unwrapped.state
        assert state is not None and state.is_terminal()
        assert totals == pytest.approx(list(state.returns()))
        assert any(totals)


def test_the_mask_is_the_legal_actions_and_only_for_the_seat_to_act() -> None:
    table = env("lorum", 4)
    table.reset(seed=5)
    state = table.unwrapped.state
    assert state is not None
    to_act = table.agent_selection
    for agent in table.possible_agents:
        mask = table.observe(agent)["action_mask"]
        if agent == to_act:
            assert list(np.flatnonzero(mask)) == list(state.legal_actions())
        else:
            assert not mask.any()


def test_an_agent_plays_against_the_heuristic_bot() -> None:
    table = env("lodam", 4)
    heuristic = {seat: bot_policy("heuristic", "lodam", seat, seed=seat) for seat in (1, 2, 3)}
    rng = np.random.default_rng(0)
    for episode in range(3):
        table.reset(seed=episode)
        for agent in table.agent_iter():
            observation, _, termination, truncation, _ = table.last()
            seat = int(agent.removeprefix("seat_"))
            if termination or truncation:
                action = None
            elif seat == 0:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            else:
                action = heuristic[seat](table.unwrapped.state)
            table.step(action)
        assert table.unwrapped.state.is_terminal()


def _play_out(table: object, rng: np.random.Generator) -> list[float]:
    """Random legal actions to the end; each agent's rewards, summed."""
    totals = dict.fromkeys(table.possible_agents, 0.0)  # type: ignore[attr-defined]
    for agent in table.agent_iter():  # type: ignore[attr-defined]
        observation, reward, termination, truncation, _ = table.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        table.step(action)  # type: ignore[attr-defined]
    return list(totals.values())
