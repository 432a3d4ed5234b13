"""Losing Lodam for the kit's state API (:mod:`lodam_p2p.games.kit.state`): its
actions numbered by the engine's own move codes (:mod:`lodam_p2p.games.lodam.codes`,
``0 … LAST_CODE``), taken by the deal's checked ``apply_code``."""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.games.kit.deals import GameMatch
from lodam_p2p.games.lodam.actions import Action, Decision, IllegalAction
from lodam_p2p.games.lodam.codes import (
    ANSWER_BASE,
    CHALLENGE_BASE,
    DECLARE_PASS_CODE,
    LAST_CODE,
    LEAVE,
    OFFER_BASE,
    action_of,
    code_of,
)
from lodam_p2p.games.lodam.deal import Deal
from lodam_p2p.games.lodam.match import Match
from lodam_p2p.games.lodam.view import PlayerView


def decision_of(code: int) -> Decision:
    """The kind of decision a move code answers (the codes' ranges do not overlap)."""
    if code < OFFER_BASE:
        return Decision.PLAY
    if code < ANSWER_BASE:
        return Decision.OFFER
    if code < LEAVE:
        return Decision.ANSWER
    if code < DECLARE_PASS_CODE:
        return Decision.SWALLOW
    if code < CHALLENGE_BASE:
        return Decision.DECLARE
    return Decision.CHALLENGE


class LodamCodes:
    """The :class:`~lodam_p2p.games.kit.state.DealCodes` of Losing Lodam."""

    size = LAST_CODE + 1

    def legal_codes(self, deal: Deal) -> Sequence[int]:
        """The machine's legal codes, ascending (it lists defaults first)."""
        return sorted(deal.legal_codes())

    def apply_code(self, deal: Deal, code: int) -> None:
        """The deal's checked ``apply_code``."""
        deal.apply_code(code)

    def action(self, seat: int, code: int) -> Action:
        """The interned action of ``seat`` for ``code``."""
        if not 0 <= code <= LAST_CODE:
            raise IllegalAction(seat, None, f"{code} is no move")
        return action_of(seat, decision_of(code), code)

    def code(self, action: Action) -> int:
        """The code of ``action``."""
        return code_of(action)

    def new_deal(self, match: GameMatch, deck: Sequence[object] | None) -> Deal:
        """The match's next deal from ``deck`` (Lodam always shuffles anew)."""
        if not isinstance(match, Match) or deck is None:
            raise IllegalAction(0, None, "a Lodam deal needs its match and a new deck")
        return match.new_deal(deck)  # type: ignore[arg-type]


    def view(self, deal: Deal, seat: int) -> PlayerView:
        """The deal's view of ``seat``."""
        return deal.view(seat)

#: Losing Lodam's action numbers.
CODES = LodamCodes()
