"""The page (``/`` and ``/r/{room}``) and its script and style files (``/static``)."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from ..problems import PROBLEM_SCHEMA, REFUSED

STATIC = files("fudgedice.server").joinpath("static")
"""The page's folder."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The page runs only its own script files (nothing inline, nothing from
elsewhere) and loads nothing from elsewhere."""

REFUSED_AS_JSON: dict[int | str, dict[str, Any]] = {
    "4XX": {"content": {"application/json": {"schema": PROBLEM_SCHEMA}}},
}
"""The page is HTML, but a request refused before it is served (a NUL in its
query, too many from one address) is refused as every other is: JSON."""

router = APIRouter(responses=REFUSED)
_page = STATIC.joinpath("index.html").read_text("utf-8")


@router.get("/", response_class=HTMLResponse, responses=REFUSED_AS_JSON)
@router.get("/r/{room}", response_class=HTMLResponse, responses=REFUSED_AS_JSON)
def index(room: str | None = None) -> HTMLResponse:
    return HTMLResponse(_page, headers={"Content-Security-Policy": CSP})


class PageFiles(StaticFiles):
    """The page's script and style files, checked again (by ETag) at every
    load: a browser never runs a new module beside an old one it cached.
    They are files of their own, so that the CSP can forbid every inline
    script: a name that slipped into markup would not run."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        if str(args[0] if args else kwargs.get("full_path", "")).endswith(".html"):
            response.headers["Content-Security-Policy"] = CSP
        response.headers["Cache-Control"] = "no-cache"
        return response


def static_files() -> PageFiles:
    """What ``/static`` serves (an app mounts it: a router holds routes only)."""
    return PageFiles(directory=str(STATIC))
