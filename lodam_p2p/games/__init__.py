"""The games a table can play, each a package behind one game interface."""
