"""One blueprint per resource."""
from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    from fairdeal.service.api import games, health, keys, lobby, players, tables
    for bp in (players.bp, lobby.bp, tables.bp, games.bp, keys.bp, health.bp):
        app.register_blueprint(bp)
