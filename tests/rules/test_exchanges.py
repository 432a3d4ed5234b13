"""Exchanging (RULES.md 5): windows, offers by kind, answers in turn, void exchanges."""

from __future__ import annotations

import pytest

from lodam_p2p.games.lodam import (
    Answer,
    Card,
    Deal,
    Decision,
    IllegalAction,
    Kind,
    Offer,
    Options,
    Play,
    PublicExchange,
    PublicOffer,
)
from tests.rules.helpers import deck_for, run

# Three seats, dealer 2, so seat 0 is eldest and leads; hands of three cards.
HANDS = {0: "KS 2S 3H", 1: "QD 4D AC", 2: "JS TH 5C"}


def deal_of(rule: str = "every_trick") -> Deal:
    deck = [Card.parse(c) for c in deck_for(HANDS, 2, 3)]
    return Deal.start(Options.from_mapping({"exchanges": rule, "hand_size": 3}), 2, [3] * 3, deck)


def c(text: str) -> Card:
    return Card.parse(text)


def test_two_trades_in_one_window() -> None:
    out = run(HANDS, "0:offer=KS 1:accept=QD 1:offer=AC 2:accept=TH 2:nooffer 0:QD",
              dealer=2, players=3)
    assert out["exchanges"] == [
        {"offerer": 0, "offer": "KS", "acceptor": 1, "accept": "QD", "void": False},
        {"offerer": 1, "offer": "AC", "acceptor": 2, "accept": "TH", "void": False},
    ]
    assert out["error"]["message"] == "the actions ran out with seat 1 to play"


def test_first_acceptor_trades_and_later_seats_are_not_asked() -> None:
    deal = deal_of()
    deal.apply(Offer(0, c("KS")))
    assert deal.awaiting is Decision.ANSWER and deal.to_act == 1
    deal.apply(Answer(1, None))
    assert deal.to_act == 2
    deal.apply(Answer(2, c("JS")))  # same suit as KS: void
    assert deal.exchanges[-1].void and deal.hand(0) == (c("2S"), c("KS"), c("3H"))
    # the next offerer is the offerer's left neighbour
    assert (deal.to_act, deal.awaiting) == (1, Decision.OFFER)


def test_void_exchange_gives_each_their_own_card_back() -> None:
    out = run(HANDS, "0:offer=KS 1:decline 2:accept=JS", dealer=2, players=3)
    assert out["exchanges"] == [
        {"offerer": 0, "offer": "KS", "acceptor": 2, "accept": "JS", "void": True}
    ]


def test_an_offer_nobody_accepts_lapses() -> None:
    out = run(HANDS, "0:offer=KS 1:decline 2:decline 0:2S", dealer=2, players=3)
    assert out["exchanges"] == [
        {"offerer": 0, "offer": "KS", "acceptor": None, "accept": None, "void": False}
    ]


def test_answers_are_defaulted_to_decline_in_a_script() -> None:
    out = run(HANDS, "0:offer=KS 0:KS", dealer=2, players=3)
    assert out["exchanges"][0]["acceptor"] is None
    assert out["tricks"] == [] and out["error"]["index"] == 2


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("0:offer=2S", "seat 0 cannot offer 2S: only coats (K Q J) and cards (A T) can be"),
        ("0:offer=QD", "seat 0 cannot offer QD: does not hold QD"),
        ("0:offer=KS 1:accept=AC", "seat 1 cannot accept with AC: the offer is a coat (K Q J)"),
        # seat 1's answer defaults to decline when seat 2 answers first; then the
        # window runs on by defaults, and a late answer finds seat 0 to play
        ("0:offer=KS 2:accept=JS 1:decline", "seat 1 cannot decline the offer: it is seat 0's"),
    ],
)
def test_wrong_offers_and_answers(script: str, message: str) -> None:
    out = run(HANDS, script, dealer=2, players=3)
    assert out["error"]["message"].startswith(message)


