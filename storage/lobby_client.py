"""The app's client for the lobby (httpx). Offline first: every call can fail with
:class:`LobbyUnavailable` and the app carries on; moves carry the expected move number and a
client move id, so a retry after a lost answer never doubles or loses a move."""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx

DEFAULT_URL = "http://127.0.0.1:8600"


class LobbyUnavailable(Exception):
    """The lobby could not be reached (offline, server down): show it, keep the app usable."""


class LobbyRefused(Exception):
    """The lobby answered with an error; ``status`` and the server's message."""

    def __init__(self, status: int, message: str, body: Any = None) -> None:
        super().__init__(message)
        self.status, self.message, self.body = status, message, body


class LobbyClient:
    def __init__(self, url: str = DEFAULT_URL, token: str | None = None, timeout: float = 10.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.http = httpx.Client(base_url=self.url, timeout=timeout, transport=transport)

    def close(self) -> None:
        self.http.close()

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def _call(self, method: str, path: str, retries: int = 2, patient: bool = True, **kw: Any) -> Any:
        """One request, tried again on a lost connection (``retries``) and, when ``patient``, after
        the wait a 429 asks for; an error answer raises :class:`LobbyRefused`."""
        last: Exception | None = None
        for attempt in range(retries + 6):
            if last is not None and attempt > retries:
                break
            try:
                r = self.http.request(method, path, headers=self._headers(), **kw)
            except httpx.TransportError as exc:
                last = exc
                continue
            if r.status_code == 429 and patient and attempt < retries + 5:  # slow down as asked, then retry
                time.sleep(min(2.0, float(r.headers.get("Retry-After", "1"))))
                continue
            if r.status_code >= 400:
                try:
                    body = r.json()
                except ValueError:
                    body = {"error": r.text}
                raise LobbyRefused(r.status_code, str(body.get("error") or body.get("detail") or r.text), body)
            return r.json()
        raise LobbyUnavailable(f"the lobby at {self.url} cannot be reached ({last})")

    # --- account --------------------------------------------------------------------------------
    def sign_up(self, name: str) -> dict[str, Any]:
        body = self._call("POST", "/players", json={"name": name})
        self.token = body["token"]
        return dict(body["player"])

    def me(self) -> dict[str, Any]:
        return dict(self._call("GET", "/players/me"))

    def record(self, match_id: str) -> dict[str, Any]:
        """A finished match's full record (game, options, seed, actions, winner, reason)."""
        return dict(self._call("GET", f"/matches/{match_id}/replay"))

    def my_matches(self) -> list[dict[str, Any]]:
        """My running matches (opponent, terms, whose move, clocks), newest first."""
        return list(self._call("GET", "/players/me/matches"))

    # --- finding a game ---------------------------------------------------------------------------
    def seek(self, rated: bool = True, time_control: str = "5+3", variants: list[str] | None = None) -> dict[str, Any]:
        return dict(self._call("POST", "/seeks", json={"rated": rated, "time_control": time_control,
                                                       "variants": variants or []}))

    def seek_status(self, seek_id: str) -> dict[str, Any]:
        return dict(self._call("GET", f"/seeks/{seek_id}"))

    def cancel_seek(self, seek_id: str) -> None:
        self._call("DELETE", f"/seeks/{seek_id}")

    def challenge(self, rated: bool = False, time_control: str = "10+5", variants: list[str] | None = None) -> str:
        return str(self._call("POST", "/challenges", json={"rated": rated, "time_control": time_control,
                                                           "variants": variants or []})["code"])

    def challenge_status(self, code: str) -> dict[str, Any]:
        return dict(self._call("GET", f"/challenges/{code}"))

    def accept(self, code: str) -> dict[str, Any]:
        return dict(self._call("POST", f"/challenges/{code}/accept"))

    # --- playing ----------------------------------------------------------------------------------
    def view(self, match_id: str) -> dict[str, Any]:
        return dict(self._call("GET", f"/matches/{match_id}"))

    def move(self, match_id: str, expected_move: int, action: dict[str, Any], client_move_id: str | None = None
             ) -> dict[str, Any]:
        """Send a move; on a lost answer the same client move id is retried (the server answers the
        original result). A stale move number raises LobbyRefused(409) with the current view."""
        cid = client_move_id or uuid.uuid4().hex
        return dict(self._call("POST", f"/matches/{match_id}/moves", retries=3,
                               json={"expected_move": expected_move, "client_move_id": cid, "action": action}))

    def resign(self, match_id: str) -> dict[str, Any]:
        return dict(self._call("POST", f"/matches/{match_id}/resign"))

    def abort(self, match_id: str) -> dict[str, Any]:
        """End the match before both players have moved: unrated, no winner (LobbyRefused after)."""
        return dict(self._call("POST", f"/matches/{match_id}/abort"))

    def say(self, match_id: str, phrase: str) -> dict[str, Any]:
        """A quick message (one of the lobby's fixed phrases). Too soon after the last one, the
        lobby's 429 is raised at once (LobbyRefused): a message sent late would be out of place."""
        return dict(self._call("POST", f"/matches/{match_id}/say", patient=False, json={"phrase": phrase}))

    # --- watching -----------------------------------------------------------------------------------
    def live(self) -> list[dict[str, Any]]:
        """Running rated matches anyone may watch, newest first."""
        return list(self._call("GET", "/live"))

    def watch(self, match_id: str) -> dict[str, Any]:
        """A spectator's view of a match (the table, no hand)."""
        return dict(self._call("GET", f"/live/{match_id}"))

    def watch_poll(self, match_id: str, since: int, timeout: float = 0.0) -> dict[str, Any]:
        """A spectator's long poll: the public events after ``since`` and the view."""
        return dict(self._call("GET", f"/live/{match_id}/poll", params={"since": since, "timeout": timeout},
                               timeout=timeout + 10))

    def set_spectators(self, allowed: bool) -> dict[str, Any]:
        """May others watch my rated matches?"""
        return dict(self._call("PUT", "/players/me/spectators", json={"spectators": allowed}))

    # --- after a match -----------------------------------------------------------------------------
    def rematch(self, match_id: str) -> dict[str, Any]:
        """Offer a rematch of an ended match, or accept the opponent's offer (then ``match_id`` of
        the answer is the new match). LobbyRefused(409) once it was declined or expired."""
        return dict(self._call("POST", f"/matches/{match_id}/rematch"))

    def decline_rematch(self, match_id: str) -> dict[str, Any]:
        """Decline the offer, withdraw one's own, or say one left the result screen."""
        return dict(self._call("DELETE", f"/matches/{match_id}/rematch"))

    def rematch_status(self, match_id: str, since: int = 0, timeout: float = 0.0) -> dict[str, Any]:
        """Where the rematch stands; waits up to ``timeout`` s for news after event ``since``."""
        return dict(self._call("GET", f"/matches/{match_id}/rematch", params={"since": since, "timeout": timeout},
                               timeout=timeout + 10))

    def poll(self, match_id: str, since: int, timeout: float = 0.0) -> dict[str, Any]:
        return dict(self._call("GET", f"/matches/{match_id}/poll", params={"since": since, "timeout": timeout},
                               timeout=timeout + 10))

    def leaderboard(self) -> list[dict[str, Any]]:
        return list(self._call("GET", "/leaderboard"))

    def profile(self, player_id: str) -> dict[str, Any]:
        return dict(self._call("GET", f"/players/{player_id}"))
