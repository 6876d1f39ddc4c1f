"""One blueprint per resource."""

from __future__ import annotations

from flask import Flask, request


def register(app: Flask) -> None:
    from fairdeal.service.api import (
        blind,
        common,
        games,
        health,
        keys,
        lobby,
        log,
        players,
        tables,
        tokens,
        tournaments,
    )

    blueprints = (
        *(players.bp, tokens.bp, lobby.bp, tables.bp, games.bp, keys.bp, log.bp, health.bp, tournaments.bp),
        blind.bp,  # BLIND HOOK: dealer-blind tables' blind log
    )
    for bp in blueprints:
        app.register_blueprint(bp)
    api = {bp.name for bp in blueprints}

    @app.before_request
    def _door():
        # the API's bodies are JSON (but a cosigned checkpoint, a signed note); a blueprint of pages may take forms
        if request.blueprint in api and request.endpoint not in log.TEXT_BODIES:
            common.check_body()

    app.url_value_preprocessor(common.check_ids)
