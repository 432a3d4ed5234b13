"""The Lorum screen as a :class:`~lodam_p2p.player.Player`: fed the events a table driver
sends (the network session's order: seats, progress, views, deal ends with the game's
record, the match end with its standings), it draws them and answers what it is asked.

The table here is scripted in the test from the game interface — the match, its decks
and the other seats' random choices — so every event, and every answer, is checked
against the engine.
"""

from __future__ import annotations

import asyncio
import random

from lodam_p2p.games import get_game
from lodam_p2p.games.lorum import Contract, Options, PlayerView, Scoring
from lodam_p2p.player import (
    DealEnded,
    MatchEnded,
    Notice,
    NoticeLevel,
    Phase,
    Progress,
    SeatInfo,
    SeatsChanged,
    ViewChanged,
)
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lorum.keys import LorumKeys
from lodam_p2p.ui.lorum.model import LorumPanel, LorumTable
from lodam_p2p.ui.lorum.panels import sheet_lines
from lodam_p2p.ui.lorum.player import LorumPlayer, forced
from lodam_p2p.ui.lorum.view import render_lorum

GAME = get_game("lorum")
NAMES = ("Moll", "ann", "Ned", "Bess")
ME = 1


class Person:
    """The Lorum player with its keys, pressed as the client presses them."""

    def __init__(self) -> None:
        self.model = LorumTable(glyphs=Glyphs(ascii=True), table="kitchen")
        self.player = LorumPlayer(self.model)
        self.keys = LorumKeys(self.model, answer=self.player.answer, leave=lambda: None)

    def press(self, name: str) -> None:
        self.keys.key(name)
        if self.model.panel is LorumPanel.NONE:
            self.player.release()

    def screen(self) -> str:
        text = render_lorum(self.model, 80, 24, 0.0).text()
        assert all(len(line) <= 80 for line in text.splitlines())
        assert len(text.splitlines()) <= 24 and text.isascii()
        assert "missed an event" not in text  # no event was dropped by a fault
        return text


class Script:
    """What the test saw and checked along the way."""

    def __init__(self) -> None:
        self.asked = 0
        self.forced = 0
        self.held = 0
        self.screens: list[str] = []
        self.deal_ends: list[str] = []


async def _answer(person: Person, view: PlayerView, script: Script) -> object:
    """Awaits the person's decision: a forced step comes back at once, a real one is
    drawn and answered with Enter on the cursor's card or button."""
    task = asyncio.create_task(person.player.decide(view))
    await asyncio.sleep(0)  # one turn of the loop: decide either answered or asked
    if forced(view):
        assert task.done() and person.model.prompt is None
        script.forced += 1
        return await task
    prompt = person.model.prompt
    assert prompt is not None and not task.done()
    screen = person.screen()
    assert prompt.question[:40] in screen.replace("\n", " ") or "You" in screen
    assert "your turn" in screen
    script.screens.append(screen)
    person.press("enter")
    script.asked += 1
    return await task


async def _table(options: Options, seed: int, names: tuple[str, ...] = NAMES
                 ) -> tuple[Person, Script, object]:
    rng = random.Random(seed)
    person, script = Person(), Script()
    match = GAME.start_match(options, len(names), rng.randrange(len(names)))
    seats = tuple(SeatInfo(s, n, "human" if s == ME else "bot:random")
                  for s, n in enumerate(names))
    person.player.notify(SeatsChanged(seats, ME))
    person.player.notify(Progress(Phase.DRAWING))
    assert "drawing the first dealer" in person.screen()
    deck: list[object] = []
    number = 0
    while not match.is_over:
        if GAME.reshuffles(match):
            person.player.notify(Progress(Phase.SHUFFLING, tuple(range(len(names)))))
            deck = list(GAME.pack(match))
            rng.shuffle(deck)
        person.player.notify(Progress(Phase.DEALING))
        deal = GAME.new_deal(match, deck)
        person.player.notify(Progress(Phase.PLAYING))
        person.player.notify(ViewChanged(deal.view(ME)))
        number += 1
        if number > 1:  # the last deal's panel is open: the new deal waits behind it
            assert person.model.panel is LorumPanel.DEAL_END
            assert person.model.deal_number == number - 1 and not person.player.hold.is_set()
            script.held += 1
            person.press("enter")
        assert person.model.deal_number == number and person.model.view is not None
        assert person.model.view.contract is match.contract  # type: ignore[attr-defined]
        while not deal.is_over:
            seat = deal.to_act
            view = deal.view(seat)
            if seat == ME:
                action = await _answer(person, view, script)
                assert action in view.legal
            else:
                action = rng.choice(view.legal)
            deal.apply(action)
            person.player.notify(ViewChanged(deal.view(ME), action))
        record = deal.result()
        summary = GAME.finish_deal(match, deal)
        standings = GAME.standings(match)
        change = tuple(g - p for g, p in zip(summary.gain, summary.penalty, strict=True))
        person.player.notify(Progress(Phase.AUDIT))
        person.player.notify(DealEnded(summary.points, change, standings.scores,
                                       summary.reason, "passed", detail=record))
        screen = person.screen()
        assert f"Deal {number} is over" in screen and "Audit: passed" in screen
        script.deal_ends.append(screen)
        _sheet_agrees(person, match)
    standings = GAME.standings(match)
    person.player.notify(MatchEnded(standings.winners, standings.order,
                                    match.deals_played, detail=standings))
    assert person.model.panel is LorumPanel.DEAL_END  # the last deal is read first
    person.press("enter")
    return person, script, match


