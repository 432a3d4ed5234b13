"""Small truths on screen: names are cut to a length the layout holds, the Lorum score
sheet's columns line up, Esc is not held back by prompt_toolkit's escape wait, and q on
the match-over screen asks to leave (and y leaves), in both games."""

from __future__ import annotations

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lodam_p2p.games.lorum import Options, Scoring
from lodam_p2p.player import SeatInfo, SeatsChanged
from lodam_p2p.ui.app import TableApp
from lodam_p2p.ui.glyphs import MAX_NAME, shown_name
from lodam_p2p.ui.lodam.controller import Controller
from lodam_p2p.ui.lodam.model import Panel, TableModel
from lodam_p2p.ui.lodam.table_view import render
from lodam_p2p.ui.lorum.keys import LorumKeys
from lodam_p2p.ui.lorum.model import LorumPanel, LorumTable, ScoreSheet
from lodam_p2p.ui.lorum.panels import sheet_lines
from tests.ui.support import model_of, new_deal

LONG = "Bartholomew " * 40  # 480 characters


def test_a_long_name_is_cut_to_the_limit_and_a_short_one_kept() -> None:
    assert shown_name("Ann") == "Ann"
    cut = shown_name(LONG)
    assert len(cut) == MAX_NAME and cut.endswith("…")
    assert shown_name("Ann\x1b[31m") == "Ann[31m"  # no terminal escapes from a peer


def test_a_peer_with_a_long_name_does_not_break_the_table() -> None:
    model = model_of(new_deal(players=3).view(0))
    seats = tuple(SeatInfo(s, name, "human") for s, name in enumerate(("Ann", LONG, "Cy")))
    model.apply(SeatsChanged(seats, 0), 0.0)
    assert model.name(1) == shown_name(LONG) and model.names()[1] == shown_name(LONG)
    text = render(model, 80, 24, 0.0).text()
    assert "Bartholomew " * 3 not in text and "Bartholom" in text


def test_the_lorum_names_are_cut_too() -> None:
    model = LorumTable(names=("Ann", LONG, "Cy", "Dee"))
    assert model.name(1) == shown_name(LONG)


def _cells_end(rows: list[str]) -> set[int]:
    """Where each row that holds the seats' columns ends."""
    return {len(row.rstrip()) for row in rows if row.rstrip()[-1:].isdigit()
            or row.strip().startswith(("you", "Ann"))}


def test_every_row_of_the_score_sheet_lines_up_with_the_names() -> None:
    for scoring in (Scoring.POINTS, Scoring.BEANS):
        model = LorumTable(names=("Ann", "Bob", "Cyrillus", "Dee"))
        model.me = 3
        sheet = ScoreSheet.empty(Options(scoring=scoring), 4)
        rows = ["".join(text for _style, text in line) for line in sheet_lines(model, sheet)]
        seat_rows = [r for r in rows if r.rstrip().endswith(("0", "20", "40", "1", "you"))]
        assert any("Erster und Letzter" in r for r in seat_rows)
        assert len({len(r.rstrip()) for r in seat_rows}) == 1, "\n".join(rows)


def test_esc_is_not_held_back_by_the_wait_for_an_escape_sequence() -> None:
    with create_pipe_input() as pipe:
        model = TableModel()
        app = TableApp(Controller(model, answer=lambda a: None, leave=lambda: None),
                       lambda width, height, now: render(model, width, height, now),
                       input=pipe, output=DummyOutput())
        assert app.app.ttimeoutlen <= 0.05 and app.app.timeoutlen <= 0.1


def test_q_at_the_lodam_match_over_asks_to_leave_and_y_leaves() -> None:
    left: list[bool] = []
    model = model_of(new_deal().view(0))
    model.prompt = None
    model.panel = Panel.MATCH_END
    controller = Controller(model, answer=lambda a: None, leave=lambda: left.append(True))
    controller.key("q")
    assert model.panel is Panel.QUIT and model.typed == ""  # no card is being typed
    controller.key("y")
    assert left == [True]


def test_q_at_the_lorum_match_over_asks_to_leave_and_y_leaves() -> None:
    left: list[bool] = []
    model = LorumTable()
    model.panel = LorumPanel.MATCH_END
    keys = LorumKeys(model, answer=lambda a: None, leave=lambda: left.append(True))
    keys.key("q")
    assert model.panel is LorumPanel.QUIT
    keys.key("y")
    assert left == [True]
