"""Losing Lodam (RULES.md): its rules as a pure, deterministic engine, and the game of the
table that states it behind the game interface (:data:`GAME`).

No randomness, clock or I/O here: the deck is an input, and every decision comes in as an
:class:`Action`. Lodam-specific code above the games (a Lodam bot, a Lodam client panel,
the Lodam benchmarks) imports everything from this package, never from its modules::

    match = Match.start(Options(), players=5, first_dealer=0)
    deal = match.new_deal(deck)                 # the whole pack, top first
    while not deal.is_over:
        seat = deal.to_act                      # whose decision, and
        kind = deal.awaiting                    # which kind (a Decision)
        view = deal.view(seat)                  # all that seat may know
        deal.apply(choose(view))                # IllegalAction if the rules forbid it
    match.finish_deal(deal)                     # counters, elimination, next dealer

The engine's modules: ``cards`` and ``options`` (values), ``actions`` (decisions and
errors), ``codes`` (moves as small integers), ``legal`` (the rules of choice as bit masks,
and the tables that spell legal moves as actions or codes), ``machine`` (the one state
machine of a deal, checked or not: its generator and its two paths), ``flow`` (the
machine's state and transitions, trick by trick), ``seating`` (who is dealt in),
``public`` (the deal as everyone sees it, advanced by checked public events), ``deal``
(the hidden part dealt in and every action checked), ``explain`` (why an action is
refused), ``view`` (one seat's knowledge), ``match`` (counters and dealers), ``replay``
(the scripted-deal format of ``lodam rules replay``). The game of the table: ``game``
(:class:`LodamGame` and :data:`GAME`), ``codec`` (actions on the wire), ``exchange`` and
``audit`` (the face-down exchanges of a networked table and their audit).

A program may read the legal moves as small integers instead: ``deal.legal_codes()``,
then ``deal.apply_code(code)``, checked like ``apply``. A search runs the same machine
unchecked: ``public.with_hidden(hands, talon_top)``, then ``legal`` (codes) and
``step(code)`` (see :mod:`lodam_p2p.games.lodam.machine`); the card masks and move codes
it computes with are exported here too.
"""

from lodam_p2p.games.lodam.actions import (
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
from lodam_p2p.games.lodam.cards import (
    CARD_POINTS,
    FULL_MASK,
    FULL_PACK,
    SHORT_MASK,
    SHORT_PACK,
    Card,
    Kind,
    Rank,
    Suit,
    mask_of,
    rank_strength,
    strength_table,
)
from lodam_p2p.games.lodam.codes import (
    ANSWER_BASE,
    CHALLENGE_BASE,
    DECLARE_BASE,
    DECLARE_PASS_CODE,
    DECLINE,
    LEAVE,
    NO_CHALLENGE,
    NO_OFFER,
    SUIT_MASK,
    SUIT_OF,
    action_of,
    bits,
    code_of,
    kind_mask,
)
from lodam_p2p.games.lodam.deal import (
    Deal,
)
from lodam_p2p.games.lodam.game import (
    GAME,
    LodamGame,
)
from lodam_p2p.games.lodam.match import (
    Match,
)
from lodam_p2p.games.lodam.options import (
    ExchangeRule,
    Options,
    RankOrder,
)
from lodam_p2p.games.lodam.public import (
    PublicDeal,
)
from lodam_p2p.games.lodam.records import (
    DealResult,
    ExchangeRecord,
    PublicExchange,
    PublicOffer,
    TrickRecord,
)
from lodam_p2p.games.lodam.view import (
    PlayerView,
    legal_actions_for,
)

__all__ = [
    "ANSWER_BASE",
    "CARD_POINTS",
    "CHALLENGE_BASE",
    "DECLARE_BASE",
    "DECLARE_PASS_CODE",
    "DECLINE",
    "FULL_MASK",
    "FULL_PACK",
    "GAME",
    "LEAVE",
    "NO_CHALLENGE",
    "NO_OFFER",
    "SHORT_MASK",
    "SHORT_PACK",
    "SUIT_MASK",
    "SUIT_OF",
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
    "LodamGame",
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
    "action_of",
    "bits",
    "code_of",
    "kind_mask",
    "legal_actions_for",
    "mask_of",
    "rank_strength",
    "strength_table",
]
