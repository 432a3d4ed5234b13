"""The Lorum card-play plan, one rule set per contract, over a :class:`~.spot.Spot`.

Trick contracts (1–6) are all "do not take what scores": each legal card gets a cost,
the chance that it takes the trick times what taking it would cost in this contract,
less the value of being rid of it (high cards, the cards that score, the last card of a
suit so that a void is made). The card of least cost is played. Counting cards gives
the chances: which higher cards of the suit are still out, and whether a seat still to
play can hold one (it has shown a void, or a Lorum pass proved it).

- ``reds``/``obers``: duck under the winning card; discard hearts (Obers) on others'
  tricks; never take one's own Ober or heart when it can be kept.
- ``tricks``: take none; lead low cards that someone must beat.
- ``first_last``/``fifth``: only the scoring tricks (and the lead into them) cost; in
  the free tricks before them, high cards are shed.
- ``red_king``: keep ``KH`` off the table until it can be thrown onto someone else's
  trick; lead low hearts to drive it out; announce only when certain (:func:`announce`).
- ``quartet``: lead the run that stays in one's own hand and ends with one's own card,
  so that the lead comes back (:func:`quartet_lead`).
- ``lorum``: lay the card that opens the row for one's own next cards, keep the cards
  that block rows for the others while other lays remain (:func:`lorum_lay`).
"""

from __future__ import annotations

from lodam_p2p.games.lorum import Action, Announce, Decision
from lodam_p2p.games.lorum.cards import HEARTS, KH_BIT, OBERS, SUIT_MASK
from .spot import (
    FIFTH,
    FIRST_LAST,
    LORUM,
    OBERS_,
    QUARTET,
    RED_KING,
    REDS,
    TRICKS,
    Spot,
)

#: How much being rid of a card weighs against the chance of taking points with it.
SHED_WEIGHT = 0.6
_AH_BIT = HEARTS & ~(HEARTS >> 1)  # the heart Ace (highest heart)
#: Lorum lays: weights of own cards opened, others' cards opened, own cards further along
#: the row.
LORUM_MINE, LORUM_OTHERS, LORUM_AHEAD = 3.0, 2.0, 0.5
#: Quartet leads: weights of the lead coming back, own cards shed, others' cards shed.
QUARTET_BACK, QUARTET_MINE, QUARTET_OTHERS = 10.0, 2.0, 0.5


def choose(spot: Spot) -> Action:
    """The plan's answer to ``spot`` (one of ``spot.legal``)."""
    legal = spot.legal
    if len(legal) == 1:
        return legal[0]
    if spot.awaiting is Decision.ANNOUNCE:
        return _announce_action(spot)
    if spot.code == QUARTET:
        return quartet_lead(spot)
    if spot.code == LORUM:
        return lorum_lay(spot)
    return trick_card(spot)


# -- trick contracts ------------------------------------------------------------------


def trick_card(spot: Spot) -> Action:
    """The card of least cost to this trick (see the module docstring)."""
    cards = spot.legal_cards()
    trick = spot.trick
    led = trick[0][1] >> 3 if trick else -1
    high = max((c & 7 for _, c in trick if c >> 3 == led), default=-1)
    mask = 0
    for _, c in trick:
        mask |= 1 << c
    later = [(spot.seat + k) % spot.players for k in range(1, spot.players - len(trick))]
    outs = spot.outstanding
    best, best_cost = -1, 0.0
    for index in sorted(cards):
        chance = _take_chance(spot, outs, index, led, high, later=later)
        cost = -SHED_WEIGHT * _shed(spot, outs, index)
        if chance:
            cost += chance * _cost_if_taken(spot, outs, index, mask, later)
        if not trick:
            cost += _lead_bias(spot, index)
        if best < 0 or cost < best_cost:
            best, best_cost = index, cost
    return cards[best]


def _take_chance(
    spot: Spot, outs: int, index: int, led: int, high: int, *, later: list[int]
) -> float:
    """Rough chance that playing card ``index`` takes the trick (``outs``: the cards
    still out in other hands)."""
    suit, rank = index >> 3, index & 7
    if led >= 0:
        if suit != led or rank <= high:
            return 0.0
        above = _above(outs, suit, rank)
        if not any(above & ~spot.excluded[s] for s in later):
            return 1.0
        return 0.75 if above.bit_count() == 1 else 0.55
    outs &= SUIT_MASK[suit]
    others = [s for s in range(spot.players) if s != spot.seat]
    if not any(outs & ~spot.excluded[s] for s in others):
        return 1.0
    above = _above(outs, suit, rank).bit_count()
    if not above:
        return 1.0
    below = (outs & ((1 << index) - 1)).bit_count()
    return 0.8 * below / (below + above)


def _above(mask: int, suit: int, rank: int) -> int:
    """The cards of ``mask`` in ``suit`` above ``rank``."""
    return mask & SUIT_MASK[suit] & ~((1 << (suit * 8 + rank + 1)) - 1)


