"""Lodam and Lorum as PettingZoo AEC environments::

    from lodam_p2p.rl.pettingzoo import env

    table = env(game="lorum", seats=4)
    table.reset(seed=7)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = int(table.action_space(agent).sample(mask))
        table.step(action)

The agents are ``seat_0`` … ``seat_{N-1}``. An observation is a dict: ``observation``,
the seat's vector (:mod:`lodam_p2p.rl.features`: its hand and what every seat saw,
nothing more), and ``action_mask``, 1 for each legal action number (the game's numbers
of the state API, :mod:`lodam_p2p.games.kit`). The deal is dealt at ``reset`` from the
seeded generator (and, in a whole match, between deals); a reward is what a step
changed in the state's returns (counters in Lodam, beans or penalty points in Lorum), so
that an episode's rewards add up to its returns. ``seats`` defaults to 4 and an episode
to one deal (``match=True``: a whole match), as for the OpenSpiel games.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from lodam_p2p.games import state_game
from lodam_p2p.games.kit import DealState
from lodam_p2p.rl.features import Writer, features_of


def env(game: str = "lodam", seats: int = 4, *, options: Iterable[str] = (),
        match: bool = False, render_mode: str | None = None) -> AECEnv:
    """The environment of ``game`` at ``seats`` seats, wrapped as PettingZoo's own
    environments are (a step out of order is an error, not a silent mistake)."""
    raw = CardTableEnv(game, seats, options=options, match=match, render_mode=render_mode)
    return wrappers.OrderEnforcingWrapper(raw)


class CardTableEnv(AECEnv):  # type: ignore[misc]
    """A game of the kit as an AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "lodam_p2p_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "lodam", seats: int = 4, *, options: Iterable[str] = (),
                 match: bool = False, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = state_game(game, seats, list(options), match=match)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(seats)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._writer = Writer(features_of(game), seats)
        actions = self.game.num_actions
        self._spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (self._writer.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._mask = np.zeros(actions, np.int8)
        self._rng = random.Random()
        self.state: DealState[Any, Any, Any] | None = None

    # -- spaces ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """A dict of the seat's vector and the action mask."""
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The game's action numbers."""
        return self._action_spaces[agent]

    # -- the episode ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode; ``seed`` seeds the deals (None: from the system)."""
        if seed is not None:
            self._rng.seed(seed)
        elif self.state is None:
            self._rng.seed()
        self.state = self.game.new_initial_state()
        self._deal_out()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s vector and its action mask (all zero when it is not its step)."""
        state = self._live()
        seat = self.agent_name_mapping[agent]
        to_act = state.current_player()
        mask = np.zeros(self.game.num_actions, np.int8)
        if to_act == seat:
            mask[list(state.legal_actions())] = 1
        vector = self._writer.write(state.deal, seat, to_act).copy()
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent's action (None once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._live()
        if action is None:
            raise ValueError(f"{agent} must act")
        before = state.returns()
        state.apply(int(action))
        self._deal_out()
        after = state.returns()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: after[i] - before[i] for i, a in enumerate(self.possible_agents)
                        if a in self.rewards}
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The state as text (printed for ``human``)."""
        state = self._live()
        text = f"{self.game.name} seat to act {state.current_player()}: returns {state.returns()}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # -- inside ---------------------------------------------------------------------------

    def _live(self) -> DealState[Any, Any, Any]:
        if self.state is None:
            raise RuntimeError("reset the environment first")
        return self.state

    def _deal_out(self) -> None:
        """Deal every card the state waits for, from the seeded generator."""
        state = self._live()
        while state.is_chance():
            left = state.left
            state.apply(left[int(self._rng.random() * len(left))])
