"""Liveness, readiness, metrics and the OpenAPI document."""
from __future__ import annotations

import os

from flask import Blueprint, Response

from fairdeal.service.api.common import svc
from fairdeal.service.errors import ApiError

bp = Blueprint("health", __name__)
OPENAPI = os.path.join(os.path.dirname(os.path.dirname(__file__)), "openapi.yaml")


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    try:
        svc().store.ping()
    except Exception:
        raise ApiError(503, "not-ready", "The store does not answer.") from None
    return {"status": "ready", "store": type(svc().store).__name__}


@bp.get("/metrics")
def metrics():
    return Response(svc().metrics.render(), mimetype="text/plain; version=0.0.4")


@bp.get("/openapi.yaml")
def openapi():
    with open(OPENAPI, encoding="utf-8") as f:
        return Response(f.read(), mimetype="application/yaml")
