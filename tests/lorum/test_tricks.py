"""Scenario tables for the trick contracts (LORUM.md 4)."""

from __future__ import annotations

import pytest

from lodam_p2p.games.lorum import Announce, Decision, IllegalAction, Play
from lodam_p2p.games.lorum.cards import Card
from tests.lorum.scenes import BY_SUIT, act, deal_of, legal_cards, play_lowest, words

REDS_HANDS = ["7E 8E 9E TE UE OE KE 7H", "AE 8H 9H TH UH OH KH AH",
              "7G 8G 9G TG UG OG KG AG", "7S 8S 9S TS US OS KS AS"]
DISCARD_HANDS = ["7E 8E 9E TE UE OE KE AE", "7G 8G 9G TG UG OG KG 7H",
                 "AG 8H 9H TH UH OH KH AH", "7S 8S 9S TS US OS KS AS"]
EARLY_REDS = ["7E 8E 9E TE 7H 8H 9H TH", "UE OE KE AE UH OH KH AH",
              "7G 8G 9G TG UG OG KG AG", "7S 8S 9S TS US OS KS AS"]
OBER_HANDS = ["7E 8E 9E 7G 8G 9G TG OG", "TE OE 7H 8H 9H TH UH OH",
              "UE KE AE UG KG AG KH AH", "7S 8S 9S TS US OS KS AS"]
BLANK_OBER = ["7E 8E 9E 7G 8G 9G TG OG", "OE 7H 8H 9H TH UH OH KH",
              "TE UE KE AE UG KG AG AH", "7S 8S 9S TS US OS KS AS"]


def test_reds_the_leader_may_not_lead_a_heart_while_holding_other_suits() -> None:
    deal = deal_of("reds", REDS_HANDS)
    assert "7H" not in legal_cards(deal)
    with pytest.raises(IllegalAction, match="seat 0 cannot play 7H: it may not lead a heart"):
        act(deal, "0:7H")


def test_reds_a_leader_with_only_hearts_leads_one() -> None:
    deal = deal_of("reds", BY_SUIT, dealer=1)  # seat 2 (all hearts) leads
    assert legal_cards(deal) == words("7H 8H 9H TH UH OH KH AH")


def test_reds_no_heart_discard_in_the_first_trick_unless_only_hearts() -> None:
    deal = deal_of("reds", DISCARD_HANDS)
    act(deal, "0:7E")
    assert "7H" not in legal_cards(deal)
    with pytest.raises(IllegalAction, match="may not discard a heart in the first trick"):
        act(deal, "1:7H")
    act(deal, "1:7G")
    assert legal_cards(deal) == ["AG"]  # seat 2's only card that is not a heart
    act(deal, "2:AG 3:7S")
    act(deal, "0:8E")
    assert "7H" in legal_cards(deal)  # later tricks allow it


def test_reds_following_suit_is_required() -> None:
    deal = deal_of("reds", REDS_HANDS)
    act(deal, "0:7E")
    assert legal_cards(deal) == ["AE"]
    with pytest.raises(IllegalAction, match=r"must follow suit \(E\)"):
        act(deal, "1:8H")


def test_reds_end_after_the_trick_with_the_last_heart() -> None:
    deal = deal_of("reds", EARLY_REDS)
    act(deal, "0:7E 1:UE 2:7G 3:7S")
    for lead, follow in (("UH", "7H"), ("OH", "8H"), ("KH", "9H"), ("AH", "TH")):
        act(deal, f"1:{lead} 2:8G 3:8S 0:{follow}" if lead == "UH" else
            f"1:{lead} 2:{ {'OH': '9G', 'KH': 'TG', 'AH': 'UG'}[lead]} "
            f"3:{ {'OH': '9S', 'KH': 'TS', 'AH': 'US'}[lead]} 0:{follow}")
    assert deal.is_over and len(deal.tricks) == 5
    assert deal.result().points == (0, 8, 0, 0)


def test_obers_no_ober_lead_and_no_ober_beside_another_card_of_the_suit() -> None:
    deal = deal_of("obers", OBER_HANDS)
    assert "OG" not in legal_cards(deal)
    with pytest.raises(IllegalAction, match="may not lead an Ober"):
        act(deal, "0:OG")
    act(deal, "0:7E")
    assert legal_cards(deal) == ["TE"]
    with pytest.raises(IllegalAction, match="not blank"):
        act(deal, "1:OE")
    act(deal, "1:TE 2:AE")
    assert "OS" not in legal_cards(deal)  # seat 3 cannot follow: no Ober discard
    with pytest.raises(IllegalAction, match="may not discard an Ober"):
        act(deal, "3:OS")


def test_obers_a_blank_ober_must_be_played() -> None:
    deal = deal_of("obers", BLANK_OBER)
    act(deal, "0:7E")
    assert legal_cards(deal) == ["OE"]


def test_obers_end_after_the_last_ober_and_score_two_each() -> None:
    deal = deal_of("obers", BY_SUIT)
    play_lowest(deal)
    # seat 0 leads E and wins every trick; the Obers fall in trick 6 (index 5)
    assert len(deal.tricks) == 6 and deal.result().points == (8, 0, 0, 0)


@pytest.mark.parametrize(
    ("contract", "options", "tricks", "points"),
    [
        ("tricks", {}, 8, 8),
        ("first_last", {}, 8, 8),
        ("first_last", {"first_last_points": 5}, 8, 10),
        ("fifth", {}, 5, 8),
        ("fifth", {"fifth_trick": 6}, 6, 5),
        ("reds", {}, 8, 8),
    ],
)
def test_trick_scores_and_early_ends(contract: str, options: dict[str, int], tricks: int,
                                     points: int) -> None:
    deal = deal_of(contract, BY_SUIT, **options)
    play_lowest(deal)
    assert len(deal.tricks) == tricks
    assert deal.result().points == (points, 0, 0, 0)
    assert [t.points for t in deal.tricks].count(0) == tricks - (
        1 if contract == "fifth" else 2 if contract == "first_last" else tricks)


