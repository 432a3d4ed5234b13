"""Cards, options and the deal itself (RULES.md 1, 4 and 12)."""

from __future__ import annotations

import pytest

from lodam_p2p.games.lodam import (
    FULL_PACK,
    SHORT_PACK,
    Card,
    Deal,
    Kind,
    MalformedInput,
    OptionError,
    Options,
    Rank,
    RankOrder,
    Suit,
    rank_strength,
)


@pytest.mark.parametrize("text", ["TD", "td", "AS", "2c", "QH"])
def test_card_parse_and_format_round_trip(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text.upper() and eval(repr(card)) == card
    assert Card.parse(text) is card  # interned


@pytest.mark.parametrize("text", ["10D", "T", "TX", "", "1S", " AS", None, 7])
def test_malformed_cards(text: object) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)  # type: ignore[arg-type]


def test_loaders_kinds_and_the_108_points() -> None:
    assert [Card.parse(c).points for c in ["AS", "TH", "KD", "QC", "JS", "9S", "2H"]] == [
        11, 10, 3, 2, 1, 0, 0]
    assert Card.parse("KS").kind is Kind.COAT and Card.parse("JD").kind is Kind.COAT
    assert Card.parse("AS").kind is Kind.CARD and Card.parse("TC").kind is Kind.CARD
    assert Card.parse("9S").kind is None and not Card.parse("9S").is_loader
    assert sum(c.points for c in FULL_PACK) == 108 == sum(c.points for c in SHORT_PACK)
    assert len(set(FULL_PACK)) == 52 and len(SHORT_PACK) == 32
    assert {c.rank for c in SHORT_PACK} == {r for r in Rank if r >= Rank.SEVEN}
    assert Card(Rank.TEN, Suit.D) == Card.parse("TD") and str(Suit.S) == "S"


def test_rank_orders() -> None:
    ten, king, jack = (Card.parse(c) for c in ("TS", "KS", "JS"))
    assert rank_strength(king, RankOrder.WILLUGHBY) > rank_strength(jack, RankOrder.WILLUGHBY)
    assert rank_strength(jack, RankOrder.WILLUGHBY) > rank_strength(ten, RankOrder.WILLUGHBY)
    assert rank_strength(ten, RankOrder.PARLETT) > rank_strength(king, RankOrder.PARLETT)
    assert rank_strength(Card.parse("AS"), RankOrder.PARLETT) > rank_strength(
        ten, RankOrder.PARLETT)


def test_options_round_trip_and_assignments() -> None:
    options = Options.parse_assignments(["lives=2", "declare_out=true", "rank_order=parlett",
                                         "hand_size=5", "trump_show_seconds=1.5"])
    assert options.lives == 2 and options.declare_out and options.hand_size == 5
    assert options.rank_order is RankOrder.PARLETT
    assert Options.from_mapping(options.to_mapping()) == options
    assert Options.from_mapping({}) == Options()


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"lives": 0}, "lives must be 1 … 9"),
        ({"lives": 10}, "lives must be 1 … 9"),
        ({"out_at": 109}, "out_at must be 1 … 108"),
        ({"exchanges": "sometimes"}, "exchanges must be one of"),
        ({"short_deck_at": 1}, "short_deck_at must be 0, 2, 3 or 4"),
        ({"hand_size": 0}, "hand_size must be an integer ≥ 1"),
        ({"declare_out": "yes"}, "declare_out must be true or false"),
        ({"trump_show_seconds": 0}, "trump_show_seconds must be > 0"),
        ({"stake": -1}, "stake must be ≥ 0"),
        ({"lives": True}, "lives must be an integer"),
        ({"surprise": 1}, "unknown option 'surprise'"),
    ],
)
def test_bad_options_name_the_option(values: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Options.from_mapping(values)


def test_bad_assignment() -> None:
    with pytest.raises(OptionError, match="name=value"):
        Options.parse_assignments(["lives"])


@pytest.mark.parametrize(
    ("players", "hand"), [(2, 24), (3, 16), (4, 12), (5, 9), (6, 8), (7, 7), (8, 6), (9, 5),
                          (10, 4)],
)
def test_hand_sizes_of_the_full_pack(players: int, hand: int) -> None:
    assert Options().hand_size_for(players) == hand
    assert 52 - players * hand >= 3


@pytest.mark.parametrize(("players", "hand"), [(2, 13), (3, 9), (4, 7)])
def test_short_deck_hand_sizes(players: int, hand: int) -> None:
    options = Options(short_deck_at=4)
    assert options.pack_size(players) == 32 and options.hand_size_for(players) == hand
    assert Options(short_deck_at=3).pack_size(4) == 52


def test_hand_size_override_keeps_a_talon() -> None:
    assert Options(hand_size=10).hand_size_for(5) == 10
    with pytest.raises(OptionError, match="leaves no talon"):
        Options(hand_size=11).hand_size_for(5)


def test_dealing_one_at_a_time_from_the_eldest() -> None:
    deck = list(FULL_PACK)
    deal = Deal.start(Options(), 1, [3, 0, 3, 3], deck)
    # seat 1 is out of counters and deals once more, receiving nothing; seat 2 is eldest
    order = (2, 3, 0)
    assert deal.public.order == order and deal.leader == 2
    for k, seat in enumerate(order):
        assert deal.dealt_hands[seat] == tuple(deck[k + j * 3] for j in range(16))
    assert deal.dealt_hands[1] == () and deal.talon == tuple(deck[48:])


def test_malformed_deals() -> None:
    with pytest.raises(MalformedInput, match="must hold 52 cards"):
        Deal.start(Options(), 0, [3, 3, 3], FULL_PACK[:51])
    with pytest.raises(MalformedInput, match="missing or twice"):
        Deal.start(Options(), 0, [3, 3, 3], (FULL_PACK[0],) * 52)
    with pytest.raises(MalformedInput, match="must hold Card objects"):
        Deal.start(Options(), 0, [3, 3, 3], [str(c) for c in FULL_PACK])  # type: ignore[misc]
    with pytest.raises(MalformedInput, match="dealer must be a seat"):
        Deal.start(Options(), 3, [3, 3, 3], FULL_PACK)
    with pytest.raises(MalformedInput, match="at least 2 active"):
        Deal.start(Options(), 0, [3, 0, 0], FULL_PACK)
    with pytest.raises(MalformedInput, match="2 to 10 players"):
        Deal.start(Options(), 0, [3] * 11, FULL_PACK)


def test_result_waits_for_the_end() -> None:
    deal = Deal.start(Options(), 0, [3, 3, 3], FULL_PACK)
    with pytest.raises(ValueError, match="not over"):
        deal.result()
