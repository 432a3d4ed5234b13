"""Losing Lodam's bots: the heuristic player and the search's Lodam hooks, with their
policies, replay of a view, sampling of hidden cards and values."""
