"""Points and going out (RULES.md 7 and 10): out_at, most points, declarations, challenges."""

from __future__ import annotations

import pytest

from tests.rules.helpers import run

OFF = {"exchanges": "off"}


@pytest.mark.parametrize(
    ("hands", "script", "change", "points"),
    [
        # seat 0 takes 11; seat 2 takes the last trick with nothing in it
        ({0: "AS 2H", 1: "2S 3H", 2: "3S 4H"}, "0:AS 1:2S 2:3S 0:2H 1:3H 2:4H",
         [-1, 0, 0], [11, 0, 0]),
        # a tie for most: each of them loses a counter
        ({0: "AS 2H", 1: "2S AH", 2: "3S 4H"}, "0:AS 1:2S 2:3S 0:2H 1:AH 2:4H",
         [-1, -1, 0], [11, 11, 0]),
        # nobody took a point: all tie at 0 and all lose
        ({0: "2S 2H", 1: "3S 3H", 2: "4S 4H"}, "0:2S 1:3S 2:4S 2:4H 0:2H 1:3H",
         [-1, -1, -1], [0, 0, 0]),
    ],
)
def test_most_points_loses_at_the_end(hands, script, change, points) -> None:  # type: ignore[no-untyped-def]
    out = run(hands, script, dealer=2, players=3, options=OFF)
    assert out["error"] is None and out["unused_actions"] == 0
    assert out["points"] == points and out["counter_change"] == change
    assert out["out"] is None


def test_going_out_ends_the_deal_at_once() -> None:
    hands = {0: "AS 2H", 1: "2S 3H", 2: "3S 4H"}
    out = run(hands, "0:AS 1:2S 2:3S 0:2H 1:3H", dealer=2, players=3,
              options={**OFF, "out_at": 11})
    assert out["out"] == 0 and out["counter_change"] == [-1, 0, 0]
    assert len(out["tricks"]) == 1 and out["unused_actions"] == 2


SEED_HANDS = {
    0: "9D 2S 3S 4S 5S 6S 7S 8S 9S",
    1: "KD 2H 3H 4H 5H 6H 7H 8H 9H",
    2: "4C TS JS QS KS AS TH JH QH",
    3: "2D 4D 5D 6D 7D 8D KH AH 2C",
    4: "3D TD JD QD AD 3C 5C 7C 8C",
}


@pytest.mark.parametrize(("swallow", "out"), [("1:leave", 2), ("1:swallow", 1)])
def test_out_is_decided_after_the_swallow_question(swallow: str, out: int) -> None:
    result = run(SEED_HANDS, f"0:9D 1:KD 2:4C 3:2D 4:3D {swallow}", dealer=4, players=5,
                 options={**OFF, "out_at": 3}, talon_top="6C")
    assert result["out"] == out and result["counter_change"][out] == -1


def test_winning_lodam_gains_counters() -> None:
    hands = {0: "AS 2H", 1: "2S AH", 2: "3S 4H"}
    out = run(hands, "0:AS 1:2S 2:3S 0:2H 1:AH 2:4H", dealer=2, players=3,
              options={**OFF, "winning": True}, lives=[2, 0, 1])
    assert out["counter_change"] == [1, 1, 0]
    assert out["match_over"] is True and out["winners"] == [0]


# declare_out: the worked example of seeds/001. Ben (1) gathers AH QH TS TC = 33 and
# plays on without declaring; Dan (3) gathers AD TD AC JS = 33 and declares at the end,
# challenging Ben, who shows 33 and loses the counter instead of Dan.
BEN_AND_DAN = {
    0: "2H 5S 5C 4D 7D 7C 7S",
    1: "AH TS TC 6D 8D 8C 8S",
    2: "QH 2S 2C 2D 9D 9C 9S",
    3: "3H 3S 3C AD TD AC JS",
    4: "4H 4S 4C 3D 5D 6C 6S",
}
TRICKS = [
    "0:2H 1:AH 2:QH 3:3H 4:4H",
    "1:TS 2:2S 3:3S 4:4S 0:5S",
    "1:TC 2:2C 3:3C 4:4C 0:5C",
    "1:6D 2:2D 3:AD 4:3D 0:4D",
    "3:TD 4:5D 0:7D 1:8D 2:9D",
    "3:AC 4:6C 0:7C 1:8C 2:9C",
    "3:JS 4:6S 0:7S 1:8S 2:9S",
]
DECLARE = {**OFF, "declare_out": True}


def declare_run(script: str, players: int = 5) -> dict:
    hands = dict(BEN_AND_DAN)
    lives = None if players == 5 else [3, 3, 3, 3, 3, 0]
    return run(hands, script, dealer=4, players=players, options=DECLARE, lives=lives)


def test_challenged_player_with_31_loses_instead_of_the_declarer() -> None:
    out = declare_run(" ".join(TRICKS) + " 3:declare@1")
    assert out["points"] == [0, 33, 0, 33, 0]
    assert out["out"] == 1 and out["counter_change"] == [0, -1, 0, 0, 0]


def test_failed_challenge_costs_the_declarer() -> None:
    out = declare_run(" ".join(TRICKS) + " 3:declare@0")
    assert out["out"] == 3 and out["counter_change"] == [0, 0, 0, -1, 0]


def test_declaring_without_a_challenge() -> None:
    out = declare_run(" ".join(TRICKS[:3]) + " 1:declare")
    assert out["out"] == 1 and len(out["tricks"]) == 3


def test_undeclared_players_play_on_and_most_points_decides() -> None:
    out = declare_run(" ".join(TRICKS))
    assert out["out"] is None and out["counter_change"] == [0, -1, 0, -1, 0]


@pytest.mark.parametrize(
    ("script", "message"),
    [
        (TRICKS[0] + " 1:declare", "seat 1 cannot declare out: a declaration below 31 is "
         "refused (holds 13)"),
        (" ".join(TRICKS[:4]) + " 3:declare@3", "seat 3 cannot declare out challenging seat "
         "3: a declaration below 31 is refused (holds 11)"),
        (" ".join(TRICKS[:3]) + " 1:declare@1", "seat 1 cannot declare out challenging seat "
         "1: seat 1 cannot be challenged"),
    ],
)
def test_refused_declarations(script: str, message: str) -> None:
    assert declare_run(script)["error"]["message"] == message


def test_eliminated_watcher_challenge_with_31_ends_the_deal() -> None:
    out = declare_run(" ".join(TRICKS[:3]) + " 5:challenge@1", players=6)
    assert out["out"] == 1 and out["counter_change"] == [0, -1, 0, 0, 0, 0]
    assert len(out["tricks"]) == 3 and out["hands"].keys() == {"0", "1", "2", "3", "4"}


def test_eliminated_watcher_challenge_below_31_changes_nothing() -> None:
    out = declare_run(TRICKS[0] + " 5:challenge@0 " + " ".join(TRICKS[1:]), players=6)
    assert out["error"] is None and out["out"] is None
    assert out["counter_change"] == [0, -1, 0, -1, 0, 0]


def test_only_eliminated_watchers_get_the_challenge_decision() -> None:
    out = declare_run(TRICKS[0] + " 4:challenge@1")
    # in a five-seat deal nobody watches: the challenge finds seat 1 to play
    assert out["error"]["message"].endswith("it is seat 1's turn to play")
