"""Views and models for the client tests: real deals from seeded decks, driven by rule."""

from __future__ import annotations

import random
from collections.abc import Callable

from lodam_p2p.games.lodam import FULL_PACK, Action, Deal, Decision, Options, Play, PlayerView
from lodam_p2p.player import Phase, Progress, SeatInfo, SeatsChanged, ViewChanged
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lodam.model import TableModel

NAMES = ("ann", "Moll", "Ned", "Bess", "Kit", "Joan", "Hal", "Nan", "Wat", "Tib")


def new_deal(players: int = 5, seed: int = 1, **options: object) -> Deal:
    """A deal from a seeded shuffle of the full pack, dealt by seat ``players - 1``."""
    deck = list(FULL_PACK)
    random.Random(seed).shuffle(deck)
    return Deal.start(Options.from_mapping(options), players - 1, [3] * players, deck)


def quiet(deal: Deal) -> Action:
    """Make no offer, decline, play the first legal card: a deal with no exchanges."""
    default = deal.default_action()
    return default if default is not None else deal.legal_actions()[0]


def advance(deal: Deal, until: Callable[[Deal], bool], policy: Callable[[Deal], Action] = quiet,
            limit: int = 2000) -> Deal:
    """Apply ``policy`` until ``until(deal)`` holds (fails the test if it never does)."""
    for _ in range(limit):
        if until(deal):
            return deal
        assert not deal.is_over, "the deal ended before the wanted position"
        deal.apply(policy(deal))
    raise AssertionError("wanted position not reached")


def my_play_with_lead(deal: Deal) -> bool:
    """Seat 0 must play to a trick someone else led."""
    return (deal.to_act == 0 and deal.awaiting is Decision.PLAY
            and len(deal.current_trick) > 0)


def model_of(view: PlayerView, *, ascii: bool = False, now: float = 0.0) -> TableModel:
    """A model that has seen the seats and ``view`` (and is asked, if the seat is to act)."""
    model = TableModel(glyphs=Glyphs(ascii=ascii), table="test")
    seats = tuple(SeatInfo(s, NAMES[s], "human" if s == 0 else "bot:heuristic")
                  for s in range(view.players))
    model.apply(SeatsChanged(seats, view.seat), now)
    model.apply(Progress(Phase.PLAYING), now)
    model.apply(ViewChanged(view), now)
    if view.to_act == view.seat:
        model.ask(view)
    return model


def plays(prompt_cards: object) -> list[Play]:
    """Typed helper: the play actions among choices."""
    return [c.action for c in prompt_cards if isinstance(c.action, Play)]  # type: ignore[attr-defined]
