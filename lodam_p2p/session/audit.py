"""The end-of-hand audit of a hand with hidden exchanges: the table's part.

During a hand every peer tracks only the game's public part: a played card is the card
its position revealed, an offer is a kind and a salted commitment to the position put
down, an exchange is two positions and an announced outcome. Once every seat has opened
its secrets the fair-deal audit knows the card at every position. The table then opens
each offer's commitment against the seat's opening (:func:`opened_offers`) and hands
the game its log, the opened offers and the transfers the fair deal recorded
(:meth:`HiddenExchange.audit <lodam_p2p.games.HiddenExchange.audit>`); the game's
replay checks what nobody could check before — a renounce that was a revoke
(RULES.md 8), a card offered or answered that was not held or not of its kind, a
"void" or "done" that lied — and names the first offender. Every honest peer replays
the same log against the same opened deck, so all of them reach the same verdict.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from lodam_p2p.games import LoggedMove

#: Blame checks that are rules offences proven by the audit (the seat is out: RULES.md 8).
RULES_OFFENCES = frozenset({"revoke", "false-play", "false-exchange-kind", "false-offer",
                            "false-answer", "false-void-claim", "offer-opening",
                            "illegal-action", "transfer-position"})


def offer_commitment(table_id: bytes, hand: int, seat: int, *, step: int, position: int,
                     salt: bytes) -> bytes:
    """Binds an offer to the position put down, without showing it."""
    data = (b"lodam/offer\x00" + table_id + hand.to_bytes(4, "big")
            + bytes([seat]) + step.to_bytes(4, "big") + position.to_bytes(2, "big") + salt)
    return hashlib.sha256(data).digest()


def opened_offers(table_id: bytes, hand: int, log: Sequence[LoggedMove],
                  commitments: Mapping[int, bytes],
                  openings: Mapping[int, Mapping[int, tuple[int, bytes]]]) -> dict[int, int | str]:
    """Per step of a face-down offer in ``log``, the position its seat's opening shows,
    or why the opening fails its commitment (made at that step, ``commitments``)."""
    offers: dict[int, int | str] = {}
    for entry in log:
        if entry.kind != "offer" or entry.args[0] is None:
            continue
        opened = openings.get(entry.seat, {}).get(entry.step)
        if opened is None:
            offers[entry.step] = f"no opening for the offer at step {entry.step}"
            continue
        position, salt = opened
        if not 0 <= position < 1 << 16 or offer_commitment(
                table_id, hand, entry.seat, step=entry.step, position=position,
                salt=salt) != commitments.get(entry.step):
            offers[entry.step] = "the opening does not match the commitment"
        else:
            offers[entry.step] = position
    return offers
