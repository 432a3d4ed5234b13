"""Scoring in beans (LORUM.md 8): who pays whom, the pot, and the pfennig sale.

Every point is one bean paid at the end of the deal. Payers pay in turn from the eldest
hand to the left, each in full before the next, so that a sale sees the pot and the purses
as the earlier payments left them. A payer short of beans first sells a pfennig for 20
beans — to the pot if it holds at least 20, else to the player holding the most (at least
20; ties to the first to the seller's left) — and repeats while short and holding one;
then pays in full, into debt (negative beans) if need be. Nothing is created or lost:
``beans + 20 × pfennigs`` over the players and the pot is constant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lodam_p2p.games.lorum.options import Contract

START_BEANS = 20
PFENNIG = 20
#: Contracts whose beans go to the players who took none of what counts (one or two).
_SHARED = (Contract.REDS, Contract.OBERS, Contract.TRICKS)
_TO_FIRST_OUT = (Contract.QUARTET, Contract.LORUM)


@dataclass(slots=True)
class Purse:
    """Beans and pfennigs of every player and of the pot ("Kasse")."""

    beans: list[int]
    pfennigs: list[int]
    pot: int = 0
    pot_pfennigs: int = 0
    #: pfennig sales so far: (seller, buyer or None for the pot)
    sales: list[tuple[int, int | None]] = field(default_factory=list)

    @classmethod
    def start(cls, players: int) -> Purse:
        """Twenty beans and one pfennig each; the pot empty."""
        return cls([START_BEANS] * players, [1] * players)

    def worth(self) -> list[int]:
        """Each player's beans with every pfennig counted as 20 (the final standing)."""
        return [b + PFENNIG * p for b, p in zip(self.beans, self.pfennigs, strict=True)]

    def total(self) -> int:
        """Everything in play, the pot included: constant over a match."""
        return sum(self.worth()) + self.pot + PFENNIG * self.pot_pfennigs


def settle(
    purse: Purse, contract: Contract, points: Sequence[int], out: Sequence[int], eldest: int
) -> None:
    """Pay one deal's points as beans (LORUM.md 8)."""
    n = len(points)
    payers = [(eldest + k) % n for k in range(n)]
    if contract in _TO_FIRST_OUT:
        winner = out[0]
        for seat in payers:
            if seat != winner and points[seat]:
                paid = _collect(purse, seat, points[seat])  # first: a sale may pay the winner
                purse.beans[winner] += paid
        if contract is Contract.LORUM:
            purse.beans[winner] += purse.pot
            purse.pfennigs[winner] += purse.pot_pfennigs
            purse.pot = purse.pot_pfennigs = 0
        return
    takers = [s for s in payers if points[s] == 0] if contract in _SHARED else []
    paid = sum(_collect(purse, seat, points[seat]) for seat in payers if points[seat])
    if not 1 <= len(takers) <= 2:
        purse.pot += paid
        return
    share, rest = divmod(paid, len(takers))
    for seat in takers:
        purse.beans[seat] += share
    purse.beans[takers[0]] += rest


def pay_into_pot(purse: Purse, seat: int, amount: int) -> None:
    """``seat`` pays ``amount`` into the pot (a breach)."""
    paid = _collect(purse, seat, amount)  # first: a sale may change the pot
    purse.pot += paid


def _collect(purse: Purse, seat: int, amount: int) -> int:
    """Take ``amount`` beans from ``seat``, selling pfennigs first if short."""
    while purse.beans[seat] < amount and purse.pfennigs[seat] > 0:
        buyer = _buyer(purse, seat)
        if buyer == -1:
            break
        purse.pfennigs[seat] -= 1
        purse.beans[seat] += PFENNIG
        if buyer is None:
            purse.pot -= PFENNIG
            purse.pot_pfennigs += 1
        else:
            purse.beans[buyer] -= PFENNIG
            purse.pfennigs[buyer] += 1
        purse.sales.append((seat, buyer))
    purse.beans[seat] -= amount
    return amount


def _buyer(purse: Purse, seller: int) -> int | None:
    """The pot (``None``), the richest other player, or -1 when nobody can buy."""
    if purse.pot >= PFENNIG:
        return None
    n = len(purse.beans)
    best, most = -1, PFENNIG - 1
    for step in range(1, n):
        seat = (seller + step) % n
        if purse.beans[seat] > most:
            best, most = seat, purse.beans[seat]
    return best