def test_first_last_scores_only_first_and_last() -> None:
    deal = deal_of("first_last", BY_SUIT)
    play_lowest(deal)
    assert [t.points for t in deal.tricks] == [4, 0, 0, 0, 0, 0, 0, 4]


@pytest.mark.parametrize(("trick", "points"), [(0, 16), (1, 8), (6, 8)])
def test_red_king_before_the_last_trick(trick: int, points: int) -> None:
    deal = deal_of("red_king", BY_SUIT)
    while len(deal.tricks) < trick:
        act(deal, "0:" + ["7E", "8E", "9E", "TE", "UE", "OE", "KE"][len(deal.tricks)]
            + " 1:" + ["7G", "8G", "9G", "TG", "UG", "OG", "KG"][len(deal.tricks)]
            + " 2:" + ["7H", "8H", "9H", "TH", "UH", "OH", "AH"][len(deal.tricks)]
            + " 3:" + ["7S", "8S", "9S", "TS", "US", "OS", "KS"][len(deal.tricks)])
    act(deal, "0:AE 1:AG 2:KH 3:AS")
    assert deal.is_over and len(deal.tricks) == trick + 1
    assert deal.result().points == (points, 0, 0, 0)


@pytest.mark.parametrize(("announce", "points"), [(False, 32), (True, 64)])
def test_red_king_in_the_last_trick_and_the_announcement(announce: bool, points: int) -> None:
    deal = deal_of("red_king", BY_SUIT)
    for i, (e, g, h, s) in enumerate(zip(words("7E 8E 9E TE UE OE KE"),
                                         words("7G 8G 9G TG UG OG KG"),
                                         words("7H 8H 9H TH UH OH AH"),
                                         words("7S 8S 9S TS US OS KS"), strict=True)):
        assert deal.awaiting is Decision.PLAY, i
        act(deal, f"0:{e} 1:{g} 2:{h} 3:{s}")
    assert deal.awaiting is Decision.ANNOUNCE and deal.to_act == 2
    assert deal.public.to_act is None and str(deal.public.awaiting_card) == "KH"
    with pytest.raises(IllegalAction):
        deal.apply(Announce(1, True))
    deal.apply(Announce(2, announce))
    assert deal.public.announced is announce
    act(deal, "0:AE 1:AG 2:KH 3:AS")
    assert deal.result().points == (points, 0, 0, 0)
    assert deal.result().announced is announce


def test_red_king_the_announcing_holder_may_take_its_own_64() -> None:
    deal = deal_of("red_king", BY_SUIT, dealer=1)  # seat 2, all hearts, leads and wins
    for h, s, e, g in zip(words("7H 8H 9H TH UH OH AH"), words("7S 8S 9S TS US OS KS"),
                          words("7E 8E 9E TE UE OE KE"), words("7G 8G 9G TG UG OG KG"),
                          strict=True):
        act(deal, f"2:{h} 3:{s} 0:{e} 1:{g}")
    deal.apply(Announce(2, True))
    act(deal, "2:KH 3:AS 0:AE 1:AG")
    assert deal.result().points == (0, 0, 64, 0)


def test_red_king_announcement_at_another_moment_is_refused() -> None:
    deal = deal_of("red_king", BY_SUIT)
    with pytest.raises(IllegalAction, match="seat 2 cannot announce the red king"):
        deal.apply(Announce(2, True))


def test_red_king_blind_plays_every_card_in_dealt_order() -> None:
    hands = ["7E KH 9E TE UE OE KE AE", "7G 8G 9G TG UG OG KG AG",
             "7H AH 9H TH UH OH 8E 8H", "7S 8S 9S TS US OS KS AS"]
    deal = deal_of("red_king", hands, red_king_blind=True)
    assert deal.is_over and not deal.legal_actions()
    # trick 1: 7E 7G 7H 7S → seat 0; trick 2: seat 0 leads KH, AH is higher → seat 2
    assert [str(c) for _, c in deal.tricks[1].cards] == ["KH", "8G", "AH", "8S"]
    assert deal.result().points == (0, 0, 5, 0) and len(deal.tricks) == 2
    assert deal.view(0).hand == ()  # nobody sees their own cards


def test_blind_plays_need_not_follow_suit() -> None:
    hands = ["7E 8E 9E TE UE OE KE AE", "7G 8G 9G TG UG OG KG AG",
             "KH 8H 9H TH UH OH 7H AH", "7S 8S 9S TS US OS KS AS"]
    deal = deal_of("red_king", hands, red_king_blind=True)
    assert deal.result().points == (5, 0, 0, 0) and len(deal.tricks) == 1


def test_a_play_out_of_turn_names_the_seat_and_whose_turn_it_is() -> None:
    deal = deal_of("tricks", BY_SUIT)
    with pytest.raises(IllegalAction, match="seat 1 cannot play 7G: it is seat 0's turn"):
        deal.apply(Play(1, Card.parse("7G")))
    with pytest.raises(IllegalAction, match="does not hold 7G"):
        deal.apply(Play(0, Card.parse("7G")))


def test_three_players_ten_tricks_and_the_set_aside_cards_stay_out() -> None:
    hands = ["7E 8E 9E TE UE OE KE AE 9S TS", "7G 8G 9G TG UG OG KG AG US OS",
             "7H 8H 9H TH UH OH KH AH KS AS"]
    deal = deal_of("tricks", hands)
    play_lowest(deal)
    assert len(deal.tricks) == 10 and sum(deal.result().points) == 10
