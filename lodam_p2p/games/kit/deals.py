"""What every layer may read of a game's deal, match and seat view, whatever the game:
the few members the game interface (:mod:`lodam_p2p.games.interface`) and the state API
(:mod:`lodam_p2p.games.kit.state`) step a deal by. A game's own values hold much more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class SeatView(Protocol):
    """What every layer may read of a seat's view; a game's view holds much more."""

    @property
    def seat(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def legal(self) -> Sequence[Any]: ...


class GameDeal(Protocol):
    """One deal with every card known, stepped the same way in every game."""

    @property
    def to_act(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[Any]: ...
    def apply(self, action: Any) -> None: ...
    def view(self, seat: int) -> Any: ...
    def default_action(self) -> Any: ...


class GameMatch(Protocol):
    """A match in progress, as every layer may read it."""

    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def deals_played(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
