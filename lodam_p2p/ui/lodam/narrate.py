"""The deal told in sentences, for the log: what changed between two views.

A player hears a :class:`~lodam_p2p.player.ViewChanged` after every action, but the
action itself only when it hides nothing (another seat's offered card stays secret), so
the story is read from the difference of two views: cards added to the trick, a trick
taken, an offer on the table, an exchange settled, the trump turned. The few actions that
change nothing visible (a declaration, a challenge) come from ``last_action``.

Two options silence parts of the story: under ``declare_out`` nobody's points are
spoken, and under ``trump_memory`` the trump is never named in the log, since the log
stays on the screen longer than the trump may.
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lodam import Action, Challenge, Declare, PlayerView, PublicExchange
from lodam_p2p.ui.glyphs import SUIT_NAMES, kind_words
from lodam_p2p.ui.narration import LogLine, SeatNarrator


@dataclass(frozen=True, slots=True)
class Narrator(SeatNarrator):
    """Turns view changes into log lines, naming seats by name (the shell's
    :class:`~lodam_p2p.ui.narration.SeatNarrator`)."""

    private: bool = True  #: tell what only ``me`` knows (its own exchange cards)

    def new_deal(self, number: int, view: PlayerView) -> list[LogLine]:
        """The opening line of a deal."""
        size = len(view.hand) if view.active[view.seat] else max(view.hand_sizes)
        text = (f"Deal {number}: {self.who(view.dealer)} {self.verb(view.dealer, 'deals', 'deal')}"
                f", {self.who(view.leader)} {self.verb(view.leader, 'leads', 'lead')}; "
                f"{size} cards each, talon {view.talon_size}.")
        return [("class:log.deal", text)]

    def changes(self, old: PlayerView, new: PlayerView, action: Action | None) -> list[LogLine]:
        """What happened between ``old`` and ``new``."""
        lines = self._offers(old, new, action)
        lines += self._plays(old, new)
        lines += self._trick(old, new)
        lines += self._spoken(action)
        return lines

    # -- pieces -------------------------------------------------------------------------

    def _offers(self, old: PlayerView, new: PlayerView, action: Action | None
                ) -> list[LogLine]:
        lines: list[LogLine] = []
        offer = new.pending_offer
        if offer is not None and offer != old.pending_offer:
            kind = kind_words(offer.kind)
            own = getattr(action, "card", None) if offer.offerer == self.me else None
            own = own if self.private else None
            shown = f" ({self.glyphs.card(own)})" if own is not None else ""
            lines.append(("", f"{self.Who(offer.offerer)} "
                              f"{self.verb(offer.offerer, 'offers', 'offer')} {kind}{shown}."))
        for exchange in new.exchanges[len(old.exchanges):]:
            lines.append(("", self._exchange(exchange)))
        return lines

    def _exchange(self, e: PublicExchange) -> str:
        kind = kind_words(e.kind)
        if e.acceptor is None:
            return f"Nobody takes {self._owner(e.offerer)} {e.kind.value}."
        taken = (f"{self.Who(e.acceptor)} {self.verb(e.acceptor, 'takes', 'take')} "
                 f"{self._owner(e.offerer)} {e.kind.value}")
        mine = ""
        if self.private and e.given is not None and e.received is not None:
            mine = (f" (you gave {self.glyphs.card(e.given)}, "
                    f"{'saw' if e.void else 'got'} {self.glyphs.card(e.received)})")
        if e.void:
            return f"{taken}: same suit, void — each keeps their own{mine}."
        return f"{taken} for {kind}: exchanged{mine}."

    def _owner(self, seat: int) -> str:
        return "your" if seat == self.me else f"{self.names[seat]}'s"

    def _plays(self, old: PlayerView, new: PlayerView) -> list[LogLine]:
        grew = len(new.tricks) > len(old.tricks)
        cards = new.tricks[-1].cards if grew else new.current_trick
        lines: list[LogLine] = []
        for i, (seat, card) in enumerate(cards[len(old.current_trick):],
                                         start=len(old.current_trick)):
            verb = self.verb(seat, "leads", "lead") if i == 0 else self.verb(
                seat, "plays", "play")
            lines.append(("", f"{self.Who(seat)} {verb} {self.glyphs.card(card)}."))
        if old.trump_card is None and new.trump_card is not None:
            lines.append(("class:log.trump", self._trump_line(new)))
        return lines

    def _trump_line(self, view: PlayerView) -> str:
        if view.options.trump_memory:
            return "A renounce: the talon's top card is turned for trump. Remember it!"
        card = view.trump_card
        assert card is not None
        return (f"A renounce: the talon's top card is turned, {self.glyphs.card(card)} — "
                f"{SUIT_NAMES[card.suit]} are trumps.")

    def _trick(self, old: PlayerView, new: PlayerView) -> list[LogLine]:
        if len(new.tricks) <= len(old.tricks):
            return []
        trick = new.tricks[-1]
        taker = trick.winner
        verb = self.verb(taker, "swallows", "swallow") if trick.swallowed else self.verb(
            taker, "takes", "take")
        text = f"{self.Who(taker)} {verb} the trick"
        if not new.options.declare_out:
            text += f" (+{trick.points}, now {new.points[taker]})"
        return [("class:log.trick", text + ".")]

    def _spoken(self, action: Action | None) -> list[LogLine]:
        if isinstance(action, Declare) and action.out:
            target = "" if action.challenge is None else (
                f", challenging {self.who(action.challenge)}")
            return [("class:log.trick", f"{self.Who(action.seat)} "
                     f"{self.verb(action.seat, 'declares', 'declare')} out{target}.")]
        if isinstance(action, Challenge) and action.target is not None:
            return [("class:log.trick", f"{self.Who(action.seat)} "
                     f"{self.verb(action.seat, 'challenges', 'challenge')} "
                     f"{self.who(action.target)}.")]
        return []
