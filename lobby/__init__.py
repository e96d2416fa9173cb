"""The HTTP lobby for online rated, timed Lanes matches (FastAPI + SQLModel). It shares only
``engine/`` with the app; the wire format is the contract."""
