"""The Flask app factory."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, g, request
from werkzeug.middleware.proxy_fix import ProxyFix

from fairdeal.core.games import available
from fairdeal.service import errors, logs
from fairdeal.service.config import Config
from fairdeal.service.feed import Waits, spread
from fairdeal.service.games import Games
from fairdeal.service.keepalives import KeepAlives
from fairdeal.service.metrics import Metrics, games_by_state
from fairdeal.service.signing import KeyRing
from fairdeal.service.store import Store, open_store
from fairdeal.service.store.timed import time_calls
from fairdeal.service.tables import Tables
from fairdeal.service.tournaments import Tournaments
from fairdeal.service.translog import TransLog

log = logging.getLogger("fairdeal.http")


@dataclass
class Services:
    config: Config
    store: Store
    keyring: KeyRing
    games: Games
    tables: Tables
    metrics: Metrics
    waits: Waits  # this process's open event-feed waits (the caps)
    keepalives: KeepAlives  # the waiting streams' keep-alive comments, written in batches (under gunicorn)
    outage: errors.OutageLog | None = None  # set by create_app: the store-outage log
    limits: object | None = None  # set by create_app: ratelimits.RateLimits
    translog: TransLog | None = None  # the transparency log (None when switched off)
    tournaments: Tournaments | None = None  # duplicate tournaments (docs/tournaments.md)


def build_services(config: Config, store: Store | None = None, now: Callable[[], float] = time.time) -> Services:
    available()  # every rule set loads, or the start fails naming the broken one
    store = store or open_store(config)
    metrics = Metrics(games_by_state(store))
    store = time_calls(store, metrics)
    keyring = KeyRing(config.data_dir)
    games = Games(store, keyring, config, now, metrics)
    waits = Waits(config.max_waits, config.max_waits_per_player, metrics)
    keepalives = KeepAlives(lambda: spread(config.heartbeat), metrics)
    translog = TransLog(store, keyring, config, now, metrics) if config.transparency_log else None
    tables = Tables(store, games, config, now)
    return Services(
        config,
        store,
        keyring,
        games,
        tables,
        metrics,
        waits,
        keepalives,
        translog=translog,
        tournaments=Tournaments(store, keyring, config, now, games, tables),
    )


def create_app(config: Config | None = None, store: Store | None = None, now: Callable[[], float] = time.time) -> Flask:
    config = config or Config.from_env()
    logs.setup(config.log_level)
    app = Flask("fairdeal")
    app.config["MAX_CONTENT_LENGTH"] = config.max_content_length
    app.json.sort_keys = False  # type: ignore[attr-defined]  # the default provider's option
    if config.trusted_proxies:  # the client address (rate limits) is the one the proxies in front name
        n = config.trusted_proxies
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # werkzeug's way to wrap the WSGI app
            app.wsgi_app, x_for=n, x_proto=n, x_host=0, x_port=0, x_prefix=0
        )
    services = app.extensions["fairdeal"] = build_services(config, store, now)
    services.outage = errors.install(app, services.store)

    from fairdeal.service.api import register
    from fairdeal.service.ratelimits import RateLimits
    from fairdeal.service.web import bp as web_pages

    register(app)
    app.register_blueprint(web_pages)
    services.limits = RateLimits(app, config, services.store)

    @app.before_request
    def _start_timer():
        g.t0 = time.perf_counter()

    @app.after_request
    def _log(response):
        elapsed = time.perf_counter() - g.get("t0", time.perf_counter())
        route = request.url_rule.rule if request.url_rule else "unmatched"
        m = app.extensions["fairdeal"].metrics
        m.inc("fairdeal_http_requests_total", method=request.method, route=route, status=response.status_code)
        m.observe("fairdeal_http_request_seconds", elapsed, route=route)
        # route and status only: no token, body, card or seed ever reaches a log line. Successful requests
        # are logged at DEBUG (metrics count them), refusals at INFO.
        level = logging.DEBUG if response.status_code < 400 else logging.INFO
        if log.isEnabledFor(level):
            args = request.view_args or {}
            log.log(
                level,
                "request",
                extra={
                    "fields": {
                        "method": request.method,
                        "route": route,
                        "game": args.get("game_id") or args.get("table_id"),
                        "status": response.status_code,
                        "ms": round(elapsed * 1000, 2),
                    }
                },
            )
        return response

    return app
