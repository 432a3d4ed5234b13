"""The games a table can play, each a package behind one game interface.

Every layer above the games — session, fair deal's dealing plan, arena, bots, local
play and the client shell — asks :class:`Game` (:mod:`lodam_p2p.games.interface`) and
finds a game by name with :func:`get_game`; none reaches into a game's package.
"""

from lodam_p2p.games.interface import Game, HiddenExchange
from lodam_p2p.games.kit.deals import GameDeal, GameMatch, SeatView
from lodam_p2p.games.kit.values import (
    ActionCodecError,
    Card,
    DealPlan,
    DealSummary,
    GameError,
    Holder,
    LoggedMove,
    OptionRow,
    Passage,
    PublicMove,
    Replayed,
    ReplayError,
    SeatRange,
    Standings,
    Turn,
    UnknownGameError,
    WireAction,
    WireValue,
    shared_ranks,
)
from lodam_p2p.games.registry import (
    DEFAULT_GAME,
    ENTRY_POINT_GROUP,
    any_seat_range,
    game_names,
    games,
    get_game,
    state_game,
)

__all__ = [
    "DEFAULT_GAME",
    "ENTRY_POINT_GROUP",
    "ActionCodecError",
    "Card",
    "DealPlan",
    "DealSummary",
    "Game",
    "GameDeal",
    "GameError",
    "GameMatch",
    "HiddenExchange",
    "Holder",
    "LoggedMove",
    "OptionRow",
    "Passage",
    "PublicMove",
    "ReplayError",
    "Replayed",
    "SeatRange",
    "SeatView",
    "Standings",
    "Turn",
    "UnknownGameError",
    "WireAction",
    "WireValue",
    "any_seat_range",
    "game_names",
    "games",
    "get_game",
    "shared_ranks",
    "state_game",
]
