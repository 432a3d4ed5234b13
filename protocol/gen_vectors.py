"""Generate the fair-deal test vectors in protocol/vectors/ (deterministic).

    python protocol/gen_vectors.py           # (re)write the vectors
    python protocol/gen_vectors.py --check   # exit 1 if a file differs from a fresh run

All entropy comes from ``drbg(seed)``: SHA-256(seed ‖ counter as u64 big-endian) blocks,
concatenated, so another implementation can replay every draw. Intermediate secrets
(nonces, hand keys, shuffles) are included so that each step can be checked alone.
Points are hex of 33-byte compressed encodings, scalars hex of 32 bytes big-endian.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Hand, HandConfig, Transcript, deal_schedule, verify_transcript
from lodam_p2p.fairdeal.group import (
    Point,
    add,
    base_mul,
    card_points,
    encode_point,
    hash_to_scalar,
    mul,
    neg,
    scalar_to_bytes,
)
from lodam_p2p.fairdeal.messages import RevealMsg, encode, position_bytes
from lodam_p2p.fairdeal.proofs import (
    Context,
    Proof,
    challenge,
    hedged_nonce,
    prove_dleq,
    prove_key,
    prove_shares,
    share_weights,
)
from lodam_p2p.fairdeal.remask import (
    first_position,
    prg,
    remask_commitment,
    remask_secret,
    remask_statement,
)
from lodam_p2p.fairdeal.shuffle import apply_shuffle, commitment, draw_shuffle, starting_deck
from lodam_p2p.fairdeal.shuffleproof import (
    Statement,
    generators,
    prove_shuffle,
    verify_shuffle,
)
from lodam_p2p.fairdeal.shuffleproof import _Nonces as ProofNonces
from lodam_p2p.fairdeal.shuffleproof import _u_challenges as proof_u_challenges
from lodam_p2p.fairdeal.sim import drbg
from lodam_p2p.fairdeal.transfer import Switch, prove_switch, switch_key, verify_switch
from lodam_p2p.fairdeal.wire import GENESIS
from lodam_p2p.fairdeal.wire import seal as seal_envelope

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling module below
from vectors_common import render, write_or_check

__all__ = ["build_all", "main", "render"]

TABLE = bytes.fromhex("6c6f64616d2d766563746f72732d3031")  # "lodam-vectors-01"


def hx(value: bytes | int | Point) -> str:
    """Hex of bytes, a scalar or a point."""
    if isinstance(value, int):
        return scalar_to_bytes(value).hex()
    if isinstance(value, bytes):
        return value.hex()
    return encode_point(value).hex()


def ctx_json(ctx: Context) -> dict[str, Any]:
    return {"table_id": hx(ctx.table_id), "hand": ctx.hand, "seat": ctx.seat,
            "encoded": hx(ctx.encode())}


def card_vectors() -> dict[str, Any]:
    """M_c for both packs (try-and-increment, see SPEC.md)."""
    return {str(k): [hx(p) for p in card_points(k)] for k in (32, 52)}


def schnorr_vector() -> dict[str, Any]:
    ctx = Context(TABLE, 7, 3)
    x = hash_to_scalar(b"vector key")
    big_x = base_mul(x)
    entropy_bytes = drbg(b"schnorr")(32)
    k = hash_to_scalar(b"key" + scalar_to_bytes(x) + entropy_bytes + encode_point(big_x))
    proof = prove_key(ctx, x, big_x, drbg(b"schnorr"))
    r = base_mul(k)
    assert proof.c == challenge(b"key", ctx, encode_point(big_x), encode_point(r))
    return {"context": ctx_json(ctx), "x": hx(x), "X": hx(big_x),
            "nonce_entropy": hx(entropy_bytes), "k": hx(k), "R": hx(r), "c": hx(proof.c),
            "s": hx(proof.s)}


def dleq_vector() -> dict[str, Any]:
    ctx = Context(TABLE, 7, 2)
    x = hash_to_scalar(b"vector share key")
    big_x, a = base_mul(x), base_mul(hash_to_scalar(b"vector A"))
    d = mul(a, x)
    extra = position_bytes(17)
    public = extra + encode_point(big_x) + encode_point(a) + encode_point(d)
    entropy_bytes = drbg(b"dleq")(32)
    k = hash_to_scalar(b"share" + scalar_to_bytes(x) + entropy_bytes + public)
    proof = prove_dleq(b"share", ctx, x=x, big_x=big_x, a=a, d=d, extra=extra,
                       entropy=drbg(b"dleq"))
    return {"context": ctx_json(ctx), "tag": "share", "x": hx(x), "X": hx(big_x), "A": hx(a),
            "D": hx(d), "extra": hx(extra), "nonce_entropy": hx(entropy_bytes), "k": hx(k),
            "R1": hx(base_mul(k)), "R2": hx(mul(a, k)), "c": hx(proof.c), "s": hx(proof.s)}


def batch_vector() -> dict[str, Any]:
    ctx = Context(TABLE, 7, 1)
    x = hash_to_scalar(b"vector batch key")
    big_x = base_mul(x)
    entries = []
    for j in (2, 5, 11):
        a = base_mul(hash_to_scalar(b"batch A" + bytes([j])))
        entries.append((j, a, mul(a, x)))
    seed, weights = share_weights(ctx, big_x, entries)
    proof = prove_shares(ctx, x, big_x, entries, drbg(b"batch"))
    return {"context": ctx_json(ctx), "x": hx(x), "X": hx(big_x),
            "entries": [{"position": j, "A": hx(a), "D": hx(d)} for j, a, d in entries],
            "seed": hx(seed), "weights": [hx(z) for z in weights], "c": hx(proof.c),
            "s": hx(proof.s)}


def shuffle_vector() -> dict[str, Any]:
    ctx = Context(TABLE, 7, 0)
    joint = base_mul(hash_to_scalar(b"vector joint"))
    deck = starting_deck(joint, 32)
    secret = draw_shuffle(32, drbg(b"shuffle"))
    shuffled = apply_shuffle(deck, joint, secret)
    return {"context": ctx_json(ctx), "joint_key": hx(joint),
            "permutation": list(secret.permutation),
            "randomness": [hx(r) for r in secret.randomness], "salt": hx(secret.salt),
            "commitment": hx(commitment(ctx, secret)),
            "starting_deck": [[hx(a), hx(b)] for a, b in deck],
            "shuffled_deck": [[hx(a), hx(b)] for a, b in shuffled],
            "proof_entropy_seed": "shuffle proof",
            "proof": hx(_proven(Statement(b"shuffle", ctx, joint, deck, shuffled,
                                          commitment(ctx, secret)), secret,
                                b"shuffle proof").encode())}


def _proven(st: Statement, secret: Any, seed: bytes) -> Any:
    proof = prove_shuffle(st, secret, drbg(seed))
    assert verify_shuffle(st, proof)
    return proof


def shuffle_proof_vector() -> dict[str, Any]:
    """A proof of shuffle over five ciphertexts with every intermediate value: the
    generators, the prover's nonces in draw order (ρ_1…ρ_5, r̂_1…r̂_5, ω_1…ω_4,
    ω̂_1…ω̂_5, ω'_1…ω'_5), the u-seed and u_j, and the proof's fields."""
    ctx = Context(TABLE, 7, 1)
    joint = base_mul(hash_to_scalar(b"vector joint"))
    deck = starting_deck(joint, 32)[:5]
    secret = draw_shuffle(5, drbg(b"small shuffle"))
    shuffled = apply_shuffle(deck, joint, secret)
    st = Statement(b"remask", ctx, joint, deck, shuffled, bytes.fromhex("00010004000900110015"))
    proof = _proven(st, secret, b"small shuffle proof")
    nonces = ProofNonces(drbg(b"small shuffle proof"), secret,
                         ctx.encode() + b"".join(encode_point(a) + encode_point(b)
                                                 for a, b in shuffled))
    seed, u = proof_u_challenges(st, proof.commitments)
    return {"context": ctx_json(ctx), "tag": "remask", "extra": hx(st.extra),
            "joint_key": hx(joint), "generators_h_h1_h5": [hx(g) for g in generators()[:6]],
            "permutation": list(secret.permutation),
            "randomness": [hx(r) for r in secret.randomness],
            "inputs": [[hx(a), hx(b)] for a, b in deck],
            "outputs": [[hx(a), hx(b)] for a, b in shuffled],
            "entropy_seed": "small shuffle proof",
            "nonces": [hx(nonces.scalar()) for _ in range(4 * 5 + 4)],
            "u_seed": hx(seed), "u": [hx(x) for x in u],
            "commitments": [hx(c) for c in proof.commitments],
            "chain": [hx(c) for c in proof.chain], "t": [hx(x) for x in proof.t],
            "t_hat": [hx(x) for x in proof.t_hat],
            "e": hx(st.challenge(seed, proof.chain, (*proof.t, *proof.t_hat))),
            "s": [hx(x) for x in proof.s], "s_hat": [hx(x) for x in proof.s_hat],
            "s_prime": [hx(x) for x in proof.s_prime], "encoded": hx(proof.encode())}


