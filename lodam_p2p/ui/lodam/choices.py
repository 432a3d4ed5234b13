"""The person's decision as a row of choices: cards of the hand, and buttons.

Every decision of RULES.md becomes a :class:`Prompt`: a question, the cards of the hand
(each with the action it would take, or ``None`` when the rules forbid it, so that it is
shown dimmed) and buttons for what is not a card ("no offer", "swallow", "declare
out"…). The cursor walks one list: cards first, then buttons.

Under ``declare_out`` the declaration buttons are shown whether or not the seat holds
enough points: showing only the legal ones would tell the person their own total, which
the historical game makes them count. Pressing one that the rules refuse gets the rules'
answer ("a declaration below 31 is refused").
"""

from __future__ import annotations

from collections.abc import Callable

from lodam_p2p.games.lodam import (
    Action,
    Answer,
    Card,
    Challenge,
    Decision,
    Declare,
    Offer,
    Play,
    PlayerView,
    Swallow,
)
from lodam_p2p.ui.glyphs import Glyphs, kind_words, sort_hand
from lodam_p2p.ui.prompts import GameChoice, GamePrompt, Namer, first_legal, hand_choices


class Choice(GameChoice[Action, Card]):
    """One thing the person can point at: a card of the hand, or a button."""

    __slots__ = ()


class Prompt(GamePrompt[Decision, Action, Card]):
    """A Losing Lodam decision put to the person."""

    __slots__ = ()


def prompt_for(view: PlayerView, glyphs: Glyphs, name: Namer) -> Prompt:
    """The prompt for the decision ``view`` awaits from its seat."""
    decision = view.awaiting
    assert decision is not None
    if decision is Decision.PLAY:
        return _play(view, glyphs, name)
    if decision is Decision.OFFER:
        return _offer(view, glyphs)
    if decision is Decision.ANSWER:
        return _answer(view, glyphs, name)
    if decision is Decision.SWALLOW:
        return _swallow(view)
    if decision is Decision.DECLARE:
        return _declare(view, name)
    return _challenge(view, name)


def _hand(view: PlayerView, glyphs: Glyphs, make: Callable[[Card], Action],
          refusal: Callable[[Card], str]) -> tuple[Choice, ...]:
    return hand_choices(Choice, sort_hand(view.hand, view.options.rank_order),
                        set(view.legal), label=glyphs.card, make=make, refusal=refusal)


def _play(view: PlayerView, glyphs: Glyphs, name: Namer) -> Prompt:
    seat = view.seat
    if view.current_trick:
        led = view.current_trick[0][1].suit
        question = f"Play to {name(view.current_trick[0][0])}'s {glyphs.suit(led)} lead."
        why = f"you must follow suit: {glyphs.suit(led)}"
    else:
        question, why = "Your lead: play any card.", ""
    cards = _hand(view, glyphs, lambda c: Play(seat, c), lambda c: why)
    first = first_legal(cards)
    return Prompt(Decision.PLAY, question, cards, (), first)


def _offer(view: PlayerView, glyphs: Glyphs) -> Prompt:
    seat = view.seat
    cards = _hand(view, glyphs, lambda c: Offer(seat, c),
                  lambda c: "only a coat (K Q J) or a card (A T) can be offered")
    button = Choice("no offer", Offer(seat, None), key="p")
    question = "Exchange: offer a coat or a card face down, or make no offer."
    return Prompt(Decision.OFFER, question, cards, (button,), len(cards))


def _answer(view: PlayerView, glyphs: Glyphs, name: Namer) -> Prompt:
    seat, offer = view.seat, view.pending_offer
    assert offer is not None
    kind = kind_words(offer.kind)
    cards = _hand(view, glyphs, lambda c: Answer(seat, c),
                  lambda c: f"only {kind} can answer {kind}")
    button = Choice("decline", Answer(seat, None), key="p")
    question = f"{name(offer.offerer)} offers {kind} for {kind}: accept with one, or decline."
    return Prompt(Decision.ANSWER, question, cards, (button,), len(cards))


def _swallow(view: PlayerView) -> Prompt:
    seat = view.seat
    buttons = (Choice("swallow it", Swallow(seat, True), key="y"),
               Choice("leave it", Swallow(seat, False), key="n"))
    question = ("A renounce in this trick, and you played the highest card of the led suit: "
                "swallow the trick?" if view.options.trump_memory else
                "A trump won this trick; you played the highest card of the led suit: "
                "swallow it (take the trick and its points, and lead)?")
    return Prompt(Decision.SWALLOW, question, (), buttons, 1)


def _declare(view: PlayerView, name: Namer) -> Prompt:
    seat, out_at = view.seat, view.options.out_at
    legal = set(view.legal)
    refusal = f"a declaration below {out_at} is refused: play on"
    options: list[tuple[str, Action, str]] = [("not now", Declare(seat, False), "n"),
                                              ("declare out", Declare(seat, True), "d")]
    for target in _others(view):
        options.append((f"out + challenge {name(target)}", Declare(seat, True, target), ""))
    buttons = tuple(Choice(label, action if action in legal else None, key=key,
                           refusal="" if action in legal else refusal)
                    for label, action, key in options)
    question = f"Trick boundary: declare out (you must hold {out_at} or more)?"
    return Prompt(Decision.DECLARE, question, (), buttons, 0)


def _challenge(view: PlayerView, name: Namer) -> Prompt:
    seat = view.seat
    buttons = [Choice("no challenge", Challenge(seat, None), key="n")]
    buttons += [Choice(f"challenge {name(t)}", Challenge(seat, t)) for t in _others(view)]
    legal = set(view.legal)
    shown = tuple(b if b.action in legal else Choice(b.label, None, key=b.key)
                  for b in buttons)
    question = (f"You watch from outside the match: challenge a player to show "
                f"{view.options.out_at} or more points?")
    return Prompt(Decision.CHALLENGE, question, (), shown, 0)


def _others(view: PlayerView) -> list[int]:
    return [s for s in range(view.players) if view.active[s] and s != view.seat]
