"""Liveness, readiness, metrics and the OpenAPI document."""

from __future__ import annotations

import os

from flask import Blueprint, Response

from fairdeal.service.api.common import svc
from fairdeal.service.errors import STORE_RETRY_AFTER, ApiError, refusal_kind, store_unavailable

bp = Blueprint("health", __name__)
OPENAPI = os.path.join(os.path.dirname(os.path.dirname(__file__)), "openapi.yaml")


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    """Ready when the store answers; else 503 saying why (the same reason the outage log line gives)."""
    s = svc()
    try:
        s.store.ping()
    except Exception as e:
        reason = store_unavailable(e) or f"{type(e).__name__}: {e}"[:300]
        s.outage.failed(reason, refusal_kind(e))
        raise ApiError(
            503,
            "store-unavailable",
            f"Not ready: the store does not answer ({reason}).",
            "Store unavailable",
            headers={"Retry-After": str(STORE_RETRY_AFTER)},
            reason=reason,
        ) from None
    return {"status": "ready", "store": type(s.store).__name__}


@bp.get("/metrics")
def metrics():
    return Response(svc().metrics.render(), mimetype="text/plain; version=0.0.4")


@bp.get("/openapi.yaml")
def openapi():
    with open(OPENAPI, encoding="utf-8") as f:
        return Response(f.read(), mimetype="application/yaml")