def _sheet_agrees(person: Person, match: object) -> None:
    """The sheet the person keeps from the events is the match's own."""
    end = person.model.deal_end
    assert end is not None
    sheet = end.sheet
    assert list(sheet.totals) == list(match.totals)  # type: ignore[attr-defined]
    if sheet.scoring is Scoring.BEANS:
        purse = match.purse  # type: ignore[attr-defined]
        assert (list(sheet.beans), list(sheet.pfennigs)) == (purse.beans, purse.pfennigs)
        assert (sheet.pot, sheet.pot_pfennigs) == (purse.pot, purse.pot_pfennigs)


def test_a_scripted_table_is_drawn_and_answered_through_the_player_protocol() -> None:
    options = Options(contracts=(Contract.RED_KING, Contract.QUARTET, Contract.LORUM),
                      scoring=Scoring.BEANS)
    person, script, match = asyncio.run(_table(options, 7))
    assert not any("Round" in s for s in script.deal_ends)  # one round: no round ends
    assert script.asked > 0 and script.forced > 0
    assert script.held == 11  # every deal but the first waited behind the last one's panel
    assert person.model.panel is LorumPanel.MATCH_END
    final = person.screen()
    assert "The round is over" in final and "Enter: play again" in final
    winners = [person.model.name(s) for s in match.winners]  # type: ignore[attr-defined]
    assert all(w in final for w in winners)
    person.press("s")  # the final sheet, over the standings; closing it goes back
    assert person.model.panel is LorumPanel.SHEET and "Score sheet" in person.screen()
    person.press("escape")
    assert person.model.panel is LorumPanel.MATCH_END


def test_the_score_sheet_from_events_marks_the_row_and_counts_every_deal() -> None:
    person, _script, match = asyncio.run(_table(Options(contracts=(Contract.REDS,)), 2))
    sheet = person.model.sheet
    assert sheet is not None and sheet.dealt[Contract.REDS] == 4
    assert sum(sheet.totals) == 4 * 8 == sum(match.totals)  # type: ignore[attr-defined]
    rows = ["".join(text for _style, text in line)
            for line in sheet_lines(person.model, sheet)]
    (reds,) = [row for row in rows if "Rote" in row]
    assert reds.startswith(person.model.glyphs.pointer) and "4/4" in reds


def test_a_refusal_is_said_on_the_status_line() -> None:
    person = Person()
    person.player.notify(Notice(NoticeLevel.WARNING, "refused: follow suit"))
    assert person.model.status == "refused: follow suit"
    assert ("class:log.warning", "refused: follow suit") in person.model.log


def test_a_voided_deal_scores_the_breach_for_its_offender_alone() -> None:
    async def run() -> Person:
        person = Person()
        options = Options(contracts=(Contract.REDS,), breach_points=9)
        match = GAME.start_match(options, 4, 0)
        deck = list(GAME.pack(match))
        random.Random(1).shuffle(deck)
        deal = GAME.new_deal(match, deck)
        person.player.notify(SeatsChanged(tuple(SeatInfo(s, n, "human")
                                                for s, n in enumerate(NAMES)), ME))
        person.player.notify(ViewChanged(deal.view(ME)))
        person.player.notify(DealEnded((0, 0, 9, 0), (0, 0, -9, 0), (0, 0, 9, 0),
                                       "seat 2 revoked", "seat 2: revoke in trick 3",
                                       void=True))
        return person

    person = asyncio.run(run())
    end = person.model.deal_end
    assert end is not None and end.void
    assert end.sheet.totals == (0, 0, 9, 0)
    screen = person.screen()
    assert "A breach voids the deal" in screen and "revoke in trick 3" in screen
    assert f"Audit: {NAMES[2]}: revoke in trick 3" in screen  # the seat by its name


