"""The attacks of ``lodam adversary``."""
