"""The type parameters of the game interface: a game's own options value, deal, action,
seat view and public part.

A game names its types (``Game[Options, Deal, Action, PlayerView, PublicDeal]``); a
layer that found a game by name holds a game whose types it cannot know, and a bare
``Game`` means exactly that: each parameter defaults to :data:`Unknown`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

#: A type of a game's own that a game-neutral layer cannot know (it found the game by
#: name): it hands such values back to the same game, or reads them as that game's.
Unknown: TypeAlias = Any

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    OptionsT = TypeVar("OptionsT", default=Unknown)
    DealT = TypeVar("DealT", default=Unknown)
    ActionT = TypeVar("ActionT", default=Unknown)
    ViewT = TypeVar("ViewT", default=Unknown)
    PublicT = TypeVar("PublicT", default=Unknown)
else:  # Python 3.11's TypeVar takes no default; only the type checker reads them
    from typing import TypeVar

    OptionsT = TypeVar("OptionsT")
    DealT = TypeVar("DealT")
    ActionT = TypeVar("ActionT")
    ViewT = TypeVar("ViewT")
    PublicT = TypeVar("PublicT")
