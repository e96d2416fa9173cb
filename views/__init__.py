"""Flet screens. Views render observations and send actions; rules live in ``engine/``."""
