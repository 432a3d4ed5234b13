"""Bot answers are checked against the engine; failures name bot, seat and move."""

from __future__ import annotations

import pytest

from lodam_p2p.bots import BotAnswerError, ask
from lodam_p2p.games.lodam import Card, Play, PlayerView
from tests.bots.conftest import small_deal


class Stubborn:
    """Always plays the two of clubs, held or not."""

    def decide(self, view: PlayerView) -> Play:
        return Play(view.seat, Card.parse("2C"))


class Crashing:
    def decide(self, view: PlayerView) -> Play:
        raise RuntimeError("out of ideas")


def a_view() -> PlayerView:
    deal = small_deal({0: ["AS", "4D"], 1: ["5H", "9C"], 2: ["9H", "3C"]}, "7C")
    assert deal.to_act == 1
    return deal.view(1)


def test_a_legal_answer_passes() -> None:
    view = a_view()

    class Polite:
        def decide(self, v: PlayerView) -> Play:
            return Play(v.seat, Card.parse("9C"))

    assert ask(Polite(), "polite", view) == Play(1, Card.parse("9C"))


def test_an_illegal_answer_names_bot_seat_and_move() -> None:
    view = a_view()
    with pytest.raises(BotAnswerError) as caught:
        ask(Stubborn(), "stubborn", view)
    message = str(caught.value)
    assert "bot 'stubborn' at seat 1" in message
    assert "play 2C" in message
    assert caught.value.seat == 1


def test_a_bot_that_raises_is_a_bot_error() -> None:
    with pytest.raises(BotAnswerError, match="raised RuntimeError: out of ideas"):
        ask(Crashing(), "crashing", a_view())


def test_an_answer_for_another_seat_is_refused() -> None:
    view = a_view()

    class Impostor:
        def decide(self, v: PlayerView) -> Play:
            return Play(2, Card.parse("9H"))

    with pytest.raises(BotAnswerError, match="for seat 2, not seat 1"):
        ask(Impostor(), "impostor", view)


def test_a_seated_bot_falls_back_after_an_illegal_answer() -> None:
    import asyncio

    from lodam_p2p.bots import BotRegistry
    from lodam_p2p.bots.adapter import BotPlayer

    view = a_view()
    fallback = BotRegistry.load(default_dirs=False).fallback("stubborn", 1)
    assert fallback is not None and fallback.name == "random"
    player = BotPlayer("stubborn", Stubborn(), fallback, seed=3)
    action = asyncio.run(player.decide(view))
    assert action in view.legal
    assert player.errors and "bot 'stubborn' at seat 1" in player.errors[0]
    assert player.name == "random"


def test_a_plugin_may_choose_the_fallback() -> None:
    from lodam_p2p.bots import BotRegistry, BotType, hookimpl
    from lodam_p2p.bots.manager import new_plugin_manager

    chosen = BotType("careful", "takes over failed seats", lambda **_: Stubborn())  # type: ignore[arg-type,return-value]

    class Chooser:
        @hookimpl
        def lodam_bot_fallback(self, bot_name: str) -> BotType | None:
            return chosen if bot_name == "stubborn" else None

    manager = new_plugin_manager()
    manager.register(Chooser())
    registry = BotRegistry(manager)
    assert registry.fallback("stubborn", 0) is chosen
    assert registry.fallback("other", 0) is None  # and no random bot installed
