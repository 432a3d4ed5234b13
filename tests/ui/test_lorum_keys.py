"""Keys on the Lorum screen: a deal played by hint and Enter, typed cards, refusals, panels."""

from __future__ import annotations

from lodam_p2p.games.lorum import Action, Announce, Contract, Decision, PlayerView
from lodam_p2p.ui.german import card_label
from lodam_p2p.ui.lorum.keys import LorumKeys
from lodam_p2p.ui.lorum.model import LorumPanel
from tests.ui.test_lorum_render import (
    KH,
    advance,
    first_legal,
    keep_the_king,
    screen,
    start,
    table,
)


def first(view: PlayerView) -> Action:
    return view.legal[0]


def test_a_whole_deal_by_hint_and_enter() -> None:
    for contract in (Contract.OBERS, Contract.QUARTET, Contract.LORUM):
        match, deal = start(4, contract)
        model = table(match, deal)
        answers: list[Action] = []
        keys = LorumKeys(model, answer=answers.append, leave=lambda: None, hint=first)
        while not deal.is_over:
            if deal.to_act == 0:
                model.ask(deal.view(0))
                keys.key("h")
                assert model.hint == model.cursor
                keys.key("enter")
                assert model.prompt is None
                deal.apply(answers[-1])
            else:
                deal.apply(first_legal(deal))
            model.show(deal.view(0))
            screen(model)
        assert answers, contract


def test_typed_card_moves_the_cursor_and_a_forbidden_card_is_refused() -> None:
    match, deal = start(4, Contract.TRICKS)
    advance(deal, lambda d: d.to_act == 0 and bool(d.public.current_trick))
    model = table(match, deal)
    answers: list[Action] = []
    keys = LorumKeys(model, answer=answers.append, leave=lambda: None)
    assert model.prompt is not None
    for i, choice in enumerate(model.prompt.cards):
        assert choice.card is not None
        for ch in card_label(choice.card, model.glyphs)[:-1].lower() + str(choice.card.suit):
            keys.key(ch)
        assert model.cursor == i
    dim = next((i for i, c in enumerate(model.prompt.cards) if c.action is None), None)
    if dim is not None:
        model.cursor = dim
        keys.key("enter")
        assert not answers and "follow suit" in model.status
        assert "follow suit" in screen(model)
    keys.key("o")
    keys.key("x")
    assert "you hold no OX" in model.status


def test_announce_by_its_key() -> None:
    for seed in range(1, 200):
        match, deal = start(4, Contract.RED_KING, seed)
        if deal.holder(KH) != 0:
            continue
        try:
            advance(deal, lambda d: d.awaiting is Decision.ANNOUNCE, keep_the_king)
        except AssertionError:
            continue
        break
    model = table(match, deal)
    answers: list[Action] = []
    LorumKeys(model, answer=answers.append, leave=lambda: None).key("a")
    assert answers == [Announce(0, True)]


def test_panels_open_close_and_leave_asks_first() -> None:
    match, deal = start(4, Contract.LORUM)
    model = table(match, deal)
    left: list[bool] = []
    again: list[bool] = []
    keys = LorumKeys(model, answer=lambda a: None, leave=lambda: left.append(True),
                     play_again=lambda: again.append(True))
    keys.key("r")
    assert model.panel is LorumPanel.RULES and "Now: Lorum" in screen(model)
    keys.key("down")
    assert model.rules_scroll == 1
    keys.key("s")
    assert model.panel is LorumPanel.SHEET
    keys.key("escape")
    assert model.panel is LorumPanel.NONE
    keys.key("q")
    assert model.panel is LorumPanel.QUIT and "Leave the table?" in screen(model)
    keys.key("n")
    assert model.panel is LorumPanel.NONE and not left
    keys.key("q")
    keys.key("y")
    assert left
    model.panel = LorumPanel.MATCH_END
    model.winners = (1,)
    keys.key("escape")
    assert model.panel is LorumPanel.MATCH_END
    keys.key("enter")
    assert again


def test_a_panel_opened_at_the_end_of_a_deal_closes_back_onto_it() -> None:
    match, deal = start(4, Contract.LORUM)
    model = table(match, deal)
    keys = LorumKeys(model, answer=lambda a: None, leave=lambda: None)
    model.panel, model.between_deals = LorumPanel.DEAL_END, True
    for opener, closer in (("s", "s"), ("r", "escape"), ("?", "enter")):
        keys.key(opener)
        assert model.panel is not LorumPanel.DEAL_END
        keys.key(closer)
        assert model.panel is LorumPanel.DEAL_END
    keys.key("s")
    keys.key("r")  # one panel to the next, then closed: still back at the deal's end
    keys.key("escape")
    assert model.panel is LorumPanel.DEAL_END
    keys.key("enter")
    assert model.panel is LorumPanel.NONE
    keys.key("s")
    keys.key("s")  # during a deal, the sheet closes onto the table
    assert model.panel is LorumPanel.NONE


def test_h_says_why_there_is_no_hint() -> None:
    from lodam_p2p.ui.lorum.keys import LorumKeys
    from lodam_p2p.ui.lorum.model import LorumTable

    model = LorumTable()
    keys = LorumKeys(model, answer=lambda action: None, leave=lambda: None)
    keys.key("h")
    assert model.status == "no decision to hint at"
