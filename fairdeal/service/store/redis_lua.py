"""Lua pieces the Redis stores' append scripts share."""

from __future__ import annotations


def idem_check(idem_keys: int, key_arg: int, hash_arg: int) -> str:
    """Answer {'duplicate' | 'key-reused', len, seq} when ARGV[key_arg] names an idempotency key the hash
    KEYS[idem_keys] holds for a record still in the log (`len` is the log's length), as "<body hash> <seq>": the
    same body (ARGV[hash_arg]) is a duplicate, another is the key reused. A key whose record is past the log's end
    was lost with it (a failover): it is taken anew. The append script and the read-only lookup share it."""
    return f"""
if ARGV[{key_arg}] ~= '' then
  local prev = redis.call('HGET', KEYS[{idem_keys}], ARGV[{key_arg}])
  if prev then
    local sp = string.find(prev, ' ', 1, true)
    local seq = tonumber(string.sub(prev, sp + 1))
    if seq < len then
      if string.sub(prev, 1, sp - 1) == ARGV[{hash_arg}] then return {{'duplicate', len, seq}} end
      return {{'key-reused', len, seq}}
    end
  end
end
"""


def last_entry_check(digest_arg: int) -> str:
    """Refuse (conflict, nothing written) when ARGV[digest_arg] names a digest (store.base.entry_digest: SHA-1 of
    the stored text) and the log's last entry (KEYS[1]) is not that one: the log went another way than the
    caller's copy. To follow the length check (`len` is the log's length)."""
    return f"""
if ARGV[{digest_arg}] ~= '' and len > 0 and redis.sha1hex(redis.call('LINDEX', KEYS[1], -1)) ~= ARGV[{digest_arg}] then
  return {{'conflict', len, -1}}
end
"""
