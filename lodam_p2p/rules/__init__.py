"""The rules of Losing Lodam (RULES.md) as a pure, deterministic engine.

No randomness, clock or I/O here: the deck is an input, and every decision comes in as an
:class:`Action`. Import everything from this package::

    match = Match.start(Options(), players=5, first_dealer=0)
    deal = match.new_deal(deck)                 # the whole pack, top first
    while not deal.is_over:
        seat = deal.to_act                      # whose decision, and
        kind = deal.awaiting                    # which kind (a Decision)
        view = deal.view(seat)                  # all that seat may know
        deal.apply(choose(view))                # IllegalAction if the rules forbid it
    match.finish_deal(deal)                     # counters, elimination, next dealer

The modules: ``cards`` and ``options`` (values), ``actions`` (decisions and errors),
``codes`` (moves as small integers), ``legal`` (the rules of choice as bit masks, and the
tables that spell legal moves as actions or codes), ``machine`` (the one state machine of
a deal, checked or not: its generator and its two paths), ``flow`` (the machine's state
and transitions, trick by trick), ``seating`` (who is dealt in), ``public`` (the deal as
everyone sees it, advanced by checked public events), ``deal`` (the hidden part dealt in
and every action checked), ``explain`` (why an action is refused), ``view`` (one seat's
knowledge), ``match`` (counters and dealers), ``replay`` (the scripted-deal format of
``lodam rules replay``).

A program may read the legal moves as small integers instead: ``deal.legal_codes()``,
then ``deal.apply_code(code)``, checked like ``apply``. A search runs the same machine
unchecked: ``public.with_hidden(hands, talon_top)``, then ``legal`` (codes) and
``step(code)`` (see :mod:`lodam_p2p.rules.machine`).
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