def remask_vector() -> dict[str, Any]:
    """Seat 2 (index 2 of 3) re-masks four positions of a 32-card deck in its round 1,
    in their held forms under its own key X_2 (hand keys x_s = hash_to_scalar("vector
    key " ‖ s)): each input is a starting-deck ciphertext less seats 0 and 1's shares."""
    ctx = Context(TABLE, 7, 2)
    secrets = [hash_to_scalar(b"vector key " + bytes([s])) for s in range(3)]
    keys = [base_mul(x) for x in secrets]
    joint = add(*keys)
    seed = drbg(b"remask seed")(32)
    inputs = (4, 9, 17, 30)
    deck = tuple(starting_deck(joint, 32)[j] for j in inputs)
    shares = tuple(tuple(mul(a, secrets[c]) for a, _ in deck) for c in (0, 1))
    old = tuple((a, add(b, neg(add(d0, d1)))) for (a, b), d0, d1 in zip(deck, *shares, strict=True))
    secret = remask_secret(seed, 1, len(inputs))
    new = apply_shuffle(old, keys[2], secret)
    first = first_position(32, 3, 2, 1)
    assert first is not None
    st = Statement(b"remask", ctx, keys[2], old, new, remask_statement(1, inputs))
    return {"context": ctx_json(ctx), "hand_keys": [hx(x) for x in keys],
            "joint_key": hx(joint), "seed": hx(seed), "round": 1,
            "prg_first_64_bytes": hx(prg(seed, 1)(64)),
            "permutation": list(secret.permutation),
            "randomness": [hx(r) for r in secret.randomness], "salt": hx(secret.salt),
            "commitment": hx(remask_commitment(ctx, secret)),
            "inputs": list(inputs), "deck_ciphertexts": [[hx(a), hx(b)] for a, b in deck],
            "deal_shares": {str(c): [hx(d) for d in row]
                            for c, row in zip((0, 1), shares, strict=True)},
            "input_ciphertexts": [[hx(a), hx(b)] for a, b in old],
            "outputs": list(range(first, first + len(inputs))),
            "output_ciphertexts": [[hx(a), hx(b)] for a, b in new],
            "proof_extra": hx(remask_statement(1, inputs)), "proof_entropy_seed": "remask proof",
            "proof": hx(_proven(st, secret, b"remask proof").encode())}


