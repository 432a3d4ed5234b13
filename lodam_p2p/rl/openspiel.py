"""Lodam and Lorum as OpenSpiel python games: ``import lodam_p2p.rl.openspiel`` registers
``python_lodam`` and ``python_lorum``::

    import pyspiel
    import lodam_p2p.rl.openspiel  # noqa: F401 -- registers the games

    game = pyspiel.load_game("python_lodam")             # 4 players, one deal
    game = pyspiel.load_game("python_lorum(players=3,match=True)")
    game = pyspiel.load_game("python_lodam(players=5,options=exchanges:off;out_at:33)")

Parameters: ``players`` (default 4), ``options`` (the game's table options, ``k:v``
pairs separated by ``;``) and ``match`` (False: an episode is one deal; True: a whole
match). The games are sequential, of imperfect information, with the deal as explicit
chance events (one card of the pack at a time, each equally likely) and general-sum
returns: per seat, counters (Lodam) or beans and penalty points (Lorum) won less those
lost. Actions are the state API's numbers (:mod:`lodam_p2p.games.kit`).

Each seat's information state (a string, with perfect recall) is what it saw, step by
step: the cards dealt to it (unless dealt face down), every action as the table saw it
(a face-down card stays face down; its own actions in full) and its present view; its
observation is its present view (string) or the vector of :mod:`lodam_p2p.rl.features`
(tensor). Its information-state tensor is that vector followed by card planes (one 0/1
per card index) of what the deal showed it: the cards dealt to it face up, the cards
each seat was seen to play or lay (one plane per seat, counted from the observer), and
the cards it handed on face down itself (Lodam's exchanges). Nothing of another seat's
hidden cards is in any of them.

The state is a thin adapter: it holds a kit state (:class:`~lodam_p2p.games.kit.DealState`)
and forwards to it.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt
import pyspiel

from lodam_p2p.games import state_game
from lodam_p2p.games.kit import DealGame, DealState
from lodam_p2p.rl.features import Writer, features_of

#: The games registered, by OpenSpiel name: (game, long name, seat range, utility bounds
#: of one deal and of a match).
GAMES: dict[str, tuple[str, str, tuple[int, int], float, float]] = {
    "python_lodam": ("lodam", "Python Losing Lodam", (3, 10), 1.0, 100.0),
    "python_lorum": ("lorum", "Python Lorum", (3, 4), 500.0, 20000.0),
}
#: Generous bounds of an episode's length (chance events and decisions).
DEAL_LENGTH, MATCH_LENGTH = 5000, 10**7


class _Indexed(Protocol):
    """A card of the state API's pack: its engine index numbers its place in a plane."""

    index: int


def _game_type(short: str) -> pyspiel.GameType:
    _, long_name, (low, high), _, _ = GAMES[short]
    return pyspiel.GameType(
        short_name=short,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 4, "options": "", "match": False},
    )


def options_of(text: str) -> list[str]:
    """``k:v;k:v`` (the ``options`` parameter) as the game's ``k=v`` texts."""
    return [item.strip().replace(":", "=", 1) for item in text.split(";") if item.strip()]


class CardGame(pyspiel.Game):  # type: ignore[misc]
    """One of the registered games (see the module docstring)."""

    short_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        name, _, _, deal_bound, match_bound = GAMES[self.short_name]
        players = int(params.get("players", 4))
        match = bool(params.get("match", False))
        self.states: DealGame[Any, Any, Any] = state_game(
            name, players, options_of(str(params.get("options", ""))), match=match)
        bound = match_bound if match else deal_bound
        info = pyspiel.GameInfo(
            num_distinct_actions=self.states.num_actions,
            max_chance_outcomes=self.states.max_chance_outcomes,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=MATCH_LENGTH if match else DEAL_LENGTH,
        )
        super().__init__(_game_type(self.short_name), info, params)

    def new_initial_state(self) -> CardState:
        """A state before the first card is dealt."""
        return CardState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardObserver:
        """The information-state observer (perfect recall) or the observation one."""
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CardObserver(self, recall)


class LodamGame(CardGame):
    """``python_lodam``."""

    short_name = "python_lodam"


class LorumGame(CardGame):
    """``python_lorum``."""

    short_name = "python_lorum"


