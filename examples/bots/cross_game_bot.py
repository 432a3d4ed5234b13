"""A bot that plays both games: it gets rid of its lowest card.

A plugin file: ``lodam arena --plugin-dir examples/bots --bots lowest,random*3`` (add
``--game lorum`` for Lorum), or copy it into ``~/.config/lodam/plugins/``. It shows
the typed contract (docs/bots.md): ``decide`` reads either game's ``PlayerView`` and
answers that game's action, telling the games apart by the view's type, and it
compares card strength the way each game says (Lodam: by the table's ``rank_order``,
not the rank's value; Lorum: by the rank's value). Every other decision (offers,
answers, swallowing, declaring, announcing) takes the game's default, which the engine
lists first in ``view.legal``.
"""

from __future__ import annotations

from collections.abc import Mapping

from lodam_p2p.bots import BotType, hookimpl
from lodam_p2p.games import lodam, lorum

#: Either game's view, and either game's action.
View = lodam.PlayerView | lorum.PlayerView
Action = lodam.Action | lorum.Action


class LowestBot:
    """Plays (or lays) its weakest legal card; otherwise the game's default."""

    def __init__(self, *, seat: int, seed: int, options: Mapping[str, object]) -> None:
        self.seat = seat  # it draws nothing at random, so it needs no seed

    def decide(self, view: View) -> Action:
        """The weakest card among the legal plays and lays, else ``view.legal[0]``."""
        if isinstance(view, lodam.PlayerView):
            return self._lodam(view)
        return self._lorum(view)

    @staticmethod
    def _lodam(view: lodam.PlayerView) -> lodam.Action:
        plays = [action for action in view.legal if isinstance(action, lodam.Play)]
        if not plays:
            return view.legal[0]
        order = view.options.rank_order
        return min(plays, key=lambda play: lodam.rank_strength(play.card, order))

    @staticmethod
    def _lorum(view: lorum.PlayerView) -> lorum.Action:
        cards = [action for action in view.legal if isinstance(action, lorum.Play | lorum.Lay)]
        if not cards:
            return view.legal[0]  # a pass, or keeping the red king quiet
        return min(cards, key=lambda action: action.card.rank)


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """One type for both games, with a small budget: it thinks in microseconds."""
    return [BotType("lowest", "plays its weakest legal card (both games)", LowestBot,
                    games=("lodam", "lorum"), budget_s=0.1)]
