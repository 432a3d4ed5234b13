"""The native multi-scalar multiplication agrees with libsecp256k1, term by term.

Every point here is p·G for a known p, so Σ k_i·(p_i·G) is (Σ k_i·p_i)·G: one
libsecp256k1 multiplication gives the expected sum, whatever path ``msm`` takes.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal import group
from lodam_p2p.fairdeal.group import NATIVE_FROM, ORDER, Point, base_mul, encode_point, msm

logs = st.integers(min_value=1, max_value=ORDER - 1)
weights = st.one_of(st.integers(min_value=0, max_value=ORDER - 1),
                    st.sampled_from([0, 1, 2, ORDER - 1, ORDER - 2, 2**255, 2**128 - 1]))
terms = st.lists(st.tuples(logs, weights), min_size=1, max_size=3 * NATIVE_FROM)


def _expected(pairs: list[tuple[int, int]]) -> bytes | None:
    total = sum(p * k for p, k in pairs) % ORDER
    return None if total == 0 else encode_point(base_mul(total))


def _native(points: list[Point], scalars: list[int]) -> bytes | None:
    """The extension itself, below the length at which ``msm`` would use it."""
    assert group._native_msm is not None
    found = group._native_msm(b"".join(group._affine(p) for p in points),
                              b"".join(k.to_bytes(32, "big") for k in scalars))
    return None if found is None else bytes([2 + (found[-1] & 1)]) + found[:32]


def test_the_native_sum_is_built() -> None:
    # the package builds it (setup.py); without it every check runs at half speed
    assert group.native_msm()


@settings(max_examples=60, deadline=None)
@given(terms)
@example([(5, 3), (5, ORDER - 3)])                      # P − P: infinity
@example([(5, 3), (5, 4)] + [(7, 0)] * NATIVE_FROM)     # equal points; zero weights
@example([(1, ORDER - 1)] + [(2, 1)] * NATIVE_FROM)     # long sum of equal points
@example([(ORDER - 1, 1), (1, 1)] * NATIVE_FROM)        # each pair cancels
def test_msm_is_the_sum_of_the_products(pairs: list[tuple[int, int]]) -> None:
    points = [base_mul(p) for p, _ in pairs]
    scalars = [k for _, k in pairs]
    expected = _expected(pairs)
    found = msm(points, scalars)
    assert (None if found is None else encode_point(found)) == expected
    assert _native(points, scalars) == expected


@settings(max_examples=20, deadline=None)
@given(terms)
def test_without_the_extension_the_sum_is_the_same(pairs: list[tuple[int, int]]) -> None:
    points = [base_mul(p) for p, _ in pairs]
    found = msm(points, [k for _, k in pairs])
    saved, group._native_msm = group._native_msm, None
    try:
        plain = msm(points, [k for _, k in pairs])
    finally:
        group._native_msm = saved
    assert (None if plain is None else encode_point(plain)) == \
        (None if found is None else encode_point(found)) == _expected(pairs)


def test_a_native_sum_keeps_both_encodings() -> None:
    points = [base_mul(p) for p in range(2, 2 + NATIVE_FROM)]
    found = msm(points, list(range(1, 1 + NATIVE_FROM)))
    assert found is not None
    assert encode_point(found) == bytes(found.format(compressed=True))
    assert found.affine == bytes(found.format(compressed=False))[1:]


def test_the_extension_refuses_what_is_not_a_sum_of_curve_points() -> None:
    native = group._native_msm
    assert native is not None
    point = group._affine(base_mul(3))
    one = (1).to_bytes(32, "big")
    with pytest.raises(ValueError, match="not on the curve"):
        native(point[:32] + bytes(31) + b"\x01", one)       # (x, 1) is not a point
    with pytest.raises(ValueError, match="not on the curve"):
        native(b"\xff" * 64, one)                           # coordinates not below p
    for points, scalars in ((b"", b""), (point, one * 2), (point[:63], one),
                            (point * 4097, one * 4097)):
        with pytest.raises(ValueError, match="msm wants"):
            native(points, scalars)


def test_short_weights_take_the_native_sum_from_three_terms(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # batch weights are 128 bits (SPEC 4.3): their sums are native from 3 terms, while
    # 3 full-size scalars stay with libsecp256k1, term by term
    calls: list[int] = []
    native = group._native_msm
    assert native is not None

    def counted(points: bytes, scalars: bytes) -> bytes | None:
        calls.append(len(scalars) // 32)
        return native(points, scalars)

    monkeypatch.setattr(group, "_native_msm", counted)
    pairs = [(11, 2**128 - 1), (12, 5), (13, 2**127 + 3)]
    found = msm([base_mul(p) for p, _ in pairs], [k for _, k in pairs])
    assert found is not None and encode_point(found) == _expected(pairs)
    assert calls == [3]
    long = [(11, ORDER - 1), (12, 5), (13, 2**128)]
    found = msm([base_mul(p) for p, _ in long], [k for _, k in long])
    assert found is not None and encode_point(found) == _expected(long)
    assert calls == [3]


# Points met before keep their tables (a direct-mapped cache of 4096 slots): 300 points
# meeting again in random sums share slots too, so both reuse and eviction are exercised.
POOL = st.lists(st.tuples(st.integers(1, 300), weights), min_size=1, max_size=3 * NATIVE_FROM)


@settings(max_examples=150, deadline=None)
@given(POOL)
def test_sums_over_points_met_before_are_still_right(pairs: list[tuple[int, int]]) -> None:
    points = [base_mul(p) for p, _ in pairs]
    scalars = [k for _, k in pairs]
    expected = _expected(pairs)
    assert _native(points, scalars) == expected
    assert _native(points[::-1], scalars[::-1]) == expected
