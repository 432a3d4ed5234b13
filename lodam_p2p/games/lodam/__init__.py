"""Losing Lodam as a game of the table: :data:`GAME`, and the Lodam values its bots use.

The engine is :mod:`lodam_p2p.rules`; this package states it behind the game interface
(:mod:`lodam_p2p.games.lodam.game`) and is the one door through which Lodam-specific
code above the games (a Lodam bot, a Lodam client panel) reaches the game's own values:
its cards, actions and views, and — for the networked Lodam hand, which tracks the deal
itself — its deal, public deal, match and errors.
"""

from lodam_p2p.games.lodam.game import GAME, LodamGame
from lodam_p2p.rules import (
    FULL_PACK,
    SHORT_PACK,
    Action,
    Answer,
    Card,
    Challenge,
    Deal,
    Decision,
    Declare,
    ExchangeRule,
    IllegalAction,
    Kind,
    Match,
    Offer,
    Options,
    Play,
    PlayerView,
    PublicDeal,
    PublicExchange,
    Rank,
    RankOrder,
    RulesError,
    Suit,
    Swallow,
    legal_actions_for,
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
    "Deal",
    "Decision",
    "Declare",
    "ExchangeRule",
    "IllegalAction",
    "Kind",
    "LodamGame",
    "Match",
    "Offer",
    "Options",
    "Play",
    "PlayerView",
    "PublicDeal",
    "PublicExchange",
    "Rank",
    "RankOrder",
    "RulesError",
    "Suit",
    "Swallow",
    "legal_actions_for",
    "rank_strength",
]
