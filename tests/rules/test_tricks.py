"""Trick play (RULES.md 6): following suit, the trump turn, the winner, swallowing."""

from __future__ import annotations

import pytest

from lodam_p2p.games.lodam import (
    Card,
    Deal,
    Decision,
    IllegalAction,
    Options,
    Play,
    Revoke,
    Swallow,
)
from tests.rules.helpers import deck_for, run

OFF = {"exchanges": "off"}

# The worked example of seeds/001: five play; Anna (0) leads 9D, Ben (1) KD, Carla (2) has
# no diamond and plays 4C; the talon top 6C is turned, clubs are trump, so Carla's 4C
# wins; Dan (3) and Emil (4) follow low. Carla takes the 3 points of the king and leads.
SEED_HANDS = {
    0: "9D 2S 3S 4S 5S 6S 7S 8S 9S",
    1: "KD 2H 3H 4H 5H 6H 7H 8H 9H",
    2: "4C TS JS QS KS AS TH JH QH",
    3: "2D 4D 5D 6D 7D 8D KH AH 2C",
    4: "3D TD JD QD AD 3C 5C 7C 8C",
}


def seed_trick(script: str = "0:9D 1:KD 2:4C 3:2D 4:3D", **options: object) -> dict:
    return run(SEED_HANDS, script, dealer=4, players=5, options={**OFF, **options},
               talon_top="6C")


def test_seed_example_renounce_turns_clubs_and_the_trump_wins() -> None:
    out = seed_trick()
    assert out["trump"] == "C" and out["trump_card"] == "6C"
    assert out["tricks"] == [{
        "leader": 0, "cards": [[0, "9D"], [1, "KD"], [2, "4C"], [3, "2D"], [4, "3D"]],
        "winner": 2, "points": 3, "swallowed": False,
    }]
    assert out["points"] == [0, 0, 3, 0, 0]
    # Carla leads next: the script ends where her lead is awaited
    assert out["error"] == {"index": 5, "seat": 2,
                            "message": "the actions ran out with seat 2 to play"}


def test_seed_example_ben_may_swallow_the_trick() -> None:
    out = seed_trick("0:9D 1:KD 2:4C 3:2D 4:3D 1:swallow")
    assert out["tricks"][0]["winner"] == 1 and out["tricks"][0]["swallowed"] is True
    assert out["points"] == [0, 3, 0, 0, 0]
    assert out["error"]["seat"] == 1  # Ben leads the next trick


def test_swallow_question_goes_to_the_highest_card_of_the_led_suit() -> None:
    deck = deck_for(SEED_HANDS, 4, 5, "6C")
    deal = Deal.start(Options(exchanges=Options().exchanges.OFF), 4, [3] * 5,
                      [Card.parse(c) for c in deck])
    for seat, card in [(0, "9D"), (1, "KD"), (2, "4C"), (3, "2D"), (4, "3D")]:
        deal.apply(Play(seat, Card.parse(card)))
    assert (deal.to_act, deal.awaiting) == (1, Decision.SWALLOW)
    assert deal.legal_actions() == [Swallow(1, False), Swallow(1, True)]
    with pytest.raises(IllegalAction, match="seat 2 cannot swallow the trick: it is seat 1's"):
        deal.apply(Swallow(2, True))


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("0:9D 1:2H", "seat 1 cannot play 2H: must follow suit D"),
        ("0:9D 1:AS", "seat 1 cannot play AS: does not hold AS"),
        ("0:9D 2:4C", "seat 2 cannot play 4C: it is seat 1's turn to play"),
        ("1:KD", "seat 1 cannot play KD: it is seat 0's turn to play"),
    ],
)
def test_illegal_plays_name_seat_and_move(script: str, message: str) -> None:
    out = seed_trick(script)
    assert out["error"]["message"] == message
    assert out["counter_change"] == [0] * 5


def test_a_revoke_is_refused_as_such() -> None:
    deck = [Card.parse(c) for c in deck_for(SEED_HANDS, 4, 5, "6C")]
    deal = Deal.start(Options.from_mapping(OFF), 4, [3] * 5, deck)
    deal.apply(Play(0, Card.parse("9D")))
    with pytest.raises(Revoke, match="seat 1 cannot play 2H: must follow suit D") as caught:
        deal.apply(Play(1, Card.parse("2H")))
    assert caught.value.seat == 1 and caught.value.action == Play(1, Card.parse("2H"))
    with pytest.raises(IllegalAction) as other:
        deal.apply(Play(1, Card.parse("AS")))
    assert not isinstance(other.value, Revoke)


