"""Driving any game through the game interface alone, with the checks every game owes.

:func:`play_match` plays a whole match of random legal moves and, at every step, holds
the game to the interface's promises (see ``test_conformance.py``). Nothing here names
a game: a game that registers is checked by the same code.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from lodam_p2p.games import DealPlan, Game, GameDeal, GameMatch, Holder

#: A match that has not ended after this many deals is a defect of the game (or of
#: random play being unable to end it); every game's matches end well before.
MAX_DEALS = 400


@dataclass
class Step:
    """One decision taken in random play."""

    seat: int
    action: Any
    legal: list[Any]


@dataclass
class DealRun:
    """One deal of random play: the match before it, its plan, deck and steps."""

    plan: DealPlan
    deck: list[Any]
    steps: list[Step] = field(default_factory=list)


def cards_in(value: object, card_type: type) -> Iterator[object]:
    """Every card inside ``value``: dataclass fields, containers, mapping keys and values."""
    if isinstance(value, card_type):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name), card_type)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from cards_in(item, card_type)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(key, card_type)
            yield from cards_in(item, card_type)


def check_step(game: Game, deal: GameDeal, players: int, card_type: type) -> None:
    """The promises of one moment of a deal (see ``test_conformance.py``)."""
    seat = deal.to_act
    assert seat is not None
    turn = game.turn(game.public_part(deal))
    if isinstance(turn, Holder):
        assert turn.card not in game.hidden_cards(deal, seat), "the holder acts"
        for other in range(players):
            if other != seat:
                assert turn.card in game.hidden_cards(deal, other)
    else:
        assert turn == seat, f"the public part says {turn}, the deal {seat}"
    legal = deal.legal_actions()
    assert legal, "a deal that is not over offers a legal action"
    assert list(deal.view(seat).legal) == legal
    views = [deal.view(viewer) for viewer in range(players)]
    # Cards every view names alike are common knowledge, not a leak: the run card whose
    # holder is awaited, the cards that would fit Lorum's rows. A card one seat's view
    # shows from another's hand is not in every view; a view showing every hand alike is
    # caught by the swap test of ``test_conformance.py``.
    common = set.intersection(*(set(cards_in(view, card_type)) for view in views))
    for viewer, view in enumerate(views):
        assert view.seat == viewer
        if isinstance(turn, Holder) and viewer != seat:
            assert view.to_act is None, "only the holder knows that it is to act"
        else:
            assert view.to_act == seat
        leaked = (set(cards_in(view, card_type)) - common) & game.hidden_cards(deal, viewer)
        assert not leaked, f"seat {viewer}'s view shows {sorted(map(str, leaked))}"


def play_deal(game: Game, match: GameMatch, rng: random.Random, *, checks: bool = True,
              previous: list[Any] | None = None) -> tuple[GameDeal, DealRun]:
    """One deal of random legal moves through the interface (not yet finished);
    ``previous``: the last deal's deck, for a plan that carries it over."""
    plan = game.deal_plan(match)
    if plan.fresh or previous is None:
        deck = list(plan.pack)
        rng.shuffle(deck)
    else:
        deck = previous  # the deck carries over, unshuffled
    run = DealRun(plan, deck)
    deal = game.new_deal(match, deck)
    card_type = type(plan.pack[0])
    while not deal.is_over:
        if checks:
            check_step(game, deal, match.players, card_type)
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions()
        action = legal[rng.randrange(len(legal))]
        deal.apply(action)
        run.steps.append(Step(seat, action, legal))
    return deal, run


def play_match(game: Game, players: int, seed: int, *, checks: bool = True,
               options: Any = None, check_deals: int = 3) -> tuple[GameMatch, list[DealRun]]:
    """A whole match of random legal play (``options``: default the game's); every
    deal's run, in order. ``check_deals``: how many deals, from the first, have every
    step checked."""
    rng = random.Random(seed)
    options = game.default_options() if options is None else options
    match = game.start_match(options, players, rng.randrange(players))
    runs = []
    while not match.is_over:
        assert len(runs) < MAX_DEALS, "the match does not end"
        checked = len(runs) < check_deals
        deal, run = play_deal(game, match, rng, checks=checks and checked,
                              previous=runs[-1].deck if runs else None)
        game.finish_deal(match, deal)
        runs.append(run)
    return match, runs
