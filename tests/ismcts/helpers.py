"""Deals played by random moves, seen from every seat as it decides."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from lodam_p2p.games.lodam import FULL_PACK, SHORT_PACK, Deal, Offer, Options, PlayerView

#: Option sets that between them reach every decision of RULES.md.
OPTION_SETS: list[dict[str, object]] = [
    {},
    {"declare_out": True, "out_at": 14},
    {"trump_memory": True},
    {"winning": True},
    {"exchanges": "first_trick"},
    {"exchanges": "off", "out_at": 20},
    {"rank_order": "parlett"},
    {"short_deck_at": 4},
]


def option_id(values: dict[str, object]) -> str:
    """A short test id for an option set."""
    return ",".join(f"{k}={v}" for k, v in values.items()) or "default"


@dataclass(frozen=True, slots=True)
class Moment:
    """One decision of a deal: the engine, the deciding seat's view, the offered card."""

    deal: Deal
    view: PlayerView
    offer_card: int  #: index of the card on the table during answers, else -1
    windows: tuple[int, ...]  #: the true window (trick index) of each exchange so far


def random_table(rng: random.Random, options: Options) -> tuple[list[int], int]:
    """Lives per seat (an eliminated watcher now and then) and a dealer still in."""
    players = rng.randint(2, 4) if options.short_deck_at else rng.randint(3, 8)
    lives = [rng.randint(1, 3) for _ in range(players)]
    if not options.winning and players > 3 and rng.random() < 0.5:
        lives[rng.randrange(players)] = 0
    dealer = rng.randrange(players)
    while lives[dealer] == 0 and not options.winning:
        dealer = (dealer + 1) % players
    return lives, dealer


def new_deal(rng: random.Random, options: Options) -> Deal:
    """A freshly shuffled deal at a random table."""
    lives, dealer = random_table(rng, options)
    dealt_in = sum(1 for life in lives if life > 0 or options.winning)
    pack = SHORT_PACK if options.pack_size(dealt_in) == 32 else FULL_PACK
    return Deal.start(options, dealer, lives, rng.sample(pack, len(pack)))


def moments(rng: random.Random, deal: Deal) -> Iterator[Moment]:
    """Every decision of ``deal`` played out with random moves (quiet ones preferred a
    little, so that deals also run long)."""
    offer_card = -1
    windows: list[int] = []
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        known = len(deal.public.exchanges)
        windows.extend([len(deal.tricks)] * (known - len(windows)))
        pending = offer_card if deal.public.pending_offer is not None else -1
        yield Moment(deal, deal.view(seat), pending, tuple(windows))
        legal = deal.legal_actions()
        action = legal[0] if len(legal) > 1 and rng.random() < 0.3 else rng.choice(legal)
        if isinstance(action, Offer) and action.card is not None:
            offer_card = action.card.index
        deal.apply(action)
