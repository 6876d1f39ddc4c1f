# gunicorn settings for the fairdeal API: `gunicorn -c deploy/gunicorn.conf.py fairdeal.service.wsgi:app`
# The event feed (long-poll /games/{id}/events and server-sent events /games/{id}/stream) holds a request
# open while it waits, so the worker class is gthread: each worker serves `threads` requests at once.
import sys

from fairdeal.service.config import Config, ConfigError

try:  # the service's one config path: FAIRDEAL_BIND, FAIRDEAL_WORKERS, FAIRDEAL_THREADS, checked, its defaults
    _config = Config.from_env()
except ConfigError as e:
    sys.exit(f"fairdeal: {e}")
bind = _config.bind
workers = _config.workers
worker_class = "gthread"
threads = _config.threads
timeout = 60                 # above the longest long-poll (FAIRDEAL_LONG_POLL_MAX, 25 s by default)
graceful_timeout = 30
keepalive = 5
accesslog = None             # the app writes one structured JSON line per request (no tokens, no cards)
errorlog = "-"
max_requests = 0             # workers keep their replayed games in memory; do not recycle them needlessly


def post_fork(server, worker):
    # Requests are short and CPU-bound: hand the GIL over every millisecond (CPython's default is 5 ms) so
    # that one thread's long slice does not hold up the others' quick answers (lower tail latency).
    import sys
    sys.setswitchinterval(0.001)


def on_starting(server):
    # Create the signing key (on first run) once, in the master, before any worker starts; answer gunicorn's
    # own refusals (a request line or headers too long, ...) as problem JSON, not HTML.
    from fairdeal.service import gunicorn_problems
    from fairdeal.service.signing import KeyRing
    KeyRing(_config.data_dir)
    gunicorn_problems.install()