def test_a_deal_dealt_again_keeps_its_number_and_a_void_deal_adds_one() -> None:
    async def run() -> Person:
        person = Person()
        options = Options(contracts=(Contract.TRICKS,))
        match = GAME.start_match(options, 4, 0)
        deck = list(GAME.pack(match))
        random.Random(5).shuffle(deck)
        deal = GAME.new_deal(match, deck)
        person.player.notify(ViewChanged(deal.view(ME)))
        first = deal.view(ME)
        for _ in range(3):
            action = deal.legal_actions()[0]
            deal.apply(action)
            person.player.notify(ViewChanged(deal.view(ME), action))
        assert person.model.deal_number == 1 and person.model.deals_total == 4
        person.player.notify(ViewChanged(first))  # a seat came back: dealt again
        assert person.model.deal_number == 1 and person.model.view is first
        assert "The deal is dealt again." in person.screen()
        person.player.notify(DealEnded((0, 0, 0, 9), (0, 0, 0, -9), (0, 0, 0, 9),
                                       "a breach", "seat 3: revoke", void=True))
        assert person.model.deals_total == 5
        person.press("enter")
        person.player.notify(ViewChanged(first))  # the same contract, dealt again
        assert person.model.deal_number == 2
        assert "deal 2 of 5" in person.screen()
        return person

    asyncio.run(run())


def test_a_round_that_is_not_the_last_ends_with_the_standings() -> None:
    options = Options(contracts=(Contract.REDS,), rounds=2)
    person, script, match = asyncio.run(_table(options, 4))
    rounds = [i for i, s in enumerate(script.deal_ends) if "Round 1 of 2 is over" in s]
    assert rounds == [3]  # after the fourth deal of eight
    totals = match.totals  # type: ignore[attr-defined]
    assert "Standings in points: " in script.deal_ends[3]
    assert "The match is over" in person.screen() and sum(totals) == 8 * 8


def test_blind_red_king_and_short_first_and_last_with_three_seats() -> None:
    options = Options(contracts=(Contract.FIRST_LAST, Contract.RED_KING, Contract.LORUM),
                      red_king_blind=True, first_last_short=True)
    person, script, match = asyncio.run(_table(options, 9, NAMES[:3]))
    assert match.deals_played == 9  # type: ignore[attr-defined]
    assert script.forced > 0 and script.asked > 0
    blind = [s for s in script.screens if "Roter" in s]
    assert not blind  # a blind deal asks nothing: every card goes by itself
    assert any("Erster und Letzter" in s for s in script.screens)
    assert "The round is over" in person.screen()


def test_a_match_ended_early_names_the_seat_it_blames() -> None:
    person = Person()
    person.player.notify(SeatsChanged(tuple(SeatInfo(s, n, "human")
                                            for s, n in enumerate(NAMES)), ME))
    person.player.notify(MatchEnded((0,), (0, 1, 3, 2), 1,
                                    reason="seat 2 did not answer three times"))
    said = f"{NAMES[2]} did not answer three times"
    assert person.model.status.startswith(said)
    assert any(said in text for _, text in person.model.log)
    assert "seat 2" not in person.screen()


def test_a_notice_from_the_table_names_the_seats_it_numbers() -> None:
    person = Person()
    person.player.notify(SeatsChanged(tuple(SeatInfo(s, n, "human")
                                            for s, n in enumerate(NAMES)), ME))
    person.player.notify(Notice(NoticeLevel.WARNING, "seat 3 came back more than once"))
    assert person.model.notice is not None
    assert person.model.notice.text == f"{NAMES[3]} came back more than once"
    assert person.model.status == f"{NAMES[3]} came back more than once"


def test_the_deal_number_is_the_tables_not_a_count_of_views_seen_here() -> None:
    person = Person()
    match = GAME.start_match(Options(contracts=(Contract.TRICKS,)), 4, 0)
    deck = list(GAME.pack(match))
    random.Random(5).shuffle(deck)
    deal = GAME.new_deal(match, deck)
    # a seat that came back, or started again, when the table was at its third deal
    person.player.notify(ViewChanged(deal.view(ME), deal=3))
    assert person.model.deal_number == 3 and "deal 3 of" in person.screen()
    action = deal.legal_actions()[0]
    deal.apply(action)
    person.player.notify(ViewChanged(deal.view(ME), action, deal=3))
    assert person.model.deal_number == 3
