"""The bundled bots: obvious moves in hand-built positions, legal play under every option."""

from __future__ import annotations

import pytest

from lodam_p2p.arena.config import build_config
from lodam_p2p.arena.runner import run_arena
from lodam_p2p.bots import BotRegistry
from lodam_p2p.bots.knowledge import Knowledge
from lodam_p2p.games.lodam import Answer, Card, Deal, Decision, ExchangeRule, Offer, Play, Suit
from lodam_plugins.lodam.heuristic import HeuristicBot
from lodam_plugins.random_bot import RandomBot
from tests.bots.conftest import small_deal


def heuristic(seat: int) -> HeuristicBot:
    return HeuristicBot(seat=seat, seed=1, options={})


def test_dumps_an_ace_on_a_trick_another_seat_must_take() -> None:
    deal = small_deal({0: ["AS", "4D"], 1: ["5H", "9C"], 2: ["9H", "3C"]}, "7C")
    deal.apply(Play(1, Card.parse("5H")))
    deal.apply(Play(2, Card.parse("9H")))
    assert heuristic(0).decide(deal.view(0)) == Play(0, Card.parse("AS"))


def test_ducks_under_the_winner_with_its_biggest_loser() -> None:
    deal = small_deal(
        {0: ["KH", "TH", "3H"], 1: ["9H", "2C", "4C"], 2: ["QH", "3C", "5C"]}, "7D"
    )
    deal.apply(Play(1, Card.parse("9H")))
    deal.apply(Play(2, Card.parse("QH")))
    assert heuristic(0).decide(deal.view(0)) == Play(0, Card.parse("TH"))


def test_does_not_take_its_way_to_out_at_when_a_cheaper_card_wins() -> None:
    deal = small_deal({0: ["TH", "JH"], 1: ["9H", "2C"], 2: ["3H", "3C"]}, "7D", out_at=5)
    deal.apply(Play(1, Card.parse("9H")))
    deal.apply(Play(2, Card.parse("3H")))
    assert heuristic(0).decide(deal.view(0)) == Play(0, Card.parse("JH"))


def test_knowledge_sees_a_renounce_and_the_unseen_cards() -> None:
    deal = small_deal({0: ["AS", "4D"], 1: ["5H", "9C"], 2: ["9H", "3C"]}, "7C")
    deal.apply(Play(1, Card.parse("5H")))
    deal.apply(Play(2, Card.parse("9H")))
    deal.apply(Play(0, Card.parse("4D")))
    view = deal.view(1)
    know = Knowledge.of(view)
    assert know.is_void(0, Suit.H) and not know.is_void(2, Suit.H)
    assert Card.parse("4D") in know.played
    assert Card.parse("7C") not in know.unseen  # the turned trump card sits in the talon
    assert Card.parse("9C") not in know.unseen  # our own card
    assert Card.parse("3C") in know.unseen
    assert len(know.unseen) == 52 - 3 - 1 - 1


def test_random_bot_is_uniform_over_legal_moves_and_seeded() -> None:
    deal = small_deal({0: ["AS", "4D"], 1: ["5H", "9C"], 2: ["9H", "3C"]}, "7C")
    view = deal.view(1)
    picks = [RandomBot(seat=1, seed=s, options={}).decide(view) for s in range(40)]
    assert set(picks) == set(view.legal)
    again = [RandomBot(seat=1, seed=s, options={}).decide(view) for s in range(40)]
    assert picks == again


def test_heuristic_beats_random_clearly() -> None:
    result = run_arena(build_config("heuristic,random*3", 12, 21))
    assert result.bots()["heuristic"].win_share >= 0.75


@pytest.mark.parametrize(
    "options",
    [
        ["declare_out=true"],
        ["trump_memory=true"],
        ["winning=true"],
        ["short_deck_at=4"],
        ["rank_order=parlett", "exchanges=first_trick"],
        ["exchanges=off", "lives=1", "out_at=20"],
    ],
)
def test_heuristic_answers_legally_under_every_option(options: list[str]) -> None:
    config = build_config("heuristic*2,random*3", 5, 3, options=options)
    result = run_arena(config, BotRegistry.load(default_dirs=False))
    assert [f.message for r in result.records for f in r.failures] == []
    assert all(record.finished for record in result.records)


def _trick(deal: Deal, *cards: str) -> None:
    for text in cards:
        seat = deal.to_act
        assert seat is not None
        deal.apply(Play(seat, Card.parse(text)))


def _no_offers(deal: Deal) -> None:
    while deal.awaiting is Decision.OFFER:
        deal.apply(Offer(deal.to_act or 0, None))


def test_a_void_stands_through_earlier_trades_and_falls_with_later_ones() -> None:
    # seat 0 renounces hearts in trick 1 after trading in the first window, then
    # trades again before trick 2: from then on it may hold a heart again
    hands = {0: ["KS", "4D", "2C"], 1: ["QD", "5H", "9C"], 2: ["JC", "9H", "3C"]}
    deal = small_deal(hands, "7C", exchanges=ExchangeRule.EVERY_TRICK)
    deal.apply(Offer(1, Card.parse("QD")))
    deal.apply(Answer(2, None))
    deal.apply(Answer(0, Card.parse("KS")))  # seat 0 takes QD for KS
    _no_offers(deal)
    _trick(deal, "5H", "9H", "4D")  # seat 0 renounces hearts
    assert Knowledge.of(deal.view(1)).is_void(0, Suit.H)
    # the window before trick 2: seat 2 (the winner) leads it
    deal.apply(Offer(2, Card.parse("JC")))
    deal.apply(Answer(0, Card.parse("QD")))  # a coat for a coat, other suits: done
    _no_offers(deal)
    assert not Knowledge.of(deal.view(1)).is_void(0, Suit.H)
