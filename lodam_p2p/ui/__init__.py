"""The terminal client: a person at a Losing Lodam or Lorum table, in a full-screen UI.

The only package that knows about terminals (an import-linter contract keeps
prompt_toolkit here). One shell serves both games; each game brings a presenter.

The shell, written once:

- :mod:`~lodam_p2p.ui.canvas`, :mod:`~lodam_p2p.ui.glyphs`: what the renderers draw
  into, and how cards, counters, bars and names look;
- :mod:`~lodam_p2p.ui.app`, :mod:`~lodam_p2p.ui.shell`, :mod:`~lodam_p2p.ui.matches`:
  the prompt_toolkit application, the session of one person (keys, leaving, "play
  again", a table that stopped) and the matches it plays;
- :mod:`~lodam_p2p.ui.seated`, :mod:`~lodam_p2p.ui.pacing`: the seated person's question
  and hold, and the bots at a person's pace;
- :mod:`~lodam_p2p.ui.lobby`, :mod:`~lodam_p2p.ui.lobby_app`, :mod:`~lodam_p2p.ui.waiting`,
  :mod:`~lodam_p2p.ui.rules_page`: the lobby, the waiting and seating lines, the rules;
- :mod:`~lodam_p2p.ui.spectator`: the headless story log of a table of bots.

The presenters, one package per game, each the pure model and renderer of its table
(rendering is a function of the model, the size and the time), its choices, keys,
story, seat and screen for the shell: :mod:`lodam_p2p.ui.lodam` and
:mod:`lodam_p2p.ui.lorum` (with the German pack's look, :mod:`~lodam_p2p.ui.german`).
"""
