"""The fast simulation path agrees with the engine: same turns, moves, points, results."""

from __future__ import annotations

import random

import pytest

from lodam_p2p.rules import FULL_PACK, SHORT_PACK, Deal, Offer, Options
from lodam_p2p.rules.cards import mask_of
from lodam_p2p.rules.fastsim import (
    DECISION_CODE,
    OVER,
    SimDeal,
    action_of,
    bits,
    code_of,
)

OPTION_SETS = [
    {},
    {"declare_out": True},
    {"declare_out": True, "out_at": 12},
    {"trump_memory": True},
    {"winning": True},
    {"exchanges": "first_trick"},
    {"exchanges": "off", "out_at": 15},
    {"rank_order": "parlett", "out_at": 20},
    {"short_deck_at": 4},
    {"hand_size": 3},
]


def _table(rng: random.Random, options: Options) -> tuple[list[int], list[bool] | None]:
    """Lives per seat; some seats eliminated (watchers) now and then."""
    players = rng.randint(3 if options.short_deck_at == 0 else 2, 10)
    if options.short_deck_at:
        players = rng.randint(2, 4)
    lives = [rng.randint(1, 3) for _ in range(players)]
    if not options.winning and players > 3 and rng.random() < 0.5:
        lives[rng.randrange(players)] = 0
    return lives, None


def _agree(deal: Deal, sim: SimDeal) -> None:
    """Every public fact the simulation keeps equals the engine's."""
    if deal.is_over:
        assert sim.awaiting == OVER
        result = deal.result()
        assert tuple(sim.counter_change) == result.counter_change
        assert (None if sim.out < 0 else sim.out) == result.out
        assert sim.points == list(result.points)
        return
    assert deal.awaiting is not None
    assert sim.to_act == deal.to_act
    assert sim.awaiting == DECISION_CODE[deal.awaiting]
    assert sim.points == deal.points
    assert sim.leader == deal.leader
    assert sim.trump == (-1 if deal.trump is None else int(deal.trump))
    for seat in range(deal.players):
        assert sim.hands[seat] == mask_of(deal.hand(seat))
    seat = sim.to_act
    expected = deal.legal_actions()
    assert [action_of(seat, sim.awaiting, c) for c in sim.legal()] == expected
    assert [code_of(a) for a in expected] == sim.legal()


def _play_both(rng: random.Random, options: Options, switch_at: int | None) -> int:
    """Play one deal on both paths with random moves; optionally rebuild the
    simulation from the engine's public deal part-way. The number of steps taken."""
    lives, active = _table(rng, options)
    dealt_in = sum(1 for life in lives if life > 0 or options.winning)
    pack = SHORT_PACK if options.pack_size(dealt_in) == 32 else FULL_PACK
    deck = rng.sample(pack, len(pack))
    dealer = rng.randrange(len(lives))
    while lives[dealer] == 0 and not options.winning:
        dealer = (dealer + 1) % len(lives)
    deal = Deal.start(options, dealer, lives, deck, active)
    sim = SimDeal.start(options, dealer, lives, deck, active)
    offered = -1
    steps = 0
    while True:
        _agree(deal, sim)
        if deal.is_over:
            return steps
        if steps == switch_at:
            hands = [mask_of(deal.hand(s)) for s in range(deal.players)]
            pending = offered if deal.public.pending_offer is not None else -1
            sim = SimDeal.from_public(deal.public, hands, deal.talon[0].index, pending)
            _agree(deal, sim)
        legal = deal.legal_actions()
        # prefer the quiet answers a little, so that deals also run long
        action = legal[0] if len(legal) > 1 and rng.random() < 0.3 else rng.choice(legal)
        if isinstance(action, Offer) and action.card is not None:
            offered = action.card.index
        deal.apply(action)
        sim.step(code_of(action))
        steps += 1


@pytest.mark.parametrize("values", OPTION_SETS, ids=lambda v: ",".join(map(str, v)) or "default")
def test_lockstep_from_the_start(values: dict[str, object]) -> None:
    options = Options.from_mapping(values)
    rng = random.Random(repr(values))
    for _ in range(60):
        _play_both(rng, options, None)


@pytest.mark.parametrize("values", OPTION_SETS, ids=lambda v: ",".join(map(str, v)) or "default")
def test_rebuilt_mid_deal_from_the_public_part(values: dict[str, object]) -> None:
    options = Options.from_mapping(values)
    rng = random.Random("mid" + repr(values))
    for _ in range(60):
        _play_both(rng, options, rng.randrange(40))


def test_copy_is_independent() -> None:
    rng = random.Random(3)
    deck = rng.sample(FULL_PACK, 52)
    sim = SimDeal.start(Options(), 0, [3] * 4, deck)
    twin = sim.copy()
    for _ in range(12):
        twin.step(twin.legal()[-1])
    fresh = SimDeal.start(Options(), 0, [3] * 4, deck)
    assert twin.hands != sim.hands
    for name in SimDeal.__slots__:
        assert getattr(sim, name) == getattr(fresh, name), name


def test_bits_lists_indices_in_order() -> None:
    assert bits(0) == []
    assert bits((1 << 51) | (1 << 13) | 1) == [0, 13, 51]
