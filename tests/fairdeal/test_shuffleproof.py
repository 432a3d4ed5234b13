"""The proof of shuffle: honest proofs verify at every size, and every false statement
or altered proof is refused."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal.group import ORDER, add, base_mul, card_points, mul, parse_point
from lodam_p2p.fairdeal.proofs import Context
from lodam_p2p.fairdeal.shuffle import ShuffleSecret, apply_shuffle, draw_shuffle, starting_deck
from lodam_p2p.fairdeal.shuffleproof import (
    Statement,
    decode_proof,
    generators,
    proof_size,
    prove_shuffle,
    verify_shuffle,
)
from tests.fairdeal.table import drbg

CTX = Context(b"test-table-0001!", 3, 1)
JOINT = base_mul(123456789)
DECK = starting_deck(JOINT, 52)
VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def _proven(n: int, seed: bytes = b"s", tag: bytes = b"shuffle"):
    secret = draw_shuffle(n, drbg(seed))
    out = apply_shuffle(DECK[:n], JOINT, secret)
    statement = Statement(tag, CTX, JOINT, DECK[:n], out)
    return statement, secret, prove_shuffle(statement, secret, drbg(seed + b"proof"))


@settings(max_examples=12, deadline=None)
@given(n=st.integers(1, 52), seed=st.binary(min_size=1, max_size=8))
def test_honest_proofs_verify_at_every_size(n: int, seed: bytes) -> None:
    statement, _, proof = _proven(n, seed)
    assert verify_shuffle(statement, proof)
    encoded = proof.encode()
    assert len(encoded) == proof_size(n)
    assert decode_proof(encoded, n) == proof


def test_sizes_one_two_and_a_full_deck_verify() -> None:
    for n in (1, 2, 52):
        statement, _, proof = _proven(n)
        assert verify_shuffle(statement, proof)


def _refused(statement: Statement, proof) -> bool:
    return not verify_shuffle(statement, proof)


def test_a_tampered_output_ciphertext_is_refused() -> None:
    statement, _, proof = _proven(8)
    a, b = statement.outputs[3]
    outputs = (*statement.outputs[:3], (add(a, base_mul(1)), add(b, JOINT)),
               *statement.outputs[4:])  # still the same card, but not what was proven
    assert _refused(replace(statement, outputs=outputs), proof)


def test_swapped_outputs_are_refused() -> None:
    statement, _, proof = _proven(8)
    o = statement.outputs
    assert _refused(replace(statement, outputs=(o[1], o[0], *o[2:])), proof)


def _false_shuffle(permutation: tuple[int, ...], n: int = 8):
    """Outputs from a map that is no permutation, with a proof made as if it were one."""
    secret = draw_shuffle(n, drbg(b"false"))
    false = ShuffleSecret(permutation, secret.randomness, secret.salt)
    out = apply_shuffle(DECK[:n], JOINT, false)
    statement = Statement(b"shuffle", CTX, JOINT, DECK[:n], out)
    return statement, prove_shuffle(statement, false, drbg(b"false proof"))


def test_a_dropped_and_duplicated_card_is_refused() -> None:
    statement, proof = _false_shuffle((0, 0, 2, 3, 4, 5, 6, 7))
    assert _refused(statement, proof)


def test_a_replaced_deck_is_refused() -> None:
    statement, _, proof = _proven(8)
    m = card_points(52)[0]
    fresh = tuple((base_mul(k + 2), add(m, mul(JOINT, k + 2))) for k in range(8))
    assert _refused(replace(statement, outputs=fresh), proof)


def test_a_public_key_planted_as_a_part_is_refused() -> None:
    statement, _, proof = _proven(8)
    key = base_mul(424242)
    outputs = ((key, statement.outputs[0][1]), *statement.outputs[1:])
    assert _refused(replace(statement, outputs=outputs), proof)


@pytest.mark.parametrize("change", [
    {"ctx": Context(b"test-table-0001!", 3, 2)},
    {"ctx": Context(b"test-table-0001!", 4, 1)},
    {"ctx": Context(b"another-table-00", 3, 1)},
    {"tag": b"remask"},
    {"extra": b"\x00\x01"},
    {"joint": base_mul(987654321)},
])
def test_a_proof_fails_in_any_other_context(change: dict) -> None:
    statement, _, proof = _proven(6)
    assert _refused(replace(statement, **change), proof)


@pytest.mark.parametrize("field", ["e", "s", "s_hat", "s_prime", "commitments", "chain"])
def test_every_field_of_the_proof_matters(field: str) -> None:
    statement, _, proof = _proven(6)
    value = getattr(proof, field)
    if field == "e":
        altered = (value + 1) % ORDER
    elif field in ("commitments", "chain"):
        altered = (add(value[0], base_mul(1)), *value[1:])
    else:
        altered = ((value[0] + 1) % ORDER, *value[1:])
    assert _refused(statement, replace(proof, **{field: altered}))


def test_wrong_lengths_are_refused() -> None:
    statement, _, proof = _proven(6)
    assert _refused(replace(statement, outputs=statement.outputs[:5]), proof)
    with pytest.raises(ValueError):
        decode_proof(proof.encode()[:-1], 6)
    with pytest.raises(ValueError):
        decode_proof(proof.encode(), 7)


def test_generators_are_distinct_and_not_g() -> None:
    encoded = {g.format() for g in generators()} | {base_mul(1).format()}
    assert len(encoded) == len(generators()) + 1


def test_the_vector_proof_verifies_from_the_recorded_values() -> None:
    v = json.loads((VECTORS / "shuffle_proof.json").read_text(encoding="utf-8"))
    ctx = Context(bytes.fromhex(v["context"]["table_id"]), v["context"]["hand"],
                  v["context"]["seat"])

    def deck(rows):
        return tuple((parse_point(bytes.fromhex(a)), parse_point(bytes.fromhex(b)))
                     for a, b in rows)

    statement = Statement(v["tag"].encode(), ctx, parse_point(bytes.fromhex(v["joint_key"])),
                          deck(v["inputs"]), deck(v["outputs"]), bytes.fromhex(v["extra"]))
    proof = decode_proof(bytes.fromhex(v["encoded"]), len(v["inputs"]))
    assert verify_shuffle(statement, proof)
    assert [g.format().hex() for g in generators()[:6]] == v["generators_h_h1_h5"]
