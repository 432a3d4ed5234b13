"""Lorum's presenter: how the shell draws a Lorum table, names its choices and tells it.

The shell (:mod:`lodam_p2p.ui`: the application, the matches, the lobby, waiting, the
seated person's hold, the rules page, pacing) is shared by both games; this package is
what Lorum brings to it: its choices (:mod:`.choices`), its keys (:mod:`.keys`), its
model and score sheet (:mod:`.model`, :mod:`.ledger`), its story (:mod:`.narrate`), its
screen (:mod:`.view`, :mod:`.middle`, :mod:`.panels`), its seat (:mod:`.player`), its
client (:mod:`.client`) and its plain-text log (:mod:`.spectator`). The German pack's
look is :mod:`lodam_p2p.ui.german`.
"""
