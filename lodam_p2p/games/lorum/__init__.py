"""The rules of Lorum (LORUM.md) as a pure, deterministic engine.

No randomness, clock or I/O here: the deck is an input, and every decision comes in as
an action. Import everything from this package::

    match = Match.start(Options(), players=4, first_dealer=0)
    while not match.is_over:
        deal = match.new_deal(deck)             # a shuffled deck, top first
        while not deal.is_over:
            seat = deal.to_act                  # whose decision, and
            kind = deal.awaiting                # which kind (PLAY, LAY, ANNOUNCE)
            view = deal.view(seat)              # all that seat may know
            deal.apply(choose(view))            # IllegalAction if the rules forbid it
        match.finish_deal(deal)                 # scores, standings, next dealer

Steps without a choice (Quartet run cards after the lead, Lorum passes, blind plays,
set-aside cards) are taken by the deal itself. The modules: ``cards``, ``options`` and
``plan`` (values: the pack, the options, which deck positions go where), ``actions``
(decisions and errors), ``flow`` and ``public`` (the deal as everyone sees it), ``deal``
(the hidden hands and every check), ``legal`` (move generation), ``view`` (one seat's
knowledge), ``match`` and ``beans`` (the match and its scoring), ``replay`` (the scripted
deal format of ``lodam rules replay``).
"""

from lodam_p2p.games.lorum.actions import (
    Action,
    Announce,
    Decision,
    IllegalAction,
    Lay,
    MalformedInput,
    OptionError,
    Pass,
    Play,
    RulesError,
)
from lodam_p2p.games.lorum.cards import PACK, SET_ASIDE, SHORT_PACK, Card, Rank, Suit
from lodam_p2p.games.lorum.deal import Deal, first_breach
from lodam_p2p.games.lorum.match import Match, Standings
from lodam_p2p.games.lorum.options import (
    CONTRACTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Contract,
    LorumStart,
    Options,
    Scoring,
)
from lodam_p2p.games.lorum.plan import DealPlan, deal_plan
from lodam_p2p.games.lorum.public import PublicDeal
from lodam_p2p.games.lorum.records import DealResult, TrickRecord
from lodam_p2p.games.lorum.view import PlayerView, public_of

__all__ = [
    "CONTRACTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PACK",
    "SET_ASIDE",
    "SHORT_PACK",
    "Action",
    "Announce",
    "Card",
    "Contract",
    "Deal",
    "DealPlan",
    "DealResult",
    "Decision",
    "IllegalAction",
    "Lay",
    "LorumStart",
    "MalformedInput",
    "Match",
    "OptionError",
    "Options",
    "Pass",
    "Play",
    "PlayerView",
    "PublicDeal",
    "Rank",
    "RulesError",
    "Scoring",
    "Standings",
    "Suit",
    "TrickRecord",
    "deal_plan",
    "first_breach",
    "public_of",
]
