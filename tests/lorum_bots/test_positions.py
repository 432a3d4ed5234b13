"""Positions with an obvious right move, per contract: both Lorum bots find it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lodam_p2p.games.lorum import Action, Announce, Contract, Lay, Play, PlayerView
from lodam_plugins.lorum.heuristic import LorumHeuristicBot
from lodam_plugins.lorum.ismcts import lorum_ismcts
from tests.lorum_bots.positions import position

TRICK_1 = "0:7E 1:8E 2:9E 3:TE"  # seat 3 takes the first trick and leads the second


def heuristic(view: PlayerView) -> Action:
    return LorumHeuristicBot(seat=view.seat, seed=0, options={}).decide(view)


def ismcts(view: PlayerView) -> Action:
    bot = lorum_ismcts(seat=view.seat, seed=7, options={"iterations": 400})
    return bot.decide(view)


BOTS = [pytest.param(heuristic, id="heuristic"), pytest.param(ismcts, id="ismcts")]
Decide = Callable[[PlayerView], Action]


def played(action: Action) -> str:
    assert isinstance(action, Play | Lay)
    return str(action.card)


@pytest.mark.parametrize("decide", BOTS)
def test_reds_ducks_under_the_winner_with_a_heart(decide: Decide) -> None:
    _, view = position(Contract.REDS, TRICK_1 + " 3:TH", {0: "7H KH AE AG AS 7S 7G"})
    assert played(decide(view)) == "7H"


@pytest.mark.parametrize("decide", BOTS)
def test_reds_throws_a_heart_on_another_seats_trick(decide: Decide) -> None:
    _, view = position(Contract.REDS, TRICK_1 + " 3:7S", {0: "KH AE AG 7G 8G 9G TG"})
    assert played(decide(view)) == "KH"


@pytest.mark.parametrize("decide", BOTS)
def test_obers_drops_the_ober_under_the_king_rather_than_take(decide: Decide) -> None:
    # Seat 0 holds the Ace itself: nobody can beat the King but seat 0.
    _, view = position(Contract.OBERS, TRICK_1 + " 3:KE", {0: "OE AE 7G 8G 9S TS 7H"})
    assert played(decide(view)) == "OE"


@pytest.mark.parametrize("decide", BOTS)
def test_tricks_ducks_rather_than_take(decide: Decide) -> None:
    _, view = position(Contract.TRICKS, TRICK_1 + " 3:UG", {0: "TG AG 7S 8S 9S TS 7H"})
    assert played(decide(view)) == "TG"


@pytest.mark.parametrize("decide", BOTS)
def test_first_last_ducks_the_first_trick(decide: Decide) -> None:
    _, view = position(Contract.FIRST_LAST, "0:UG", {1: "7G AG 7E 8E 9S TS 7H 8H"})
    assert played(decide(view)) == "7G"


@pytest.mark.parametrize("decide", BOTS)
def test_red_king_holder_does_not_lead_the_king(decide: Decide) -> None:
    _, view = position(Contract.RED_KING, TRICK_1, {3: "KH 7G 8G 9G 7S 8S 9S"})
    assert played(decide(view)) != "KH"


@pytest.mark.parametrize("decide", BOTS)
def test_red_king_thrown_on_another_seats_trick(decide: Decide) -> None:
    _, view = position(Contract.RED_KING, TRICK_1 + " 3:AS", {0: "KH 7G 8G 9G TG UG OG"})
    assert played(decide(view)) == "KH"


def _announce_position(last_tricks: str, hands: dict[int, str]) -> PlayerView:
    _, view = position(Contract.RED_KING, last_tricks, hands)
    assert view.legal and isinstance(view.legal[0], Announce), view.awaiting
    return view


# Seven tricks, each taken by the seat that leads the next: seat 3 leads the last.
SEVEN = ("0:7E 1:8E 2:9E 3:TE "  # 3 takes
         "3:7G 0:8G 1:9G 2:TG "  # 2 takes
         "2:7S 3:8S 0:9S 1:TS "  # 1 takes
         "1:UE 2:OE 3:KE 0:AE "  # 0 takes
         "0:UG 1:OG 2:KG 3:AG "  # 3 takes
         "3:US 0:OS 1:KS 2:AS "  # 2 takes
         "2:7H 3:8H 0:9H 1:TH")  # 1 takes; 1 leads the last trick


@pytest.mark.parametrize("decide", BOTS)
def test_announces_when_the_heart_ace_is_out(decide: Decide) -> None:
    view = _announce_position(SEVEN, {0: "KH", 1: "UH", 2: "OH", 3: "AH"})
    action = decide(view)
    assert isinstance(action, Announce) and action.announced


@pytest.mark.parametrize("decide", BOTS)
def test_keeps_quiet_when_a_lower_heart_may_be_led(decide: Decide) -> None:
    events = SEVEN.replace("1:TH", "1:AH")
    view = _announce_position(events, {0: "KH", 1: "UH", 2: "OH", 3: "TH"})
    action = decide(view)
    assert isinstance(action, Announce) and not action.announced


@pytest.mark.parametrize("decide", BOTS)
def test_quartet_leads_the_run_that_comes_back(decide: Decide) -> None:
    _, view = position(Contract.QUARTET, "", {0: "7E 8E 9E TE UG 9S KH 8G"})
    assert played(decide(view)) == "7E"


@pytest.mark.parametrize("decide", BOTS)
def test_lorum_lays_the_card_that_opens_its_own_next(decide: Decide) -> None:
    # Start rank 7: the 7s of E and G are laid; seat 2 holds the next E and the 8G fits.
    _, view = position(Contract.LORUM, "0:7E 1:7G", {2: "8E 9E TE 8G UH OH KH AH"}, lays=True)
    assert played(decide(view)) == "8E"

