"""The rules of Losing Lodam (RULES.md) as a pure, deterministic engine.

No randomness, clock or I/O here: the deck is an input, and every decision comes in as an
:class:`Action`. Import everything from this package.
"""

from lodam_p2p.rules.actions import (
    Action,
    Answer,
    Challenge,
    Decision,
    Declare,
    IllegalAction,
    MalformedInput,
    Offer,
    OptionError,
    Play,
    Revoke,
    RulesError,
    Swallow,
)
from lodam_p2p.rules.cards import FULL_PACK, SHORT_PACK, Card, Kind, Rank, Suit, rank_strength
from lodam_p2p.rules.deal import Deal
from lodam_p2p.rules.match import Match
from lodam_p2p.rules.options import ExchangeRule, Options, RankOrder
from lodam_p2p.rules.public import PublicDeal
from lodam_p2p.rules.records import (
    DealResult,
    ExchangeRecord,
    PublicExchange,
    PublicOffer,
    TrickRecord,
)
from lodam_p2p.rules.view import PlayerView, legal_actions_for

__all__ = [
    "FULL_PACK",
    "SHORT_PACK",
    "Action",
    "Answer",
    "Card",
    "Challenge",
    "Deal",
    "DealResult",
    "Decision",
    "Declare",
    "ExchangeRecord",
    "ExchangeRule",
    "IllegalAction",
    "Kind",
    "MalformedInput",
    "Match",
    "Offer",
    "OptionError",
    "Options",
    "Play",
    "PlayerView",
    "PublicDeal",
    "PublicExchange",
    "PublicOffer",
    "Rank",
    "RankOrder",
    "Revoke",
    "RulesError",
    "Suit",
    "Swallow",
    "TrickRecord",
    "legal_actions_for",
    "rank_strength",
]
