"""The request and error bodies of the lobby's API, and what each operation declares in the
OpenAPI schema (its errors, its security): strict types, enums and no unknown fields, so the
schema says exactly what the server accepts (schemathesis ``--checks all`` holds it to that)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from engine.lanes.options import VARIANTS
from lobby import hot
from lobby import service as svc


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # not only spaces (what str.strip removes: Unicode spaces and the separators \x1c-\x1f)
    name: str = Field(min_length=1, max_length=24, pattern=r"[^\s\x1c-\x1f]")


def one_of(values: tuple[str, ...], what: str) -> Callable[[str], str]:
    """A validator: the text must be one of ``values``."""
    def check(value: str) -> str:
        if value not in values:
            raise ValueError(f"{what} must be one of {', '.join(values)}")
        return value
    return check


TimeControl = Annotated[str, Field(strict=True), AfterValidator(one_of(tuple(svc.TIME_CONTROLS), "the time control")),
                        WithJsonSchema({"type": "string", "enum": list(svc.TIME_CONTROLS)})]
Variant = Annotated[str, Field(strict=True), AfterValidator(one_of(tuple(VARIANTS), "a variant")),
                    WithJsonSchema({"type": "string", "enum": list(VARIANTS)})]


class Terms(BaseModel):
    """A seek's or a challenge's terms. Strict types (``"rated": 0`` is not a yes or no), known time
    controls and variants only, no unknown fields (a body of only unknown fields used to create a
    default rated seek), and no variants in a rated game (L-8.5) — all of it in the schema too."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "if": {"required": ["rated"], "properties": {"rated": {"const": False}}},
        "else": {"properties": {"variants": {"maxItems": 0}}}})
    rated: bool = Field(True, strict=True)
    time_control: TimeControl = "5+3"
    variants: list[Variant] = Field(default_factory=list, max_length=12)

    @model_validator(mode="after")
    def _never_rated_with_variants(self) -> Terms:
        if self.rated and self.variants:
            raise ValueError("variants are never rated (L-8.5): make it a casual game or remove the variants")
        return self


def _whole_number(value: Any) -> Any:
    """A JSON integer — ``12`` or ``12.0``, as JSON Schema counts them — but never ``true`` (move 1
    to Python) and never the text ``"12"``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a whole number")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError("must be a whole number")
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expected_move: WholeNumber = Field(ge=0)
    client_move_id: str = Field(min_length=1, max_length=hot.CLIENT_MOVE_ID_MAX, strict=True)
    action: dict[str, Any]


class SpectatorsIn(BaseModel):
    """May others watch my rated matches (lobby.spectate)?"""

    model_config = ConfigDict(extra="forbid")
    spectators: bool = Field(strict=True)


class SayIn(BaseModel):
    """A quick message: one of the fixed phrases (lobby.messages.PHRASES)."""

    model_config = ConfigDict(extra="forbid")
    phrase: str = Field(min_length=1, max_length=40, strict=True)


class ErrorBody(BaseModel):
    """Every error the lobby answers: a sentence for people and the details for programs (a 422's
    field errors, a move's engine code, a stale move's current view)."""

    error: str
    detail: Any = None


_WHY = {400: "the body is not JSON", 401: "no token, or one that is not valid", 403: "not your match or seek",
        404: "no such player, seek, challenge or match", 409: "the state changed (a stale move, a finished "
        "match, a taken challenge)", 413: "the body is over 16 KiB (never read)", 422: "a field or a move is not valid",
        429: "too many requests, or too many open event streams (Retry-After)"}
PUBLIC = (400, 404, 409, 413, 422, 429)
SIGNED_IN = (400, 401, 403, 404, 409, 413, 422, 429)


def errors(codes: tuple[int, ...]) -> dict[int | str, dict[str, Any]]:
    """The error answers an operation declares in the OpenAPI schema (all of them ``ErrorBody``)."""
    return {code: {"model": ErrorBody, "description": _WHY[code]} for code in codes}


#: an operation for a signed-in player: its errors, and the bearer token it needs
SIGNED_IN_OP: dict[str, Any] = {"responses": errors(SIGNED_IN), "openapi_extra": {"security": [{"bearer": []}]}}


def with_security_scheme(app: FastAPI) -> None:
    """Declare ``Authorization: Bearer <token>`` as the schema's security scheme."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        schema = plain()
        schema.setdefault("components", {}).setdefault("securitySchemes", {})["bearer"] = {
            "type": "http", "scheme": "bearer", "description": "the token POST /players answers"}
        return schema
    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the schema