def test_every_seat_gets_the_offer_decision_even_with_nothing_to_offer() -> None:
    hands = {0: "2S 3S 4S", 1: "2D 3D 4D", 2: "2H 3H 4H"}
    deck = [Card.parse(x) for x in deck_for(hands, 2, 3)]
    deal = Deal.start(Options(hand_size=3), 2, [3] * 3, deck)
    for seat in (0, 1, 2):
        assert (deal.to_act, deal.awaiting) == (seat, Decision.OFFER)
        assert deal.legal_actions() == [Offer(seat, None)]
        deal.apply(Offer(seat, None))
    assert deal.awaiting is Decision.PLAY


def play_first_trick(deal: Deal) -> None:
    for seat in (0, 1, 2):
        deal.apply(Offer(seat, None)) if deal.awaiting is Decision.OFFER else None
    for seat, card in [(0, "2S"), (1, "QD"), (2, "JS")]:
        deal.apply(Play(seat, c(card)))


@pytest.mark.parametrize(
    ("rule", "after_first"),
    [("every_trick", Decision.OFFER), ("first_trick", Decision.PLAY), ("off", Decision.PLAY)],
)
def test_exchange_windows(rule: str, after_first: Decision) -> None:
    deal = deal_of(rule)
    first = Decision.PLAY if rule == "off" else Decision.OFFER
    assert deal.awaiting is first
    play_first_trick(deal)
    # QD renounces and turns the talon top 3S: spades, the led suit, are trump, so
    # JS wins with no swallow question
    assert deal.tricks[0].winner == 2 and deal.trump_card == c("3S")
    assert (deal.to_act, deal.awaiting) == (2, after_first)


def test_views_show_exchange_cards_only_to_the_two_traders() -> None:
    deal = deal_of()
    deal.apply(Offer(0, c("KS")))
    assert deal.view(2).pending_offer == PublicOffer(0, Kind.COAT)
    deal.apply(Answer(1, c("QD")))
    assert deal.view(0).exchanges == (PublicExchange(0, Kind.COAT, 1, False, c("KS"), c("QD")),)
    assert deal.view(1).exchanges == (PublicExchange(0, Kind.COAT, 1, False, c("QD"), c("KS")),)
    assert deal.view(2).exchanges == (PublicExchange(0, Kind.COAT, 1, False),)
    assert c("KS") in deal.view(1).hand and c("QD") in deal.view(0).hand


def test_offered_card_cannot_be_withdrawn_or_offered_twice_in_a_window() -> None:
    deal = deal_of()
    deal.apply(Offer(0, c("KS")))
    with pytest.raises(IllegalAction, match="seat 0 cannot offer KS: it is seat 1's turn"):
        deal.apply(Offer(0, c("KS")))


def test_a_seat_to_act_on_another_kind_of_decision_is_told_which() -> None:
    deal = deal_of()
    with pytest.raises(IllegalAction, match="seat 0 cannot play 2S: its decision now is to offer"):
        deal.apply(Play(0, c("2S")))


def test_public_exchanges_say_which_trick_they_preceded() -> None:
    deal = deal_of()
    deal.apply(Offer(0, c("KS")))
    deal.apply(Answer(1, c("QD")))
    for seat in (1, 2):
        deal.apply(Offer(seat, None))
    for seat, card in ((0, "2S"), (1, "KS"), (2, "JS")):
        deal.apply(Play(seat, c(card)))
    # the second window opens before the second trick; the leader offers
    leader = deal.to_act
    assert leader is not None and deal.awaiting is Decision.OFFER
    card = next(x for x in deal.hand(leader) if x.kind is not None)
    deal.apply(Offer(leader, card))
    while deal.awaiting is Decision.ANSWER:
        deal.apply(Answer(deal.to_act or 0, None))
    assert [e.before_trick for e in deal.public.exchanges] == [0, 1]
    assert [e.before_trick for e in deal.view(2).exchanges] == [0, 1]
