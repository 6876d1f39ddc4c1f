"""WSGI entry point for gunicorn: `gunicorn -c deploy/gunicorn.conf.py fairdeal.service.wsgi:app`.
Configured by the environment (FAIRDEAL_DATA, FAIRDEAL_REDIS_URL, ...)."""

from fairdeal.service import gunicorn_problems
from fairdeal.service.app import create_app
from fairdeal.service.config import ConfigError

gunicorn_problems.install()  # gunicorn's own refusals as problem JSON too
try:
    app = create_app()
except ConfigError as e:  # one line naming the variable, not a traceback (gunicorn then stops: no worker boots)
    raise SystemExit(f"fairdeal: {e}") from None