def transfer_vector() -> dict[str, Any]:
    """Seat 1 hands position 9 (held under its key: ciphertext (α, M + x_1·α)) to seat 4:
    the key switch and its proof, every intermediate value included."""
    ctx = Context(TABLE, 7, 1)
    x_from, x_to = hash_to_scalar(b"from"), hash_to_scalar(b"to")
    giver, receiver = base_mul(x_from), base_mul(x_to)
    alpha = base_mul(hash_to_scalar(b"transfer alpha"))
    card = card_points(52)[11]
    held = (alpha, add(card, mul(alpha, x_from)))
    entropy = drbg(b"transfer")
    new, rho = switch_key(held, mul(alpha, x_from), receiver, entropy)
    st = Switch(ctx, 9, 4, giver, receiver, held, new)
    proof = prove_switch(st, x_from, rho, entropy)
    replay = drbg(b"transfer")
    replay(64)  # ρ's 64 bytes
    k = hedged_nonce(b"switch", x_from, replay, *st.inputs())
    q = hedged_nonce(b"switch", rho, replay, *st.inputs())
    r3 = add(mul(receiver, q), neg(mul(alpha, k)))
    assert verify_switch(st, proof)
    assert proof.c == challenge(b"switch", ctx, *st.inputs(), *(encode_point(r) for r in (
        base_mul(k), base_mul(q), r3)))  # the replayed nonces are the prover's
    assert add(new[1], neg(mul(new[0], x_to))).format() == card.format()
    return {"context_from": ctx_json(ctx), "position": 9, "to": 4,
            "x_from": hx(x_from), "x_to": hx(x_to), "X_from": hx(giver), "X_to": hx(receiver),
            "card_index": 11, "held": [hx(held[0]), hx(held[1])],
            "share": hx(mul(alpha, x_from)), "entropy_seed": "transfer", "rho": hx(rho),
            "new": [hx(new[0]), hx(new[1])], "nonce_k": hx(k), "nonce_q": hx(q),
            "R1": hx(base_mul(k)), "R2": hx(base_mul(q)), "R3": hx(r3),
            "c": hx(proof.c), "s": hx(proof.s), "u": hx(proof.u),
            "encoded": hx(proof.encode())}


