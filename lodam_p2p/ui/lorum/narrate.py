"""A Lorum deal told in sentences, for the log: what changed between two views.

Everything a Lorum view shows is public once it happens (cards are played and laid face
up, a pass is announced), so the story is the difference of two views of one seat:
cards added to the trick or the run, a trick or run finished, lays and passes, the Red
King announced, a player out of cards. Nothing here can tell more than the views did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lodam_p2p.games.lorum import Card, Contract, PlayerView
from lodam_p2p.ui.german import card_label, contract_name
from lodam_p2p.ui.narration import LogLine, SeatNarrator


@dataclass(frozen=True, slots=True)
class LorumNarrator(SeatNarrator):
    """Turns Lorum view changes into log lines, naming seats by name (the shell's
    :class:`~lodam_p2p.ui.narration.SeatNarrator`)."""

    def new_deal(self, number: int, view: PlayerView) -> list[LogLine]:
        """The opening line of a deal."""
        eldest = (view.dealer + 1) % view.players
        verb = "lays" if view.contract is Contract.LORUM else "leads"
        return [("class:log.deal",
                 f"Deal {number}, {contract_name(view.contract)}: "
                 f"{self.who(view.dealer)} {self.verb(view.dealer, 'deals', 'deal')}, "
                 f"{self.who(eldest)} {self.verb(eldest, verb, verb[:-1])} first.")]

    def changes(self, old: PlayerView, new: PlayerView) -> list[LogLine]:
        """What happened between ``old`` and ``new`` (two views of one seat and deal)."""
        lines: list[LogLine] = []
        if new.announced and not old.announced:
            lines.append(("class:log.trick", "The Red King is announced: 64 for whoever "
                                             "takes it."))
        lines += self._lays(old, new) + self._plays(old, new)
        for seat in new.out[len(old.out):]:
            lines.append(("class:log.deal", f"{self.Who(seat)} "
                          f"{self.verb(seat, 'is', 'are')} out of cards."))
        return lines

    def _lays(self, old: PlayerView, new: PlayerView) -> list[LogLine]:
        lines: list[LogLine] = []
        for seat, card in new.lays[len(old.lays):]:
            if seat is None:
                assert card is not None
                lines.append(("", f"The set-aside {card_label(card, self.glyphs)} "
                                  f"is laid."))
            elif card is None:
                lines.append(("class:log.trick", f"{self.Who(seat)} "
                              f"{self.verb(seat, 'passes', 'pass')} (+1)."))
            else:
                lines.append(("", f"{self.Who(seat)} {self.verb(seat, 'lays', 'lay')} "
                                  f"{card_label(card, self.glyphs)}."))
        return lines

    def _plays(self, old: PlayerView, new: PlayerView) -> list[LogLine]:
        lines: list[LogLine] = []
        finished = new.tricks[len(old.tricks):]
        seen = len(old.current_trick)
        for trick in finished:
            lines += self._cards(trick.cards[seen:], seen)
            seen = 0
            lines.append(self._taken(new, trick.winner, trick.points))
        lines += self._cards(new.current_trick[seen:], seen)
        return lines

    def _cards(self, cards: Sequence[tuple[int, Card]], start: int) -> list[LogLine]:
        out: list[LogLine] = []
        for i, (seat, card) in enumerate(cards, start=start):
            verb = self.verb(seat, "leads", "lead") if i == 0 else self.verb(
                seat, "plays", "play")
            out.append(("", f"{self.Who(seat)} {verb} {card_label(card, self.glyphs)}."))
        return out

    def _taken(self, view: PlayerView, winner: int, points: int) -> LogLine:
        if view.contract is Contract.QUARTET:
            return ("class:log.trick", f"The run ends: {self.who(winner)} "
                                       f"{self.verb(winner, 'leads', 'lead')} next.")
        gained = f" (+{points})" if points else ""
        return ("class:log.trick", f"{self.Who(winner)} "
                f"{self.verb(winner, 'takes', 'take')} the trick{gained}.")