def test_a_player_without_the_led_suit_may_play_any_card() -> None:
    out = seed_trick("0:9D 1:KD 2:AS 3:2D 4:3D")
    # AS is no trump (clubs are): Ben's king of the led suit wins
    assert out["trump"] == "C"
    assert out["tricks"][0]["winner"] == 1 and out["tricks"][0]["points"] == 14


def test_the_renouncing_card_is_judged_with_the_new_trump_even_below_later_trumps() -> None:
    hands = {0: "9D 2S", 1: "KD 2H", 2: "4C 3S", 3: "2D 4S", 4: "5C 5S"}
    out = run(hands, "0:9D 1:KD 2:4C 3:2D 4:5C", dealer=4, players=5, options=OFF,
              talon_top="6C")
    assert out["tricks"][0]["winner"] == 4  # 5C over-trumps 4C


def test_trump_turn_happens_once_and_the_led_suit_can_be_trump() -> None:
    # the talon top is a diamond: diamonds (the led suit) become trump at the renounce
    hands = {0: "9D 2S", 1: "KD 2H", 2: "4C 3S", 3: "2D 4S", 4: "3D 5S"}
    out = run(hands, "0:9D 1:KD 2:4C 3:2D 4:3D 1:2H 2:3S 3:4S 4:5S 0:2S", dealer=4,
              players=5, options=OFF, talon_top="6D")
    assert out["trump"] == "D" and out["trump_card"] == "6D"
    first, second = out["tricks"]
    assert first["winner"] == 1 and not first["swallowed"]  # no swallow question
    # second trick: hearts led, everyone renounces, the trump stays diamonds
    assert second["winner"] == 1 and out["trump"] == "D"
    assert out["error"] is None


def test_without_any_renounce_there_is_no_trump() -> None:
    hands = {0: "9D 2S", 1: "KD 3S", 2: "4D 4S"}
    out = run(hands, "0:9D 1:KD 2:4D 1:3S 2:4S 0:2S", dealer=2, players=3, options=OFF)
    assert out["trump"] is None and out["trump_card"] is None
    assert [t["winner"] for t in out["tricks"]] == [1, 2]


@pytest.mark.parametrize(("order", "winner"), [("willughby", 1), ("parlett", 0)])
def test_rank_order_decides_ten_against_king(order: str, winner: int) -> None:
    hands = {0: "TD 2S", 1: "KD 3S", 2: "4D 4S"}
    out = run(hands, "0:TD 1:KD 2:4D", dealer=2, players=3,
              options={**OFF, "rank_order": order})
    assert out["tricks"][0]["winner"] == winner


def test_trump_memory_asks_after_every_renounce_even_without_a_trump_win() -> None:
    # Carla renounces with AS; clubs are trump but nobody trumped: Ben's KD wins anyway
    out = seed_trick("0:9D 1:KD 2:AS 3:2D 4:3D 1:swallow", trump_memory=True)
    trick = out["tricks"][0]
    assert trick["winner"] == 1 and trick["swallowed"] is False  # changes nothing
    assert out["error"]["seat"] == 1


def test_trump_memory_swallow_of_a_trumped_trick() -> None:
    out = seed_trick("0:9D 1:KD 2:4C 3:2D 4:3D 1:swallow", trump_memory=True)
    assert out["tricks"][0]["winner"] == 1 and out["tricks"][0]["swallowed"] is True


def test_default_mode_asks_no_swallow_when_no_trump_won() -> None:
    deck = [Card.parse(c) for c in deck_for(SEED_HANDS, 4, 5, "6C")]
    deal = Deal.start(Options.from_mapping(OFF), 4, [3] * 5, deck)
    for seat, card in [(0, "9D"), (1, "KD"), (2, "AS"), (3, "2D"), (4, "3D")]:
        deal.apply(Play(seat, Card.parse(card)))
    assert (deal.to_act, deal.awaiting) == (1, Decision.PLAY)
