"""What the screen says about the table itself: why a match ended, who is out."""

from __future__ import annotations

from lodam_p2p.player import MatchEnded
from lodam_p2p.ui.lodam.table_view import render
from tests.ui.support import model_of, new_deal


def screen(model: object, width: int = 100, height: int = 30) -> str:
    return render(model, width, height, 1.0).text()  # type: ignore[arg-type]


def test_a_match_ended_by_silence_says_so_above_standings_that_agree() -> None:
    model = model_of(new_deal(players=3).view(0))
    reason = "seat 1 did not answer three times: the match ends"
    model.apply(MatchEnded((0,), (0, 1, 2), 9, (), reason), 1.0)
    text = screen(model)
    assert "The match is over: you win!" in text
    assert "Moll did not answer three times: the match ends; you win." in text
    assert text.index(" 1. you") < text.index(" 2. Moll")
    log = [line for _, line in model.log]
    assert "Moll did not answer three times: the match ends; you win." in log


def test_a_match_ended_by_play_gives_no_reason() -> None:
    model = model_of(new_deal(players=3).view(0))
    model.apply(MatchEnded((2,), (2, 0, 1), 7), 1.0)
    assert "did not" not in screen(model) and model.verdict(model.match_end) == ""


def test_leaving_with_bots_played_from_here_says_it_ends_their_seats() -> None:
    from lodam_p2p.ui.lodam.controller import Controller
    from lodam_p2p.ui.lodam.model import Panel

    model = model_of(new_deal(players=3).view(0))
    model.hosted = ("Moll", "Ned")
    left: list[bool] = []
    keys = Controller(model, answer=lambda action: None, leave=lambda: left.append(True))
    keys.interrupt()  # Ctrl-C asks first when bot seats are played from here
    assert model.panel is Panel.QUIT and not left
    text = screen(model)
    assert "Leave the table?" in text and "Moll and Ned play from here: leaving ends" in text
    keys.key("n")
    assert model.panel is Panel.NONE and not left
    keys.key("q")
    keys.key("y")
    assert left == [True]


def test_ctrl_c_leaves_at_once_without_bots_played_from_here() -> None:
    from lodam_p2p.ui.lodam.controller import Controller

    model = model_of(new_deal(players=3).view(0))
    left: list[bool] = []
    Controller(model, answer=lambda action: None, leave=lambda: left.append(True)).interrupt()
    assert left == [True]


def test_a_person_who_is_out_is_told_so_and_may_stay_or_leave() -> None:
    from lodam_p2p.player import DealEnded

    model = model_of(new_deal(players=3).view(0))
    assert not model.out
    model.apply(DealEnded((30, 2, 1), (-1, 0, 0), (0, 2, 2), "seat 0 went out", "passed"),
                1.0)
    assert model.out
    model.panel = model.panel.NONE
    text = screen(model)
    assert "You are out of the match: watching" in text and "q leaves the table" in text


def test_the_waiting_room_lists_the_seats_the_bots_and_how_many_are_missing() -> None:
    from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress, SeatInfo, SeatsChanged
    from lodam_p2p.ui.lodam.model import TableModel

    model = TableModel(table="oak")
    model.apply(Progress(Phase.LOBBY, detail="waiting for table oak to fill"), 0.0)
    seats = (SeatInfo(0, "Ann", "human"), SeatInfo(1, "Moll", "bot:heuristic"))
    model.apply(SeatsChanged(seats, 0, 4), 0.0)
    model.apply(Notice(NoticeLevel.INFO, "Someone at this table is already called Ann: here "
                                         "you are Ann (2)."), 0.0)
    text = screen(model)
    assert "here you are Ann (2)." in text
    assert "waiting for table oak to fill" in text
    assert "2 of 4 seats taken · 2 still missing" in text
    assert " 1. you" in text and "Ann, person" in text
    assert " 2. Moll" in text and "bot heuristic" in text
    assert text.count("waiting for a player") == 2
    model.apply(SeatsChanged((*seats, SeatInfo(2, "Bo", "human"), SeatInfo(3, "Cy", "human")),
                             0, 4), 0.0)
    assert "the table is full" in screen(model)


def test_the_deal_that_puts_a_person_out_is_shown_and_later_deals_only_logged() -> None:
    from lodam_p2p.player import DealEnded
    from lodam_p2p.ui.lodam.model import Panel

    model = model_of(new_deal(players=3).view(0))
    model.apply(DealEnded((30, 2, 1), (-1, 0, 0), (0, 2, 2), "seat 0 went out", "passed"),
                1.0)
    assert model.panel is Panel.DEAL_END  # how the person went out
    text = screen(model)
    assert "You are out of the match: watch the rest, or q to leave." in text
    assert "Enter: continue" in text
    model.panel = Panel.NONE
    model.apply(DealEnded((0, 31, 2), (0, -1, 0), (0, 1, 2), "seat 1 went out", "passed"),
                2.0)
    assert model.panel is Panel.NONE and "Moll went out." in [t for _, t in model.log]


def test_a_notice_from_the_table_names_the_seats_it_numbers() -> None:
    from lodam_p2p.player import Notice, NoticeLevel, SeatInfo, SeatsChanged
    from lodam_p2p.ui.lodam.model import TableModel

    model = TableModel(table="oak")
    model.apply(SeatsChanged((SeatInfo(0, "Ann", "human"), SeatInfo(1, "Moll", "bot:x"),
                              SeatInfo(2, "Kit", "human")), 0, 3), 0.0)
    model.apply(Notice(NoticeLevel.INFO, "seat 2 is back"), 0.0)
    assert model.notice is not None and model.notice.text == "Kit is back"
    model.apply(Notice(NoticeLevel.WARNING, "seat 7 came back"), 0.0)  # a seat not known
    assert model.notice is not None and model.notice.text == "seat 7 came back"
    assert any("Kit is back" in str(line) for line in model.log)


def test_the_deal_number_is_the_tables_not_a_count_of_views_seen_here() -> None:
    from lodam_p2p.player import SeatInfo, SeatsChanged, ViewChanged
    from lodam_p2p.ui.lodam.model import TableModel

    view = new_deal(4).view(0)
    model = TableModel(table="oak")  # a seat that came back, or started again, at deal 5
    model.apply(SeatsChanged(tuple(SeatInfo(s, n, "human") for s, n in
                                   enumerate(("Ann", "Moll", "Kit", "Ned"))), 0, 4), 0.0)
    model.apply(ViewChanged(view, deal=5), 0.0)
    assert model.deal_number == 5 and "deal 5" in screen(model)
    model.apply(ViewChanged(view, deal=5), 0.0)  # the same deal goes on
    assert model.deal_number == 5
    model.apply(ViewChanged(new_deal(4, seed=2).view(0), deal=7), 0.0)
    assert model.deal_number == 7 and "deal 7" in screen(model)
