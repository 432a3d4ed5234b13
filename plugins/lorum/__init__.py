"""Lorum's bots: the heuristic plan per contract and the search's Lorum hooks, with
their spots, sampling of hidden cards and values."""
