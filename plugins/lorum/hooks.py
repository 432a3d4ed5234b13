"""What Lorum tells the one search (:mod:`plugins.search`): :class:`LorumHooks`.

1. **Where the deal stands**: :class:`plugins.lorum.sample.Worlds` rebuilds the
   engine's public deal from the view's record, so the engine decides whose turn comes
   next.
2. **What could be hidden**: it draws the other hands (and, blind, one's own) so that
   they agree with everything the view shows (``Deal.from_public``).
3. **Rollouts**: the heuristic plan of :mod:`plugins.lorum.policy`, with a little
   randomness (``epsilon``), or uniformly random moves.
4. **Values per seat** from the deal's points: how far a seat's points are below the
   others' mean, in the contract's usual range (a penalty game: lowest total wins).

The tree's moves are the engine's actions; every move of the deal is public.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from lodam_p2p.games.lorum import Action, Contract, Deal, Lay, Play, PlayerView, RulesError
from lodam_p2p.games.lorum.cards import mask_of
from .policy import choose
from .sample import Worlds
from .spot import spot_of_deal, spot_of_view

#: Per contract, the points difference that makes a value of ±0.76 (``tanh(1)``): about
#: how far one seat's points in a deal stray from the others' (the Red King: its usual
#: 8 to 32). Values stay nearly linear in points below it, so that UCB tells moves apart
#: by a point or two; larger differences still count, less and less, so that one 64
#: does not drown every other outcome.
SCALE = {
    Contract.REDS: 6.0, Contract.OBERS: 6.0, Contract.TRICKS: 4.0,
    Contract.FIRST_LAST: 8.0, Contract.FIFTH: 8.0, Contract.RED_KING: 16.0,
    Contract.QUARTET: 6.0, Contract.LORUM: 6.0,
}


class LorumWorld:
    """A sampled deal, stepped by its actions with the kit's state API names."""

    __slots__ = ("deal",)

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def current_player(self) -> int:
        """The seat to act (-1 once the deal is over)."""
        seat = self.deal.to_act
        return -1 if seat is None else seat

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions."""
        return self.deal.legal_actions()

    def apply(self, action: Action) -> None:
        """Take ``action``."""
        self.deal.apply(action)

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return self.deal.is_over


class LorumHooks:
    """Lorum's knowledge for the search (see the module docstring)."""

    failures: tuple[type[Exception], ...] = (RulesError, ValueError, IndexError,
                                             AssertionError)
    secrets = False  #: every Lorum move is public
    forced_nodes = False  #: every action names its seat

    def untried(self, rng: random.Random, count: int) -> int:
        """A uniform draw of one of ``count`` untried moves."""
        return rng.randrange(count)

    def __init__(self, *, random_rollouts: bool = False, epsilon: float = 0.1) -> None:
        self.random_rollouts = random_rollouts
        self.epsilon = epsilon
        self.worlds: Worlds | None = None

    def observe(self, view: PlayerView) -> None:
        """Nothing to keep between views: each view holds the whole record."""

    def searchable(self, view: PlayerView) -> bool:
        """Every decision."""
        return True

    def prepare(self, view: PlayerView) -> None:
        """Read what the view shows of the hidden cards."""
        self.worlds = Worlds(view)

    def determinize(self, rng: random.Random) -> LorumWorld:
        """A full deal at the view's point in one sampled world."""
        assert self.worlds is not None
        return LorumWorld(self.worlds.deal(rng))

    def hidden(self, world: LorumWorld) -> Action | None:
        """None: every Lorum move is public."""
        return None

    def rollout(self, world: LorumWorld, rng: random.Random) -> None:
        """Play the deal out by the plan (or at random)."""
        deal = world.deal
        if self.random_rollouts:
            while not deal.is_over:
                legal = deal.legal_actions()
                deal.apply(legal[rng.randrange(len(legal))])
            return
        epsilon = self.epsilon
        # hands kept as masks; Quartet run cards are played by the deal itself, so
        # there the hand is read afresh (its decisions are only the leads)
        hands = [mask_of(deal.hand(s)) for s in range(deal.players)]
        quartet = deal.contract is Contract.QUARTET
        while not deal.is_over:
            legal = deal.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif rng.random() < epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                seat = legal[0].seat
                hand = mask_of(deal.hand(seat)) if quartet else hands[seat]
                action = choose(spot_of_deal(deal, hand))
            if isinstance(action, Play | Lay):
                hands[action.seat] &= ~(1 << action.card.index)
            deal.apply(action)

    def values(self, world: LorumWorld) -> Sequence[float]:
        """Each seat's value of the deal (:func:`deal_values`)."""
        return deal_values(world.deal)

    def answer(self, view: PlayerView, visits: Mapping[Action, int]) -> Action:
        """The action visited most (ties: the first in ``view.legal``)."""
        ranked = [(visits[a], -i, a) for i, a in enumerate(view.legal) if a in visits]
        if not ranked:
            return choose(spot_of_view(view))
        return max(ranked, key=lambda t: (t[0], t[1]))[2]

    def fallback(self, view: PlayerView, rng: random.Random) -> Action:
        """The heuristic plan's answer."""
        return choose(spot_of_view(view))


def deal_values(deal: Deal) -> list[float]:
    """Each seat's value of a finished deal: the others' mean points less its own, scaled
    and squashed into ±1 (see :data:`SCALE`)."""
    points = deal.points
    n = len(points)
    total = sum(points)
    scale = SCALE[deal.contract]
    out = []
    for own in points:
        out.append(math.tanh(((total - own) / (n - 1) - own) / scale))
    return out


