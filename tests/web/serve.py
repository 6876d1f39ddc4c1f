"""The service for the browser tests, in a process of its own (the test process drives the browsers; sharing one
interpreter with the server made every move wait for the other). Prints its address, then serves until killed.

    python -m tests.web.serve DATA_DIR [NAME=SECONDS ...] [server_seed=HEX]

NAME=SECONDS are Config overrides (e.g. blind_grace=1). server_seed=HEX gives every game that server seed, so
that with the same client seeds every game is dealt the same cards: a test that needs one position (say, the last
trick led by seat 0) gets it every run.
"""

from __future__ import annotations

import logging
import sys

from werkzeug.serving import make_server

from fairdeal.core import fairness
from fairdeal.service.app import create_app
from fairdeal.service.config import Config


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    args = dict(a.split("=", 1) for a in sys.argv[2:])
    seed = args.pop("server_seed", None)
    if seed is not None:
        fairness.new_server_seed = lambda: bytes.fromhex(seed)  # type: ignore[assignment]
    overrides = {k: float(v) for k, v in args.items()}
    app = create_app(Config(data_dir=sys.argv[1], long_poll_max=10.0, **overrides))
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    print(f"http://127.0.0.1:{httpd.server_port}", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
