// The Lua scripts of the shared rate budget (budget.ts), one EVALSHA each, so that every decision on
// a key's windows is atomic across instances. String constants rather than .lua files: they travel
// inside Next's server bundle with nothing to copy or read at run time.
//
// Keys of one API key (its id, a keyed hash: never the key), all with one hash tag so a Redis
// Cluster keeps them on one slot:
//   KEYS[1] <prefix>budget:{<id>}:inflight  sorted set: requests admitted and not yet answered,
//           member "<seq>:<instance>.<n>", score = when its lease runs out (its instance died)
//   KEYS[2] <prefix>budget:{<id>}:answered  sorted set: requests answered within the last minute,
//           same members, score = answer time (ms)
//   KEYS[3] <prefix>budget:{<id>}:state     hash: epoch, seq, the learned plan (perSecond,
//           perMinute), pauseUntil, lastInteractive, lastSent, the server's Remaining as last
//           read (srvRemaining, srvResetAt, srvSentSince, srvSeq), and the burst as the last 429
//           cut it (burstCut, burstAt, burstSeq)
// The rules are RateBudget's (lib/data-api/rate-budget.ts), line for line where they can be.
//
// `epoch` names one life of the state: a Redis that restarted (or a key idle for an hour) has none,
// and admission then refuses with -1 until the caller has put back what it knows of its own recent
// requests (IMPORT), so a restart cannot hand out a minute's budget that was already spent.

/** Moves in-flight entries whose lease ran out to the answered ones (at the lease's end) and prunes. */
const PRUNE = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES')
for i = 1, #expired, 2 do redis.call('ZADD', KEYS[2], expired[i + 1], expired[i]) end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - minuteWindow)
`;

/** The burst at `now` (RateBudget's burstAt): needs perSecond, now, recovery, and the state's cut in cut, cutAt. */
const BURST = `
local function burstAt(perSecond, cut, cutAt)
  if not cut then return perSecond end
  local step = math.max(1, math.ceil(perSecond / 10))
  return math.min(perSecond, cut + math.floor(math.max(0, now - cutAt) / recovery) * step)
end
`;

const EXPIRE = `
redis.call('PEXPIRE', KEYS[1], windowsTtl)
redis.call('PEXPIRE', KEYS[2], windowsTtl)
redis.call('PEXPIRE', KEYS[3], stateTtl)
`;

/**
 * ARGV: now, bulk (1|0), perSecond, perMinute (configured), fixed (1|0), secondWindow, minuteWindow,
 * interactiveWindow, lastInteractive (this instance's, 0 = never), leaseMs, nonce, epoch, windowsTtl,
 * stateTtl, maxPauseMs, burstRecoveryMs.
 * Returns {-1} when the epoch differs (import first), else {wait, seq (0 = not admitted), perSecond,
 * perMinute, learned, sentLastMinute, inFlight, srvResetAt (0 = unknown), serverLeft, pauseUntil,
 * lastInteractive, burst}.
 */
export const ADMIT_LUA = `
local now = tonumber(ARGV[1])
local secondWindow, minuteWindow, interactiveWindow = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local windowsTtl, stateTtl, maxPause, recovery = tonumber(ARGV[13]), tonumber(ARGV[14]), tonumber(ARGV[15]), tonumber(ARGV[16])
if redis.call('HGET', KEYS[3], 'epoch') ~= ARGV[12] then return {-1} end
${PRUNE}
${BURST}
local s = redis.call('HMGET', KEYS[3], 'perSecond', 'perMinute', 'pauseUntil', 'lastInteractive', 'lastSent', 'srvRemaining', 'srvResetAt', 'srvSentSince', 'burstCut', 'burstAt')
local perSecond, perMinute, learned = tonumber(ARGV[3]), tonumber(ARGV[4]), 0
if ARGV[5] ~= '1' and s[1] and s[2] then perSecond, perMinute, learned = tonumber(s[1]), tonumber(s[2]), 1 end
-- The per-second admission now: the plan's, or less after a 429 (RateBudget's burstAt).
local burst = burstAt(perSecond, tonumber(s[9]), tonumber(s[10]))
local pauseUntil = tonumber(s[3]) or 0
local lastInteractive = tonumber(s[4]) or 0
if tonumber(ARGV[9]) > lastInteractive then
  lastInteractive = tonumber(ARGV[9])
  redis.call('HSET', KEYS[3], 'lastInteractive', lastInteractive)
