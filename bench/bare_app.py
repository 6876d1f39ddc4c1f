"""The baseline for bench_service.py: a bare Flask app doing the same Redis compare-and-append as the
service's move endpoint (the same Lua script, via fairdeal.service.store.redis), and nothing else."""

from __future__ import annotations

import json
import os
import time

from flask import Flask, request

from fairdeal.service.store.redis import RedisStore

app = Flask("bare")
store = RedisStore(os.environ["FAIRDEAL_REDIS_URL"])


@app.get("/games/<game_id>")
def view(game_id):
    length, _ = store.log_info(game_id)
    return {"seq": length}


@app.post("/games/<game_id>/moves")
def move(game_id):
    body = request.get_json()
    record = json.dumps({"seq": body["seq"] + 1, "move": body["move"]}, sort_keys=True)
    res = store.append(game_id, body["seq"], record, time.time(), request.headers.get("Idempotency-Key"), "h")
    if res.status != "ok":
        return {"status": res.status}, 409
    return {"seq": res.length}, 201
