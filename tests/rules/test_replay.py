"""The replay format (issue 2) and ``lodam rules replay``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p.cli import main
from lodam_p2p.games.lodam import IllegalAction, MalformedInput
from lodam_p2p.games.lodam.replay import ReplayFormatError, replay_scenario
from tests.rules import golden
from tests.rules.helpers import acts, deck_for

DATA = Path(__file__).parent / "data"
HANDS = {0: "KS 2S 3H", 1: "QD 4D AC", 2: "JS TH 5C"}
# a whole deal of HANDS: 4D turns the talon top 3S (spades trump); seat 2 takes JS and
# TH QD, seat 0 trumps the clubs with KS and takes AC too (seat 1 leaves it to him)
FULL = "0:2S 1:4D 2:JS 2:TH 0:3H 1:QD 2:5C 0:KS 1:AC"


def scenario(script: str = "", **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "lodam", "players": 3, "dealer": 2, "options": {"hand_size": 3},
        "deck": deck_for(HANDS, 2, 3), "actions": acts(script),
    }
    return {**base, **extra}


def test_golden_replays() -> None:
    inputs = [json.loads(line) for line in golden.INPUT.read_text().splitlines()]
    expected = [json.loads(line) for line in golden.EXPECTED.read_text().splitlines()]
    assert [replay_scenario(s) for s in inputs] == expected


def test_golden_files_are_what_the_generator_makes() -> None:
    scenarios, _ = golden.build()
    assert scenarios == [json.loads(x) for x in golden.INPUT.read_text().splitlines()]


def test_result_fields_of_a_whole_deal() -> None:
    out = replay_scenario(scenario(FULL))
    assert list(out) == ["hands", "talon", "trump", "trump_card", "tricks", "exchanges",
                         "points", "out", "counter_change", "next_dealer", "match_over",
                         "winners", "error", "unused_actions"]
    assert out["hands"] == {"0": ["KS", "2S", "3H"], "1": ["QD", "4D", "AC"],
                            "2": ["JS", "TH", "5C"]}
    assert out["talon"][0] == "3S" and len(out["talon"]) == 43
    assert out["trump_card"] == "3S" and out["trump"] == "S"
    assert out["error"] is None and out["unused_actions"] == 0
    assert out["points"] == [14, 0, 13] and out["counter_change"] == [-1, 0, 0]
    assert [t["winner"] for t in out["tricks"]] == [2, 2, 0]
    assert sum(out["points"]) == sum(t["points"] for t in out["tricks"])
    assert out["next_dealer"] == 0 and out["match_over"] is False and out["winners"] == []


def test_the_default_rule_fills_in_decisions_the_script_leaves_out() -> None:
    # seat 1 offers while seat 0's offer is awaited: seat 0 makes no offer; then seat
    # 2's answer defaults to decline, and seat 0's explicit decline is used
    out = replay_scenario(scenario("1:offer=AC 0:decline"))
    assert out["exchanges"] == [
        {"offerer": 1, "offer": "AC", "acceptor": None, "accept": None, "void": False}
    ]
    assert out["error"] == {"index": 2, "seat": 0,
                            "message": "the actions ran out with seat 0 to play"}


def test_an_action_of_the_awaited_kind_by_the_awaited_seat_is_checked() -> None:
    out = replay_scenario(scenario("1:offer=AC 2:accept=JS"))
    assert out["error"]["index"] == 1 and out["error"]["seat"] == 2
    assert "the offer is a card (A T)" in out["error"]["message"]


def test_actions_running_out_blame_the_seat_to_play() -> None:
    out = replay_scenario(scenario("0:offer=KS"))
    assert out["error"] == {"index": 1, "seat": 0,
                            "message": "the actions ran out with seat 0 to play"}
    assert out["exchanges"][0]["acceptor"] is None and out["unused_actions"] is None


def test_an_error_stops_the_deal_with_no_counter_changes() -> None:
    out = replay_scenario(scenario("0:2S 1:QD 2:5C"))
    assert out["error"]["message"] == "seat 2 cannot play 5C: must follow suit S"
    assert out["counter_change"] == [0, 0, 0] and out["out"] is None
    assert out["next_dealer"] == 0


def test_left_over_actions_are_counted_not_checked() -> None:
    script = FULL + " 7:9H 0:offer=2S"
    out = replay_scenario(scenario(script, options={"hand_size": 3, "exchanges": "off"}))
    assert out["error"] is None and out["unused_actions"] == 2


def test_seats_without_lives_get_no_cards_and_the_match_state_follows() -> None:
    sc = scenario(FULL, lives=[1, 1, 1, 0],
                  players=4, dealer=3, options={"hand_size": 3, "exchanges": "off"},
                  deck=deck_for(HANDS, 3, 4, lives=[1, 1, 1, 0]))
    out = replay_scenario(sc)
    assert set(out["hands"]) == {"0", "1", "2"} and out["points"][3] == 0
    loser = out["counter_change"].index(-1)
    assert out["next_dealer"] == 0  # left of dealer 3 among seats dealt in at the start
    assert out["match_over"] is False and out["winners"] == []
    assert loser in (0, 1, 2)


def test_two_left_and_the_last_counter_lost_ends_the_match() -> None:
    hands = {0: "AS 2H", 1: "2S 3H"}
    sc = {"game": "lodam", "players": 3, "dealer": 2, "lives": [1, 2, 0],
          "options": {"exchanges": "off", "hand_size": 2},
          "deck": deck_for(hands, 2, 3, lives=[1, 2, 0]),
          "actions": acts("0:AS 1:2S 0:2H 1:3H")}
    out = replay_scenario(sc)
    assert out["counter_change"] == [-1, 0, 0] and out["unused_actions"] == 0
    assert out["match_over"] is True and out["winners"] == [1]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, '"game" must be "lodam"'),
        ({"players": 11}, '"players" must be an integer 2 … 10'),
        ({"dealer": 3}, '"dealer" must be an integer 0 … 2'),
        ({"deck": ["ZZ"]}, "not a card: 'ZZ'"),
        ({"deck": ["AS"] * 52}, "a card missing or twice"),
        ({"deck": [str(c) for c in range(3)]}, "not a card"),
        ({"options": {"lives": 12}}, "option lives must be 1 … 9"),
        ({"options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"options": {"hand_size": 18}}, "leaves no talon"),
        ({"lives": [0, 0, 1]}, "at least 2 active players"),
        ({"lives": [1, 1]}, '"lives" must list 3 counts'),
        ({"actions": [{"seat": 0}]}, "action 0 has an unknown shape"),
        ({"actions": [{"seat": "0", "play": "2S"}]}, 'action 0 needs an integer "seat"'),
        ({"actions": [{"seat": 0, "play": "2X"}]}, "action 0: not a card"),
        ({"actions": [{"seat": 0, "decline": False}]}, '"decline" must be true'),
        ({"actions": [{"seat": 0, "swallow": "yes"}]}, '"swallow" must be true or false'),
    ],
)
def test_malformed_input_raises_a_value_error_that_is_no_illegal_move(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(MalformedInput, match=message) as caught:
        replay_scenario(scenario(**change))
    assert not isinstance(caught.value, IllegalAction)


def test_a_scenario_must_be_an_object() -> None:
    with pytest.raises(ReplayFormatError):
        replay_scenario([])  # type: ignore[arg-type]


# --- the command line ---------------------------------------------------------------------


def test_cli_replays_files_and_jsonl_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = tmp_path / "one.json"
    one.write_text(json.dumps(scenario("0:offer=KS")))
    many = tmp_path / "many.jsonl"
    many.write_text(json.dumps(scenario()) + "\n\n" + json.dumps(scenario("0:2S")) + "\n")
    assert main(["rules", "replay", str(one), str(many)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["error"]["index"] for r in lines] == [1, 0, 1]


def test_cli_replays_the_example_files(capsys: pytest.CaptureFixture[str]) -> None:
    examples = sorted(str(p) for p in DATA.glob("*.json"))
    assert main(["rules", "replay", *examples]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(examples)


@pytest.mark.parametrize(
    ("text", "name", "message"),
    [
        ("{", "bad.json", "bad.json: not JSON"),
        ('{"game": "lodam"}', "bad.json", 'bad.json: "players" must be'),
        ("{}\nnot json\n", "bad.jsonl", "bad.jsonl:1: \"game\" must be"),
        ("\n{", "bad.jsonl", "bad.jsonl:2: not JSON"),
    ],
)
def test_cli_malformed_input_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, name: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    assert main(["rules", "replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err


def test_cli_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "replay", "/nonexistent/x.json"]) == 2
    assert "cannot read /nonexistent/x.json" in capsys.readouterr().err


def test_cli_show_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show-options", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["out_at"] == 31
    assert main(["rules", "show-options"]) == 0
    assert "declare_out" in capsys.readouterr().out


def test_cli_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["rules", "replay", "--help"])
    assert done.value.code == 0 and "FILE" in capsys.readouterr().out


def test_example_exchanges_three_seats() -> None:
    # worked by hand: KS↔QD and AC↔TH trade; seat 1 takes KS JS (4) and TH AC (21),
    # 5C's renounce turns the talon top 3S; seat 1 has the most and loses its last
    # counter, and the deal passes to seat 0
    out = replay_scenario(json.loads((DATA / "exchanges_three_seats.json").read_text()))
    assert [(t["winner"], t["points"]) for t in out["tricks"]] == [(1, 4), (0, 2), (1, 21)]
    assert out["trump_card"] == "3S" and out["points"] == [2, 25, 0]
    assert out["counter_change"] == [0, -1, 0] and out["next_dealer"] == 0
    assert out["match_over"] is False


def test_example_seed001_challenge() -> None:
    out = replay_scenario(json.loads((DATA / "seed001_challenge.json").read_text()))
    assert out["points"] == [0, 33, 0, 33, 0] and out["out"] == 1
    assert out["counter_change"] == [0, -1, 0, 0, 0]
