"""The group's shortcuts agree with the plain operations they replace."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal.group import (
    ORDER,
    add,
    base_mul,
    base_mul_add,
    encode_point,
    mul,
    mul_public,
    neg,
    parse_point,
)
from lodam_p2p.fairdeal.memo import ProofMemo

scalars = st.integers(min_value=1, max_value=ORDER - 1)


@settings(max_examples=25, deadline=None)
@given(scalars, scalars, scalars)
@example(1, 1, ORDER - 1)  # G + (−G)
def test_base_mul_add_is_a_g_plus_b_p(a: int, b: int, p: int) -> None:
    point = base_mul(p)
    if (a + b * p) % ORDER == 0:  # a·G + b·P is the point at infinity
        with pytest.raises(ValueError):
            base_mul_add(a, b, point)
        return
    expected = add(base_mul(a), mul(point, b))
    assert encode_point(base_mul_add(a, b, point)) == encode_point(expected)


def test_base_mul_add_with_a_zero_scalar() -> None:
    point = base_mul(7)
    assert encode_point(base_mul_add(0, 5, point)) == encode_point(mul(point, 5))
    assert encode_point(base_mul_add(5, 0, point)) == encode_point(base_mul(5))
    assert encode_point(base_mul_add(3, ORDER - 1, point)) == encode_point(neg(base_mul(4)))


def test_base_mul_add_refuses_infinity() -> None:
    point = base_mul(3)
    with pytest.raises(ValueError, match="infinity"):
        base_mul_add(6, ORDER - 2, point)  # 6·G − 2·(3·G)


def test_a_parsed_point_keeps_its_encoding() -> None:
    data = encode_point(base_mul(11))
    point = parse_point(data)
    assert encode_point(point) == data == bytes(point.format(compressed=True))
    assert encode_point(neg(neg(point))) == data


def test_the_memo_remembers_only_passed_checks() -> None:
    memo = ProofMemo(size=2)
    calls: list[str] = []

    def check(result: bool) -> bool:
        calls.append("checked")
        return result

    assert not memo.check((b"a",), lambda: check(False))
    assert not memo.check((b"a",), lambda: check(False))  # a failure is checked again
    assert memo.check((b"b",), lambda: check(True))
    assert memo.check((b"b",), lambda: check(False))  # remembered: not checked again
    assert len(calls) == 3
    assert memo.check((b"c",), lambda: check(True))
    assert memo.check((b"d",), lambda: check(True))  # b is the oldest: forgotten
    assert not memo.check((b"b",), lambda: check(False))
    assert memo.check((b"", b"ab"), lambda: check(True))
    assert not memo.check((b"a", b"b"), lambda: check(False))  # parts are length-prefixed


def test_a_disabled_memo_checks_every_time() -> None:
    memo = ProofMemo()
    memo.enabled = False
    assert memo.check((b"x",), lambda: True)
    assert not memo.check((b"x",), lambda: False)


@settings(max_examples=25, deadline=None)
@given(scalars, scalars)
@example(5, 1)
@example(5, ORDER - 1)
def test_the_constant_time_product_is_the_variable_time_one(p: int, k: int) -> None:
    point = base_mul(p)
    assert encode_point(mul(point, k)) == encode_point(mul_public(point, k))
    assert encode_point(mul(point, k)) == encode_point(base_mul(p * k % ORDER))


@pytest.mark.parametrize("times", [mul, mul_public])
@pytest.mark.parametrize("k", [0, ORDER, ORDER + 1])
def test_both_products_refuse_a_scalar_out_of_range(times: object, k: int) -> None:
    assert callable(times)
    with pytest.raises(ValueError, match="scalar out of range"):
        times(base_mul(3), k)
