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
    for viewer in range(players):
        view = deal.view(viewer)
        assert view.seat == viewer and view.to_act == seat
        leaked = set(cards_in(view, card_type)) & game.hidden_cards(deal, viewer)
        assert not leaked, f"seat {viewer}'s view shows {sorted(map(str, leaked))}"


def play_deal(game: Game, match: GameMatch, rng: random.Random, *,
              checks: bool = True) -> tuple[GameDeal, DealRun]:
    """One deal of random legal moves through the interface (not yet finished)."""
    plan = game.deal_plan(match)
    deck = list(plan.pack)
    rng.shuffle(deck)
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


def play_match(game: Game, players: int, seed: int, *,
               checks: bool = True) -> tuple[GameMatch, list[DealRun]]:
    """A whole match of random legal play; every deal's run, in order."""
    rng = random.Random(seed)
    match = game.start_match(game.default_options(), players, rng.randrange(players))
    runs = []
    while not match.is_over:
        assert len(runs) < MAX_DEALS, "the match does not end"
        deal, run = play_deal(game, match, rng, checks=checks and len(runs) < 3)
        game.finish_deal(match, deal)
        runs.append(run)
    return match, runs
