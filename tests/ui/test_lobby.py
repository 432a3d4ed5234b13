"""The lobby screen: tables listed, a table created from the form."""

from __future__ import annotations

from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lobby import LobbyModel, LobbyRow, Mode, render_lobby

ROWS = [LobbyRow("oak", "mqtt://10.0.0.2:1883", 2, 5, "open", "p0a1b2c3d4e5f6a7b8c9d",
                 "broker+lan", players=("ann", "Moll")),
        LobbyRow("elm", "mqtt://10.0.0.3:1883", 4, 4, "full", "p9f8e7d6c5b4a3f2e1d0c",
                 "broker", False, players=("bob", "cy", "di", "ed")),
        LobbyRow("ash", "mqtt://10.0.0.4:1883", found="lan")]


def text(model: LobbyModel, ascii: bool = False) -> str:
    return render_lobby(model, 80, 24, Glyphs(ascii)).text()


def test_tables_are_listed_with_seats_state_and_host() -> None:
    screen = text(LobbyModel(rows=list(ROWS)))
    assert "oak" in screen and "2/5" in screen and "open" in screen and "ann, Moll" in screen
    assert "PLAYERS" in screen and "p0a1b2" not in screen  # names, not the host's peer id
    assert "4/4" in screen and "full" in screen
    assert "ash" in screen and "?" in screen
    assert "c create a table" in screen


def test_enter_joins_an_open_table_but_not_a_full_one() -> None:
    model = LobbyModel(rows=list(ROWS))
    model.key("down")
    model.key("enter")
    assert model.chosen is None and "cannot be joined" in model.status
    model.key("up")
    model.key("enter")
    assert model.chosen is not None and model.chosen.join == ROWS[0]


def test_creating_a_table_with_options() -> None:
    model = LobbyModel()
    model.key("c")
    assert model.mode is Mode.CREATE and "A new table" in text(model)
    model.key("down")
    model.key("backspace")
    model.key("3")
    model.key("down")
    model.key("down")
    for ch in "lives=1 declare_out=true":
        model.key(ch)
    model.key("down")
    model.key("enter")
    choice = model.chosen
    assert choice is not None and choice.seats == 3 and choice.table == "kitchen"
    assert choice.options.lives == 1 and choice.options.declare_out


def test_a_bad_option_is_one_sentence_and_nothing_is_lost() -> None:
    model = LobbyModel()
    model.key("c")
    model.form["options"] = "lives=99"
    model.field_index = 4
    model.key("enter")
    assert model.chosen is None and "lives" in model.status
    assert model.form["options"] == "lives=99"
    assert "lives" in text(model)


def test_ascii_lobby() -> None:
    screen = text(LobbyModel(rows=list(ROWS)), ascii=True)
    assert all(ord(ch) < 128 for ch in screen)


def test_the_title_names_no_game_but_the_one_a_new_table_plays() -> None:
    rows = [LobbyRow("oak", "mqtt://h:1883", 2, 4, "open", "ann", "broker", game="lorum")]
    for game, title in (("lodam", "Losing Lodam"), ("lorum", "Lorum")):
        model = LobbyModel(rows=list(rows), game=game)
        header = text(model).splitlines()[0]
        assert header.strip() == f"Lobby · the tables of every game · a new table plays {title}"
        model.key("c")
        assert text(model).splitlines()[0].strip() == f"Lobby · a new table of {title}"


def test_long_names_are_cut_to_their_column() -> None:
    rows = [LobbyRow("oak", "mqtt://h:1883", 2, 5, "open", "p1", "broker",
                     players=("A" * 500, "Bo"))]
    line = next(ln for ln in text(LobbyModel(rows=rows)).splitlines() if "oak" in ln)
    assert "A" * 22 + "…" in line and "A" * 23 not in line
    assert line.rstrip().endswith("broker") and len(line.rstrip()) < 80


def test_the_bots_field_fills_every_empty_seat_or_none() -> None:
    from lodam_p2p.cli.play_lobby import filling

    model = LobbyModel()
    assert "fills every empty seat" in text(LobbyModel(mode=Mode.CREATE))
    assert model.form_choice().bots == "heuristic"
    assert filling(model.form_choice().bots, 4) == "heuristic,heuristic,heuristic,heuristic"
    assert filling("ismcts,random", 3) == "ismcts,random,random"
    model.form["bots"] = ""
    assert model.form_choice().bots == "" and filling("", 4) == ""
