# gunicorn settings for the fairdeal API: `gunicorn -c deploy/gunicorn.conf.py fairdeal.service.wsgi:app`
# The serving model is fairdeal.service.serving (the same as `fairdeal serve`): gevent workers, one per core,
# each holding up to FAIRDEAL_CONNECTIONS connections, most of them event-feed waits that cost no thread and
# no poll. docs/operations.md ("Sizing") says how to choose the figures.
import os

from fairdeal.service import serving

globals().update(serving.settings(
    bind=os.environ.get("FAIRDEAL_BIND", "0.0.0.0:8000"),
    workers=int(os.environ.get("FAIRDEAL_WORKERS") or serving.default_workers()),
    connections=int(os.environ.get("FAIRDEAL_CONNECTIONS") or serving.DEFAULT_CONNECTIONS),
))
on_starting = serving.on_starting