def envelope_vector() -> dict[str, Any]:
    seed = hashlib.sha256(b"vector identity").digest()
    identity = Ed25519PrivateKey.from_private_bytes(seed)
    body = encode(RevealMsg(3, base_mul(3), Proof(1, 2)))
    raw = seal_envelope(identity, body, table_id=TABLE, hand=7, seat=2, seq=0, prev=GENESIS)
    return {"ed25519_seed": hx(seed), "public_key": hx(_raw_public(identity)),
            "table_id": hx(TABLE), "hand": 7, "seat": 2, "seq": 0, "prev": hx(GENESIS),
            "body": hx(body),
            "envelope": hx(raw), "digest": hx(hashlib.sha256(raw).digest())}


def _raw_public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def hand_vector() -> dict[str, Any]:
    """A whole 3-seat, 32-card hand: play, talon top, two exchanges, re-masks, audit."""
    seats = (0, 1, 2)
    seeds = {s: hashlib.sha256(b"vector seat" + bytes([s])).digest() for s in seats}
    ids = {s: Ed25519PrivateKey.from_private_bytes(seeds[s]) for s in seats}
    config = HandConfig(TABLE, 7, seats, tuple(_raw_public(ids[s]) for s in seats), 32,
                        deal_schedule(seats, 9, 32))
    hands = {s: Hand(config, s, ids[s], drbg(b"vector entropy" + bytes([s])), 0.0) for s in seats}
    _run_script(config, hands)
    sent = [[s, hx(raw)] for s in seats for raw in hands[s].sent_since(0)]
    secrets = {str(s): _secrets_json(hands[s]) for s in seats}
    transcript = Transcript(config, tuple(hands[0].envelopes()))
    verdict = verify_transcript(transcript)
    assert verdict.sound and verdict.deal is not None
    return {"identity_seeds": {str(s): hx(seeds[s]) for s in seats},
            "entropy_seeds": {str(s): hx(b"vector entropy" + bytes([s])) for s in seats},
            "config": json.loads(Transcript(config, ()).to_json()),
            "script": SCRIPT_TEXT, "seat_secrets": secrets, "envelopes": sent,
            "deal": list(verdict.deal),
            "masked": {str(p): c for p, c in sorted((verdict.masked or {}).items())},
            "verdict": verdict.summary}


