"""The Lorum table screen as text: real deals of every contract, read as a person would."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from lodam_p2p.games.lodam import Options as LodamOptions
from lodam_p2p.games.lorum import (
    CONTRACTS,
    PACK,
    SHORT_PACK,
    Action,
    Announce,
    Card,
    Contract,
    Deal,
    Decision,
    Match,
    Options,
    Pass,
    Play,
    Scoring,
)
from lodam_p2p.ui import app
from lodam_p2p.ui.canvas import frag_text
from lodam_p2p.ui.german import SUIT_STYLE_RULES, SUIT_SYMBOLS, card_label
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lorum.choices import lorum_prompt, typed_choice
from lodam_p2p.ui.lorum.model import DealSummary, LorumPanel, LorumTable, ScoreSheet
from lodam_p2p.ui.lorum.view import render_lorum
from lodam_p2p.ui.rules_page import page_lines, rules_page

NAMES = ("ann", "Moll", "Ned", "Bess")
KH = Card.parse("KH")


def start(players: int = 4, contract: Contract = Contract.REDS, seed: int = 1, *,
          auto: bool = True, **options: object) -> tuple[Match, Deal]:
    """A match of one contract and its first deal from a seeded shuffle (dealer: the
    last seat, so seat 0 is eldest)."""
    opts = Options.from_mapping({"contracts": [contract.value], **options})
    match = Match.start(opts, players, players - 1)
    deck = list(PACK if players == 4 else SHORT_PACK)
    random.Random(seed).shuffle(deck)
    return match, match.new_deal(deck, auto=auto)


def first_legal(deal: Deal) -> Action:
    return deal.legal_actions()[0]


def advance(deal: Deal, until: Callable[[Deal], bool],
            policy: Callable[[Deal], Action] = first_legal) -> Deal:
    for _ in range(200):
        if until(deal):
            return deal
        assert not deal.is_over, "the deal ended before the wanted position"
        deal.apply(policy(deal))
    raise AssertionError("wanted position not reached")


def table(match: Match, deal: Deal, seat: int = 0, *, ascii: bool = False,
          sheet: ScoreSheet | None = None) -> LorumTable:
    view = deal.view(seat)
    model = LorumTable(glyphs=Glyphs(ascii=ascii), table="test",
                       names=NAMES[: deal.players], me=seat, view=view,
                       deal_number=match.deals_played + 1, deals_total=len(match.schedule),
                       sheet=sheet or ScoreSheet.from_match(match))
    if view.to_act == seat and view.legal:
        model.prompt = lorum_prompt(view, model.glyphs, model.name)
        model.cursor = model.prompt.default
    return model


def screen(model: LorumTable, width: int = 80, height: int = 24) -> str:
    text = render_lorum(model, width, height, 0.0).text()
    lines = text.split("\n")
    assert len(lines) == height and all(len(line) == width for line in lines)
    return text


def styles(model: LorumTable) -> dict[str, str]:
    """The style of each face on the hand line, by its text."""
    frags = render_lorum(model, 80, 24, 0.0).fragments()
    return {text: style for style, text in frags if "choice." in style}


def mid(deal: Deal) -> bool:
    return len(deal.tricks) >= 2 and deal.to_act == 0


# -- every contract ----------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_contract_fits_80_by_24_and_names_contract_deal_and_dealer(
        players: int, contract: Contract) -> None:
    match, deal = start(players, contract)
    if contract.is_trick_game or contract is Contract.QUARTET:
        advance(deal, lambda d: len(d.tricks) >= 1 and d.to_act is not None)
    else:
        advance(deal, lambda d: len(d.public.lays) >= players and d.to_act is not None)
    me = deal.to_act
    assert me is not None
    model = table(match, deal, me)
    text = screen(model)
    german = {Contract.REDS: "Rote — reds: every heart 1 point", Contract.OBERS: "Ober",
              Contract.TRICKS: "Stiche", Contract.FIRST_LAST: "Erster und Letzter",
              Contract.FIFTH: "Fünfter Stich", Contract.RED_KING: "Roter König",
              Contract.QUARTET: "Quart — quartet", Contract.LORUM: "Lorum — the rows"}
    assert german[contract] in text
    assert f"deal 1 of {players}" in text and f"dealer {NAMES[players - 1]}" in text
    for seat in range(players):
        assert NAMES[seat] in text or seat == me
    for card in deal.hand(me):
        assert card_label(card, model.glyphs) in text
    assert "your turn" in text
    assert screen(model, 120, 40).count("\n") == 39


def test_following_suit_lights_the_led_suit_and_dims_the_rest() -> None:
    match, deal = start(4, Contract.TRICKS)
    advance(deal, lambda d: d.to_act == 0 and len(d.public.current_trick) > 0)
    model = table(match, deal)
    view = model.view
    assert view is not None
    led = view.current_trick[0][1].suit
    found = styles(model)
    assert len(found) == len(view.hand)
    has_led = any(c.suit == led for c in view.hand)
    for card in view.hand:
        legal = card.suit == led or not has_led
        style = found[card_label(card, model.glyphs)]
        assert ("choice.legal" in style) == legal
        assert ("choice.dim" in style) == (not legal)
    assert "Play to Ned's" in screen(model) or "Play to" in screen(model)


def test_reds_first_lead_dims_the_hearts() -> None:
    for seed in range(1, 40):
        match, deal = start(4, Contract.REDS, seed)
        hand = deal.hand(0)
        if any(c.suit.name == "H" for c in hand) and any(c.suit.name != "H" for c in hand):
            break
    model = table(match, deal)
    found = styles(model)
    for card in hand:
        dim = "choice.dim" in found[card_label(card, model.glyphs)]
        assert dim == (card.suit.name == "H")
    assert "no heart unless you hold only hearts" in screen(model)


# -- Quartet -----------------------------------------------------------------------------

def test_quartet_run_builds_and_waits_for_whoever_holds_the_next_card() -> None:
    match, deal = start(4, Contract.QUARTET, auto=False)
    lead = next(a for a in deal.legal_actions()
                if isinstance(a, Play) and a.card.rank.name not in ("ACE", "KING"))
    deal.apply(lead)
    assert deal.public.awaiting_card is not None
    holder = deal.to_act
    watcher = next(s for s in range(4) if s != holder)
    model = table(match, deal, watcher)
    text = screen(model)
    nxt = card_label(deal.public.awaiting_card, model.glyphs)
    assert f"whoever holds {nxt} plays it" in text
    assert card_label(lead.card, model.glyphs) in text and "Run 1, led by" in text
    assert "▶" not in text  # nobody's turn is shown: the holder is hidden
    own = table(match, deal, holder)
    assert own.prompt is not None and f"You hold {nxt}: it goes on the run." in screen(own)
    deal.apply(deal.legal_actions()[0])
    text = screen(table(match, deal, watcher))
    assert f"{nxt}" in text and "→" in text


def test_quartet_between_runs_says_who_leads_again() -> None:
    match, deal = start(4, Contract.QUARTET)
    deal.apply(deal.legal_actions()[0])
    text = screen(table(match, deal))
    last = deal.tricks[-1].winner
    expected = ("Run 1 ended: you lead again" if last == 0 else
                f"Run 1 ended: {NAMES[last]} leads again")
    assert expected in text


# -- Lorum rows --------------------------------------------------------------------------

def test_lorum_rows_grow_from_the_start_rank_with_the_next_card_shown() -> None:
    match, deal = start(4, Contract.LORUM, 2)
    advance(deal, lambda d: len(d.public.rows()) >= 2 and d.to_act == 0)
    model = table(match, deal)
    text = screen(model)
    view = model.view
    assert view is not None
    assert "Starting rank" in text
    frags = render_lorum(model, 80, 24, 0.0).fragments()
    starts = [t for s, t in frags if "lorum.start" in s]
    for row in view.rows.values():
        assert " ".join(card_label(c, model.glyphs) for c in row) in text
        assert card_label(row[0], model.glyphs) in starts
    for card in view.fits:
        if card.suit in view.rows:
            assert f"→ {card_label(card, model.glyphs)}" in text


def test_lorum_pass_is_shown_at_the_seat() -> None:
    for seed in range(1, 60):
        match, deal = start(4, Contract.LORUM, seed)
        try:
            advance(deal, lambda d: any(c is None and s != 0 for s, c in d.public.lays))
        except AssertionError:
            continue
        break
    text = screen(table(match, deal, 0))
    assert "passed" in text


def test_three_players_lay_the_set_aside_bells_by_the_table() -> None:
    for seed in range(1, 80):
        match, deal = start(3, Contract.LORUM, seed)
        try:
            advance(deal, lambda d: any(s is None for s, _ in d.public.lays))
        except AssertionError:
            continue
        break
    model = table(match, deal)
    frags = render_lorum(model, 80, 24, 0.0).fragments()
    aside = [t for s, t in frags if "lorum.aside" in s]
    laid = [c for s, c in deal.public.lays if s is None]
    assert aside and all(card_label(c, model.glyphs) in "".join(aside) for c in laid if c)


def test_the_first_player_out_is_marked() -> None:
    match, deal = start(4, Contract.LORUM, 3)
    advance(deal, lambda d: d.is_over)
    out = deal.public.out[0]
    model = table(match, deal, (out + 1) % 4)
    assert "out first" in screen(model)


# -- Red King ----------------------------------------------------------------------------

def keep_the_king(deal: Deal) -> Action:
    legal = deal.legal_actions()
    return next((a for a in legal if not (isinstance(a, Play) and a.card == KH)), legal[0])


def test_red_king_announcement_is_a_button_for_its_holder() -> None:
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
    text = screen(model)
    assert "[ announce the Red King (a) ]" in text and "[ keep quiet (n) ]" in text
    assert "64" in text
    assert model.prompt is not None and Announce(0, True) in [
        b.action for b in model.prompt.buttons]
    watcher = screen(table(match, deal, 1))
    assert "may announce it" in watcher and "announce the Red King" not in watcher


def test_blind_red_king_shows_the_hand_face_down() -> None:
    match, deal = start(4, Contract.RED_KING, red_king_blind=True)
    advance(deal, lambda d: len(d.tricks) >= 1)
    model = table(match, deal)
    text = screen(model)
    assert "▒▒ " * (deal.public.hand_sizes[0] - 1) + "▒▒" in text
    for card in deal.hand(0):
        assert f" {card_label(card, model.glyphs)} " not in text.split("\n")[15]
    assert "Blind" in text


# -- the sheet, beans and the end --------------------------------------------------------

def play_out(match: Match, deal: Deal) -> None:
    advance(deal, lambda d: d.is_over)
    match.finish_deal(deal)


def test_score_sheet_marks_the_current_row_and_totals() -> None:
    opts = Options.from_mapping({"contracts": ["reds", "quartet"]})
    match = Match.start(opts, 4, 3)
    rng = random.Random(5)
    for _ in range(5):
        deck = list(PACK)
        rng.shuffle(deck)
        play_out(match, match.new_deal(deck))
    deck = list(PACK)
    rng.shuffle(deck)
    deal = match.new_deal(deck)
    model = table(match, deal)
    model.panel = LorumPanel.SHEET
    text = screen(model)
    assert "Score sheet" in text and "▶ Quart" in text and "4/4" in text and "1/4" in text
    totals = match.standings().points
    assert "total points" in text and all(f"{t:>8}" in text for t in totals)


def test_beans_show_purses_pfennigs_and_pot() -> None:
    opts = Options.from_mapping({"contracts": ["red_king", "lorum"], "scoring": "beans"})
    match = Match.start(opts, 4, 3)
    rng = random.Random(7)
    for _ in range(3):
        deck = list(PACK)
        rng.shuffle(deck)
        play_out(match, match.new_deal(deck))
    deck = list(PACK)
    rng.shuffle(deck)
    deal = match.new_deal(deck)
    model = table(match, deal)
    standings = match.standings()
    text = screen(model)
    assert f"{standings.beans[1]} beans" in text
    model.panel = LorumPanel.SHEET
    text = screen(model)
    assert "beans" in text and "pfennigs" in text and f"pot (Kasse): {standings.pot}" in text


def test_deal_end_and_round_end_panels() -> None:
    match, deal = start(4, Contract.QUARTET)
    advance(deal, lambda d: d.is_over)
    result = match.finish_deal(deal)
    model = table(match, deal)
    model.deal_end = DealSummary(1, result, ScoreSheet.from_match(match))
    model.panel = LorumPanel.DEAL_END
    text = screen(model)
    first = model.name(result.out[0]).capitalize()
    assert "Deal 1 is over: Quart" in text and f"{first} go" in text
    assert "Audit: passed" in text and "Enter: continue" in text
    while not match.is_over:
        deck = list(PACK)
        random.Random(match.turn).shuffle(deck)
        play_out(match, match.new_deal(deck))
    model.sheet = ScoreSheet.from_match(match)
    model.winners = tuple(match.winners)
    model.panel = LorumPanel.MATCH_END
    text = screen(model)
    assert "The round is over" in text and "Enter: play again" in text
    assert " 1. " + model.name(model.winners[0]) in text


# -- ASCII, colour, rules ----------------------------------------------------------------

def all_frames() -> list[LorumTable]:
    frames = []
    for players in (3, 4):
        for contract in CONTRACTS:
            match, deal = start(players, contract, auto=False, red_king_blind=players == 3)
            advance(deal, lambda d: d.to_act is not None and bool(d.public.lays or d.tricks))
            assert deal.to_act is not None
            frames.append(table(match, deal, deal.to_act))
    return frames


def test_ascii_mode_draws_no_symbol_in_any_frame_or_panel() -> None:
    for model in all_frames():
        model.glyphs = Glyphs(ascii=True)
        if model.prompt is not None and model.view is not None:
            model.prompt = lorum_prompt(model.view, model.glyphs, model.name)
        for panel in (LorumPanel.NONE, LorumPanel.HELP, LorumPanel.SHEET, LorumPanel.RULES):
            model.panel = panel
            text = screen(model)
            assert all(ord(ch) < 128 for ch in text), [c for c in text if ord(c) >= 128][:5]
        assert model.view is not None
        for card in model.view.hand:
            assert card_label(card, model.glyphs) in screen(model) or model.panel


def test_suits_differ_in_shape_and_colour_and_no_color_keeps_only_shape(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(set(SUIT_SYMBOLS.values())) == 4
    assert not set(SUIT_SYMBOLS.values()) & {"♣", "♠", "♦"}
    monkeypatch.setattr(app, "STYLE_RULES", app.STYLE_RULES + SUIT_STYLE_RULES)
    coloured, plain = app.build_style(no_color=False), app.build_style(no_color=True)
    colours = {coloured.get_attrs_for_style_str(f"class:{n}").color
               for n, _ in SUIT_STYLE_RULES if n.startswith("suit.")}
    assert len(colours) == 4
    for name, _ in SUIT_STYLE_RULES:
        attrs = plain.get_attrs_for_style_str(f"class:{name}")
        assert not attrs.color and not attrs.bgcolor, name
    model = all_frames()[0]
    for style, _ in render_lorum(model, 80, 24, 0.0).fragments():
        attrs = plain.get_attrs_for_style_str(style)
        assert not attrs.color and not attrs.bgcolor, style


@pytest.mark.parametrize("contract,scores", [
    (Contract.REDS, "every heart 1 point"), (Contract.OBERS, "every Ober 2 points"),
    (Contract.TRICKS, "every trick 1 point"), (Contract.FIRST_LAST, "last trick 4 points"),
    (Contract.FIFTH, "trick 5 alone scores 8"), (Contract.RED_KING, "64"),
    (Contract.QUARTET, "1 point"), (Contract.LORUM, "score 1 point"),
])
def test_rules_page_says_what_scores_in_each_contract(contract: Contract, scores: str) -> None:
    page = rules_page("lorum", Options(), contract, 4)
    text = " ".join(f"{p.title} {p.text}" for p in page)
    assert scores in text and "lowest total wins" in text
    assert len(text.split()) < 400  # two minutes of reading
    match, deal = start(4, contract)
    model = table(match, deal)
    model.panel = LorumPanel.RULES
    assert "Now: " in screen(model)


def test_rules_page_for_lodam_names_the_deal() -> None:
    text = " ".join(p.text for p in rules_page("lodam", LodamOptions()))
    for words in ("before every trick", "first renounce", "31", "swallow"):
        assert words in text
    hidden = " ".join(p.text for p in rules_page("lodam", LodamOptions(declare_out=True,
                                                                       trump_memory=True)))
    assert "declare out" in hidden and "remember it" in hidden


def test_fragments_and_text_agree() -> None:
    match, deal = start(4, Contract.LORUM)
    canvas = render_lorum(table(match, deal), 80, 24, 0.0)
    assert frag_text(canvas.fragments()) == canvas.text()


def test_pass_button_only_when_nothing_fits() -> None:
    _, deal = start(4, Contract.LORUM, auto=False)
    advance(deal, lambda d: d.to_act == 0 and d.public.lays != [])
    view = deal.view(0)
    prompt = lorum_prompt(view, Glyphs(), lambda s: NAMES[s])
    assert (Pass(0) in view.legal) == bool(prompt.buttons)


# -- the model through whole deals -------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4])
def test_whole_round_through_the_model_every_frame_fits(players: int) -> None:
    """Every contract played out through ``show``/``ask``/``deal_over`` as the app would:
    every frame is 80 × 24, the log tells the story, the sheet follows the match."""
    match = Match.start(Options(), players, players - 1)
    model = LorumTable(names=NAMES[:players], me=0, deals_total=len(match.schedule),
                       sheet=ScoreSheet.from_match(match))
    rng = random.Random(players)
    for _ in range(8):  # one deal of each contract
        deck = list(PACK if players == 4 else SHORT_PACK)
        rng.shuffle(deck)
        deal = match.new_deal(deck)
        model.show(deal.view(0), match.turn + 1)
        while not deal.is_over:
            if deal.to_act == 0:
                prompt = model.ask(deal.view(0))
                assert prompt.items[prompt.default].action is not None
                screen(model)
                action = prompt.items[prompt.default].action
                assert action is not None
                model.answered()
                deal.apply(action)
            else:
                deal.apply(first_legal(deal))
            model.show(deal.view(0))
            screen(model)
        result = match.finish_deal(deal)
        # skip the contract's other dealers: one deal of each contract is enough here
        match.turn = min(match.turn + players - 1, len(match.schedule) - 1)
        model.deal_over(DealSummary(model.deal_number, result, ScoreSheet.from_match(match)))
        assert "is over" in screen(model)
        model.panel = LorumPanel.NONE  # under the panel: this deal counted once in "total"
        assert f"+{result.points[0]} · total {match.totals[0]}" in screen(model)
    log = "\n".join(text for _, text in model.log)
    for words in ("Deal 1, Rote — reds", "takes the trick", "The run ends", "lay", "first."):
        assert words in log
    model.panel = LorumPanel.SHEET
    assert all(row in screen(model) for row in ("Rote", "Ober", "Quart", "Lorum"))


def test_any_size_draws_without_error() -> None:
    match, deal = start(4, Contract.LORUM)
    model = table(match, deal)
    for width, height in ((40, 10), (100, 30), (1, 1), (0, 0)):
        lines = render_lorum(model, width, height, 0.0).text().split("\n")
        assert len(lines) == max(1, height) and all(len(x) == width for x in lines[:height])


def test_typed_cards_are_found_by_german_rank() -> None:
    match, deal = start(4, Contract.LORUM)
    model = table(match, deal)
    assert model.prompt is not None
    for i, choice in enumerate(model.prompt.cards):
        assert choice.card is not None
        written = str(choice.card).lower().replace("t", "10")
        assert typed_choice(model.prompt, written) == i
    assert typed_choice(model.prompt, "zz") is None


def test_rules_page_lines_fit_the_width() -> None:
    for page in (rules_page("lodam", LodamOptions()),
                 rules_page("lorum", Options(scoring=Scoring.BEANS), Contract.QUARTET, 3)):
        lines = page_lines(page, 60)
        assert all(len(text) <= 60 for _, text in lines)
        assert sum(len(text.split()) for _, text in lines) < 400
    beans = " ".join(t for _, t in page_lines(rules_page("lorum", Options(
        scoring=Scoring.BEANS), Contract.LORUM, 3), 70))
    assert "most beans" in beans and "set aside" in beans and "takes the whole pot" in beans


def test_unter_rows_grow_both_ways_with_both_ends_shown() -> None:
    match, deal = start(4, Contract.LORUM, 6, lorum_start="unter")
    advance(deal, lambda d: len(d.public.lays) >= 12 and d.to_act == 0)
    model = table(match, deal)
    text = screen(model)
    view = model.view
    assert view is not None and "Starting rank U (Unter): up and down" in text
    for suit, row in view.rows.items():
        ranks = sorted(c.rank for c in row)
        laid = " ".join(card_label(c, model.glyphs) for c in sorted(row, key=lambda c: c.rank))
        assert laid in text
        for card in view.fits:
            if card.suit is suit:
                mark = "← " if card.rank < ranks[0] else "→ "
                label = card_label(card, model.glyphs)
                assert (f"{label} {mark}" if mark == "← " else f"{mark}{label}") in text


def test_beans_deal_end_shows_what_each_paid_or_won() -> None:
    opts = Options.from_mapping({"contracts": ["quartet"], "scoring": "beans"})
    match = Match.start(opts, 4, 3)
    before = ScoreSheet.from_match(match)
    deck = list(PACK)
    random.Random(2).shuffle(deck)
    deal = advance(match.new_deal(deck), lambda d: d.is_over)
    model = table(match, deal, sheet=before)
    result = match.finish_deal(deal)
    model.deal_over(DealSummary(1, result, ScoreSheet.from_match(match)))
    text = screen(model)
    after = match.standings().beans
    for seat in range(4):
        delta = after[seat] - before.beans[seat]
        if delta:
            assert f"{after[seat]} ({delta:+d})" in text
    assert sum(after) == sum(before.beans)  # quartet: paid to the first out, none lost


def test_every_card_face_carries_its_suits_colour_class() -> None:
    match, deal = start(4, Contract.TRICKS)
    model = table(match, deal, 1)  # not to act: the hand is shown in colour
    frags = render_lorum(model, 80, 24, 0.0).fragments()
    classes = {"▼": "suit.eichel", "▲": "suit.gruen", "♥": "suit.herz", "●": "suit.schellen"}
    faces = [(style, text) for style, text in frags if text[-1:] in classes and
             text[:-1] in ("7", "8", "9", "10", "U", "O", "K", "A")]
    assert len(faces) >= len(deal.hand(1))
    for style, text in faces:
        assert classes[text[-1]] in style, (style, text)
