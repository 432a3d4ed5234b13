"""Scenario tables for Quartet (LORUM.md 5) and Lorum (LORUM.md 6)."""

from __future__ import annotations

import random

import pytest

from lodam_p2p.games.lorum import (
    Contract,
    Deal,
    Decision,
    IllegalAction,
    Lay,
    Options,
    Pass,
    Play,
)
from lodam_p2p.games.lorum.cards import Card
from tests.lorum.helpers import deck_for
from tests.lorum.scenes import BY_SUIT, act, deal_of, legal_cards

QUARTET = ["7E AE 7G 8G 9G TG UG OG", "8E KG AG 7H 8H 9H TH UH",
           "9E OH KH AH 7S 8S 9S TS", "TE UE OE KE US OS KS AS"]


def _runs(deal: object) -> list[list[str]]:
    return [[f"{s}:{c}" for s, c in t.cards] for t in deal.tricks]  # type: ignore[attr-defined]


def test_quartet_run_of_four_played_by_the_holders() -> None:
    deal = deal_of("quartet", QUARTET)
    act(deal, "0:7E")
    assert _runs(deal) == [["0:7E", "1:8E", "2:9E", "3:TE"]]
    assert deal.tricks[0].winner == 3 and deal.to_act == 3 and deal.tricks[0].points == 0
    act(deal, "3:UE")  # OE KE by seat 3 itself, AE by seat 0
    assert _runs(deal)[1] == ["3:UE", "3:OE", "3:KE", "0:AE"] and deal.to_act == 0


def test_quartet_an_ace_is_a_run_of_one_and_its_player_leads_again() -> None:
    deal = deal_of("quartet", QUARTET)
    act(deal, "0:AE")
    assert _runs(deal) == [["0:AE"]] and deal.to_act == 0


def test_quartet_a_run_stops_at_a_card_already_played() -> None:
    deal = deal_of("quartet", QUARTET)
    act(deal, "0:9G 0:7G")
    assert _runs(deal) == [["0:9G", "0:TG", "0:UG", "0:OG"], ["0:7G", "0:8G"]]
    assert deal.to_act == 0


def test_quartet_a_hand_emptied_mid_run_ends_the_deal() -> None:
    deal = deal_of("quartet", QUARTET)
    act(deal, "0:7E 3:US 3:UE")  # seat 3 plays its last card, KE; AE never comes
    assert _runs(deal)[-1] == ["3:UE", "3:OE", "3:KE"] and deal.is_over
    assert deal.result().out == (3,) and deal.result().points == (7, 7, 7, 0)


def test_quartet_a_seven_is_free_once_its_eight_is_played() -> None:
    hands = ["7E 8E AE 7G 8G 9G TG UG", "9E OG KG AG 7H 8H 9H TH",
             "UH OH KH AH 7S 8S 9S TS", "TE UE OE KE US OS KS AS"]
    deal = deal_of("quartet", hands)
    act(deal, "0:8E 3:OE")
    assert _runs(deal) == [["0:8E", "1:9E", "3:TE", "3:UE"], ["3:OE", "3:KE", "0:AE"]]
    act(deal, "0:7E")
    assert _runs(deal)[-1] == ["0:7E"] and deal.to_act == 0
    with pytest.raises(IllegalAction, match="does not hold OG"):
        deal.apply(Play(0, Card.parse("OG")))


def test_quartet_the_first_empty_hand_ends_the_deal_mid_run() -> None:
    rng = random.Random(3)
    for _ in range(200):
        deal = Deal.start(Options(), Contract.QUARTET, 3, deck_for(4, rng))
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        last = deal.tricks[-1]
        top = last.cards[-1][1]
        if last.winner != last.leader and len(last.cards) < 4 and top.rank != 7:
            nxt = Card.parse("789TUOKA"[top.rank + 1] + str(top.suit))
            if nxt not in [c for t in deal.tricks for _, c in t.cards]:
                break
    else:
        pytest.fail("no deal ended mid-run")
    assert deal.result().out == (last.winner,)
    held = [len(deal.hand(s)) for s in range(4)]
    assert held[last.winner] == 0 and deal.result().points == tuple(held)


LORUM = ["KE 7G 8G 9G TG UG OG AG", "AE KG 7H 8H 9H TH UH OH",
         "7E KH AH 7S 8S 9S TS US", "8E 9E TE UE OE OS KS AS"]


def test_lorum_rows_wrap_from_ace_to_seven_and_forced_passes_score() -> None:
    deal = deal_of("lorum", LORUM)
    assert deal.awaiting is Decision.LAY and len(legal_cards(deal)) == 8  # any first card
    act(deal, "0:KE")
    assert sorted(legal_cards(deal)) == ["AE", "KG"]
    act(deal, "1:AE")
    assert sorted(legal_cards(deal)) == ["7E", "KH"]
    act(deal, "2:7E 3:8E")  # seat 0 holds nothing that fits: it passes by itself
    assert deal.public.lays[-1] == (0, None) and deal.points[0] == 1 and deal.to_act == 1
    with pytest.raises(IllegalAction, match="does not fit the rows"):
        deal.apply(Lay(1, Card.parse("7H")))


