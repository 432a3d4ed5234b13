"""The audit's re-derivation of an opened shuffle: the native fixed-base check and the
libsecp256k1 one accept exactly the honest openings, and refuse every altered one."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal import group
from lodam_p2p.fairdeal.group import ORDER, add, base_mul, generator
from lodam_p2p.fairdeal.shuffle import ShuffleSecret, apply_shuffle, rederives, starting_deck

JOINT = base_mul(0xC0FFEE)
# a deck shuffled once: its parts are unrelated to G (the starting deck's A are all G)
DECK = apply_shuffle(starting_deck(JOINT, 52), JOINT,
                     ShuffleSecret(tuple(range(52)), tuple(range(7, 59)), b""))
# scalars that reach the top window (bits 252 to 257) and the edges of the range
EDGES = [1, 2, 63, 64, ORDER - 1, ORDER - 2, 2**252, 2**255 + 1, 2**256 - 2**129]
scalars = st.one_of(st.integers(1, ORDER - 1), st.sampled_from([e for e in EDGES if e < ORDER]))


@st.composite
def openings(draw: st.DrawFn) -> tuple[tuple, ShuffleSecret]:
    size = draw(st.integers(1, 12))
    old = DECK[draw(st.integers(0, 52 - size)):][:size]
    permutation = tuple(draw(st.permutations(range(size))))
    randomness = tuple(draw(st.lists(scalars, min_size=size, max_size=size)))
    return old, ShuffleSecret(permutation, randomness, b"\0" * 32)


def _both(old, new, secret: ShuffleSecret) -> bool:
    """The native verdict, after checking that the libsecp256k1 path agrees."""
    native = rederives(old, new, JOINT, secret)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(group, "_native_rederive", None)
        assert rederives(old, new, JOINT, secret) == native
    return native


def test_the_native_check_is_built() -> None:
    assert group._native_rederive is not None


@settings(max_examples=40, deadline=None)
@given(opening=openings(), where=st.integers(0, 11), what=st.sampled_from("rpAB"))
def test_honest_openings_pass_and_altered_ones_fail(
        opening: tuple[tuple, ShuffleSecret], where: int, what: str) -> None:
    old, secret = opening
    new = apply_shuffle(old, JOINT, secret)
    assert _both(old, new, secret)
    k = where % len(new)
    if what == "r":  # one re-randomiser off by one
        randomness = list(secret.randomness)
        randomness[k] = randomness[k] % (ORDER - 1) + 1
        assert not _both(old, new, replace(secret, randomness=tuple(randomness)))
    elif what == "p" and len(new) > 1:  # two sources swapped
        permutation = list(secret.permutation)
        permutation[k], permutation[k - 1] = permutation[k - 1], permutation[k]
        assert not _both(old, new, replace(secret, permutation=tuple(permutation)))
    else:  # one part of one new ciphertext moved by G
        a, b = new[k]
        moved = (add(a, generator()), b) if what == "A" else (a, add(b, generator()))
        assert not _both(old, (*new[:k], moved, *new[k + 1:]), secret)


@pytest.mark.parametrize("secret", [
    ShuffleSecret((0, 1), (0, 5), b""),          # r = 0
    ShuffleSecret((0, 1), (ORDER, 5), b""),      # r = n
    ShuffleSecret((0, 2), (4, 5), b""),          # π past the old deck
    ShuffleSecret((0,), (4,), b""),              # too short
    ShuffleSecret((0, 1), (4, 5, 6), b""),       # one r too many
])
def test_malformed_openings_fail_without_raising(secret: ShuffleSecret) -> None:
    old = DECK[:2]
    new = apply_shuffle(old, JOINT, ShuffleSecret((1, 0), (4, 5), b""))
    assert not _both(old, new, secret)


def test_the_extension_refuses_what_is_not_a_point_or_a_table() -> None:
    assert group._native_table is not None and group._native_rederive is not None
    with pytest.raises(ValueError, match="curve point"):
        group._native_table(b"\1" * 64)
    table = group._native_table(group._affine(generator()))
    deck = b"".join(group._affine(a) + group._affine(b) for a, b in DECK[:1])
    with pytest.raises(ValueError, match="sizes"):
        group._native_rederive(table, table[:-1], deck, deck, b"\0", b"\0" * 31 + b"\1")
    with pytest.raises(ValueError, match="curve"):
        group._native_rederive(table, table, deck, b"\1" * 128, b"\0", b"\0" * 31 + b"\1")
