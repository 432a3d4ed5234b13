"""The end-of-hand audit: every seat opens its hand key and its shuffle.

What was already checked as it arrived (key proofs, deal and reveal share proofs,
signatures, chains) is not checked again by a live seat; the offline verifier replays
all of it anyway. What only the opening makes checkable:

1. ``x_i·G = X_i``: the opened secret is the hand key (check ``audit-key``);
2. the opened π is a permutation and the opening matches the commitment
   (``shuffle-commitment``);
3. the seat's published deck is exactly the previous deck shuffled with the opening
   (``shuffle``) — a dropped, duplicated or substituted card fails here;
4. every transfer the seat sent unseals (the key is now computable by all) to proven
   shares that let the receiver decrypt the position (``transfer``);
5. every re-mask the seat made: the (π, r, salt) drawn from the opened seed match its
   commitment (``remask-commitment``) and re-derive its new ciphertexts from its inputs,
   and the shares it carried from the carriers' shares of the inputs (``remask``) — a
   dropped, duplicated or invented card fails here.

Once every seat has opened, the card at each final position follows from composing the
permutations (no decryption needed, since step 3 tied every deck to the previous one),
the card at each re-masked position from following the re-mask's π back to its input,
and the caller's checker judges the hand's public actions against that full deal.
"""

from __future__ import annotations

import hashlib

from lodam_p2p.fairdeal.config import HandConfig
from lodam_p2p.fairdeal.errors import blame
from lodam_p2p.fairdeal.group import ORDER, Point, base_mul, encode_point, msm, scalar_to_bytes
from lodam_p2p.fairdeal.messages import AuditMsg
from lodam_p2p.fairdeal.proofs import batch_weights
from lodam_p2p.fairdeal.record import Record
from lodam_p2p.fairdeal.remask import Remask, remask_commitment, remask_secret
from lodam_p2p.fairdeal.shuffle import (
    ShuffleSecret,
    commitment,
    compose_cards,
    is_permutation,
    rederives,
)
from lodam_p2p.fairdeal.transfer import transfer_key

_CARRIED_TAG = b"lodam/v1/remask-carried\x00"


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


def check_transfers(record: Record, seat: int, msg: AuditMsg) -> None:
    """Every transfer ``seat`` sent unseals to proven shares completing the position."""
    for sender, seq, transfer in record.transfers:
        if sender == seat:
            key = transfer_key(msg.secret, record.keys[transfer.to], record.ctx(seat),
                               to=transfer.to, position=transfer.position, seq=seq)
            record.open_transfer(seat, transfer, key)


def check_remasks(record: Record, seat: int, msg: AuditMsg) -> None:
    """Every re-mask ``seat`` made opens to its commitment and re-derives its ciphertexts
    and the shares it carried."""
    assert record.joint is not None
    for remask in record.remasks:
        if remask.seat != seat:
            continue
        secret = remask_secret(msg.remask_seed, remask.round, len(remask.inputs))
        if remask_commitment(record.ctx(seat), secret) != remask.msg.commitment:
            raise blame(seat, "remask-commitment", f"re-mask {remask.round} does not open to "
                        "its commitment")
        old = tuple(record.ciphertext(j) for j in remask.inputs)
        if not rederives(old, remask.msg.deck, record.joint, secret):
            raise blame(seat, "remask", f"re-mask {remask.round} is not its inputs re-masked "
                        "(a card dropped, duplicated or invented)")
        _check_carried(record, remask, secret)


def _check_carried(record: Record, remask: Remask, secret: ShuffleSecret) -> None:
    """D'_{c,k} = D_{c,π(k)} + r_k·X_c for each carrier c and new position k, checked as
    one weighted sum (a second line behind the proof: a product per share would cost as
    much as the ciphertexts' own re-derivation). The weights are 128-bit numbers hashed
    from the re-mask, its carried shares and the opened r, all fixed before the audit:
    a false share survives with probability 2^-128, as in SPEC 4.3."""
    carriers = record.carriers(remask.seat, remask.inputs)
    if not carriers:
        return
    rows_in = record.carried_in(carriers, remask.inputs)
    seed = hashlib.sha256(_CARRIED_TAG + record.ctx(remask.seat).encode()
                          + remask.round.to_bytes(2, "big")
                          + b"".join(encode_point(d) for row in remask.msg.carried for d in row)
                          + b"".join(scalar_to_bytes(r) for r in secret.randomness)).digest()
    k = len(remask.inputs)
    weights = batch_weights(seed, k * len(carriers))
    points: list[Point] = []
    scalars: list[int] = []
    for c, (carrier, row_in, row_out) in enumerate(
            zip(carriers, rows_in, remask.msg.carried, strict=True)):
        w = weights[c * k : (c + 1) * k]
        for i, source in enumerate(secret.permutation):
            points += [row_out[i], row_in[source]]
            scalars += [w[i], ORDER - w[i]]
        points.append(record.keys[carrier])
        scalars.append(-sum(wi * r for wi, r in zip(w, secret.randomness, strict=True)) % ORDER)
    if msm(points, scalars) is not None:
        raise blame(remask.seat, "remask", f"re-mask {remask.round} carries a share that is "
                    "not its carrier's share re-masked with the opened π and r")


def check_opening(record: Record, seat: int, msg: AuditMsg) -> None:
    """All checks on one seat's audit message."""
    check_key(record, seat, msg)
    check_shuffle(record, seat, msg)
    check_transfers(record, seat, msg)
    check_remasks(record, seat, msg)


def full_deal(config: HandConfig, openings: dict[int, AuditMsg]) -> tuple[int, ...]:
    """The card index at every final position, from the composed permutations."""
    return compose_cards([openings[s].permutation for s in config.seats], config.deck_size)


def masked_cards(record: Record, openings: dict[int, AuditMsg],
                 deal: tuple[int, ...]) -> dict[int, int]:
    """The card at every re-masked position: each re-mask's π followed back to its input
    (re-masks in the order applied, so an input is always known before its outputs)."""
    cards: dict[int, int] = {}
    for remask in record.remasks:
        secret = remask_secret(openings[remask.seat].remask_seed, remask.round,
                               len(remask.inputs))
        for out, source in zip(remask.outputs, secret.permutation, strict=True):
            j = remask.inputs[source]
            cards[out] = deal[j] if j < len(deal) else cards[j]
    return cards


def check_consistent(record: Record, deal: tuple[int, ...], masked: dict[int, int]) -> None:
    """Every card made public during the hand is the one the audit finds there."""
    for position, card in record.revealed.items():
        found = deal[position] if position < len(deal) else masked[position]
        if found != card:  # impossible once shuffles re-derive and shares are proven
            raise AssertionError(f"position {position}: revealed {card}, audit {found}")
