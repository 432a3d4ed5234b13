"""Sampled worlds agree with the view, and what the bot deduces never excludes the truth."""

from __future__ import annotations

import random

import pytest

from lodam_p2p.games.lodam import Deal, Options, PlayerView
from lodam_p2p.games.lodam.cards import CARDS, FULL_MASK, SHORT_MASK, mask_of
from lodam_p2p.games.lodam.codes import SUIT_MASK, bits
from lodam_plugins.lodam.replay import WindowLog, replay
from lodam_plugins.lodam.sample import Constraints, World, sample
from tests.ismcts.helpers import OPTION_SETS, Moment, moments, new_deal, option_id


def _played(view: PlayerView) -> int:
    cards = [c for t in view.tricks for _s, c in t.cards] + [c for _s, c in view.current_trick]
    return mask_of(cards)


def _shown_voids(view: PlayerView, windows: tuple[int, ...]) -> list[tuple[int, int]]:
    """(seat, suit) pairs every world must respect, worked out here independently:
    a renounce, and no exchange since that went through with a seat other than us."""
    out = []
    tricks = [t.cards for t in view.tricks] + [view.current_trick]
    for index, cards in enumerate(tricks):
        for seat, card in cards[1:]:
            if card.suit == cards[0][1].suit or seat == view.seat:
                continue
            refilled = any(
                e.acceptor is not None and not e.void and seat in (e.offerer, e.acceptor)
                and view.seat not in (e.offerer, e.acceptor) and window > index
                for e, window in zip(view.exchanges, windows, strict=True)
            )
            if not refilled:
                out.append((seat, int(cards[0][1].suit)))
    return out


def _traded(view: PlayerView) -> list[tuple[int, int]]:
    """(seat, card) we know a seat holds: the latest exchange we took part in, when the
    other trader has not played the card nor traded since."""
    out = []
    played = _played(view)
    for i, e in enumerate(view.exchanges):
        if e.given is None or e.received is None or e.acceptor is None:
            continue
        other = e.acceptor if e.offerer == view.seat else e.offerer
        card = e.received if e.void else e.given
        later = [x for x in view.exchanges[i + 1 :] if other in (x.offerer, x.acceptor)]
        if not later and not played >> card.index & 1:
            out.append((other, card.index))
    return out


def _check_world(world: World, moment: Moment) -> None:
    view, deal = moment.view, moment.deal
    played = _played(view)
    assert world.hands[view.seat] == mask_of(view.hand)
    for seat, hand in enumerate(world.hands):
        assert hand.bit_count() == view.hand_sizes[seat]
        assert hand & played == 0
    for seat, card in _traded(view):
        assert world.hands[seat] >> card & 1
    handed = [0] * view.players
    for e in view.exchanges:
        if e.given is not None and e.received is not None and e.acceptor is not None:
            other = e.acceptor if e.offerer == view.seat else e.offerer
            handed[other] |= 1 << (e.received if e.void else e.given).index
    for seat, suit in _shown_voids(view, moment.windows):  # but for what we handed it
        assert world.hands[seat] & SUIT_MASK[suit] & ~handed[seat] == 0, (seat, suit)
    if view.trump_card is not None:
        assert world.talon_top == view.trump_card.index
    if view.pending_offer is not None:
        assert world.hands[view.pending_offer.offerer] >> world.offer_card & 1
        assert CARDS[world.offer_card].kind is view.pending_offer.kind
    # the engine's own check of a determinization accepts it
    held = 0
    for hand in world.hands:
        held |= hand
    pack = FULL_MASK if deal.public.pack_size == 52 else SHORT_MASK
    rest = bits(pack & ~held & ~played)
    rest.sort(key=lambda c: c != world.talon_top)
    hands = [[CARDS[i] for i in bits(h)] for h in world.hands]
    offered = CARDS[world.offer_card] if world.offer_card >= 0 else None
    Deal.from_public(replay(view), hands, [CARDS[i] for i in rest], offered)


def _truth_fits(constraints: Constraints, moment: Moment) -> None:
    """The real deal meets every constraint the seat worked out."""
    deal, view = moment.deal, moment.view
    truth = [mask_of(deal.hand(s)) for s in range(deal.players)]
    for seat in range(deal.players):
        if seat != view.seat:
            assert truth[seat] & ~constraints.allowed(seat) == 0, seat
            assert constraints.pinned[seat] & ~truth[seat] == 0, seat
    for check in constraints.checks:
        assert check.holds(truth), check
    if constraints.offer is not None:
        assert constraints.allowed(constraints.offer[0]) >> moment.offer_card & 1


@pytest.mark.parametrize("values", OPTION_SETS, ids=option_id)
def test_worlds_agree_with_the_view(values: dict[str, object]) -> None:
    options = Options.from_mapping(values)
    rng = random.Random("worlds" + option_id(values))
    draws = random.Random(1)
    for _ in range(12):
        deal = new_deal(rng, options)
        logs = [WindowLog() for _ in range(deal.players)]
        for moment in moments(rng, deal):
            view = moment.view
            if not view.active[view.seat]:
                continue
            windows = logs[view.seat].observe(view)
            constraints = Constraints.of(view, windows)
            _truth_fits(constraints, moment)
            for _ in range(3):
                _check_world(sample(constraints, draws), moment)


def test_late_deal_with_many_voids_still_samples() -> None:
    """Near the end of long deals the exact fallback keeps every draw possible."""
    options = Options.from_mapping({"exchanges": "off"})
    rng = random.Random(9)
    draws = random.Random(2)
    for _ in range(20):
        deal = new_deal(rng, options)
        for moment in moments(rng, deal):
            if len(moment.view.tricks) >= deal.public.hand_size - 2:
                constraints = Constraints.of(moment.view, ())
                _check_world(sample(constraints, draws), moment)
