"""The terminal client: a person at a Losing Lodam table, in a full-screen terminal UI.

The only package that knows about terminals (an import-linter contract keeps
prompt_toolkit here). The pieces, from pure to impure:

- :mod:`~lodam_p2p.ui.glyphs`, :mod:`~lodam_p2p.ui.canvas`: how things look;
- :mod:`~lodam_p2p.ui.choices`, :mod:`~lodam_p2p.ui.narrate`: a decision as choices, the
  deal as log sentences;
- :mod:`~lodam_p2p.ui.model`, :mod:`~lodam_p2p.ui.controller`: the client's state, and
  what keys do to it;
- :mod:`~lodam_p2p.ui.table_view`, :mod:`~lodam_p2p.ui.seat_view`,
  :mod:`~lodam_p2p.ui.panels`: the screen as a pure function of the model;
- :mod:`~lodam_p2p.ui.player`, :mod:`~lodam_p2p.ui.pacing`: the players a table driver
  talks to; :mod:`~lodam_p2p.ui.spectator`: a headless log of a table of bots;
- :mod:`~lodam_p2p.ui.app`, :mod:`~lodam_p2p.ui.client`: prompt_toolkit and the loop.

Both games share the shell: the application (:mod:`~lodam_p2p.ui.app`), the matches
and "play again" (:mod:`~lodam_p2p.ui.matches`), the lobby, waiting and seating
screens, the seated person's hold (:mod:`~lodam_p2p.ui.seated`), the rules page,
pacing, and the headless story log (:class:`~lodam_p2p.ui.spectator.StoryLog`). Lorum
brings its presenter as the package :mod:`lodam_p2p.ui.lorum` (its choices, keys,
model, score sheet, story, screen, seat and client).
"""
