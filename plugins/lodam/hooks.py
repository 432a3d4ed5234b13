"""What Losing Lodam tells the one search (:mod:`plugins.search`): :class:`LodamHooks`.

1. **Where the deal stands.** The view's public record is replayed into the engine's
   ``PublicDeal`` (:mod:`plugins.lodam.replay`) — the engine, not the bot, decides whose
   turn comes next, so the simulations start at the right point of the trick or
   exchange window.
2. **What could be hidden.** :mod:`plugins.lodam.sample` turns the view into
   constraints (voids, cards we traded, offers' kinds, the turned trump, hand sizes)
   and draws worlds that meet them; no world contains a fact the seat does not know.
3. **The tree's edges** are moves of every seat that others see (plays, swallows,
   declarations); other seats' offers and answers are hidden moves, played by the
   policy (:mod:`plugins.lodam.policy`), as is the rest of the deal, on the unchecked
   path of the rules engine's own deal machine.
4. **Per-seat values.** A finished deal is worth, to each seat, an estimate of its
   match chances from the counters left (:mod:`plugins.lodam.rewards`).

Challenges are not searched: the policy answers them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from lodam_p2p.games.lodam import (
    Action,
    Decision,
    PlayerView,
    PublicDeal,
    action_of,
    code_of,
    mask_of,
)
from .policy import boundary_choice, exchange_choice, play_choice, rollout
from .replay import ReplayError, WindowLog, replay
from .rewards import deal_values
from .sample import Constraints, Sampler

OFFER, ANSWER = Decision.OFFER, Decision.ANSWER


class LodamWorld:
    """A sampled deal (the public deal with its hidden part filled in), stepped by move
    codes with the kit's state API names."""

    __slots__ = ("sim",)

    def __init__(self, sim: PublicDeal) -> None:
        self.sim = sim

    def current_player(self) -> int:
        """The seat to act (-1 once the deal is over)."""
        seat = self.sim.to_act
        return -1 if seat is None else seat

    def legal_actions(self) -> Sequence[int]:
        """The legal move codes."""
        return self.sim.legal

    def apply(self, action: int) -> None:
        """Step the deal machine, unchecked."""
        self.sim.step(action)

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return self.sim.awaiting is None


class LodamHooks:
    """Losing Lodam's knowledge for the search (see the module docstring)."""

    failures: tuple[type[Exception], ...] = (ReplayError, ValueError, IndexError)
    secrets = True  #: other seats' offers and answers
    forced_nodes = True  #: a move code does not name its seat

    def untried(self, rng: random.Random, count: int) -> int:
        """A uniform draw of one of ``count`` untried moves."""
        return int(rng.random() * count)

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.log = WindowLog()
        self.windows: tuple[tuple[int, int], ...] = ()
        self.template: PublicDeal | None = None
        self.constraints: Constraints | None = None
        self.sampler: Sampler | None = None
        self._values: tuple[tuple[int, ...], tuple[bool, ...], bool, int] = ((), (), False, 0)

    def observe(self, view: PlayerView) -> None:
        """Keep the exchange windows the seat has seen (every view counts)."""
        self.windows = self.log.observe(view)

    def searchable(self, view: PlayerView) -> bool:
        """Every decision but a challenge."""
        return view.awaiting is not Decision.CHALLENGE

    def prepare(self, view: PlayerView) -> None:
        """Replay ``view`` and read its constraints."""
        try:
            public = replay(view, self.windows)
        except ReplayError:
            public = replay(view)
        hands = [0] * view.players
        hands[view.seat] = mask_of(view.hand)
        self.template = public.with_hidden(hands, -1)
        self.constraints = Constraints.of(view, self.windows)
        self.sampler = Sampler(self.constraints)
        self._values = (tuple(view.lives), tuple(view.active), view.options.winning,
                        view.options.lives)

    def determinize(self, rng: random.Random) -> LodamWorld:
        """A deal drawn to agree with the constraints."""
        assert self.template is not None and self.sampler is not None
        world = self.sampler.sample(rng)
        return LodamWorld(self.template.with_hidden(world.hands, world.talon_top,
                                                    world.offer_card))

    def hidden(self, world: LodamWorld) -> int | None:
        """Another seat's offer or answer, by the policy."""
        sim = world.sim
        decision = sim.awaiting
        if (decision is OFFER or decision is ANSWER) and sim.to_act != self.seat:
            return exchange_choice(sim)
        return None

    def rollout(self, world: LodamWorld, rng: random.Random) -> None:
        """The policy plays the deal out."""
        rollout(world.sim, rng)

    def values(self, world: LodamWorld) -> Sequence[float]:
        """Each seat's match chances after the deal."""
        lives, active, winning, target = self._values
        sim = world.sim
        return deal_values(lives, active, sim.counter_change, sim.points,
                           winning=winning, target=target)

    def answer(self, view: PlayerView, visits: Mapping[int, int]) -> Action:
        """The code visited most (ties: the lowest code)."""
        best = max(visits, key=lambda code: (visits[code], -code))
        assert view.awaiting is not None
        action = action_of(view.seat, view.awaiting, best)
        return action if action in view.legal else view.legal[0]

    def fallback(self, view: PlayerView, rng: random.Random) -> Action:
        """The simulation policy's answer, from the view alone."""
        try:
            public = replay(view)
            hands = [0] * view.players
            hands[view.seat] = mask_of(view.hand)
            sim = public.with_hidden(hands, -1)
            if sim.awaiting is Decision.PLAY:
                code = play_choice(sim, rng)
            elif view.awaiting in (Decision.DECLARE, Decision.CHALLENGE):
                code = boundary_choice(sim)
            else:
                return view.legal[0]
        except (ReplayError, ValueError, IndexError):
            return view.legal[0]
        legal = {code_of(a): a for a in view.legal}
        return legal.get(code, view.legal[0])
