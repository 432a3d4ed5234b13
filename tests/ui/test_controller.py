"""Keys: arrows and Enter, typed cards, buttons, hint, help and leaving."""

from __future__ import annotations

from lodam_p2p.games.lodam import Action, Decision, Offer, Play
from lodam_p2p.ui.lodam.controller import Controller
from lodam_p2p.ui.lodam.model import Panel, TableModel
from tests.ui.support import advance, model_of, my_play_with_lead, new_deal


class Seen:
    def __init__(self) -> None:
        self.answers: list[Action] = []
        self.left = 0
        self.closed: list[Panel] = []


def controller_for(model: TableModel, hint=None) -> tuple[Controller, Seen]:
    seen = Seen()

    def leave() -> None:
        seen.left += 1

    return Controller(model, answer=seen.answers.append, leave=leave, hint=hint,
                      panel_closed=seen.closed.append), seen


def _playing():
    deal = advance(new_deal(), my_play_with_lead)
    view = deal.view(0)
    return deal, view, model_of(view)


def test_enter_plays_the_selected_legal_card() -> None:
    _, view, model = _playing()
    ctl, seen = controller_for(model)
    ctl.key("right")
    ctl.key("enter")
    assert len(seen.answers) == 1 and seen.answers[0] in view.legal
    assert model.prompt is None


def test_arrows_skip_cards_the_rules_forbid() -> None:
    _, view, model = _playing()
    ctl, _ = controller_for(model)
    visited = set()
    for _ in range(len(view.hand) * 2):
        ctl.key("right")
        visited.add(model.prompt.items[model.cursor].action)
    assert visited == set(view.legal)


def test_typing_a_card_selects_it_and_enter_plays_it() -> None:
    _, view, model = _playing()
    ctl, seen = controller_for(model)
    card = view.legal[-1].card
    for ch in str(card).lower():
        ctl.key(ch)
    assert "selected" in model.status
    ctl.key("enter")
    assert seen.answers == [Play(0, card)]


def test_typing_a_forbidden_card_says_why() -> None:
    _, view, model = _playing()
    legal_cards = {a.card for a in view.legal}
    wrong = next((c for c in view.hand if c not in legal_cards), None)
    ctl, seen = controller_for(model)
    if wrong is not None:
        for ch in str(wrong).lower():
            ctl.key(ch)
        assert "must follow suit" in model.status
    absent = next(c for c in new_deal().view(1).hand if c not in view.hand)
    for ch in str(absent).lower():
        ctl.key(ch)
    assert "do not hold" in model.status
    assert seen.answers == []


def test_ten_may_be_typed_as_10() -> None:
    _, _view, model = _playing()
    ctl, _ = controller_for(model)
    ctl.key("1")
    ctl.key("0")
    assert model.typed == "t"
    ctl.key("s")
    assert model.typed == "" and ("T♠" in model.status or "must follow" in model.status)


def test_q_asks_before_leaving_and_a_suit_after_it_types_a_queen() -> None:
    _, _view, model = _playing()
    ctl, seen = controller_for(model)
    ctl.key("q")
    assert model.panel is Panel.QUIT
    ctl.key("n")
    assert model.panel is Panel.NONE and seen.left == 0
    ctl.key("q")
    ctl.key("s")
    assert model.panel is Panel.NONE and ("Q" in model.status or "hold" in model.status)
    ctl.key("q")
    ctl.key("y")
    assert seen.left == 1


def test_hint_selects_but_does_not_play() -> None:
    _, view, model = _playing()
    wanted = view.legal[-1]
    ctl, seen = controller_for(model, hint=lambda v: wanted)
    ctl.key("h")
    assert model.prompt.items[model.cursor].action == wanted and model.hint == model.cursor
    assert seen.answers == []
    ctl.key("enter")
    assert seen.answers == [wanted]


def test_offer_window_defaults_to_no_offer_and_p_passes() -> None:
    deal = new_deal(seed=11)
    deal = advance(deal, lambda d: d.to_act == 0 and d.awaiting is Decision.OFFER)
    model = model_of(deal.view(0))
    ctl, seen = controller_for(model)
    assert model.prompt.items[model.cursor].action == Offer(0, None)
    ctl.key("p")
    assert seen.answers == [Offer(0, None)]


def test_help_and_deal_end_panels_close_and_release_the_table() -> None:
    _, _, model = _playing()
    ctl, seen = controller_for(model)
    ctl.key("?")
    assert model.panel is Panel.HELP
    ctl.key("escape")
    assert model.panel is Panel.NONE
    model.panel = Panel.DEAL_END
    ctl.key("enter")
    assert model.panel is Panel.NONE and seen.closed[-1] is Panel.DEAL_END
