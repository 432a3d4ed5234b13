"""Losing Lodam's presenter: how the shell draws a Lodam table, names its choices and
tells it.

What Lodam brings to the shared shell (:mod:`lodam_p2p.ui.shell`): its choices
(:mod:`.choices`), its keys (:mod:`.controller`), its model (:mod:`.model`), its story
(:mod:`.narrate`), its screen (:mod:`.table_view`, :mod:`.seat_view`, :mod:`.panels`),
its seat (:mod:`.player`), its screen for the shell (:mod:`.client`) and its plain-text
log (:mod:`.spectator`).
"""
