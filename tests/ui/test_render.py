"""The table screen as text: rendered from real views, checked as a person would read it."""

from __future__ import annotations

from lodam_p2p.games.lodam import Decision
from lodam_p2p.ui.app import build_style
from lodam_p2p.ui.canvas import frag_text
from lodam_p2p.ui.lodam.model import Panel
from lodam_p2p.ui.lodam.table_view import render
from tests.ui.support import advance, model_of, my_play_with_lead, new_deal


def screen(model, width: int = 80, height: int = 24, now: float = 0.0) -> str:
    return render(model, width, height, now).text()


def card_styles(model, width: int = 80, height: int = 24) -> dict[str, str]:
    """The style of each card face on the hand line (the line with the cursor)."""
    frags = render(model, width, height, 0.0).fragments()
    return {text: style for style, text in frags if "choice." in style}


def test_following_suit_lights_the_cards_of_the_led_suit_and_dims_the_rest() -> None:
    deal = advance(new_deal(), my_play_with_lead)
    view = deal.view(0)
    led = view.current_trick[0][1].suit
    model = model_of(view)
    styles = card_styles(model)
    assert len(styles) == len(view.hand)
    for card in view.hand:
        face = model.glyphs.card(card)
        follows = card.suit == led
        has_led = any(c.suit == led for c in view.hand)
        legal = follows or not has_led
        assert ("choice.legal" in styles[face]) == legal, face
        assert ("choice.dim" in styles[face]) == (not legal), face
    assert "Play to" in screen(model)


def test_red_suits_are_styled_red() -> None:
    view = new_deal().view(0)
    frags = render(model_of(view), 80, 24, 0.0).fragments()
    for style, text in frags:
        if text[-1:] in "♥♦" and len(text) == 2:
            assert "card.red" in style
        if text[-1:] in "♠♣" and len(text) == 2:
            assert "card.black" in style


def test_counters_show_held_and_lost() -> None:
    deal = new_deal(players=4)
    view = deal.view(0)
    from dataclasses import replace
    view = replace(view, lives=(3, 2, 1, 3))
    text = screen(model_of(view))
    assert "♥♥♡" in text and "♥♡♡" in text and "♥♥♥" in text


def test_ascii_mode_draws_no_symbols_at_all() -> None:
    deal = advance(new_deal(), my_play_with_lead)
    model = model_of(deal.view(0), ascii=True)
    text = screen(model)
    assert all(ord(ch) < 128 for ch in text), [ch for ch in text if ord(ch) >= 128][:5]
    card = deal.view(0).hand[0]
    assert f"{card.rank.letter}{card.suit}" in text
    model.panel = Panel.HELP
    assert all(ord(ch) < 128 for ch in screen(model))


def test_no_color_style_keeps_emphasis_but_no_colour() -> None:
    plain, coloured = build_style(no_color=True), build_style(no_color=False)
    red = coloured.get_attrs_for_style_str("class:card.red")
    assert red.color
    for name in ("card.red", "choice.dim", "notice.error", "header", "counters"):
        attrs = plain.get_attrs_for_style_str(f"class:{name}")
        assert not attrs.color and not attrs.bgcolor, name
    assert plain.get_attrs_for_style_str("class:choice.cursor").reverse
    assert plain.get_attrs_for_style_str("class:choice.legal").bold


def test_every_table_size_fits_80_by_24_with_hand_question_and_all_seats() -> None:
    for players in range(3, 11):
        deal = advance(new_deal(players=players), my_play_with_lead)
        model = model_of(deal.view(0))
        lines = screen(model).split("\n")
        assert len(lines) == 24 and all(len(line) == 80 for line in lines)
        text = "\n".join(lines)
        for seat in range(1, players):
            assert model.names()[seat][:4] in text
        for card in deal.view(0).hand:
            assert model.glyphs.card(card) in text
        assert "Play to" in text


def test_resizing_redraws_at_any_size() -> None:
    model = model_of(advance(new_deal(), my_play_with_lead).view(0))
    for width, height in ((40, 10), (80, 24), (100, 30), (160, 50), (1, 1), (0, 0)):
        lines = render(model, width, height, 0.0).text().split("\n")
        assert len(lines) == max(1, height) and all(len(x) == width for x in lines[:height])
    wide = screen(model, 140, 40)
    assert "│ log" in wide


def _after_first_renounce(**options: object):
    deal = advance(new_deal(**options), lambda d: d.trump_card is not None)
    return deal


def test_trump_is_shown_then_hidden_under_trump_memory() -> None:
    deal = _after_first_renounce(trump_memory=True, trump_show_seconds=3)
    model = model_of(deal.view(0), now=100.0)
    trump = model.glyphs.card(deal.trump_card)
    assert f"trump {trump}" in screen(model, now=101.0)
    later = screen(model, now=104.0)
    assert "trump: ? (remember it)" in later
    assert trump not in later.split("── log")[0].split("Trick")[1].split("\n", 3)[3]
    assert "trumps" not in later  # the log never names the suit


