"""Shared test support: real brokers on ephemeral loopback ports (see ``brokers``)."""
