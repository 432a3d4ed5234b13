"""``lodam play --game lorum``: what is refused, in one line, before any screen opens."""

from __future__ import annotations

import asyncio
import random
import sys
import types
from pathlib import Path

import pytest

from lodam_p2p.bots import PLUGIN_PATH_ENV
from lodam_p2p.cli import cmd_play, main, play_lorum


def _refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["play", "--game", "lorum", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    return err


def test_a_networked_lorum_table_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert "needs a terminal" in _refused([], capsys)


def test_lorum_seats_three_or_four(capsys: pytest.CaptureFixture[str]) -> None:
    assert "3 or 4 seats" in _refused(["--offline", "--seats", "5"], capsys)


def test_a_bad_lorum_option_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["--offline", "--option", "contracts=poker"], capsys)
    assert "bad --option" in err and "poker" in err


def test_a_bot_that_plays_only_lodam_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    (tmp_path / "lodam_only.py").write_text(
        "from lodam_p2p.bots import BotType, hookimpl\n"
        "class First:\n"
        "    def __init__(self, *, seat, seed, options): pass\n"
        "    def decide(self, view): return view.legal[0]\n"
        "@hookimpl\n"
        "def lodam_bot_types(): return [BotType('lodamonly', 'first legal', First)]\n",
        encoding="utf-8")
    monkeypatch.setenv(PLUGIN_PATH_ENV, str(tmp_path))
    assert "does not play Lorum" in _refused(["--offline", "--bots", "lodamonly"], capsys)


def test_without_a_terminal_lorum_says_it_needs_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "needs a terminal" in _refused(["--offline", "--seats", "3"], capsys)


def test_every_lorum_option_reaches_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    monkeypatch.setattr(play_lorum, "sit_down", lambda args, options, lineup, registry, **_:
                        seen.append((options, lineup)) or 0)
    options = ["rounds=2", "scoring=beans", "first_last_points=5", "first_last_short=true",
               "fifth_trick=6", "red_king_blind=true", "lorum_start=unter",
               "lorum_play_on=true", "breach_points=9", "contracts=lorum,reds"]
    args = ["play", "--game", "lorum", "--offline", "--seats", "3", "--log-file", "/dev/null"]
    for item in options:
        args += ["--option", item]
    assert main(args) == 0
    ((chosen, lineup),) = seen
    assert lineup == ["heuristic", "heuristic"]  # the bundled heuristic plays Lorum
    assert chosen.to_mapping()["breach_points"] == 9 and chosen.rounds == 2
    assert [c.value for c in chosen.contracts] == ["reds", "lorum"]


def test_the_lodam_defaults_are_untouched() -> None:
    args = cmd_play.play_defaults()
    assert (args.game, args.seats, args.bots) == ("lodam", 5, "heuristic")


def test_the_json_summary_names_the_game_and_ranks_the_seats() -> None:
    from lodam_p2p.bots import BotRegistry
    from lodam_p2p.bots.adapter import BotPlayer
    from lodam_p2p.local import play_local
    from lodam_p2p.tableplan import SeatPlan

    random_bot = BotRegistry.load().get("random")
    seats = [SeatPlan(f"bot {s}", BotPlayer("random", random_bot.make(s, s)), "bot:random")
             for s in range(3)]
    options = play_lorum.lorum_options(["contracts=lorum"])
    outcome = asyncio.run(play_local(options=options, seats=seats, seed=4, game="lorum"))
    line = play_lorum.summary(outcome)
    assert list(line) == ["table", "game", "winners", "deals", "audits_passed", "blames",
                          "audited", "standings", "broker_faults", "bot_errors"]
    assert (line["game"], line["deals"], line["blames"]) == ("lorum", 3, [])
    ranked = line["standings"]
    assert isinstance(ranked, list) and sorted(ranked) == [0, 1, 2]
    assert [outcome.lives[s] for s in ranked] == sorted(outcome.lives)
    assert ranked[0] in line["winners"]


def test_the_bots_are_heuristic_when_it_plays_lorum_else_random() -> None:
    class _Type:
        def __init__(self, games: tuple[str, ...]) -> None:
            self.games = games

        def plays(self, game: str) -> bool:
            return game in self.games or "*" in self.games

    class _Registry(dict):
        def get(self, name):  # type: ignore[override]
            return self[name]

    assert play_lorum.default_bot(_Registry(heuristic=_Type(("lodam", "lorum")))) == \
        "heuristic"
    assert play_lorum.default_bot(_Registry(heuristic=_Type(("lodam",)))) == "random"
    assert play_lorum.default_bot(_Registry()) == "random"


def test_the_network_path_is_the_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = cmd_play.play_defaults()
    args.game = "lorum"
    session_driver = object()
    monkeypatch.setattr(play_lorum, "choose_driver", lambda a: session_driver)
    assert play_lorum.lorum_driver(args) is session_driver
    args.offline = True
    assert play_lorum.lorum_driver(args) is not session_driver


def _first_view():
    from lodam_p2p.games.lorum import Match, Options

    match = Match.start(Options.parse_assignments(["contracts=lorum"]), 4, first_dealer=0)
    deck = list(match.plan().pack)
    random.Random(2).shuffle(deck)
    deal = match.new_deal(deck)
    seat = deal.to_act
    assert seat is not None
    return deal.view(seat)


def test_the_hint_is_a_legal_action_without_the_lorum_heuristic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lodam_p2p.bots import BotRegistry

    registry = BotRegistry.load()
    for package in ("lodam_plugins", "plugins"):  # not installed
        monkeypatch.setitem(sys.modules, f"{package}.lorum_heuristic", None)
    view = _first_view()
    hint = play_lorum.hint_bot(registry)
    assert hint is not None and hint(view) in view.legal


def test_the_hint_asks_the_lorum_heuristic_when_it_is_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lodam_p2p.bots import BotRegistry

    asked = []

    class LorumHeuristicBot:
        def __init__(self, *, seat: int, seed: int, options: object) -> None:
            self.seat = seat

        def decide(self, view):
            asked.append(self.seat)
            return view.legal[-1]

    fake = types.ModuleType("lodam_plugins.lorum.heuristic")
    fake.LorumHeuristicBot = LorumHeuristicBot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lodam_plugins.lorum.heuristic", fake)
    view = _first_view()
    hint = play_lorum.hint_bot(BotRegistry.load())
    assert hint is not None and hint(view) == view.legal[-1] and asked == [view.seat]


@pytest.mark.parametrize("game,extra,words", [
    ("lorum", [], ["Lorum", "The contracts, in turn", "Rote", "Quart", "lowest total wins"]),
    ("lorum", ["--contract", "quartet", "--seats", "3"],
     ["3 players", "Now: Quart", "next higher card"]),
    ("lodam", ["--option", "declare_out=true"], ["Losing Lodam", "This deal", "declare out"]),
])
def test_rules_page_prints_what_r_shows(game: str, extra: list[str], words: list[str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "page", "--game", game, "--width", "60", *extra]) == 0
    out = capsys.readouterr().out
    for word in words:
        assert word in out, out
    assert all(len(line) <= 60 for line in out.splitlines())
    assert len(out.split()) < 400  # two minutes of reading


@pytest.mark.parametrize("args,said", [
    (["--game", "lodam", "--contract", "reds"], "Losing Lodam has none"),
    (["--game", "lorum", "--contract", "poker"], "unknown contract 'poker'"),
    (["--game", "lorum", "--option", "rounds=0"], "bad --option"),
    (["--game", "lorum", "--seats", "5"], "3 to 4 seats"),
])
def test_rules_page_refuses_in_one_line(args: list[str], said: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "page", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and "\n" not in err
