"""The Lorum replay format (issue 9) and ``lodam rules replay`` with ``"game": "lorum"``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p.cli import main
from lodam_p2p.games.lorum.replay import ReplayFormatError, replay_scenario
from tests.lorum import golden
from tests.lorum.helpers import deck_from_hands
from tests.lorum.referee import referee
from tests.lorum.scenes import BY_SUIT, words
from tests.lorum.test_quartet_lorum import QUARTET

FIELDS = ["hands", "tricks", "lays", "points", "announced", "out", "next_dealer", "error",
          "unused_actions"]


def acts(script: str) -> list[dict[str, Any]]:
    """``"0:7E 2:announce"`` in the replay format."""
    out: list[dict[str, Any]] = []
    for move in script.split():
        seat, what = move.split(":")
        out.append({"seat": int(seat), "announce": True} if what == "announce"
                   else {"seat": int(seat), "play": what})
    return out


def scene(contract: str, hands: list[str], script: str = "", **extra: Any) -> dict[str, Any]:
    players = len(hands)
    dealer = players - 1
    deck = deck_from_hands(players, dealer, dict(enumerate(hands)))
    base = {"game": "lorum", "players": players, "dealer": dealer, "contract": contract,
            "deck": deck, "actions": acts(script)}
    return {**base, **extra}


def _red_king_until_last(announce: str = "") -> str:
    rows = [words(r)[:7] for r in BY_SUIT]
    rows[2][6] = "AH"
    tricks = " ".join(f"0:{e} 1:{g} 2:{h} 3:{s}" for e, g, h, s in zip(*rows, strict=True))
    return f"{tricks} {announce} 0:AE 1:AG 2:KH 3:AS"


def test_golden_replays() -> None:
    inputs = [json.loads(line) for line in golden.INPUT.read_text().splitlines()]
    expected = [json.loads(line) for line in golden.EXPECTED.read_text().splitlines()]
    assert [replay_scenario(s) for s in inputs] == expected


def test_golden_files_are_what_the_generator_makes() -> None:
    scenarios, _ = golden.build()
    assert scenarios == [json.loads(x) for x in golden.INPUT.read_text().splitlines()]


def test_result_fields_of_a_quartet_deal() -> None:
    out = replay_scenario(scene("quartet", QUARTET, "0:7E 3:US 3:UE"))
    assert list(out) == FIELDS
    assert out["hands"]["0"] == words(QUARTET[0])
    assert out["tricks"][0] == {"leader": 0, "cards": [[0, "7E"], [1, "8E"], [2, "9E"],
                                                       [3, "TE"]], "winner": 3, "points": 0}
    assert out["tricks"][-1]["cards"] == [[3, "UE"], [3, "OE"], [3, "KE"]]
    assert out["lays"] == [] and out["out"] == [3] and out["points"] == [7, 7, 7, 0]
    assert out["next_dealer"] == 0 and out["error"] is None and out["unused_actions"] == 0


def test_the_announcement_defaults_to_no_and_a_scripted_one_counts() -> None:
    quiet = replay_scenario(scene("red_king", BY_SUIT, _red_king_until_last()))
    assert quiet["announced"] is False and quiet["points"] == [32, 0, 0, 0]
    loud = replay_scenario(scene("red_king", BY_SUIT, _red_king_until_last("2:announce")))
    assert loud["announced"] is True and loud["points"] == [64, 0, 0, 0]
    assert loud["unused_actions"] == 0


def test_an_announcement_by_another_seat_waits_and_is_then_refused() -> None:
    out = replay_scenario(scene("red_king", BY_SUIT, _red_king_until_last("1:announce")))
    assert out["error"]["index"] == 28 and out["error"]["seat"] == 1
    assert "cannot announce" in out["error"]["message"]
    assert len(out["tricks"]) == 7 and out["points"] == [0, 0, 0, 0]
    assert out["unused_actions"] is None


@pytest.mark.parametrize(
    ("contract", "script", "index", "seat", "message"),
    [
        ("tricks", "1:7G", 0, 1, "it is seat 0's turn to play"),
        ("tricks", "0:7G", 0, 0, "it does not hold 7G"),
        ("reds", "0:7E 1:8H", 1, 1, "it must follow suit"),
        ("reds", "2:7H", 0, 2, "it is seat 0's turn"),
        ("lorum", "0:KE 1:7H", 1, 1, "does not fit the rows"),
        ("quartet", "0:7E 1:8E", 1, 1, "it is seat 3's turn"),
        ("tricks", "0:7E 1:7G", 2, 2, "the actions ran out with seat 2 to play"),
    ],
)
def test_errors_name_the_index_and_seat(contract: str, script: str, index: int, seat: int,
                                        message: str) -> None:
    hands = {"lorum": LORUM_HANDS, "quartet": QUARTET, "reds": REDS}.get(contract, BY_SUIT)
    out = replay_scenario(scene(contract, hands, script))
    assert out["error"]["index"] == index and out["error"]["seat"] == seat
    assert message in out["error"]["message"]
    assert out["points"] == [0] * 4 and out["unused_actions"] is None


LORUM_HANDS = ["KE 7G 8G 9G TG UG OG AG", "AE KG 7H 8H 9H TH UH OH",
               "7E KH AH 7S 8S 9S TS US", "8E 9E TE UE OE OS KS AS"]
REDS = ["7E 8E 9E TE UE OE KE 7H", "AE 8H 9H TH UH OH KH AH",
        "7G 8G 9G TG UG OG KG AG", "7S 8S 9S TS US OS KS AS"]


def test_lorum_lays_record_passes_and_set_aside_cards() -> None:
    three = ["7E 8E 9E TE UE OE KE AE 7G 8G", "9G TG UG OG KG AG 7H 8H 9H TH",
             "UH OH KH AH 9S TS US OS KS AS"]
    out = replay_scenario(scene("lorum", three, "0:7E 1:7H"))
    assert out["lays"][:4] == [[0, "7E"], [None, "7S"], [None, "8S"], [1, "7H"]]
    assert out["error"]["index"] == 2 and out["error"]["seat"] == 2
    four = replay_scenario(scene("lorum", LORUM_HANDS, "0:KE 1:AE 2:7E 3:8E"))
    assert four["lays"] == [[0, "KE"], [1, "AE"], [2, "7E"], [3, "8E"], [0, None]]


def test_blind_deals_take_no_actions() -> None:
    out = replay_scenario(scene("red_king", BY_SUIT, "0:7E", options={"red_king_blind": True}))
    assert out["error"] is None and out["unused_actions"] == 1
    # seat 0 leads E and takes every trick; KH, seat 2's seventh card, falls in trick 7
    assert out["points"] == [5, 0, 0, 0] and len(out["tricks"]) == 7


def test_match_level_options_change_nothing_in_a_single_deal() -> None:
    plain = replay_scenario(scene("first_last", BY_SUIT, ""))
    short = replay_scenario(scene("first_last", BY_SUIT, "", options={
        "first_last_short": True, "rounds": 3, "scoring": "beans", "breach_points": 0,
        "contracts": ["lorum"]}))
    assert plain == short


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "skat"}, '"game" must be "lorum"'),
        ({"players": 5}, '"players" must be an integer 3 … 4'),
        ({"dealer": 4}, '"dealer" must be an integer 0 … 3'),
        ({"contract": "solo"}, '"contract" must be one of'),
        ({"deck": ["7E"] * 32}, "the deck is not the 32-card pack"),
        ({"deck": ["ZZ"] * 32}, "not a card"),
        ({"options": {"fifth_trick": 9}}, "fifth_trick"),
        ({"actions": [{"seat": 0, "play": "QQ"}]}, "action 0: not a card"),
        ({"actions": [{"seat": 0, "swallow": True}]}, "unknown shape"),
        ({"actions": [{"seat": "0", "play": "7E"}]}, 'integer "seat"'),
    ],
)
def test_malformed_scenarios_raise_the_format_error(change: dict[str, Any],
                                                    message: str) -> None:
    with pytest.raises(ValueError, match=message):
        replay_scenario({**scene("tricks", BY_SUIT), **change})


def test_three_player_deck_must_leave_out_7S_8S() -> None:
    bad = scene("tricks", ["7E 8E 9E TE UE OE KE AE 9S TS", "7G 8G 9G TG UG OG KG AG US OS",
                           "7H 8H 9H TH UH OH KH AH KS AS"])
    bad["deck"][0] = "7S"
    with pytest.raises(ValueError, match="without 7S 8S"):
        replay_scenario(bad)
    assert issubclass(ReplayFormatError, ValueError)


def test_cli_replays_both_games_in_one_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    lodam_line = (Path(__file__).parent.parent / "rules" / "data" / "golden.jsonl"
                  ).read_text().splitlines()[0]
    lorum_line = json.dumps(scene("quartet", QUARTET, "0:7E 3:US 3:UE"))
    path = tmp_path / "both.jsonl"
    path.write_text(lodam_line + "\n" + lorum_line + "\n")
    assert main(["rules", "replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and "talon" in json.loads(lines[0])
    assert json.loads(lines[1])["out"] == [3]


def test_cli_malformed_lorum_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**scene("tricks", BY_SUIT), "deck": ["7E"]}))
    assert main(["rules", "replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "the deck must hold 32 cards" in err


def test_cli_show_options_for_lorum(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show-options", "--game", "lorum", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["breach_points"] == 16 and shown["lorum_start"] == "any"


def _referee_of(obj: dict[str, Any]) -> dict[str, Any]:
    todo = list(obj["actions"])

    def choose(seat: int, kind: str, legal: list[Any]) -> Any:
        if kind == "announce":
            if todo and "announce" in todo[0] and todo[0]["seat"] == seat:
                return todo.pop(0)["announce"]
            return False
        action = todo.pop(0)
        assert action["seat"] == seat and action["play"] in legal
        return action["play"]

    result = referee(obj["players"], obj["dealer"], obj["contract"], obj["deck"],
                     options=obj.get("options", {}), choose=choose)
    return {**result, "error": None, "unused_actions": len(todo)}


def test_hand_built_and_golden_deals_agree_with_the_referee() -> None:
    built = [
        scene("quartet", QUARTET, "0:7E 3:US 3:UE"),
        scene("red_king", BY_SUIT, _red_king_until_last()),
        scene("red_king", BY_SUIT, _red_king_until_last("2:announce")),
        scene("red_king", BY_SUIT, "", options={"red_king_blind": True}),
    ]
    golden_ok = [json.loads(line) for line, result in zip(
        golden.INPUT.read_text().splitlines(), golden.EXPECTED.read_text().splitlines(),
        strict=True) if json.loads(result)["error"] is None]
    assert len(golden_ok) > 40
    for obj in built + golden_ok:
        assert replay_scenario(obj) == _referee_of(obj)


def test_actions_round_trip_through_the_replay_form() -> None:
    from lodam_p2p.games.lorum import Announce, Card, Lay, MalformedInput, Pass, Play
    from lodam_p2p.games.lorum.replay import action_to_json, parse_action

    for action, lay in ((Play(2, Card.parse("OH")), False), (Lay(1, Card.parse("7S")), True),
                        (Announce(3, True), False), (Announce(0, False), False)):
        assert parse_action(action_to_json(action), 0, lay) == action
    with pytest.raises(MalformedInput):
        action_to_json(Pass(1))
