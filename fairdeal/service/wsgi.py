"""WSGI entry point for gunicorn: `gunicorn -c deploy/gunicorn.conf.py fairdeal.service.wsgi:app`.
Configured by the environment (FAIRDEAL_DATA, FAIRDEAL_REDIS_URL, ...)."""
from fairdeal.service import gunicorn_problems
from fairdeal.service.app import create_app

gunicorn_problems.install()  # gunicorn's own refusals as problem JSON too
app = create_app()
