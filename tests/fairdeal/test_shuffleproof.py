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
    lincomb,
    proof_size,
    prove_shuffle,
    verify_shuffle,
)
from lodam_p2p.fairdeal.shuffleproof import (
    _u_challenges as proof_u_challenges,
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


@pytest.mark.parametrize("field", ["t", "t_hat", "s", "s_hat", "s_prime", "commitments",
                                   "chain"])
@pytest.mark.parametrize("where", [0, -1])
def test_every_field_of_the_proof_matters(field: str, where: int) -> None:
    statement, _, proof = _proven(6)
    value = list(getattr(proof, field))
    if field in ("s", "s_hat", "s_prime"):
        value[where] = (value[where] + 1) % ORDER
    else:
        value[where] = add(value[where], base_mul(1))
    assert _refused(statement, replace(proof, **{field: tuple(value)}))


def test_a_t_that_fits_its_equation_but_not_the_challenge_is_refused() -> None:
    # every equation is checked at the challenge the sent t's hash to: moving t1 by G
    # and s1 with it keeps t1's own equation true but changes e
    statement, _, proof = _proven(6)
    t1 = add(proof.t[0], base_mul(1))
    s1 = (proof.s[0] + 1) % ORDER
    altered = replace(proof, t=(t1, *proof.t[1:]), s=(s1, *proof.s[1:]))
    assert _refused(statement, altered)


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
    # the recorded fields are the encoding's, and e is the challenge of the sent t's
    assert [x.format().hex() for x in proof.t] == v["t"]
    assert [x.format().hex() for x in proof.t_hat] == v["t_hat"]
    seed = bytes.fromhex(v["u_seed"])
    e = statement.challenge(seed, proof.chain, (*proof.t, *proof.t_hat))
    assert e == int(v["e"], 16)


def test_each_equation_is_checked_alone_too() -> None:
    # the batch is the verifier's shortcut: every equation of the proof holds on its own
    statement, _, proof = _proven(5)
    seed, u = proof_u_challenges(statement, proof.commitments)
    e = statement.challenge(seed, proof.chain, (*proof.t, *proof.t_hat))
    s1, s2, s3, s4 = proof.s
    gens = generators()
    h, hs = gens[0], gens[1:6]
    u_product = 1
    for uj in u:
        u_product = u_product * uj % ORDER
    sp = proof.s_prime
    rebuilt = [
        lincomb([(None, s1), *((c, -e) for c in proof.commitments), *((g, e) for g in hs)],
                public=True),
        lincomb([(None, s2), (proof.chain[-1], -e), (h, e * u_product)], public=True),
        lincomb([(None, s3), *zip(hs, sp, strict=True),
                 *((c, -e * uj) for c, uj in zip(proof.commitments, u, strict=True))],
                public=True),
        lincomb([(None, -s4), *((o[0], k) for o, k in zip(statement.outputs, sp, strict=True)),
                 *((i[0], -e * uj) for i, uj in zip(statement.inputs, u, strict=True))],
                public=True),
        lincomb([(JOINT, -s4), *((o[1], k) for o, k in zip(statement.outputs, sp, strict=True)),
                 *((i[1], -e * uj) for i, uj in zip(statement.inputs, u, strict=True))],
                public=True),
    ]
    before = (h, *proof.chain[:-1])
    rebuilt += [lincomb([(None, proof.s_hat[k]), (before[k], sp[k]), (proof.chain[k], -e)],
                        public=True) for k in range(5)]
    assert [p.format() for p in rebuilt] == [t.format() for t in (*proof.t, *proof.t_hat)]