SCRIPT_TEXT = [
    "deliver every envelope, in seat order, until quiet (after each step below)",
    "seat 0 reveals its first position",
    "every seat reveals the talon top (position 27)",
    "seat 1 transfers its first position to seat 2; seat 2 its first to seat 1"
    " (a void exchange: the holdings stay)",
    "seat 1 transfers its second position to seat 2; seat 2 its second to seat 1",
    "seat 1 re-masks its holding (its positions but the second, and the position seat 2's"
    " second transfer made); then seat 2 re-masks its (its positions but the second, and"
    " the position seat 1's second transfer made)",
    "seat 2 reveals the new position holding seat 1's second card",
    "every seat finishes (audit)",
]


def _run_script(config: HandConfig, hands: dict[int, Hand]) -> None:
    def flush() -> None:
        moved = True
        while moved:
            moved = False
            for s, hand in hands.items():
                for raw in hand.outgoing():
                    moved = True
                    for other, peer in hands.items():
                        if other != s:
                            peer.receive(s, raw, 0.0)

    top = config.schedule.index(None)
    p1, p2 = config.positions_of(1)[0], config.positions_of(2)[0]
    flush()
    hands[0].reveal(config.positions_of(0)[0], 0.0)
    flush()
    for hand in hands.values():
        hand.reveal(top, 0.0)
    flush()
    hands[1].transfer(p1, 2, 0.0)
    hands[2].transfer(p2, 1, 0.0)
    flush()
    q1, q2 = config.positions_of(1)[1], config.positions_of(2)[1]
    to2 = hands[1].transfer(q1, 2, 0.0)
    to1 = hands[2].transfer(q2, 1, 0.0)
    flush()
    hands[1].remask([p for p in config.positions_of(1) if p != q1] + [to1], 0.0)
    flush()
    new = hands[2].remask([p for p in config.positions_of(2) if p != q2] + [to2], 0.0)
    flush()
    card = hands[1].cards[q1]
    hands[2].reveal(next(p for p in new if hands[2].cards[p] == card), 0.0)
    flush()
    for hand in hands.values():
        hand.finish(0.0)
    flush()


def _secrets_json(hand: Hand) -> dict[str, Any]:
    me = hand._me  # the generator is allowed to read a seat's secrets
    assert me is not None and me.shuffle is not None
    return {"x": hx(me.x), "X": hx(me.key), "remask_seed": hx(me.seed or b""),
            "permutation": list(me.shuffle.permutation),
            "randomness": [hx(r) for r in me.shuffle.randomness], "salt": hx(me.shuffle.salt),
            "cards": {str(p): c for p, c in sorted(hand.cards.items())}}


def build_all() -> dict[str, Any]:
    """Every vector file's content, by file name."""
    return {
        "card_points.json": card_vectors(),
        "proofs.json": {"schnorr": schnorr_vector(), "dleq": dleq_vector(),
                        "deal_batch": batch_vector()},
        "shuffle.json": shuffle_vector(),
        "shuffle_proof.json": shuffle_proof_vector(),
        "transfer.json": transfer_vector(),
        "remask.json": remask_vector(),
        "envelope.json": envelope_vector(),
        "hand_3seats_32cards.json": hand_vector(),
    }


def main(argv: list[str]) -> int:
    """Write the vectors, or with ``--check`` say which are stale (exit 1)."""
    return write_or_check(build_all(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