def test_trump_stays_without_trump_memory() -> None:
    deal = _after_first_renounce()
    model = model_of(deal.view(0), now=100.0)
    assert f"trump {model.glyphs.card(deal.trump_card)}" in screen(model, now=1000.0)


def test_declare_out_hides_every_total() -> None:
    deal = advance(new_deal(declare_out=True), lambda d: len(d.tricks) >= 3)
    view = deal.view(0)
    text = screen(model_of(view))
    assert "▰" not in text and "▱" not in text
    assert " 31" not in text.split("── log")[0].split("\n", 1)[1]
    assert "taken" in text
    assert "(+" not in text  # neither the trick title nor the log speaks of points


def test_declaration_buttons_are_all_shown_and_refused_below_out_at() -> None:
    deal = advance(new_deal(declare_out=True),
                   lambda d: d.to_act == 0 and d.awaiting is Decision.DECLARE)
    model = model_of(deal.view(0))
    text = screen(model)
    assert "[ not now (n) ]" in text and "[ declare out (d) ]" in text
    declare = model.prompt.buttons[1]
    if deal.points[0] < 31:
        assert declare.action is None and "refused" in declare.refusal


def test_end_of_deal_panel_names_the_loser_points_and_audit() -> None:
    from lodam_p2p.player import DealEnded

    view = new_deal().view(0)
    model = model_of(view)
    model.apply(DealEnded((0, 33, 4, 0, 0), (0, -1, 0, 0, 0), (3, 2, 3, 3, 3),
                          "seat 1 reached 33 points", "passed"), 1.0)
    text = screen(model)
    assert "Moll reached 33 points." in text
    assert "loses a counter" in text and "♥♥♥ → ♥♥♡" in text
    assert "Audit: passed" in text and "Enter: continue" in text


def test_failed_audit_is_a_clear_message() -> None:
    from lodam_p2p.player import DealEnded, Notice, NoticeLevel

    model = model_of(new_deal().view(0))
    model.apply(Notice(NoticeLevel.ERROR, "seat 2 went silent", blamed=2), 1.0)
    model.apply(DealEnded((0,) * 5, (0,) * 5, (3,) * 5, "the deal was stopped",
                          "seat 2: share proof failed (hand 3)", void=True), 1.0)
    text = screen(model)
    assert "Audit: Ned: share proof failed (hand 3)" in text
    assert "void" in text
    assert "Traceback" not in text


def test_match_end_shows_standings_and_play_again() -> None:
    from lodam_p2p.player import MatchEnded

    model = model_of(new_deal(players=3).view(0))
    model.apply(MatchEnded((2,), (2, 0, 1), 7), 1.0)
    text = screen(model)
    assert "Ned wins" in text and "Enter: play again" in text
    assert text.index(" 1. Ned") < text.index(" 2. you") < text.index(" 3. Moll")


def test_last_trick_on_demand() -> None:
    deal = advance(new_deal(), lambda d: len(d.tricks) == 2 and len(d.current_trick) == 2)
    model = model_of(deal.view(0))
    model.panel = Panel.LAST_TRICK
    text = screen(model)
    trick = deal.tricks[-1]
    assert f"Trick 2: led by {model.name(trick.leader)}" in text
    for _, card in trick.cards:
        assert model.glyphs.card(card) in text


def test_waiting_line_names_whom_the_table_waits_for() -> None:
    from lodam_p2p.player import Phase, Progress

    model = model_of(new_deal().view(1))  # seat 1's view: not to act
    model.apply(Progress(Phase.SHUFFLING, waiting_for=(2, 4)), 0.0)
    assert "shuffling: waiting for Ned, Kit" in screen(model)


def test_fragments_and_text_agree() -> None:
    model = model_of(new_deal().view(0))
    canvas = render(model, 80, 24, 0.0)
    assert frag_text(canvas.fragments()) == canvas.text()


def test_r_opens_the_rules_page_whole_at_80_by_24_and_r_closes_it() -> None:
    from lodam_p2p.ui.lodam.controller import Controller

    for ascii_mode in (False, True):
        model = model_of(new_deal().view(0))
        model.glyphs = type(model.glyphs)(ascii=ascii_mode)
        controller = Controller(model, answer=lambda action: None, leave=lambda: None)
        controller.key("r")
        assert model.panel is Panel.RULES
        text = screen(model)
        for words in ("Losing Lodam", "follow suit", "This deal", "first renounce",
                      "Esc or r closes this"):  # the whole page, down to its last line
            assert words in text, text
        assert all(len(line) <= 80 for line in text.splitlines())
        assert text.isascii() or not ascii_mode
        controller.key("r")
        assert model.panel is Panel.NONE
    assert " r rules " in screen(model)
