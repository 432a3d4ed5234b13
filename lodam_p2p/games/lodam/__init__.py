"""Losing Lodam as a game of the table: :data:`GAME`, and the Lodam values its bots use.

The engine is :mod:`lodam_p2p.rules`; this package states it behind the game interface
(:mod:`lodam_p2p.games.lodam.game`) and is the one door through which Lodam-specific
code above the games (a Lodam bot, a Lodam client panel) reaches the game's own values:
its cards, actions and views.
"""

from lodam_p2p.games.lodam.game import GAME, LodamGame
from lodam_p2p.rules import (
    FULL_PACK,
    SHORT_PACK,
    Action,
    Answer,
    Card,
    Challenge,
    Decision,
    Declare,
    ExchangeRule,
    IllegalAction,
    Kind,
    Offer,
    Options,
    Play,
    PlayerView,
    PublicExchange,
    Rank,
    RankOrder,
    Suit,
    Swallow,
    rank_strength,
)

__all__ = [
    "FULL_PACK",
    "GAME",
    "SHORT_PACK",
    "Action",
    "Answer",
    "Card",
    "Challenge",
    "Decision",
    "Declare",
    "ExchangeRule",
    "IllegalAction",
    "Kind",
    "LodamGame",
    "Offer",
    "Options",
    "Play",
    "PlayerView",
    "PublicExchange",
    "Rank",
    "RankOrder",
    "Suit",
    "Swallow",
    "rank_strength",
]