def _cost_if_taken(spot: Spot, outs: int, index: int, mask: int, later: list[int]) -> float:
    """What taking this trick (with ``index`` added) would cost in this contract."""
    code, number, last = spot.code, spot.tricks_played, spot.hand_size - 1
    mask |= 1 << index
    if code == REDS:
        return (mask & HEARTS).bit_count() + (0.3 * len(later) if outs & HEARTS else 0.0)
    if code == OBERS_:
        return 2.0 * (mask & OBERS).bit_count() + (0.6 * len(later) if outs & OBERS else 0.0)
    if code == TRICKS:
        return 1.0
    if code == FIRST_LAST:
        if number in (0, last):
            return float(spot.options.first_last_points)
        return 1.0 if number == last - 1 else 0.0
    if code == FIFTH:
        at = spot.options.fifth_trick - 1
        if number == at:
            return float(spot.options.fifth_points())
        return 1.5 if number == at - 1 else 0.0
    if code == RED_KING:
        if mask & KH_BIT:
            return 16.0 if number == 0 else 32.0 if number == last else 8.0
        return 1.5 * len(later) / max(spot.players - 1, 1) if outs & KH_BIT else 0.0
    return 0.0


def _shed(spot: Spot, outs: int, index: int) -> float:
    """The value of being rid of card ``index`` now."""
    code, bit, rank = spot.code, 1 << index, index & 7
    in_suit = (spot.hand & SUIT_MASK[index >> 3]).bit_count()
    value = (0.2 if code in (FIRST_LAST, FIFTH) else 0.12) * rank
    value += 0.5 if in_suit == 1 else 0.15 if in_suit == 2 else 0.0
    if code == REDS and bit & HEARTS:
        value += 0.6 + 0.05 * rank
    elif code == OBERS_:
        if bit & OBERS:
            value += 2.5
        elif outs & OBERS & SUIT_MASK[index >> 3] and rank > 5:
            value += 0.4
    elif code == RED_KING and outs & KH_BIT and bit & _AH_BIT:
        value += 1.5
    elif code == RED_KING and bit & KH_BIT:
        value += 6.0
    return value


def _lead_bias(spot: Spot, index: int) -> float:
    """Extra cost of leading ``index``: in ``red_king`` a low heart drives the King out;
    in ``obers`` a lead above an Ober still out may catch it."""
    bit, rank, suit = 1 << index, index & 7, index >> 3
    if spot.code == RED_KING and bit & HEARTS and rank < 6 and spot.outstanding & KH_BIT:
        return -1.0
    if spot.code == OBERS_ and rank > 5 and spot.outstanding & OBERS & SUIT_MASK[suit]:
        return 1.0
    return 0.0


# -- the Red King announcement -------------------------------------------------------


def announce(spot: Spot) -> bool:
    """Whether the holder of ``KH`` (one card left) should announce: only when the last
    trick cannot fall to it. That is when ``AH`` is still out (it beats ``KH`` whenever
    hearts come), or when another seat leads and can hold no heart to lead under the
    King (none left, or the leader has shown a heart void)."""
    outs = spot.outstanding
    if outs & _AH_BIT:
        return True
    if spot.leader == spot.seat:
        return False
    return not outs & HEARTS & ~spot.excluded[spot.leader]


def _announce_action(spot: Spot) -> Action:
    wanted = announce(spot)
    for action in spot.legal:
        if isinstance(action, Announce) and action.announced == wanted:
            return action
    return spot.legal[0]


# -- Quartet --------------------------------------------------------------------------


def quartet_lead(spot: Spot) -> Action:
    """Lead the card whose run sheds most of one's own cards and ends in one's own hand
    (the lead comes back), while giving the others as few cards to shed as may be."""
    cards = spot.legal_cards()
    hand, gone = spot.hand, spot.gone
    best, best_score = -1, 0.0
    for index in sorted(cards):
        mine = others = 0
        run = index
        last_mine = True
        for step in range(4):
            if step:
                if run & 7 == 7 or gone >> (run + 1) & 1:
                    break
                run += 1
            last_mine = bool(hand >> run & 1)
            mine += last_mine
            others += not last_mine
        if mine == hand.bit_count() and last_mine:
            return cards[index]  # the run empties the hand: out
        score = (QUARTET_BACK * last_mine + QUARTET_MINE * mine - QUARTET_OTHERS * others
                 - 0.05 * (index & 7))
        if best < 0 or score > best_score:
            best, best_score = index, score
    return cards[best]


# -- Lorum ----------------------------------------------------------------------------


def opened_by(spot: Spot, index: int) -> int:
    """The cards that laying ``index`` would make fit (besides those fitting already)."""
    suit, rank = index >> 3, index & 7
    base = suit * 8
    if spot.options.lorum_start.value == "unter":
        if rank == 4:
            return (1 << (base + 5)) | (1 << (base + 3))
        if rank > 4:
            return 1 << (base + rank + 1) if rank < 7 else 0
        return 1 << (base + rank - 1) if rank > 0 else 0
    following = (rank + 1) % 8
    if spot.start_rank < 0:
        starts = sum(1 << (s * 8 + rank) for s in range(4) if s != suit)
        return starts | 1 << (base + following)
    return 0 if following == spot.start_rank else 1 << (base + following)


def lorum_lay(spot: Spot) -> Action:
    """Lay the card that opens most for oneself and least for the others; a pass when
    nothing fits is the only legal action and comes back at once from :func:`choose`."""
    cards = spot.legal_cards()
    if not cards:
        return spot.legal[0]
    hand, gone = spot.hand, spot.gone
    best, best_score = -1, 0.0
    for index in sorted(cards):
        opened = opened_by(spot, index) & ~gone
        if hand == 1 << index:
            return cards[index]  # the last card: out
        mine = (opened & hand).bit_count()
        others = (opened & ~hand).bit_count()
        ahead = (hand & SUIT_MASK[index >> 3]).bit_count() - 1
        score = LORUM_MINE * mine - LORUM_OTHERS * others + LORUM_AHEAD * ahead
        if best < 0 or score > best_score:
            best, best_score = index, score
    return cards[best]
