-- wrk script for bench/http.py. Two modes, chosen by the first script argument:
--
--   post  <prefix> <ids>        the floor: POST {"command": "1"} to <prefix><id>/, the ids
--                               (comma separated) in turn, each thread from its own offset
--   moves <data.lua> <window> <threads> <status>
--                               legal moves over many matches, each answered with <status>
--                               (302 for the web Confirm, 200 for API v1). bench/http.py
--                               writes the data: per match its URL, each seat's headers
--                               (a session cookie and CSRF token, or a bearer token, and the
--                               content type) and the bodies of its moves in order
--
-- Each wrk thread has exactly one connection (run with -t N -c N), so response() always
-- answers the request() just made on that thread. A thread plays its own slice of the
-- matches in turn; when one ends, the next from its reserve takes its place, so the number
-- of active matches stays the same.
-- done() prints one line "JSON {...}" that bench/http.py reads.

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

local mode, path, expected
-- counters are globals: done() reads them from each thread with thread:get()
local active, reserve, current
local floor_headers = { ["Content-Type"] = "application/json" }

function init(args)
  mode = args[1]
  sent, moved, idle, errors, finished = 0, 0, 0, 0, 0
  if mode == "post" then
    path = args[2]
    ids = {}
    for n in args[3]:gmatch("%d+") do table.insert(ids, n) end
    current = id % #ids
    return
  end
  local data = dofile(args[2])
  local window = tonumber(args[3])
  local nthreads = tonumber(args[4])
  expected = tonumber(args[5])
  local mine = {}
  for i, m in ipairs(data) do
    if (i - 1) % nthreads == id then table.insert(mine, m) end
  end
  local my_window = math.floor(window / nthreads)
  if id < window % nthreads then my_window = my_window + 1 end
  active, reserve = {}, {}
  for i, m in ipairs(mine) do
    if i <= my_window then table.insert(active, m) else table.insert(reserve, m) end
  end
  current = 0
end

local function next_match()
  if #active == 0 then return nil end
  current = current % #active + 1
  return active[current]
end

local function retire(index)
  finished = finished + 1
  local replacement = table.remove(reserve, 1)
  if replacement then
    active[index] = replacement
  else
    table.remove(active, index)
    if current > #active then current = 0 end
  end
end

function request()
  if mode == "post" then
    current = current % #ids + 1
    sent = sent + 1
    return wrk.format("POST", path .. ids[current] .. "/", floor_headers, '{"command": "1"}')
  end
  local m = next_match()
  if m == nil then  -- every match of this thread has ended: nothing legal to send
    idle = idle + 1
    return wrk.format("GET", "/bench/none/")
  end
  sent = sent + 1
  m.next = m.next or 1
  local seat, body = m.moves[m.next][1], m.moves[m.next][2]
  return wrk.format("POST", m.url, m.headers[seat], body)
end

function response(status, headers, body)
  if mode == "post" then
    if status ~= 200 then errors = errors + 1 end
    return
  end
  local m = active[current]
  if m == nil then return end
  if status ~= expected then
    errors = errors + 1
    if errors <= 3 then io.write("move refused: " .. status .. " " .. body:sub(1, 300) .. "\n") end
    retire(current)  -- its position is unknown now; do not guess
    return
  end
  moved = moved + 1
  m.next = m.next + 1
  if m.next > #m.moves then retire(current) end
end

function done(summary, latency, requests)
  local e, f, mv, i = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    e = e + (t:get("errors") or 0)
    f = f + (t:get("finished") or 0)
    mv = mv + (t:get("moved") or 0)
    i = i + (t:get("idle") or 0)
  end
  io.write(string.format(
    'JSON {"requests": %d, "duration_us": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, ' ..
    '"max_us": %d, "mean_us": %.1f, "errors": %d, "socket_errors": %d, "non_2xx": %d, ' ..
    '"matches_finished": %d, "moves": %d, "idle": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, latency.mean, e,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, f, mv, i))
end