end
local lastSent = tonumber(s[5]) or -math.huge
local srvRemaining, srvResetAt, srvSentSince = tonumber(s[6]), tonumber(s[7]), tonumber(s[8]) or 0
if srvResetAt and now >= srvResetAt then
  redis.call('HDEL', KEYS[3], 'srvRemaining', 'srvResetAt', 'srvSentSince', 'srvSeq')
  srvResetAt = nil
end

-- What bulk requests leave free while the key is in interactive use (interactiveReserve, of the burst).
local resSec, resMin = 0, 0
if ARGV[2] == '1' and now - lastInteractive < interactiveWindow then
  resSec = math.min(burst - 1, math.max(1, math.ceil(burst * 0.2)))
  resMin = math.min(perMinute - 1, math.max(3, math.ceil(perMinute * 0.1)))
end

local open = redis.call('ZCARD', KEYS[1])
-- Earliest time >= t at which fewer than cap requests count within the trailing width: those
-- answered within it, and all those in flight (RateBudget.windowFree).
local function windowFree(t, width, cap)
  local within = redis.call('ZCOUNT', KEYS[2], string.format('(%.17g', t - width), '+inf')
  if within + open < cap then return t end
  if open >= cap then return math.max(t, now + width) end
  local leaving = redis.call('ZREVRANGE', KEYS[2], cap - open - 1, cap - open - 1, 'WITHSCORES')
  return math.max(t, tonumber(leaving[2]) + width)
end
-- Spacing as the server's Remaining nears 0, a stop at 0 (RateBudget.serverPacing).
local function serverPacing(t)
  if not srvResetAt or t >= srvResetAt then return t end
  local left = srvRemaining - srvSentSince - resMin
  if left <= 0 then return math.max(t, math.min(srvResetAt + 50, now + maxPause)) end
  if left >= burst then return t end
  return math.max(t, lastSent + 1000 / burst)
end

local t = math.max(now, pauseUntil)
for pass = 1, 3 do
  local before = t
  t = windowFree(t, secondWindow, burst - resSec)
  t = windowFree(t, minuteWindow, perMinute - resMin)
  t = serverPacing(t)
  if t == before then break end
end
local wait = math.max(0, math.ceil(t - now))

local seq = 0
if wait == 0 then
  seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[10]), seq .. ':' .. ARGV[11])
  redis.call('HSET', KEYS[3], 'lastSent', now)
  open = open + 1
  if srvResetAt then srvSentSince = redis.call('HINCRBY', KEYS[3], 'srvSentSince', 1) end
end
${EXPIRE}
local serverLeft = 0
if srvResetAt then serverLeft = srvRemaining - srvSentSince end
return {wait, seq, perSecond, perMinute, learned, redis.call('ZCARD', KEYS[2]) + open, open, srvResetAt or 0, serverLeft, pauseUntil, lastInteractive, burst}
`;

/**
 * The end of an admitted request. ARGV: member, now, kind ('answer' | 'release': admitted but never
 * sent, e.g. its admission's reply came too late), perSecond, perMinute (learned; 0 = none),
 * remaining (-1 = none), resetAt, pauseUntil (0 = none: not a 429), epoch, windowsTtl, stateTtl,
 * perSecond (configured), fixed (1|0), burstRecoveryMs.
 * Returns 1, or 0 when the epoch differs (the caller imports before its next admission).
 */
export const RECORD_LUA = `
local member, now = ARGV[1], tonumber(ARGV[2])
local windowsTtl, stateTtl, recovery = tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[14])
${BURST}
local wasInFlight = redis.call('ZREM', KEYS[1], member) == 1
if ARGV[3] == 'release' or redis.call('HGET', KEYS[3], 'epoch') ~= ARGV[9] then return 0 end
-- Answered: it counts at its answer's time from now on (it may have arrived as late as that).
redis.call('ZADD', KEYS[2], now, member)
if tonumber(ARGV[5]) > 0 then redis.call('HSET', KEYS[3], 'perSecond', ARGV[4], 'perMinute', ARGV[5]) end
local remaining, resetAt = tonumber(ARGV[6]), tonumber(ARGV[7])
if wasInFlight and remaining >= 0 and resetAt > now then
  -- The server counted every request sent before this one, not those sent after it
  -- (RateBudget.recordResponse): the sequence numbers say which ones those are.
  local seq = tonumber(string.match(member, '^(%d+)'))
  local srv = redis.call('HMGET', KEYS[3], 'srvResetAt', 'srvSeq')
  local sameWindow = srv[1] and tonumber(srv[1]) > now and math.abs(tonumber(srv[1]) - resetAt) < 1500
  if not sameWindow or seq > tonumber(srv[2]) then
    local sentAfter = 0
    for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
      if tonumber(string.match(m, '^(%d+)')) > seq then sentAfter = sentAfter + 1 end
    end
    redis.call('HSET', KEYS[3], 'srvRemaining', remaining - sentAfter, 'srvResetAt', resetAt, 'srvSentSince', 0, 'srvSeq', seq)
  end
