"""Lua pieces the Redis stores' append scripts share."""

from __future__ import annotations


def last_entry_check(digest_arg: int) -> str:
    """Refuse (conflict, nothing written) when ARGV[digest_arg] names a digest (store.base.entry_digest: SHA-1 of
    the stored text) and the log's last entry (KEYS[1]) is not that one: the log went another way than the
    caller's copy. To follow the length check (`len` is the log's length)."""
    return f"""
if ARGV[{digest_arg}] ~= '' and len > 0 and redis.sha1hex(redis.call('LINDEX', KEYS[1], -1)) ~= ARGV[{digest_arg}] then
  return {{'conflict', len, -1}}
end
"""
