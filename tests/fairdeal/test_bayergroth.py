"""The Bayer–Groth proof of shuffle: honest proofs verify at every deck size, every false
statement, altered proof or foreign binding is refused, and the codec is strict."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal import bayergroth as bg
from lodam_p2p.fairdeal.arguments import ShuffleArgument
from lodam_p2p.fairdeal.bg_core import row_generators
from lodam_p2p.fairdeal.group import (
    ORDER,
    POINT_LEN,
    SCALAR_LEN,
    add,
    base_mul,
    card_points,
    encode_point,
    generator,
    mul,
    parse_point,
    scalar_from_bytes,
    scalar_to_bytes,
)
from lodam_p2p.fairdeal.proofs import Context
from lodam_p2p.fairdeal.shuffle import ShuffleSecret, apply_shuffle, draw_shuffle, starting_deck
from lodam_p2p.fairdeal.shuffleproof import Statement, proof_size, prove_shuffle
from tests.fairdeal.table import drbg

CTX = Context(b"test-table-0001!", 3, 1)
JOINT = base_mul(123456789)


def _proven(n: int, seed: bytes = b"s", tag: bytes = b"shuffle"):
    deck = starting_deck(JOINT, n)
    secret = draw_shuffle(n, drbg(seed))
    statement = Statement(tag, CTX, JOINT, deck, apply_shuffle(deck, JOINT, secret))
    return statement, secret, bg.prove(statement, secret, drbg(seed + b"proof"))


def _refused(statement: Statement, proof: bg.BGProof) -> bool:
    with pytest.raises(bg.ShuffleRefused):
        bg.verify(statement, proof)
    return not bg.ARGUMENT.verify(statement, proof)


def _false_shuffle(permutation: tuple[int, ...], randomness: tuple[int, ...] | None = None):
    """Outputs from a map that is no shuffle, with a proof made as if it were one."""
    n = len(permutation)
    deck = starting_deck(JOINT, n)
    drawn = draw_shuffle(n, drbg(b"false"))
    false = ShuffleSecret(permutation, randomness or drawn.randomness, drawn.salt)
    statement = Statement(b"shuffle", CTX, JOINT, deck, apply_shuffle(deck, JOINT, false))
    return statement, false


# --- completeness -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 9, 30, 32, 52, 104])
def test_honest_proofs_verify_at_every_deck_size(n: int) -> None:
    statement, _, proof = _proven(n)
    bg.verify(statement, proof)  # raises if refused
    assert bg.ARGUMENT.verify(statement, proof)
    encoded = bg.encode(proof)
    assert len(encoded) == bg.size(n)
    assert bg.decode(encoded, n) == proof
    m, rows = bg.shape(n)
    assert m * rows >= n and rows >= 2


def test_a_remask_under_a_hand_key_verifies() -> None:
    key = base_mul(987654321)
    deck = apply_shuffle(starting_deck(JOINT, 5), JOINT, draw_shuffle(5, drbg(b"d")))
    secret = draw_shuffle(5, drbg(b"r"))
    statement = Statement(b"remask", CTX, key, deck, apply_shuffle(deck, key, secret), b"\x00\x07")
    bg.verify(statement, bg.prove(statement, secret, drbg(b"rp")))


def test_the_prover_is_deterministic_given_its_entropy() -> None:
    statement, secret, proof = _proven(7)
    assert bg.prove(statement, secret, drbg(b"sproof")).encode() == proof.encode()
    assert bg.prove(statement, secret, drbg(b"other")).encode() != proof.encode()


def test_the_proof_of_52_cards_is_smaller_than_terelius_wikstrom() -> None:
    statement, secret, proof = _proven(52)
    tw = prove_shuffle(statement, secret, drbg(b"tw"))
    assert len(tw.encode()) == proof_size(52) == 163 * 52 + 293
    assert len(proof.encode()) == bg.size(52) == 3822 < len(tw.encode())


def test_it_is_a_shuffle_argument_named_bg() -> None:
    assert isinstance(bg.ARGUMENT, ShuffleArgument)
    assert bg.ARGUMENT.name == bg.NAME == "bg"
    assert bg.ARGUMENT.max_size == 104
    statement, secret, _ = _proven(4)
    tw = prove_shuffle(statement, secret, drbg(b"tw"))
    assert not bg.ARGUMENT.verify(statement, tw)  # another argument's proof: False
    with pytest.raises(TypeError):
        bg.ARGUMENT.encode(tw)


def test_sizes_grow_with_the_square_root() -> None:
    assert [bg.size(n) for n in (2, 52, 104)] == [1336, 3822, 5231]
    # below 10 cards the fixed part (2m + 2 rows of commitments…) outweighs 163·N
    assert [n for n in range(1, 53) if bg.size(n) >= proof_size(n)] == list(range(1, 10))
    for n in (0, 105):
        with pytest.raises(ValueError):
            bg.size(n)


def test_generators_are_distinct_and_not_g() -> None:
    encoded = {encode_point(g) for g in row_generators()} | {encode_point(generator())}
    assert len(encoded) == len(row_generators()) + 1


# --- soundness ----------------------------------------------------------------------------


def test_one_replaced_ciphertext_is_refused() -> None:
    statement, _, proof = _proven(9)
    m = card_points(52)[40]
    fresh = (base_mul(77), add(m, mul(JOINT, 77)))  # a card that was not in the deck
    outputs = (*statement.outputs[:4], fresh, *statement.outputs[5:])
    assert _refused(replace(statement, outputs=outputs), proof)


def test_a_replaced_ciphertext_proven_as_if_honest_is_refused() -> None:
    statement, secret, _ = _proven(9)
    m = card_points(52)[40]
    fresh = (base_mul(77), add(m, mul(JOINT, 77)))
    cheat = replace(statement, outputs=(fresh, *statement.outputs[1:]))
    assert _refused(cheat, bg.prove(cheat, secret, drbg(b"cheat")))


def test_two_duplicated_cards_are_refused() -> None:
    statement, false = _false_shuffle((0, 0, 2, 3, 4, 5, 6, 7))
    assert _refused(statement, bg.prove(statement, false, drbg(b"p")))
    statement, false = _false_shuffle((4, 1, 2, 3, 4, 5, 5, 7, 8, 0, 10))
    assert _refused(statement, bg.prove(statement, false, drbg(b"p")))


def test_a_wrong_re_randomiser_is_refused() -> None:
    statement, secret, _ = _proven(8)
    k = 5
    a, b = statement.outputs[k]
    bent = (a, add(b, JOINT))  # B re-randomised with r + 1, A with r
    cheat = replace(statement, outputs=(*statement.outputs[:k], bent, *statement.outputs[k + 1:]))
    assert _refused(cheat, bg.prove(cheat, secret, drbg(b"p")))
    wrong = replace(secret, randomness=(*secret.randomness[:k], secret.randomness[k] + 1,
                                        *secret.randomness[k + 1:]))
    assert _refused(statement, bg.prove(statement, wrong, drbg(b"p")))


def test_swapped_outputs_are_refused() -> None:
    statement, _, proof = _proven(8)
    o = statement.outputs
    assert _refused(replace(statement, outputs=(o[1], o[0], *o[2:])), proof)


def test_a_card_swapped_for_the_padding_is_refused() -> None:
    # 3 cards are laid out as 2 × 2: one padding slot P = (G, G). A cheat that outputs a
    # re-encryption of P in place of a card and claims P as its source is refused.
    deck = starting_deck(JOINT, 3)
    g = generator()
    pad_again = (add(g, base_mul(5)), add(g, mul(JOINT, 5)))
    secret = ShuffleSecret((3, 1, 2), (5, 6, 7), b"")
    drawn = apply_shuffle(deck, JOINT, ShuffleSecret((0, 1, 2), (5, 6, 7), b""))
    statement = Statement(b"shuffle", CTX, JOINT, deck, (pad_again, *drawn[1:]))
    assert _refused(statement, bg.prove(statement, secret, drbg(b"p")))


@pytest.mark.parametrize("change", [
    {"ctx": Context(b"test-table-0001!", 3, 2)},
    {"ctx": Context(b"test-table-0001!", 4, 1)},
    {"ctx": Context(b"another-table-00", 3, 1)},
    {"tag": b"remask"},
    {"extra": b"\x00\x01"},
    {"joint": base_mul(987654321)},
])
def test_a_proof_fails_under_any_other_binding(change: dict) -> None:
    statement, _, proof = _proven(6)
    assert _refused(replace(statement, **change), proof)


def test_a_proof_for_other_decks_or_sizes_is_refused() -> None:
    statement, _, proof = _proven(6)
    other, _, _ = _proven(6, b"another")
    assert _refused(replace(statement, outputs=other.outputs), proof)
    assert _refused(replace(statement, outputs=statement.outputs[:5]), proof)
    small, _, _ = _proven(5)  # 5 and 6 cards share a shape: the statement binds N
    assert bg.shape(5) == bg.shape(6)
    assert _refused(small, proof)


def test_a_proof_object_of_the_wrong_shape_is_refused_not_a_crash() -> None:
    statement, _, proof = _proven(30)
    assert bg.shape(30) == (3, 10)  # one Hadamard step
    z, s, x = proof.product.zero, proof.product.single, proof.multi
    for bent in (replace(proof, permutation=proof.permutation[:-1]),
                 replace(proof, product=replace(proof.product, steps=())),
                 replace(proof, product=replace(proof.product, zero=replace(z, a=z.a[:-1]))),
                 replace(proof, product=replace(proof.product, single=replace(s, b=(*s.b, 1)))),
                 replace(proof, multi=replace(x, e=x.e[:-1]))):
        assert _refused(statement, bent)
    for deck in ((), starting_deck(JOINT, 105)):
        assert _refused(Statement(b"shuffle", CTX, JOINT, deck, deck), proof)


def _elements(data: bytes, n: int) -> tuple[int, int]:
    points, _ = bg._counts(*bg.shape(n))
    return points, (len(data) - points * POINT_LEN) // SCALAR_LEN


@pytest.mark.parametrize("n", [5, 30])  # 2 × 3 and 3 × 10: every part present
def test_every_point_and_scalar_of_the_proof_matters(n: int) -> None:
    statement, _, proof = _proven(n)
    assert bg.shape(n)[0] == (2 if n == 5 else 3)
    data = proof.encode()
    points, scalars = _elements(data, n)
    end = points * POINT_LEN
    for i in range(points):
        moved = add(parse_point(data[i * POINT_LEN : (i + 1) * POINT_LEN]), generator())
        altered = data[: i * POINT_LEN] + encode_point(moved) + data[(i + 1) * POINT_LEN :]
        assert _refused(statement, bg.decode(altered, n)), f"point {i}"
    for i in range(scalars):
        at = end + i * SCALAR_LEN
        k = scalar_from_bytes(data[at : at + SCALAR_LEN], nonzero=False)
        altered = data[:at] + scalar_to_bytes((k + 1) % ORDER) + data[at + SCALAR_LEN :]
        assert _refused(statement, bg.decode(altered, n)), f"scalar {i}"


@settings(max_examples=40, deadline=None)
@given(position=st.integers(0, bg.size(9) - 1), mask=st.integers(1, 255))
def test_one_flipped_byte_is_refused(position: int, mask: int) -> None:
    statement, _, proof = _PROVEN_9
    data = bytearray(proof.encode())
    data[position] ^= mask
    try:
        altered = bg.decode(bytes(data), 9)
    except ValueError:
        return  # malformed: refused before any check
    assert _refused(statement, altered)


_PROVEN_9 = _proven(9)


# --- the codec ----------------------------------------------------------------------------


def test_wrong_lengths_off_curve_points_and_big_scalars_are_malformed() -> None:
    _, _, proof = _proven(6)
    data = proof.encode()
    for bad in (data[:-1], data + b"\x00", b""):
        with pytest.raises(ValueError):
            bg.decode(bad, 6)
    with pytest.raises(ValueError):
        bg.decode(data, 9)  # 9 cards take 2 × 5, not 2 × 3
    with pytest.raises(ValueError):
        bg.decode(data, 0)
    x = 5  # x³ + 7 = 132 is no square mod p: no point has abscissa 5
    off = bytes([2]) + x.to_bytes(32, "big")
    with pytest.raises(ValueError):
        bg.decode(off + data[POINT_LEN:], 6)
    with pytest.raises(ValueError):
        bg.decode(b"\x04" + data[1:], 6)
    big = scalar_to_bytes(ORDER - 1)[:-1] + bytes([0xFF])  # above n − 1
    assert int.from_bytes(big, "big") >= ORDER
    with pytest.raises(ValueError):
        bg.decode(data[:-SCALAR_LEN] + big, 6)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 104), exact=st.booleans(), data=st.data())
def test_random_bytes_are_malformed(n: int, exact: bool, data: st.DataObject) -> None:
    length = bg.size(n) if exact else data.draw(st.integers(0, 6000))
    blob = data.draw(st.binary(min_size=length, max_size=length))
    try:
        proof = bg.decode(blob, n)
    except ValueError:
        return
    # only bytes whose every point and scalar is canonical parse, and they re-encode alike
    assert proof.encode() == blob


@settings(max_examples=30, deadline=None)
@given(cut=st.integers(1, bg.size(9) - 1))
def test_truncated_proofs_are_malformed(cut: int) -> None:
    data = _PROVEN_9[2].encode()
    with pytest.raises(ValueError):
        bg.decode(data[:cut], 9)
    with pytest.raises(ValueError):
        bg.decode(data[cut:], 9)
