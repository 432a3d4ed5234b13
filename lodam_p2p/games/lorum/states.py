"""Lorum for the kit's state API (:mod:`lodam_p2p.games.kit.state`): its actions
numbered ``0 … 66`` — play card ``i`` is ``i``, lay card ``i`` is ``32 + i``, a pass is
64, keeping the Red King quiet 65 and announcing it 66 — and its deals made with the
steps that offer no choice taken by the deal itself (a Quartet run card, a forced pass,
a blind play), so that every state that awaits a seat offers it a choice."""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.games.kit.deals import GameMatch
from lodam_p2p.games.lorum.actions import (
    ANNOUNCES,
    LAYS,
    PASSES,
    PLAYS,
    Action,
    Announce,
    IllegalAction,
    Lay,
    Pass,
    Play,
)
from lodam_p2p.games.lorum.cards import CARDS
from lodam_p2p.games.lorum.deal import Deal
from lodam_p2p.games.lorum.match import Match
from lodam_p2p.games.lorum.view import PlayerView

LAY_BASE = len(CARDS)
PASS_CODE = 2 * len(CARDS)
QUIET_CODE = PASS_CODE + 1
ANNOUNCE_CODE = PASS_CODE + 2


def code_of(action: Action) -> int:
    """The number of a Lorum action."""
    if isinstance(action, Play):
        return action.card.index
    if isinstance(action, Lay):
        return LAY_BASE + action.card.index
    if isinstance(action, Pass):
        return PASS_CODE
    return ANNOUNCE_CODE if action.announced else QUIET_CODE


class LorumCodes:
    """The :class:`~lodam_p2p.games.kit.state.DealCodes` of Lorum."""

    size = ANNOUNCE_CODE + 1

    def legal_codes(self, deal: Deal) -> Sequence[int]:
        """The legal actions' numbers, ascending."""
        return sorted(code_of(action) for action in deal.legal_actions())

    def apply_code(self, deal: Deal, code: int) -> None:
        """Apply the seat to act's action numbered ``code`` (checked by the deal)."""
        seat = deal.to_act
        if seat is None:
            raise IllegalAction(0, None, "the deal is over")
        deal.apply(self.action(seat, code))

    def action(self, seat: int, code: int) -> Action:
        """The interned action of ``seat`` numbered ``code``."""
        if not 0 <= seat < len(PLAYS) or not 0 <= code < self.size:
            raise IllegalAction(seat, None, f"{code} is no move")
        if code < LAY_BASE:
            return PLAYS[seat][code]
        if code < PASS_CODE:
            return LAYS[seat][code - LAY_BASE]
        if code == PASS_CODE:
            return PASSES[seat]
        announce: Announce = ANNOUNCES[seat][code - QUIET_CODE]
        return announce

    def code(self, action: Action) -> int:
        """The number of ``action``."""
        return code_of(action)

    def new_deal(self, match: GameMatch, deck: Sequence[object] | None) -> Deal:
        """The match's next deal, the steps without a choice taken by the deal."""
        if not isinstance(match, Match):
            raise IllegalAction(0, None, "a Lorum deal needs its match")
        return match.new_deal(deck, auto=True)  # type: ignore[arg-type]


    def view(self, deal: Deal, seat: int) -> PlayerView:
        """The deal's view of ``seat``."""
        return deal.view(seat)

#: Lorum's action numbers.
CODES = LorumCodes()