end
local pauseUntil = tonumber(ARGV[8])
if pauseUntil > 0 then
  if pauseUntil > (tonumber(redis.call('HGET', KEYS[3], 'pauseUntil')) or 0) then
    redis.call('HSET', KEYS[3], 'pauseUntil', pauseUntil)
  end
  -- A 429 halves the burst, unless its request was admitted before the last cut (RateBudget.recordResponse).
  local st = redis.call('HMGET', KEYS[3], 'perSecond', 'burstCut', 'burstAt', 'burstSeq', 'seq')
  local seq = tonumber(string.match(member, '^(%d+)'))
  if not st[4] or seq > tonumber(st[4]) then
    local perSecond = tonumber(ARGV[12])
    if ARGV[13] ~= '1' and st[1] then perSecond = tonumber(st[1]) end
    local current = burstAt(perSecond, tonumber(st[2]), tonumber(st[3]))
    redis.call('HSET', KEYS[3], 'burstCut', math.max(1, math.floor(current / 2)), 'burstAt', now, 'burstSeq', tonumber(st[5]) or 0)
  end
end
${EXPIRE}
return 1
`;

/**
 * What one instance knows of its own recent requests, put back after Redis was away or lost its
 * data. Idempotent: the members are the ones the requests had (or get) in Redis. ARGV: now, epoch
 * (taken when the state has none), minuteWindow, perSecond, perMinute (learned; 0 = none),
 * pauseUntil (0 = none), lastInteractive (0 = never), windowsTtl, stateTtl, then per request:
 * 'a' (answered) with its answer time, or 'f' (in flight) with its lease's end, and its member.
 * Returns the epoch.
 */
export const IMPORT_LUA = `
local now, minuteWindow = tonumber(ARGV[1]), tonumber(ARGV[3])
local windowsTtl, stateTtl = tonumber(ARGV[8]), tonumber(ARGV[9])
local epoch = redis.call('HGET', KEYS[3], 'epoch')
if not epoch then
  epoch = ARGV[2]
  redis.call('HSET', KEYS[3], 'epoch', epoch)
end
for i = 10, #ARGV, 3 do
  local score, member = tonumber(ARGV[i + 1]), ARGV[i + 2]
  if ARGV[i] == 'a' then
    redis.call('ZREM', KEYS[1], member)
    if score > now - minuteWindow then redis.call('ZADD', KEYS[2], score, member) end
  elseif not redis.call('ZSCORE', KEYS[2], member) then
    redis.call('ZADD', KEYS[1], score, member)
  end
end
if tonumber(ARGV[5]) > 0 then redis.call('HSET', KEYS[3], 'perSecond', ARGV[4], 'perMinute', ARGV[5]) end
local pauseUntil = tonumber(ARGV[6])
if pauseUntil > (tonumber(redis.call('HGET', KEYS[3], 'pauseUntil')) or 0) then redis.call('HSET', KEYS[3], 'pauseUntil', pauseUntil) end
local lastInteractive = tonumber(ARGV[7])
if lastInteractive > (tonumber(redis.call('HGET', KEYS[3], 'lastInteractive')) or 0) then redis.call('HSET', KEYS[3], 'lastInteractive', lastInteractive) end
${EXPIRE}
return epoch
`;
