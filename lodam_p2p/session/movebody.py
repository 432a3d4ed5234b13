"""The body of a MOVE, per game: what a move's arguments mean, read and written.

The session wire carries every move of a hand as one kind, MOVE
(:class:`~lodam_p2p.session.wire.Msg`), and only bounds its arguments: a tag, then at
most :data:`~lodam_p2p.session.wire.MAX_MOVE_FIELDS` fields. The hand's own codec reads
them:

- a hand with exchanges (Lodam, :class:`~lodam_p2p.session.handplay.HandPlay`):
  :class:`ExchangeMove`, ``[tag, *fields]`` with a :class:`Tag` — a seat's decisions
  (play, offer, answer, swallow, declare, challenge) and the two steps that follow an
  accepted offer (the offerer's outcome, each trader's re-mask), each with its fields
  (:data:`EXCHANGE_FIELDS`);
- a hand of a game without exchanges (Lorum, :class:`~lodam_p2p.session.gamehand.GameHand`):
  :class:`GameMove`, ``[kind, [args], position]``: the game's action kind and public
  arguments (:class:`~lodam_p2p.games.WireAction`) and the position of the card it
  shows, if any.

A body the hand's codec cannot read raises :class:`BadMove`, a
:class:`~lodam_p2p.session.handtypes.Refused`: the body is ignored with that reason and
nobody is blamed, as for a body the wire refuses (a peer never crashes on what another
sends).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from lodam_p2p.session.handtypes import Refused
from lodam_p2p.session.wire import (
    Body,
    Check,
    Msg,
    binary,
    fits,
    is_flag,
    is_plain,
    is_position,
    is_small,
    is_text,
    list_of,
    optional,
)


class BadMove(Refused):
    """A MOVE whose arguments the hand's codec cannot read: ignored with this reason."""


class Tag(enum.StrEnum):
    """What a move of a hand with exchanges is (the first argument of its MOVE)."""

    PLAY = "play"  #: a card played: the position (its reveal travels along)
    OFFER = "offer"  #: an offer: kind or None, and a commitment to the position offered
    ANSWER = "answer"  #: the position put down (its transfer along), or None to decline
    #: the offerer's half of an accepted exchange: void?, position (its transfer and
    #: its re-mask along)
    OUTCOME = "outcome"
    SWALLOW = "swallow"  #: take the trick or not
    DECLARE = "declare"  #: declare out (and challenge) or not
    CHALLENGE = "challenge"  #: a watcher's challenge, or none
    #: after an exchange, a trader's holding under fresh positions (its envelope along)
    REMASK = "remask"


#: The tags of a seat's own decisions, each an action kind of the game's codec (the
#: outcome and the re-masks follow from an exchange: nobody decides them).
DECISIONS = frozenset({Tag.PLAY, Tag.OFFER, Tag.ANSWER, Tag.SWALLOW, Tag.DECLARE,
                       Tag.CHALLENGE})

#: The kinds an offer may claim for the card it puts down.
OFFER_KINDS = ("coat", "card")

#: The fields after each tag.
EXCHANGE_FIELDS: dict[Tag, tuple[Check, ...]] = {
    Tag.PLAY: (is_position,),
    Tag.OFFER: (optional(lambda v: v in OFFER_KINDS), optional(binary(32))),
    Tag.ANSWER: (optional(is_position),),
    Tag.OUTCOME: (is_flag, is_position),
    Tag.SWALLOW: (is_flag,),
    Tag.DECLARE: (is_flag, optional(is_small)),
    Tag.CHALLENGE: (optional(is_small),),
    Tag.REMASK: (),
}


def _move_args(body: Body) -> tuple[Any, ...]:
    if body.kind is not Msg.MOVE or not body.args or not is_text(body.args[0]):
        raise BadMove(f"a {body.kind.name} is not a move")
    return body.args


@dataclass(frozen=True, slots=True)
class ExchangeMove:
    """A move of a hand with exchanges: its tag and its fields, as the tag says."""

    tag: Tag
    fields: tuple[Any, ...] = ()

    @classmethod
    def read(cls, body: Body) -> ExchangeMove:
        """The move a MOVE body carries; :class:`BadMove` if it is none."""
        args = _move_args(body)
        if args[0] not in Tag._value2member_map_:
            raise BadMove(f"no move {args[0]!r} in a hand with exchanges")
        tag = Tag(args[0])
        if not fits(EXCHANGE_FIELDS[tag], args[1:]):
            raise BadMove(f"bad arguments for MOVE {tag}")
        return cls(tag, args[1:])

    def args(self) -> tuple[Any, ...]:
        """The MOVE body's arguments."""
        return (self.tag.value, *self.fields)


#: The fields of a game move after its kind: the action's public arguments, and the
#: position of the card it shows (None: it shows none).
GAME_FIELDS: tuple[Check, ...] = (list_of(is_plain, 8), optional(is_position))


@dataclass(frozen=True, slots=True)
class GameMove:
    """A move of a game without exchanges: the action's kind and public arguments, and
    the position of the card it shows (None: it shows none)."""

    kind: str
    values: tuple[Any, ...] = ()
    position: int | None = None

    @classmethod
    def read(cls, body: Body) -> GameMove:
        """The move a MOVE body carries; :class:`BadMove` if it is none."""
        args = _move_args(body)
        if not fits(GAME_FIELDS, args[1:]):
            raise BadMove(f"bad arguments for MOVE {args[0]}")
        return cls(args[0], tuple(args[1]), args[2])

    def args(self) -> tuple[Any, ...]:
        """The MOVE body's arguments."""
        return (self.kind, list(self.values), self.position)