class CardState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a kit state; ``seen[seat]`` is what the seat saw, step by
    step (its information state, less its present view)."""

    def __init__(self, game: CardGame, inner: DealState[Any, Any, Any] | None = None,
                 seen: list[list[str]] | None = None) -> None:
        super().__init__(game)
        self.inner = inner if inner is not None else game.states.new_initial_state()
        self.seen = seen if seen is not None else [[] for _ in range(self.inner.players)]
        players = self.inner.players
        #: Card masks of this deal, per seat: dealt to it face up, seen played or laid
        #: by it, handed on face down by it (see the module docstring); ``planes_of``
        #: counts the deals settled before the one they tell of.
        self.dealt, self.played, self.passed = [0] * players, [0] * players, [0] * players
        self.planes_of = 0

    def current_player(self) -> int:
        """The seat to act, chance or terminal (the kit uses OpenSpiel's numbers)."""
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, equally likely."""
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        inner = self.inner
        if inner.deals != self.planes_of:  # a new deal (dealt, or dealt on from a stack)
            players = len(self.seen)
            self.dealt, self.played, self.passed = [0] * players, [0] * players, [0] * players
            self.planes_of = inner.deals
        if inner.is_chance():
            self._saw_dealt(action)
        else:
            self._saw_action(action)
        inner.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        inner = self.inner
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {inner.pack[action]}"
        return str(inner.codes.action(player, action))

    def is_terminal(self) -> bool:
        """Whether the deal (or the match) is over."""
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        """Per seat, won less lost (see the module docstring), at the end of the
        episode; zero before it (the reward model is terminal, also over a whole match
        whose deals are settled one by one)."""
        if not self.inner.is_terminal():
            return [0.0] * self.inner.players
        return list(self.inner.returns())

    def __str__(self) -> str:
        return " ".join(str(a) for a in self.inner.history)

    # -- what each seat saw ----------------------------------------------------------------

    def _saw_dealt(self, index: int) -> None:
        inner = self.inner
        plan = inner.game.deal_plan(inner.match)
        position = len(inner.drawn)
        to = plan.schedule[position] if position < len(plan.schedule) else None
        face_down = inner.game.face_down(inner.match)
        if to is not None and not face_down:
            self.dealt[to] |= 1 << cast("_Indexed", inner.pack[index]).index
        for seat, seen in enumerate(self.seen):
            if to == seat and not face_down:
                seen.append(f"dealt {inner.pack[index]}")
            else:
                seen.append(f"dealt a card to {to}")

    def _saw_action(self, code: int) -> None:
        inner = self.inner
        actor = inner.current_player()
        action = inner.codes.action(actor, code)
        shown = inner.game.public_action(action)
        wire = inner.game.encode_action(action)
        if wire.card is not None:
            bit = 1 << cast("_Indexed", wire.card).index
            face_up = wire.seen_by_all().card is not None
            if face_up and wire.kind in ("play", "lay"):
                self.played[actor] |= bit
            elif not face_up:
                self.passed[actor] |= bit
        public = f"seat {actor}: " + (
            str(shown) if shown is not None else f"{type(action).__name__.lower()} face down")
        for seat, seen in enumerate(self.seen):
            seen.append(f"seat {actor}: {action}" if seat == actor else public)


class CardObserver:
    """OpenSpiel's python observer: the seat's information state (``recall``) or its
    present observation."""

    def __init__(self, game: CardGame, recall: bool) -> None:
        self.recall = recall
        states = game.states
        self._writer = Writer(features_of(states.name), states.players)
        self.players, self.cards = states.players, self._writer.cards
        planes = self.players + 2 if recall else 0
        self.tensor = np.zeros(self._writer.size + planes * self.cards, np.float32)
        self.dict = {"info_state" if recall else "observation": self.tensor}

    def set_from(self, state: CardState, player: int) -> None:
        """The tensor of ``player``'s information state (``recall``) or observation."""
        inner = state.inner
        size = self._writer.size
        self.tensor[:size] = self._writer.write(inner.deal, player, inner.current_player())
        if not self.recall:
            return
        n = self.players
        masks = [state.dealt[player],
                 *(state.played[(player + k) % n] for k in range(n)),
                 state.passed[player]]
        self.tensor[size:] = card_planes(masks, self.cards)

    def string_from(self, state: CardState, player: int) -> str:
        """``player``'s information state or observation, as text."""
        view = state.inner.observation(player)
        present = "not dealt yet" if view is None else repr(view)
        if not self.recall:
            return present
        return "\n".join([*state.seen[player], present])


def card_planes(masks: list[int], cards: int) -> npt.NDArray[np.uint8]:
    """The bits of card masks, ``cards`` each, one plane after the other."""
    raw = b"".join(mask.to_bytes(8, "little") for mask in masks)
    bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
    return bits.reshape(len(masks), 64)[:, :cards].reshape(-1)


pyspiel.register_game(_game_type("python_lodam"), LodamGame)
pyspiel.register_game(_game_type("python_lorum"), LorumGame)
