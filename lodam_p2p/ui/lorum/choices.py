"""A Lorum decision as a row of choices: the cards of the hand, and buttons.

The same shape as :mod:`~lodam_p2p.ui.lodam.choices` for Lodam: every card of the hand is a
:class:`LorumChoice`, with the action it would take or ``None`` (shown dimmed, with the
rules' reason kept for when it is tried); what is not a card — the Red King announcement,
a pass — is a button. The cursor walks cards first, then buttons.

Steps without a choice (a Quartet run card, a forced pass, a blind play) are answered by
the player at once (:func:`~lodam_p2p.ui.lorum.player.forced`), so a prompt only ever
offers a real decision.
"""

from __future__ import annotations

from collections.abc import Callable

from lodam_p2p.games.lorum import (
    Action,
    Announce,
    Card,
    Contract,
    Decision,
    Lay,
    Pass,
    Play,
    PlayerView,
    Rank,
    Suit,
)
from lodam_p2p.ui.german import card_label, sort_hand, suit_symbol
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.prompts import GameChoice, GamePrompt, Namer, first_legal, hand_choices


class LorumChoice(GameChoice[Action, Card]):
    """One thing the person can point at: a card of the hand, or a button."""

    __slots__ = ()


class LorumPrompt(GamePrompt[Decision, Action, Card]):
    """A Lorum decision put to the person."""

    __slots__ = ()


def lorum_prompt(view: PlayerView, glyphs: Glyphs, name: Namer) -> LorumPrompt:
    """The prompt for the decision ``view`` awaits from its seat."""
    decision = view.awaiting
    if decision is Decision.ANNOUNCE:
        return _announce(view)
    if decision is Decision.LAY:
        return _lay(view, glyphs)
    return _play(view, glyphs, name)


def _hand(view: PlayerView, glyphs: Glyphs, make: Callable[[Card], Action],
          refusal: Callable[[Card], str]) -> tuple[LorumChoice, ...]:
    return hand_choices(LorumChoice, sort_hand(view.hand), set(view.legal),
                        label=lambda card: card_label(card, glyphs), make=make,
                        refusal=refusal)


def _play(view: PlayerView, glyphs: Glyphs, name: Namer) -> LorumPrompt:
    seat = view.seat
    if not view.hand and view.legal:  # blind: the next card, unseen, is the only play
        button = LorumChoice("play your next card, face down", view.legal[0], key="p")
        return LorumPrompt(Decision.PLAY, "Blind: your next card goes to the trick.", (),
                           (button,), 0)
    cards = _hand(view, glyphs, lambda c: Play(seat, c), lambda c: _why(view, c, glyphs))
    if view.awaiting_card is not None:
        question = f"You hold {card_label(view.awaiting_card, glyphs)}: it goes on the run."
    elif view.contract is Contract.QUARTET:
        question = "Your lead: play any card; the next higher of its suit follows."
    elif view.current_trick:
        led = view.current_trick[0][1].suit
        question = (f"Play to {name(view.current_trick[0][0])}'s "
                    f"{suit_symbol(led, glyphs)} lead.")
    else:
        question = "Your lead."
        if view.contract in (Contract.REDS, Contract.OBERS) and not view.tricks:
            question += " (First trick: " + _first_trick_words(view.contract) + ")"
    return LorumPrompt(Decision.PLAY, question, cards, (), first_legal(cards))


def _first_trick_words(contract: Contract) -> str:
    return "no heart unless you hold only hearts" if contract is Contract.REDS else \
        "no Ober unless you hold only Obers"


def _why(view: PlayerView, card: Card, glyphs: Glyphs) -> str:
    """Why ``card`` may not be played now (it is not among the legal plays)."""
    if view.current_trick:
        led = view.current_trick[0][1].suit
        if card.suit != led and any(c.suit == led for c in view.hand):
            return f"you must follow suit: {suit_symbol(led, glyphs)}"
    if view.contract is Contract.REDS and card.suit is Suit.H:
        return "no heart in the first trick while you hold other suits"
    if view.contract is Contract.OBERS and card.rank is Rank.OBER:
        return "no Ober in the first trick unless it is all you may play"
    return "the rules forbid it here"


def _lay(view: PlayerView, glyphs: Glyphs) -> LorumPrompt:
    seat = view.seat
    fits = ", ".join(card_label(c, glyphs) for c in sort_hand(view.fits)) or "the first card"
    cards = _hand(view, glyphs, lambda c: Lay(seat, c),
                  lambda c: f"it does not fit the rows (fitting now: {fits})")
    buttons: tuple[LorumChoice, ...] = ()
    if Pass(seat) in view.legal:
        buttons = (LorumChoice("pass (1 point)", Pass(seat), key="p"),)
    if view.start_rank < 0:
        question = "You lay first: any card; its rank starts every row."
    elif buttons:
        question = "Nothing of yours fits the rows: you pass and score 1 point."
    else:
        question = "Lay a card that fits a row (a row's next card, or a new row)."
    default = len(cards) if buttons else first_legal(cards)
    return LorumPrompt(Decision.LAY, question, cards, buttons, default)


def _announce(view: PlayerView) -> LorumPrompt:
    seat = view.seat
    buttons = (LorumChoice("keep quiet", Announce(seat, False), key="n"),
               LorumChoice("announce the Red King", Announce(seat, True), key="a"))
    question = "Announce the Red King? Whoever takes it in the last trick scores 64, not 32."
    return LorumPrompt(Decision.ANNOUNCE, question, (), buttons, 0)



def typed_choice(prompt: LorumPrompt, typed: str) -> int | None:
    """The index of the card typed as ``typed`` — rank then suit letter, the ten as ``10``
    or ``t`` (``ou``, ``10h``, ``th``, ``7s``) — or ``None`` when no card of the prompt is
    written so."""
    text = typed.strip().upper().replace("10", "T")
    for i, choice in enumerate(prompt.cards):
        if choice.card is not None and str(choice.card) == text:
            return i
    return None
