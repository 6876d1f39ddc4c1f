"""The service for the browser tests, in a process of its own (the test process drives the browsers; sharing one
interpreter with the server made every move wait for the other). Prints its address, then serves until killed.

    python -m tests.web.serve DATA_DIR [NAME=SECONDS ...]   (Config overrides, e.g. blind_grace=1)
"""

from __future__ import annotations

import logging
import sys

from werkzeug.serving import make_server

from fairdeal.service.app import create_app
from fairdeal.service.config import Config


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    overrides = {k: float(v) for k, v in (a.split("=", 1) for a in sys.argv[2:])}
    app = create_app(Config(data_dir=sys.argv[1], long_poll_max=10.0, **overrides))
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    print(f"http://127.0.0.1:{httpd.server_port}", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
