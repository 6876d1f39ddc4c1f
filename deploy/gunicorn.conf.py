# gunicorn settings for the fairdeal API: `gunicorn -c deploy/gunicorn.conf.py fairdeal.service.wsgi:app`
# The serving model is fairdeal.service.serving (the same as `fairdeal serve`): gevent workers, one per core,
# each holding up to FAIRDEAL_CONNECTIONS connections, most of them event-feed waits that cost no thread and
# no poll. docs/operations.md ("Sizing") says how to choose the figures.
import sys

from fairdeal.service import serving
from fairdeal.service.config import Config, ConfigError

serving.metrics_dir()  # before the app imports prometheus_client: one metrics view across the workers

try:  # the service's one config path: FAIRDEAL_BIND, FAIRDEAL_WORKERS, FAIRDEAL_CONNECTIONS, checked, its defaults
    _config = Config.from_env()
except ConfigError as e:
    sys.exit(f"fairdeal: {e}")
globals().update(serving.settings(_config))
on_starting = serving.on_starting
child_exit = serving.child_exit
post_worker_init = serving.post_worker_init
