"""The table's routes, one :class:`fastapi.APIRouter` a resource, each in a
module of its own that imports no other router: ``rolls`` (making one,
reading them), ``rooms``, ``members``, ``live`` (the feed and the server's
health), ``sheets``, ``favourites`` (a member's favourite rolls), ``play``
(aspects, fate points, compels, initiative), ``talk`` (a message in the room's log),
``webhooks`` (where the GM has the room's public rolls posted),
``log`` (the log and the export), ``odds``, ``systems`` (the installed
systems, for the page, and each one's new character sheet), ``page`` and
``metrics`` (``GET /metrics``, for an operator).

What a route needs (the database, the live hub, the writer's rolls, the
allowances, the odds' gate) comes through the FastAPI dependencies of
:mod:`.shared`, which read it from ``app.state``: a router is served by any
app whose state holds what its routes ask for (``server.app.create_app`` for
the table, a bare app in a test).
"""
