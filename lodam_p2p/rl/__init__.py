"""Bridges from the games to game-AI libraries, over the kit's state API
(:mod:`lodam_p2p.games.kit`): a PettingZoo AEC environment
(:mod:`lodam_p2p.rl.pettingzoo`) and OpenSpiel python games
(:mod:`lodam_p2p.rl.openspiel`). Both need the optional extra ``rl``
(``pip install lodam_p2p[rl]``); neither is a second engine: every rule is the game's.

Defaults shared by both: four seats and one deal per episode; ``match=True`` plays a
whole match, and the options are the game's ``k=v`` table options.
"""
