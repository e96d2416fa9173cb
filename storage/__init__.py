"""Local storage: one SQLite file through SQLModel. Views call the functions in
:mod:`storage.api`; nothing else writes SQL."""
