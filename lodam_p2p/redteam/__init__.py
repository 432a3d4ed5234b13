"""The red team: a seat that cheats (``lodam adversary``), above the session."""
