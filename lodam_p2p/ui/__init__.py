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
"""
