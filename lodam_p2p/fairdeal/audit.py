"""The end-of-hand audit: every seat opens its hand key and its shuffle.

What was already checked as it arrived (key proofs, deal and reveal share proofs,
signatures, chains) is not checked again by a live seat; the offline verifier replays
all of it anyway. What only the opening makes checkable:

1. ``x_i·G = X_i``: the opened secret is the hand key (check ``audit-key``);
2. the opened π is a permutation and the opening matches the commitment
   (``shuffle-commitment``);
3. the seat's published deck is exactly the previous deck shuffled with the opening
   (``shuffle``) — a dropped, duplicated or substituted card fails here;
4. every re-mask the seat made: the (π, r, salt) drawn from the opened seed match its
   commitment (``remask-commitment``) and re-derive its new ciphertexts from its
   inputs' held forms under its hand key (``remask``) — a dropped, duplicated or
   invented card fails here.

Once every seat has opened, the card at each final position follows from composing the
permutations (no decryption needed, since step 3 tied every deck to the previous one),
the card at each re-masked position from following the re-mask's π back to its input,
the card at each position a transfer made from decrypting it with the receiver's opened
key (``transfer`` if it is not the card it was made from), and the caller's checker
judges the hand's public actions against that full deal.
"""

from __future__ import annotations

from lodam_p2p.fairdeal.config import HandConfig
from lodam_p2p.fairdeal.errors import blame
from lodam_p2p.fairdeal.group import base_mul, encode_point, mul_public
from lodam_p2p.fairdeal.messages import AuditMsg
from lodam_p2p.fairdeal.record import Record
from lodam_p2p.fairdeal.remask import Remask, remask_commitment, remask_secret
from lodam_p2p.fairdeal.shuffle import (
    ShuffleSecret,
    commitment,
    compose_cards,
    is_permutation,
    rederives,
)


def secret_of(msg: AuditMsg) -> ShuffleSecret:
    """The shuffle opening carried by an audit message."""
    return ShuffleSecret(msg.permutation, msg.randomness, msg.salt)


def check_key(record: Record, seat: int, msg: AuditMsg) -> None:
    """x_i·G = X_i."""
    if encode_point(base_mul(msg.secret)) != encode_point(record.keys[seat]):
        raise blame(seat, "audit-key", "the opened secret is not the hand key")


def check_shuffle(record: Record, seat: int, msg: AuditMsg) -> None:
    """The opening is a permutation, matches the commitment, and re-derives the deck."""
    size = record.config.deck_size
    if not is_permutation(msg.permutation, size) or len(msg.randomness) != size:
        raise blame(seat, "shuffle", "the opened shuffle is not a permutation of the deck")
    secret = secret_of(msg)
    if commitment(record.ctx(seat), secret) != record.commitments[seat]:
        raise blame(seat, "shuffle-commitment", "the opening does not match the commitment")
    index = record.config.index(seat)
    assert record.joint is not None
    if not rederives(record.decks[index], record.decks[index + 1], record.joint, secret):
        raise blame(seat, "shuffle", "the published deck is not the opened shuffle of the "
                    "previous deck (a card dropped, duplicated or substituted)")


def check_remasks(record: Record, seat: int, msg: AuditMsg) -> None:
    """Every re-mask ``seat`` made opens to its commitment and re-derives its ciphertexts
    from its inputs' held forms under the seat's hand key."""
    key = record.keys[seat]
    for remask in record.remasks:
        if remask.seat != seat:
            continue
        secret = remask_secret(msg.remask_seed, remask.round, len(remask.inputs))
        record.opened[(seat, remask.round)] = secret
        if remask_commitment(record.ctx(seat), secret) != remask.msg.commitment:
            raise blame(seat, "remask-commitment", f"re-mask {remask.round} does not open to "
                        "its commitment")
        old = tuple(record.held(j) for j in remask.inputs)
        if not rederives(old, remask.msg.deck, key, secret):
            raise blame(seat, "remask", f"re-mask {remask.round} is not its inputs re-masked "
                        "(a card dropped, duplicated or invented)")


def check_opening(record: Record, seat: int, msg: AuditMsg) -> None:
    """All checks on one seat's audit message."""
    check_key(record, seat, msg)
    check_shuffle(record, seat, msg)
    check_remasks(record, seat, msg)


def full_deal(config: HandConfig, openings: dict[int, AuditMsg]) -> tuple[int, ...]:
    """The card index at every final position, from the composed permutations."""
    return compose_cards([openings[s].permutation for s in config.seats], config.deck_size)


def masked_cards(record: Record, openings: dict[int, AuditMsg],
                 deal: tuple[int, ...]) -> dict[int, int]:
    """The card at every position a re-mask or transfer made, in the order made (so an
    input is always known before its outputs): a re-mask's π followed back to its input;
    a transfer's card read with its receiver's opened hand key, which must be the card
    of the position it was made from (``transfer``: a second line behind its proof)."""
    cards: dict[int, int] = {}
    for made in record.made:
        if isinstance(made, Remask):
            secret = record.opened.get((made.seat, made.round)) or remask_secret(
                openings[made.seat].remask_seed, made.round, len(made.inputs))
            for out, source in zip(made.outputs, secret.permutation, strict=True):
                j = made.inputs[source]
                cards[out] = deal[j] if j < len(deal) else cards[j]
            continue
        card = deal[made.position] if made.position < len(deal) else cards[made.position]
        new = record.masked[made.output]
        read = record.plaintext(new, [mul_public(new[0], openings[made.to].secret)])
        if read != card:
            raise blame(made.seat, "transfer", f"the card it handed to seat {made.to} from "
                        f"position {made.position} is not the card there")
        cards[made.output] = card
    return cards


def check_consistent(record: Record, deal: tuple[int, ...], masked: dict[int, int]) -> None:
    """Every card made public during the hand is the one the audit finds there."""
    for position, card in record.revealed.items():
        found = deal[position] if position < len(deal) else masked[position]
        if found != card:  # impossible once shuffles re-derive and shares are proven
            raise AssertionError(f"position {position}: revealed {card}, audit {found}")
