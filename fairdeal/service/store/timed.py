"""The store latency histogram (fairdeal_store_seconds{op}): a store's calls timed where they are, on the store
object itself, so that the store stays what it is (its own calls to itself are timed too)."""

from __future__ import annotations

import functools
import time

TIMED = (
    "get_doc",
    "put_doc",
    "append",
    "idem_lookup",
    "records",
    "log_info",
    "doc_and_records",
    "get_secret",
    "put_secret",
    "index_set",
    "index_remove",
    "index_score",
    "index_range",
    "index_count",
    "delete_game",
    "purge_idempotency",
    "ping",
    # the transparency log's calls (a commit or end record is written by append_with_leaf, not append)
    "append_with_leaf",
    "tlog_sequence",
    "tlog_size",
    "tlog_leaves",
    "tlog_game",
    "tlog_head",
    "tlog_put_head",
    "tlog_read_hashes",
    "tlog_fill_hashes",
    "tlog_put_cosignature",
    "tlog_cosignatures",
)


def time_calls(store, metrics):
    """Wrap the store's TIMED methods (once) to observe their latency; returns the store."""
    if getattr(store, "_timed", False):
        return store
    for name in TIMED:
        method = getattr(store, name, None)
        if method is not None:
            setattr(store, name, _timed(method, metrics.child("fairdeal_store_seconds", op=name)))
    store._timed = True
    return store


def _timed(method, histogram):
    """`method`, its every call's latency observed in `histogram` (the operation's series, looked up once)."""

    @functools.wraps(method)
    def timed(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            histogram.observe(time.perf_counter() - t0)

    return timed
