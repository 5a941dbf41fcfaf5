-- Atomic append of a run's new events (factledger). Checks everything before writing anything:
-- Lua does not roll back, so every refusal returns before the first write.
--
-- KEYS: 1 stream, 2 meta, 3 unique keys, 4 counters, 5 committed commands, 6 partition log,
--       7 run index, 8.. payload keys (one per payload, in ARGV order)
-- ARGV: 1 command id, 2 expected sequence, 3 expected hash, 4 run id, 5 started_at ms or '',
--       6 event count, then per event: sequence, data, hash;
--       then unique-key count, keys...; counter count, then per counter: name, delta, limit;
--       meta count, then per field: name, value; payload count, then per payload: body, expiry ms
local GENESIS = string.rep('0', 64)
local stream, meta, unique, counters, commands, plog, runs =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]

local done = redis.call('HGET', commands, ARGV[1])
if done then
  return {'DONE', done}
end

local seq = tonumber(redis.call('HGET', meta, 'seq') or '0')
local head = redis.call('HGET', meta, 'hash') or GENESIS
if seq ~= tonumber(ARGV[2]) or head ~= ARGV[3] then
  return {'CONFLICT', tostring(seq) .. ':' .. head}
end

local event_count = tonumber(ARGV[6])
local i = 7 + 3 * event_count
local unique_count = tonumber(ARGV[i])
for j = 1, unique_count do
  if redis.call('SISMEMBER', unique, ARGV[i + j]) == 1 then
    return {'DUPLICATE', ARGV[i + j]}
  end
end
i = i + unique_count + 1
local counter_count = tonumber(ARGV[i])
for j = 0, counter_count - 1 do
  local name = ARGV[i + 1 + 3 * j]
  local delta = tonumber(ARGV[i + 2 + 3 * j])
  local limit = tonumber(ARGV[i + 3 + 3 * j])
  local current = tonumber(redis.call('HGET', counters, name) or '0')
  if current + delta > limit then
    return {'LIMIT', name}
  end
end

-- Every check passed: write.
local last_seq = tostring(seq)
local last_hash = head
for j = 0, event_count - 1 do
  local e_seq = ARGV[7 + 3 * j]
  local e_data = ARGV[8 + 3 * j]
  local e_hash = ARGV[9 + 3 * j]
  redis.call('XADD', stream, e_seq .. '-0', 'd', e_data, 'h', e_hash)
  redis.call('XADD', plog, '*', 'r', ARGV[4], 's', e_seq, 'd', e_data, 'h', e_hash)
  last_seq = e_seq
  last_hash = e_hash
end
for j = 1, unique_count do
  redis.call('SADD', unique, ARGV[7 + 3 * event_count + j])
end
for j = 0, counter_count - 1 do
  redis.call('HINCRBY', counters, ARGV[i + 1 + 3 * j], ARGV[i + 2 + 3 * j])
end
i = i + 3 * counter_count + 1
local meta_count = tonumber(ARGV[i])
for j = 0, meta_count - 1 do
  redis.call('HSET', meta, ARGV[i + 1 + 2 * j], ARGV[i + 2 + 2 * j])
end
i = i + 2 * meta_count + 1
local payload_count = tonumber(ARGV[i])
for j = 0, payload_count - 1 do
  redis.call('SET', KEYS[8 + j], ARGV[i + 1 + 2 * j], 'PXAT', ARGV[i + 2 + 2 * j])
end
if ARGV[5] ~= '' then
  redis.call('HSET', meta, 'started_at', ARGV[5], 'run_id', ARGV[4])
  redis.call('ZADD', runs, ARGV[5], ARGV[4])
end
redis.call('HSET', meta, 'seq', last_seq, 'hash', last_hash)
redis.call('HSET', commands, ARGV[1], last_seq .. ':' .. last_hash)
return {'OK', last_seq .. ':' .. last_hash}
