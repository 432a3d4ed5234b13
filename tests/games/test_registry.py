"""Finding games by name: clear errors for what is missing or broken."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lodam_p2p.games import GameError, UnknownGameError, any_seat_range, get_game, registry


@pytest.fixture
def fresh() -> Iterator[None]:
    """Forget what the registry found, before and after the test."""
    registry._targets.cache_clear()
    registry._load.cache_clear()
    yield
    registry._targets.cache_clear()
    registry._load.cache_clear()


@pytest.mark.usefixtures("fresh")
@pytest.mark.parametrize(("target", "message"), [
    ("lodam_p2p.games.nosuch:GAME", "failed to load: ModuleNotFoundError"),
    ("lodam_p2p.games.lodam:LodamGame", "is not a Game"),
    ("lodam_p2p.games.lodam:NOSUCH", "failed to load: AttributeError"),
])
def test_a_broken_game_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, target: str, message: str
) -> None:
    monkeypatch.setitem(registry.BUNDLED, "broken", target)
    with pytest.raises(GameError, match=message) as caught:
        get_game("broken")
    assert "\n" not in str(caught.value)
    assert (any_seat_range().low, any_seat_range().high) == (3, 10), "the others still count"


@pytest.mark.usefixtures("fresh")
def test_a_game_must_answer_to_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.BUNDLED, "other", "lodam_p2p.games.lodam:GAME")
    with pytest.raises(GameError, match="calls itself 'lodam'"):
        get_game("other")


def test_an_unknown_game_names_the_installed_ones() -> None:
    with pytest.raises(UnknownGameError, match=r"'skat': no engine is installed .*lodam"):
        get_game("skat")