def test_lorum_passing_while_able_to_lay_is_refused() -> None:
    deal = deal_of("lorum", LORUM, auto=False)
    act(deal, "0:KE")
    with pytest.raises(IllegalAction, match=r"may not pass holding a card that fits \(AE KG\)"):
        deal.apply(Pass(1))


def test_lorum_unter_start_leader_without_unter_passes() -> None:
    hands = ["7E 8E 9E TE OE KE AE 7G", "UE UG 8G 9G TG OG KG AG",
             "UH 7H 8H 9H TH OH KH AH", "US 7S 8S 9S TS OS KS AS"]
    deal = deal_of("lorum", hands, lorum_start="unter")
    assert deal.public.lays == [(0, None)] and deal.to_act == 1 and deal.points[0] == 1
    assert legal_cards(deal) == ["UE", "UG"]
    act(deal, "1:UE 2:UH 3:US")
    assert legal_cards(deal) == ["TE", "OE"]  # down and up from the Unter
    act(deal, "0:TE 1:UG")
    act(deal, "2:OH 3:OS 0:9E")
    assert sorted(legal_cards(deal)) == ["OG", "TG"]


def test_lorum_unter_rows_end_at_the_ace_and_the_seven() -> None:
    hands = ["UE OE KE AE 7G 8G 9G TG", "TE 9E 8E 7E UG OG KG AG",
             "UH 7H 8H 9H TH OH KH AH", "US 7S 8S 9S TS OS KS AS"]
    deal = deal_of("lorum", hands, lorum_start="unter")
    act(deal, "0:UE 1:TE 2:UH 3:US 0:OE 1:9E 2:TH 3:TS 0:KE 1:8E 2:9H 3:9S 0:AE 1:7E")
    fits = {str(c) for c in deal.view(2).fits}
    assert not fits & {"7E", "8E", "9E", "TE", "UE", "OE", "KE", "AE"}


def test_three_players_lay_7S_and_8S_at_once() -> None:
    hands = ["7E 8E 9E TE UE OE KE AE 7G 8G", "9G TG UG OG KG AG 7H 8H 9H TH",
             "UH OH KH AH 9S TS US OS KS AS"]
    deal = deal_of("lorum", hands)
    act(deal, "0:7E")
    assert deal.public.lays == [(0, Card.parse("7E")), (None, Card.parse("7S")),
                                (None, Card.parse("8S"))]
    assert deal.to_act == 1 and legal_cards(deal) == ["7H"]
    act(deal, "1:7H")
    assert legal_cards(deal) == ["9S"]


def test_three_players_set_aside_cards_follow_the_ace_of_the_spade_row() -> None:
    hands = ["9S 8E 9E TE UE OE KE AE 7G 8G", "9G TG UG OG KG AG 7H 8H 7E TH",
             "UH OH KH AH 9H TS US OS KS AS"]
    deal = deal_of("lorum", hands)
    act(deal, "0:9S 1:9G 2:9H")
    act(deal, "0:9E 1:TG 2:TS 0:TE 1:UG 2:US 0:UE 1:OG 2:OS 0:OE 1:KG 2:KS 0:KE 1:AG 2:AS")
    assert deal.public.lays[-2:] == [(None, Card.parse("7S")), (None, Card.parse("8S"))]


@pytest.mark.parametrize("players", [3, 4])
def test_lorum_play_on_scores_two_and_three_per_card(players: int) -> None:
    rng = random.Random(players)
    options = Options(lorum_play_on=True)
    for _ in range(100):
        deal = Deal.start(options, Contract.LORUM, 0, deck_for(players, rng), players=players)
        held = [len(h) for h in deal.dealt_hands]
        expected = [0] * players
        lays = iter(deal.public.lays)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        out = 0
        for seat, card in lays:
            if card is None:
                expected[seat] += 1  # type: ignore[index]
            elif seat is not None:
                held[seat] -= 1
                if not held[seat]:
                    out += 1
                    expected = [e + out * h for e, h in zip(expected, held, strict=True)]
        assert out == players - 1 and len(deal.result().out) == players - 1
        assert deal.result().points == tuple(expected)


@pytest.mark.parametrize(("play_on", "points", "out"),
                         [(False, (0, 1, 1, 1), (0,)), (True, (0, 1, 3, 6), (0, 1, 2))])
def test_lorum_each_seat_one_suit_first_out_and_play_on(play_on: bool, points: tuple[int, ...],
                                                        out: tuple[int, ...]) -> None:
    deal = deal_of("lorum", BY_SUIT, lorum_play_on=play_on)
    act(deal, "0:7E")
    while not deal.is_over:
        (only,) = deal.legal_actions()  # each seat lays its own suit upwards
        deal.apply(only)
    # seat 0 lays AE first while the others hold one card: 1 each; then AG with two
    # seats holding one: 2 each; then AH with seat 3 holding AS: 3
    assert deal.result().points == points and deal.result().out == out
