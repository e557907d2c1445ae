-- sqlnet_model.lua - the sqlnet Lua reports' shared module: the advisor's
-- model (plain Lua), the TTC and Oracle numbers the reports name, and the
-- one notice for a Wireshark without the sqlnet C plugin.
--
-- Not a report of its own: Wireshark runs every .lua file of its plugin
-- folder, and this one then only builds its table and returns it (no
-- listener, no menu, no output).  The reports load it from their own folder
-- (one copy per Lua state: package.loaded.sqlnet_model), and
-- so do the tests, under plain Lua 5.2 and 5.4 (tests/test_advise_model.py):
--   local M = dofile("lua/sqlnet_model.lua")
--
-- The model (Oracle's own accounting, see docs/reports.md "The model"):
--   fetches(A)     = floor((rows - first) / A) + 1   per execution (the last
--                    fetch returns the rest and ORA-01403; none when the execute
--                    call already ended the cursor)
--   round trips    = round trips outside the fetches + fetches
--   bytes to client = fixed + per fetch overhead + rows x row bytes
--                    + bit vectors (one per row after the first of a response)
--   TNS packets    = per response ceil(bytes / (SDU - 10))
--   TCP segments   = per response between ceil(TNS bytes / MSS) and per TNS
--                    packet ceil(length / MSS), at the share the connection
--                    showed (M.packets, M.segment_push)
--   elapsed        = fixed + round trips x time per call + rows x time per row
--                    + bytes x time per byte
-- The times are fitted per connection (issue 14), on the fetch round trips
-- of every statement of the connection, from the time breakdown the plugin
-- puts on each response (sqlnet.time.*): per byte from the measured transfer
-- times, per call and per row by least squares on what is left (a call costs
-- one network round trip plus the server's and client's per-call work).
-- "fixed" is what the statement's observed time has beyond that model (its
-- execute's own work), so a prediction at the observed array size is the
-- observed time.  Prefetch: the execute call brings its prefetch rows; by
-- default the prediction ties prefetch to the array size on a connection
-- where every execute brought as many rows as the fetches after it ask for
-- (JDBC too when no execution shows it), and keeps the observed prefetch
-- otherwise (M.prefetch_tied; option prefetch=tied|fixed).
--
-- Runs on Lua 5.2 (Wireshark 4.0) and 5.4.
--
-- SPDX-License-Identifier: GPL-2.0-or-later

local M = {}

-- The numbers the reports compare with (plugin/core/ttc_protocol.h's names):
M.TTC_FN_FETCH = 5               -- TTC_FN_FETCH: a fetch call (OFETCH)
M.TTC_FN_LOB_OP = 96             -- TTC_FN_LOB_OP: a LOB operation (a LOB read)
M.TTC_FN_PING = 147              -- TTC_FN_PING: OPING (with an execution: go-ora's cursor close)
M.ORA_NO_DATA_FOUND = 1403       -- TTC_ERR_NO_DATA_FOUND: the end of a result, not an error
local FETCH = M.TTC_FN_FETCH

-- ---------------------------------------------------------------------------
-- Without the sqlnet C plugin
-- ---------------------------------------------------------------------------

M.PLUGIN_MISSING = "sqlnet Lua reports: the sqlnet plugin (sqlnet.so) is not loaded, so -z sqlnet,advise, "
    .. "-z sqlnet,arraysize and the SQL*Net windows are off; install it (README.md, docs/install.md)"

-- Whether the sqlnet C plugin is loaded: its "sqlnet" dissector is
-- registered (Dissector.get: an error on Wireshark 4.0, nil on 4.4 and 4.6
-- when there is none).  Not a Field extractor: one made while the scripts
-- load makes tshark build a protocol tree for every packet of every run
-- (docs/performance.md, "The hidden tree").  Without it
-- (sqlnet.so, sqlnet.dll) there are no sqlnet fields: says so once for all
-- the sqlnet scripts (on stderr, and in the GUI a menu item that shows it)
-- and returns false; the script then registers nothing (docs/install.md).
-- api: Wireshark's functions (Field, gui_enabled, register_menu,
-- TextWindow, MENU_STAT_UNSORTED), the globals by default; said: where the
-- "said once" mark lives (default _G).
function M.plugin_loaded(api, said)
    api = api or _G
    said = said or _G
    local ok, d = pcall(api.Dissector.get, "sqlnet")
    if ok and d ~= nil then return true end
    if not rawget(said, "sqlnet_plugin_missing_said") then
        rawset(said, "sqlnet_plugin_missing_said", true)
        local msg = M.PLUGIN_MISSING
        io.stderr:write(msg .. "\n")
        if api.gui_enabled and api.gui_enabled() then
            api.register_menu("SQL*Net (plugin not loaded)", function()
                api.TextWindow.new("SQL*Net"):set(msg)
            end, api.MENU_STAT_UNSORTED)
        end
    end
    return false
end

-- ---------------------------------------------------------------------------
-- Field extractors only for a run that asks for a report
-- ---------------------------------------------------------------------------

-- The arguments of the program running the scripts (/proc/self/cmdline),
-- or nil where they cannot be read (not Linux).
function M.command_line(path)
    local f = io.open(path or "/proc/self/cmdline", "rb")
    if not f then return nil end
    local raw = f:read("*a")
    f:close()
    if not raw or raw == "" then return nil end
    local args = {}
    for a in raw:gmatch("([^%z]*)%z") do args[#args + 1] = a end
    return args
end

-- Whether a script whose tshark reports are `names` (register_stat_cmd_arg's
-- names, e.g. { "sqlnet,advise" }) should make its Field extractors while it
-- loads.  Wireshark allows Field.new only then, and every extractor made
-- then makes tshark build (and the plugin fill) a protocol tree for every
-- packet of the run, a report or not: so in tshark only when an argument
-- names one of the reports.  In Wireshark always (a window can be opened at
-- any time), and wherever the command line cannot be read, or the program
-- is not tshark.  api: gui_enabled (the global by default); args: the
-- command line (M.command_line() by default).
function M.wants_extractors(names, api, args)
    api = api or _G
    if api.gui_enabled and api.gui_enabled() then return true end
    args = args or M.command_line()
    if not args or not args[1] or not args[1]:match("tshark[^/\\]*$") then return true end
    -- any argument that holds a report's name: "-z sqlnet,advise,...",
    -- "-zsqlnet,advise" and "-qzsqlnet,advise" alike (one more is harmless:
    -- the extractors as before)
    for _, a in ipairs(args) do
        for _, name in ipairs(names) do
            if a:find(name, 1, true) then return true end
        end
    end
    return false
end

-- ---------------------------------------------------------------------------
-- The advisor's model
-- ---------------------------------------------------------------------------

M.ARRAY_SIZES = { 1, 2, 5, 10, 15, 20, 50, 100, 200, 500, 1000, 2000, 5000 }
M.SDUS = { 2048, 8192, 32767, 65535, 2097152 }
M.TNS_DATA_HEADER = 10       -- 8-byte TNS header + 2-byte data flags
M.MAX_SDU = 2097152

local floor, ceil, max, min = math.floor, math.ceil, math.max, math.min

local function round(x) return floor(x + 0.5) end
M.round = round

-- Fetch calls one execution needs at array size a for `rem` rows after the
-- execute call's own (`first` rows).  topup: the client tops its first
-- fetch up to the array size (node-oracledb thin: each getRows() asks the
-- array size less the rows it still holds, so after an execute that brought
-- `first` rows its first fetch asks a - first % a); python-oracledb, JDBC,
-- go-ora and OCI ask the array size every time.
function M.fetches(rem, a, ended, first, topup)
    return (M.fetch_plan(rem, a, ended, first, topup))
end

-- The fetch calls of one execution: their number, the rows of a top-up
-- fetch (nil when there is none: see M.fetches) and the rows of the last
-- fetch (which comes back short, with ORA-01403).  A fetch that brings
-- what it asked for does not end the cursor: one more fetch follows.
function M.fetch_plan(rem, a, ended, first, topup)
    if ended then return 0, nil, 0 end
    local held = topup and first and first > 0 and first % a or 0
    if held > 0 then
        local t = a - held
        if rem < t then return 1, nil, rem end
        local f = 2 + floor((rem - t) / a)
        return f, t, rem - t - (f - 2) * a
    end
    local f = floor(rem / a) + 1
    return f, nil, rem - (f - 1) * a
end

-- Rows the execute call brings and the fetch calls after it, for an
-- execution of `rows` rows whose execute asks for `prefetch` rows and whose
-- fetches ask for `a`: the execute ends the cursor when it found fewer rows
-- than it asked for; otherwise fetches follow until one comes back short
-- (with ORA-01403).
function M.execution_calls(rows, a, prefetch)
    local first = min(prefetch, rows)
    if rows < prefetch then return first, 0 end
    return first, floor((rows - first) / a) + 1
end

-- TNS packets, TNS bytes and TCP segments of one response of `ttc` bytes.
-- The server writes each TNS packet on its own (TCP_NODELAY): while TCP can
-- send at once, a packet of SDU bytes leaves as ceil(SDU / MSS) segments, the
-- last one part-filled; once data waits in the socket buffer (the congestion
-- or receive window is full: a larger response, a WAN) the kernel sends it as
-- full MSS segments.  The generated captures show both within one response
-- (sdu_2048_mtu_1500: 26 packets of 2048 bytes as 1448 + 600, then 10 as
-- full segments).  push: the share of the difference between the two (one
-- segment set per TNS packet, 1; every byte in full segments, 0) that the
-- connection showed (M.segment_push); nil: 1.
function M.packets(ttc, sdu, mss, push)
    local room = max(1, sdu - M.TNS_DATA_HEADER)
    local n = max(1, ceil(ttc / room))
    local last = ttc - (n - 1) * room + M.TNS_DATA_HEADER
    local tns = ttc + n * M.TNS_DATA_HEADER
    local segs = 0
    if mss and mss > 0 then
        local hi = (n - 1) * ceil(sdu / mss) + ceil(last / mss)
        local lo = ceil(tns / mss)
        segs = lo + floor((push or 1) * (hi - lo) + 0.5)
    end
    return n, tns, segs
end

-- The share of per-TNS-packet segments a connection showed (for
-- M.packets): over its responses of several TNS packets, (observed segments
-- - full segments) / (one segment set per packet - full segments), from 0
-- to 1.  responses = { {ttc=, segments=}, ... }; nil when no response tells
-- (every one fits in one packet, or both counts are equal).
function M.segment_push(responses, sdu, mss)
    if not mss or mss <= 0 or not sdu or sdu <= 0 then return nil end
    local extra, span, n = 0, 0, 0
    for _, r in ipairs(responses) do
        local _, _, lo = M.packets(r.ttc, sdu, mss, 0)
        local _, _, hi = M.packets(r.ttc, sdu, mss, 1)
        if hi > lo and (r.segments or 0) > 0 then
            extra, span, n = extra + min(hi, max(lo, r.segments)) - lo, span + hi - lo, n + 1
        end
    end
    if span == 0 then return nil end
    return extra / span, n
end

-- Bytes of a TTC universal integer (length byte + big-endian bytes): the
-- rows-requested count travels in the fetch call and in the row header.
function M.int_len(n)
    if n <= 0 then return 1 end
    local len = 1
    while n >= 256 and len < 8 do n, len = floor(n / 256), len + 1 end
    return 1 + len
end

-- Per-call size change at array size a against the observed one.
local function width_delta(s, a)
    if not s.varint or not s.array_size then return 0 end
    return M.int_len(a) - M.int_len(s.array_size)
end

-- Bytes of a fetch response with n rows at array size a.
local function fetch_bytes(s, n, last, a)
    return (last and s.overhead_last or s.overhead) + width_delta(s, a) + n * s.row_bytes
        + max(0, n - 1) * s.bvc_bytes
end

-- Predict one statement at array size a (and SDU / MSS for packets).
--   s = { execs = { {rem=, ended=}, ... }, min_array=, fixed_rts=, fixed_to=,
--         fixed_from=, fixed_sizes={...}, row_bytes=, bvc_bytes=, overhead=,
--         overhead_last=, request_bytes=, t_fixed=, t_rt=, t_byte=,
--         array_size=, varint= }   (varint: counts are TTC universal integers)
function M.predict(s, a, sdu, mss)
    a = max(a, s.min_array or 1)
    local p = { array_size = a, fetches = 0, to = s.fixed_to, from = s.fixed_from,
                packets = 0, tns_to = 0, segments = 0 }
    sdu = sdu or s.sdu or 8192
    mss = mss or s.mss
    local function add_response(ttc, count)
        if count <= 0 then return end
        local n, tns, segs = M.packets(ttc, sdu, mss, s.push)
        p.packets = p.packets + n * count
        p.tns_to = p.tns_to + tns * count
        p.segments = p.segments + segs * count
    end
    for _, size in ipairs(s.fixed_sizes or {}) do add_response(size, 1) end
    -- the connection's model (M.fit_connection): a round trip's time and the
    -- client's gap after a response, each by the rows it carried
    local tm = s.timing
    local function rt_time(n, bytes) return tm.t_call + tm.t_row * n + M.transfer_time(tm, bytes) end
    local function gap(n) return tm.g_call + tm.g_row * n end
    local el = tm and (s.t_other or 0) or 0
    for _, e in ipairs(s.execs) do
        local rem, ended, first, exec_to = e.rem, e.ended, e.first, e.exec_to
        if s.tied and e.rows and e.exec_overhead then
            -- the execute asks for the array size too: its rows move
            first, _ = M.execution_calls(e.rows, a, a)
            rem, ended = e.rows - first, e.rows < a
            exec_to = e.exec_overhead + first * s.row_bytes + max(0, first - 1) * s.bvc_bytes
        end
        if exec_to then
            p.to = p.to + exec_to
            add_response(exec_to, 1)
        end
        local f, top, last_n = M.fetch_plan(rem, a, ended, first, s.topup)
        if tm then
            -- the execute as observed (its rows and bytes moved at the model's rates)
            -- (exec_net: the network round trip before the execute that the
            -- plugin counts in the execution's time when captured near the server)
            el = el + (e.exec_time or 0) + (e.exec_net or 0) + tm.t_row * (first - (e.first or first))
                + M.transfer_time(tm, exec_to or 0) - M.transfer_time(tm, e.exec_to or exec_to or 0)
            if f > 0 then
                -- the gap after the execute as observed when fetches followed
                -- it; its rows moved at the model's rate
                el = el + (e.exec_gap and not e.ended and e.exec_gap + tm.g_row * (first - e.first)
                           or gap(first))
            end
        end
        if f > 0 then
            local full = fetch_bytes(s, a, false, a)
            local final = fetch_bytes(s, last_n, true, a)
            -- the full fetches between the top-up fetch (if any) and the last
            local n_full = f - 1 - (top and 1 or 0)
            p.fetches = p.fetches + f
            p.to = p.to + n_full * full + final
            add_response(full, n_full)
            add_response(final, 1)
            local top_bytes = top and fetch_bytes(s, top, false, a)
            if top then
                p.to = p.to + top_bytes
                add_response(top_bytes, 1)
            end
            if tm then
                -- every fetch but the last is followed by the client's gap
                el = el + n_full * (rt_time(a, full) + gap(a)) + rt_time(last_n, final)
                    + (top and (rt_time(top, top_bytes) + gap(top)) or 0)
            end
        end
    end
    p.round_trips = s.fixed_rts + p.fetches
    p.from = p.from + p.fetches * (s.request_bytes + width_delta(s, a))
    if tm then
        p.elapsed = el
    else
        -- the single-rate form (a published table's own parameters)
        p.elapsed = (s.t_fixed or 0) + p.round_trips * (s.t_rt or 0) + p.to * (s.t_byte or 0)
    end
    return p
end

-- Least squares on relative error: elapsed = t_fixed + round trips x t_rt.
-- points = { {round_trips=, elapsed=}, ... }
function M.fit_time(points)
    local s11, s12, s22, s1y, s2y = 0, 0, 0, 0, 0
    for _, pt in ipairs(points) do
        local u, v = 1 / pt.elapsed, pt.round_trips / pt.elapsed
        s11, s12, s22 = s11 + u * u, s12 + u * v, s22 + v * v
        s1y, s2y = s1y + u, s2y + v
    end
    local det = s11 * s22 - s12 * s12
    if det == 0 then return 0, 0 end
    return (s1y * s22 - s2y * s12) / det, (s2y * s11 - s1y * s12) / det
end

-- Least squares y = a + b x + c e (weighted; e is 1 for an execute, whose
-- call costs c more than a fetch's, 0 for a fetch), b >= 0 and a >= 0,
-- without the points that miss by more than five times the median miss (a
-- pause of the client, a JVM compiling).  The misses are measured from a
-- least-absolute-deviations fit (iteratively reweighted), not from the
-- least-squares one: one pause in an execution that weighs as much as a
-- hundred fetches pulls a least-squares line so far that every point then
-- misses by as much as it.  b is 0 when x never varies; c is 0 unless both
-- kinds of call are among the points.  relative: each point's miss counts
-- relative to its y (a round trip of 0.1 ms missed by 0.02 ms weighs as one
-- of 10 ms missed by 2 ms): predicted elapsed times are round trips x the
-- time of one, so a relative miss at any size is the prediction's relative
-- miss at the array size that makes round trips of that size.
-- The fit on N points given as columns (arrays of numbers: this runs on as
-- many points as the capture has round trips, many times over): X, Y, E
-- (0 or 1), W (weights).
local function fit_cols(N, X, Y, E, W, relative)
    local SC = {}
    local kinds = {}
    -- each point's scale: its y (floored at a hundredth of the mean) when relative
    local mean_y, sw0 = 0, 0
    for i = 1, N do
        local w = W[i]
        kinds[E[i] ~= 0] = true
        mean_y, sw0 = mean_y + w * math.abs(Y[i]), sw0 + w
    end
    mean_y = sw0 > 0 and mean_y / sw0 or 0
    for i = 1, N do
        SC[i] = relative and max(math.abs(Y[i]), 0.01 * mean_y, 1e-12) or 1
    end
    local with_e = kinds[true] and kinds[false]
    -- the weighted sums of the normal equations over the columns 1, x and e
    -- (one pass over the points: this runs a few times per IRLS step, on as
    -- many points as the capture has round trips)
    -- (keep: nil, or which points count; irls: a, b, c of the line whose
    -- misses weigh the points, 1 / (scale x miss floored at fm))
    local abs = math.abs
    local function sums(keep, irls, fm)
        local n, sx, se, sxx, sxe, see, sy, sxy, sey = 0, 0, 0, 0, 0, 0, 0, 0, 0
        local la, lb, lc
        if irls then la, lb, lc = irls[1], irls[2], irls[3] end
        if irls and not with_e and not keep then
            -- the reweighting steps without the e column (c is 0 then, and
            -- every e sum stays 0): the same sums in fewer operations
            -- (|d| inline: a call per point costs as much as the rest)
            for i = 1, N do
                local sc, x, y = SC[i], X[i], Y[i]
                local d = y - la - lb * x
                local m = (d < 0 and -d or d) / sc
                local w = W[i] * (1 / (sc * (m > fm and m or fm)))
                n, sx, sy = n + w, sx + w * x, sy + w * y
                sxx, sxy = sxx + w * x * x, sxy + w * x * y
            end
            return { n = n, sx = sx, se = 0, sxx = sxx, sxe = 0, see = 0, sy = sy, sxy = sxy, sey = 0 }
        end
        if irls and not keep then
            -- the reweighting steps with the e column: the general loop's sums
            -- in the same order, without its tests per point
            for i = 1, N do
                local sc, x, y, e = SC[i], X[i], Y[i], E[i]
                local d = y - la - lb * x - lc * e
                local m = (d < 0 and -d or d) / sc
                local w = W[i] * (1 / (sc * (m > fm and m or fm)))
                n, sx, se, sy = n + w, sx + w * x, se + w * e, sy + w * y
                sxx, sxe, see = sxx + w * x * x, sxe + w * x * e, see + w * e * e
                sxy, sey = sxy + w * x * y, sey + w * e * y
            end
            return { n = n, sx = sx, se = se, sxx = sxx, sxe = sxe, see = see, sy = sy, sxy = sxy, sey = sey }
        end
        for i = 1, N do
            if not keep or keep[i] then
                local sc = SC[i]
                local x, y = X[i], Y[i]
                local w
                if irls then
                    local m = abs(y - la - lb * x - lc * E[i]) / sc
                    w = W[i] * (1 / (sc * (m > fm and m or fm)))
                else
                    w = W[i] * (1 / (sc * sc))
                end
                local e = with_e and E[i] or 0
                n, sx, se, sy = n + w, sx + w * x, se + w * e, sy + w * y
                sxx, sxe, see = sxx + w * x * x, sxe + w * x * e, see + w * e * e
                sxy, sey = sxy + w * x * y, sey + w * e * y
            end
        end
        return { n = n, sx = sx, se = se, sxx = sxx, sxe = sxe, see = see, sy = sy, sxy = sxy, sey = sey }
    end
    -- solve the system over 1, x (when use_x) and e (when with_e); nil when singular
    local function normal(S, use_x)
        if S.n == 0 then return nil end
        local A, r
        if use_x and with_e then
            A = { { S.n, S.sx, S.se }, { S.sx, S.sxx, S.sxe }, { S.se, S.sxe, S.see } }
            r = { S.sy, S.sxy, S.sey }
        elseif use_x then
            A, r = { { S.n, S.sx }, { S.sx, S.sxx } }, { S.sy, S.sxy }
        elseif with_e then
            A, r = { { S.n, S.se }, { S.se, S.see } }, { S.sy, S.sey }
        else
            A, r = { { S.n } }, { S.sy }
        end
        local k = #r
        -- Gaussian elimination with partial pivoting (k <= 3)
        local scale = 0
        for a = 1, k do scale = max(scale, math.abs(A[a][a])) end
        for col = 1, k do
            local piv = col
            for row = col + 1, k do if math.abs(A[row][col]) > math.abs(A[piv][col]) then piv = row end end
            if math.abs(A[piv][col]) <= 1e-12 * max(scale, 1e-300) then return nil end
            A[col], A[piv], r[col], r[piv] = A[piv], A[col], r[piv], r[col]
            for row = col + 1, k do
                local f = A[row][col] / A[col][col]
                for b = col, k do A[row][b] = A[row][b] - f * A[col][b] end
                r[row] = r[row] - f * r[col]
            end
        end
        local sol = {}
        for a = k, 1, -1 do
            local v = r[a]
            for b = a + 1, k do v = v - A[a][b] * sol[b] end
            sol[a] = v / A[a][a]
        end
        return sol[1], use_x and sol[2] or 0, with_e and sol[k] or 0
    end
    local function solve(keep, irls, fm)
        local S = sums(keep, irls, fm)
        local a, b, c = normal(S, true)
        if not a or b < 0 then
            a, b, c = normal(S, false)      -- x never varies, or rows cost nothing
            if not a then return 0, 0, 0 end
            b = 0
        end
        if a < 0 then a = 0 end
        if a + c < 0 then c = -a end
        return a, b, c
    end
    local a, b, c = solve(nil)
    -- least absolute deviations by reweighting: weight 1 / |miss| (floored)
    local sw, sy = 0, 0
    for i = 1, N do sw, sy = sw + W[i], sy + W[i] * abs(Y[i]) / SC[i] end
    local floor_miss = sw > 0 and 1e-4 * sy / sw or 0
    floor_miss = floor_miss > 0 and floor_miss or 1e-12
    -- (the line only has to find the pauses: the final fit is least squares on
    -- the points it keeps, so a few steps do: five, each a pass over every
    -- point, the advisor's largest cost; more change the kept points of a
    -- few connections and their figures by well under 1 %)
    for _ = 1, 5 do
        local a2, b2, c2 = solve(nil, { a, b, c }, floor_miss)
        local done = abs(a2 - a) <= 1e-6 * max(1e-6, abs(a)) and abs(b2 - b) <= 1e-6 * max(1e-6, abs(b))
            and abs(c2 - c) <= 1e-6 * max(1e-6, abs(c))
        a, b, c = a2, b2, c2
        if done then break end
    end
    local misses = {}
    for i = 1, N do misses[i] = abs(Y[i] - a - b * X[i] - c * E[i]) / SC[i] end
    local sorted = {}
    for i = 1, N do sorted[i] = misses[i] end
    table.sort(sorted)
    local med = sorted[floor((N + 1) / 2)] or 0
    local limit = 5 * max(med, sw > 0 and 0.01 * sy / sw or 0)
    local keep, nkept = {}, 0
    for i = 1, N do
        if misses[i] <= limit then keep[i], nkept = true, nkept + 1 end
    end
    if nkept >= 2 then return solve(keep) end
    return solve(nil)
end
-- pts = { {x=, y=, e=, w=}, ... } (e, w optional)
local function fit_line(pts, relative)
    local X, Y, E, W = {}, {}, {}, {}
    for i = 1, #pts do
        local pt = pts[i]
        X[i], Y[i], E[i], W[i] = pt.x, pt.y, pt.e or 0, pt.w or 1
    end
    return fit_cols(#pts, X, Y, E, W, relative)
end
M.fit_line = fit_line

-- Transfer time (a response's first to last byte) of a response of `bytes`.
-- TCP does not move a response at one rate per byte: the congestion window
-- and the sender's pacing let the first segments of a response go at once
-- and space the later ones by fractions of the round trip, so on a WAN a
-- 20 KB response takes far more than four times a 5 KB one.  The model keeps
-- the connection's measured transfer times by response size (tm.transfer:
-- points sorted by bytes, from (0, 0)) and interpolates between them; beyond
-- the largest it moves bytes at the largest's average rate.  Without points,
-- the single rate tm.t_byte.
function M.transfer_time(tm, bytes)
    local c = tm.transfer
    local n = c and #c or 0
    if n == 0 or bytes <= 0 then return max(0, (tm.t_byte or 0) * bytes) end
    local last = c[n]
    if bytes > last.bytes then return bytes * last.time / last.bytes end
    -- the first point at or above bytes (the points are sorted by bytes: a
    -- binary search, as predictions ask this for every response they model)
    local lo, hi = 1, n
    while lo < hi do
        local mid = floor((lo + hi) / 2)
        if bytes <= c[mid].bytes then hi = mid else lo = mid + 1 end
    end
    local pt, px, py = c[lo], 0, 0
    if lo > 1 then px, py = c[lo - 1].bytes, c[lo - 1].time end
    return py + (pt.time - py) * (bytes - px) / (pt.bytes - px)
end

-- The transfer curve from responses { {bytes=, transfer=}, ... } (every
-- response of the connection's executions, executes too: the bytes are what
-- TCP moves, whichever call asked for them): sorted by bytes, responses
-- within 10 % of a class's smallest merged into it (mean bytes and time),
-- made non-decreasing (a larger response never moves faster: a dip is
-- measurement noise).
-- (transfer_curve_cols: the responses as columns RB (bytes) and RT
-- (transfer), n of them)
-- (the responses of one size together first: a capture has few sizes and
-- many responses, and a sort of the sizes costs less than one of them all;
-- G = { count = {}, time = {}, sizes = {} }: per size its responses and
-- their transfer time, summed in the order they are added)
local function curve_group(G, b, t)
    if b > 0 then
        local k = G.count[b]
        if not k then
            G.sizes[#G.sizes + 1] = b
            G.count[b], G.time[b] = 1, max(0, t)
        else
            G.count[b], G.time[b] = k + 1, G.time[b] + max(0, t)
        end
    end
end
local function transfer_curve_groups(G)
    local count, time, sizes = G.count, G.time, G.sizes
    table.sort(sizes)
    local curve, c = {}, nil
    for _, b in ipairs(sizes) do
        if not c or b > c.lo * 1.1 then
            c = { lo = b, n = 0, bytes = 0, time = 0 }
            curve[#curve + 1] = c
        end
        c.n, c.bytes, c.time = c.n + count[b], c.bytes + b * count[b], c.time + time[b]
    end
    local prev = 0
    for _, k in ipairs(curve) do
        k.bytes, k.time, k.lo, k.n = k.bytes / k.n, max(prev, k.time / k.n), nil, nil
        prev = k.time
    end
    return curve
end
local function transfer_curve_cols(RB, RT, n)
    local G = { count = {}, time = {}, sizes = {} }
    for i = 1, n do curve_group(G, RB[i], RT[i]) end
    return transfer_curve_groups(G)
end
local function transfer_curve(responses)
    local RB, RT = {}, {}
    for i, r in ipairs(responses) do RB[i], RT[i] = r.bytes, r.transfer end
    return transfer_curve_cols(RB, RT, #responses)
end
M.transfer_curve = transfer_curve

-- Per-connection time model (issue 14), from its round trips in executions:
--   a round trip's time  = t_call + rows x t_row + transfer(bytes)
--                          (request to response: the server's work, the
--                          transfer, the network round trip when captured
--                          near the client)
--   the client's gap after a response = g_call + rows x g_row
--                          (its own work on the rows, the network round trip
--                          when captured near the server)
-- fetches = { {time=, first=, rows=, bytes=}, ... } (seconds, bytes): the
-- transfer part is the measured transfer time (first to last byte of the
-- response) by response size (M.transfer_time; t_byte its average per byte),
-- t_call and t_row fitted on the rest; gaps = { {gap=, rows=} }; responses
-- (optional, default the fetches) = { {bytes=, transfer=} } for the curve.
-- Each execution weighs the same (w).
-- The fit on columns (connection_models builds them from the round trips):
-- D = { nf=, f_time=, f_first=, f_rows=, f_bytes=, f_w=, f_last= (fetches),
--       ng=, g_gap=, g_rows=, g_w= (gaps), nr=, r_bytes=, r_transfer=
--       (responses; nil: the fetches'; or r_groups: curve_group's), ne=, e_time=, e_rows=, e_bytes=, e_w=
--       (executes) }
local function fit_connection_cols(D)
    local tb, bytes = 0, 0
    local nf, F_time, F_first, F_rows, F_bytes, F_w, F_last = D.nf, D.f_time, D.f_first, D.f_rows, D.f_bytes,
        D.f_w, D.f_last
    for i = 1, nf do tb, bytes = tb + max(0, F_time[i] - F_first[i]), bytes + F_bytes[i] end
    local curve
    if D.r_groups then
        curve = transfer_curve_groups(D.r_groups)
    else
        local RB, RT, nr = D.r_bytes, D.r_transfer, D.nr
        if not RB then
            RB, RT, nr = {}, {}, nf
            for i = 1, nf do RB[i], RT[i] = F_bytes[i], F_time[i] - F_first[i] end
        end
        curve = transfer_curve_cols(RB, RT, nr)
    end
    local m = { t_byte = bytes > 0 and tb / bytes or 0, transfer = curve }
    -- the time per row needs fetches of two sizes at least (the last, shorter
    -- fetch of every execution alone does not tell a row from a call)
    local sizes, nsizes = {}, 0
    for i = 1, nf do
        if not F_last[i] and not sizes[F_rows[i]] then sizes[F_rows[i]], nsizes = true, nsizes + 1 end
    end
    -- (the transfer time once per response size: the curve is a walk of its points)
    local tt = {}
    local function transfer(b)
        local t = tt[b]
        if not t then t = M.transfer_time(m, b); tt[b] = t end
        return t
    end
    local X, Y, E, W, N = {}, {}, {}, {}, 0
    for i = 1, nf do
        if nsizes >= 2 or not F_last[i] then
            N = N + 1
            X[N], Y[N], E[N], W[N] = nsizes >= 2 and F_rows[i] or 0, F_time[i] - transfer(F_bytes[i]), 0,
                F_w[i] or 1
        end
    end
    if N == 0 then
        for i = 1, nf do
            N = N + 1
            X[N], Y[N], E[N], W[N] = 0, F_time[i] - transfer(F_bytes[i]), 0, F_w[i] or 1
        end
    end
    -- the executes carry rows too (the prefetch): with their own call cost
    -- they hold the time per row where a fetch of as many rows is single
    -- (one pause in it would otherwise decide the slope)
    if nsizes >= 2 then
        for i = 1, D.ne or 0 do
            N = N + 1
            X[N], Y[N], E[N], W[N] = D.e_rows[i], D.e_time[i] - transfer(D.e_bytes[i]), 1, D.e_w[i] or 1
        end
    end
    m.t_call, m.t_row, m.t_exec = fit_cols(N, X, Y, E, W, true)
    X, Y, E, W = {}, {}, {}, {}
    for i = 1, D.ng do
        X[i], Y[i], E[i], W[i] = nsizes >= 2 and D.g_rows[i] or 0, D.g_gap[i], 0, D.g_w[i] or 1
    end
    m.g_call, m.g_row = fit_cols(D.ng, X, Y, E, W, true)
    return m
end

function M.fit_connection(fetches, gaps, responses, executes)
    local D = { nf = #fetches, f_time = {}, f_first = {}, f_rows = {}, f_bytes = {}, f_w = {}, f_last = {},
                ng = #gaps, g_gap = {}, g_rows = {}, g_w = {}, ne = 0, e_time = {}, e_rows = {}, e_bytes = {},
                e_w = {} }
    for i, f in ipairs(fetches) do
        D.f_time[i], D.f_first[i], D.f_rows[i], D.f_bytes[i], D.f_w[i], D.f_last[i] =
            f.time, f.first, f.rows, f.bytes, f.w, f.last or false
    end
    for i, g in ipairs(gaps) do D.g_gap[i], D.g_rows[i], D.g_w[i] = g.gap, g.rows, g.w end
    if responses then
        D.r_bytes, D.r_transfer, D.nr = {}, {}, #responses
        for i, r in ipairs(responses) do D.r_bytes[i], D.r_transfer[i] = r.bytes, r.transfer end
    end
    for i, e in ipairs(executes or {}) do
        D.e_time[i], D.e_rows[i], D.e_bytes[i], D.e_w[i] = e.time, e.rows, e.bytes, e.w
        D.ne = i
    end
    return fit_connection_cols(D)
end
M.fit_connection_cols = fit_connection_cols

-- The SDU a user can set (Oracle Net: SDU in the connect descriptor,
-- DEFAULT_SDU_SIZE in sqlnet.ora; the smaller of the two ends' wins), by the
-- Net Services guides: 512 to 2 MB from 12c (TNS version 315) on, 512 to
-- 65535 in 11.2 (version 314, also 11.1's, whose guide says 32767), 512 to
-- 32767 before; 65535 (the CONNECT's 16-bit field) when the capture does not
-- show the version.
function M.sdu_range(version)
    version = version or 0
    if version >= 315 then return 512, M.MAX_SDU end
    if version == 314 or version == 0 then return 512, 65535 end
    return 512, 32767
end

-- Round SDUs the advisor may recommend (32767: the maximum before 11.2 and
-- the guides' own example), or the -z sdus= list when given.
M.SDU_CANDIDATES = { 2048, 4096, 8192, 16384, 32767, 65535, 131072, 262144, 524288, 1048576, 2097152 }
-- An SDU is recommended only when it predicts at least this much fewer TCP
-- segments, or this much less time, than the negotiated one: what the wire
-- and the client see.  Fewer TNS packets alone are no reason (the same bytes
-- leave in the same segments at the same predicted time: issue 34).
M.SDU_MARGIN_COUNT, M.SDU_MARGIN_TIME = 0.10, 0.05

-- The SDU to recommend from predicted rows { {sdu=, packets=, segments=,
-- elapsed=, responses=, candidate=}, ... } (one of them the negotiated SDU):
-- the smallest candidate that is no worse than the negotiated SDU in
-- packets, segments and time, saves at least the margin in segments or in
-- time, and after which no candidate saves another margin's worth of
-- either.  A saving of segments counts from two on (3 segments instead of 2
-- is no reason to change a setting).  Returns the row and its savings
-- (fractions of the negotiated packets, segments, time), or nil.
function M.recommend_sdu(rows, negotiated)
    local base
    for _, r in ipairs(rows) do if r.sdu == negotiated then base = r end end
    if not base then return nil end
    local function saving(r)
        local sp = base.packets - r.packets >= 2 and (base.packets - r.packets) / max(1, base.packets) or 0
        local ss = base.segments - r.segments >= 2 and (base.segments - r.segments) / max(1, base.segments) or 0
        return sp, ss, base.elapsed > 0 and (base.elapsed - r.elapsed) / base.elapsed or 0
    end
    local function no_worse(r)
        return r.packets <= base.packets and r.segments <= base.segments and r.elapsed <= base.elapsed * (1 + 1e-9)
    end
    local cands, bs, be = {}, 0, 0
    for _, r in ipairs(rows) do
        if r.candidate and r.sdu ~= negotiated and no_worse(r) then
            cands[#cands + 1] = r
            local _, b, c = saving(r)
            bs, be = max(bs, b), max(be, c)
        end
    end
    table.sort(cands, function(a, b) return a.sdu < b.sdu end)
    for _, r in ipairs(cands) do
        local sp, ss, se = saving(r)
        if (ss >= M.SDU_MARGIN_COUNT or se >= M.SDU_MARGIN_TIME)
            and bs - ss < M.SDU_MARGIN_COUNT and be - se < M.SDU_MARGIN_TIME then
            return r, sp, ss, se
        end
    end
    return nil
end

-- Without a recommendation (M.recommend_sdu): the candidate that would save
-- at least the margin of TNS packets (the smallest such SDU, no worse in
-- segments and time), to say in one line why fewer packets are not advised;
-- nil when none would.
function M.packets_only_sdu(rows, negotiated)
    local base
    for _, r in ipairs(rows) do if r.sdu == negotiated then base = r end end
    if not base then return nil end
    local best
    for _, r in ipairs(rows) do
        if r.candidate and r.sdu ~= negotiated and r.segments <= base.segments
            and r.elapsed <= base.elapsed * (1 + 1e-9) and base.packets - r.packets >= 2
            and (base.packets - r.packets) / max(1, base.packets) >= M.SDU_MARGIN_COUNT
            and (not best or r.sdu < best.sdu) then
            best = r
        end
    end
    return best
end

-- The array size to recommend: the observed one (s.array_size) if its
-- predicted elapsed time (or, without timing, round trips) is within 10% of
-- the best candidate's, else the smallest candidate that is.  Returns it and
-- the rule in words.
function M.recommend_array(s, candidates, rows_per_exec)
    local timed = s.timing ~= nil or (s.t_rt or 0) > 0
    local best, preds = nil, {}
    for _, a in ipairs(candidates) do
        local p = M.predict(s, a)
        preds[#preds + 1] = p
        local cost = timed and p.elapsed or p.round_trips
        if not best or cost < best then best = cost end
    end
    local rule = timed and "the observed size if its predicted time is within 10% of the fastest, else the " ..
        "smallest size that is" or "the observed size if its round trips are within 10% of the fewest, else the " ..
        "smallest size whose round trips are"
    for _, p in ipairs(preds) do
        local cost = timed and p.elapsed or p.round_trips
        if p.array_size == s.array_size and cost <= best * 1.10 then return p.array_size, rule end
    end
    for _, p in ipairs(preds) do
        local cost = timed and p.elapsed or p.round_trips
        if cost <= best * 1.10 then return p.array_size, rule end
    end
    return candidates[#candidates], rule
end

-- The observed row of the array-size table: the observed figures (o, as the
-- "observed:" line), and the model's figures at the observed size (pr) in
-- words where they differ from them (nil where they do not).
function M.observed_row(o, pr)
    local row = { round_trips = o.round_trips, to = o.to, from = o.from, tns_to = o.tns_to, packets = o.packets,
                  segments = o.segments, elapsed = o.elapsed }
    local diff = {}
    local function cmp(a, b, fmt, what)
        local x, y = string.format(fmt, a), string.format(fmt, b)
        if x ~= y then diff[#diff + 1] = y .. " " .. what end
    end
    cmp(o.round_trips, pr.round_trips, "%d", "round trips")
    cmp(round(o.to), round(pr.to), "%d", "bytes to client")
    cmp(round(o.from), round(pr.from), "%d", "bytes from client")
    cmp(o.packets, pr.packets, "%d", "TNS packets")
    cmp(o.segments, pr.segments, "%d", "TCP segments")
    cmp(o.elapsed * 1000, pr.elapsed * 1000, "%.3f", "ms")
    return row, #diff > 0 and table.concat(diff, ", ") or nil
end

-- When array size a brings every execution's rows in one call (the execute
-- with prefetch tied, else one fetch after the execute): the largest number
-- of rows that call carries; nil when some execution needs more calls.
function M.one_call_rows(s, a)
    local most = 0
    for _, e in ipairs(s.execs) do
        local rows = s.tied and e.rows or e.rem
        if not rows then return nil end
        if s.tied then
            local _, fetches = M.execution_calls(rows, a, a)
            if fetches > 0 then return nil end
        elseif not e.ended and M.fetches(rows, a, false, e.first, s.topup) > 1 then
            return nil
        end
        most = max(most, rows)
    end
    return most > 0 and most or nil
end

-- The GUI's "Predict..." dialog: its three fields (array sizes, SDUs,
-- prefetch) as the options -z sqlnet,advise takes; empty fields keep the
-- defaults.  Returns opts, or nil and a message saying what is wrong.
function M.dialog_options(sizes, sdus, prefetch)
    local opts = {}
    local function list(text, what, lo, hi)
        text = (text or ""):gsub("%s", "")
        if text == "" then return nil end
        local out = {}
        for tok in (text .. ","):gmatch("([^,]*),") do
            local n = tok:match("^%d+$") and tonumber(tok)
            if not n or n < lo or n > hi then
                return nil, string.format("%s: %q is not a whole number from %d to %d", what, tok, lo, hi)
            end
            out[#out + 1] = n
        end
        return out
    end
    local err
    opts.sizes, err = list(sizes, "array sizes", 1, 10000000)
    if err then return nil, err end
    opts.sdus, err = list(sdus, "SDUs", 512, M.MAX_SDU)
    if err then return nil, err end
    prefetch = (prefetch or ""):gsub("%s", ""):lower()
    if prefetch == "tied" or prefetch == "fixed" then
        opts.prefetch = prefetch
    elseif prefetch ~= "" then
        return nil, string.format("prefetch: %q is neither tied nor fixed (empty: as the capture shows)", prefetch)
    end
    return opts
end

-- Retransmitted segments to round trips: a retransmission at time t belongs
-- to the round trip of its stream that started last before t (its response,
-- or the client's gap after it, waited for the recovery).  Sets rt.lost
-- afresh (a window draws again with the same round trips).
-- The round trips of each stream, in capture order: st.by_stream[stream] =
-- { rt, ... } and, returned, { [stream] = { index in st.rts, ... } }; once
-- per report (a window that draws again after more packets groups again).
-- (counts kept by hand: `t[#t + 1]` costs a search per append in Lua 5.2,
-- and this runs once per round trip)
local function group_by_stream(st)
    local idx_of, rts_of, counts = {}, {}, {}
    local rts = st.rts
    local last_stream, l, lr, nl = nil, nil, nil, 0
    for i = 1, #rts do
        local rt = rts[i]
        local stream = rt.stream
        if stream ~= last_stream then
            if last_stream ~= nil then counts[last_stream] = nl end
            last_stream = stream
            l = idx_of[stream]
            if l then
                lr, nl = rts_of[stream], counts[stream]
            else
                l, lr, nl = {}, {}, 0
                idx_of[stream], rts_of[stream] = l, lr
            end
        end
        nl = nl + 1
        l[nl], lr[nl] = i, rt
    end
    st.by_stream, st.by_stream_n = rts_of, #rts
    return idx_of
end
M.group_by_stream = group_by_stream

function M.mark_losses(st)
    -- (a window draws again: the marks of the last time off first)
    for _, rt in ipairs(st.lost_rts or {}) do rt.lost = nil end
    local marked = {}
    st.lost_rts = marked
    -- the round trips of the streams that had a retransmission
    local by_stream, any = {}, false
    for stream, c in pairs(st.streams) do
        if c.retrans then by_stream[stream], any = {}, true end
    end
    if not any then return end
    for _, rt in ipairs(st.rts) do
        local l = by_stream[rt.stream]
        if l then l[#l + 1] = rt end
    end
    for stream, l in pairs(by_stream) do
        if #l > 0 then
            table.sort(l, function(a, b) return a.start < b.start end)
            for _, t in ipairs(st.streams[stream].retrans) do
                local lo, hi = 1, #l
                if l[1].start < t then
                    while lo < hi do          -- the last round trip starting before t
                        local mid = floor((lo + hi + 1) / 2)
                        if l[mid].start < t then lo = mid else hi = mid - 1 end
                    end
                    local rt = l[lo]
                    if not rt.lost then marked[#marked + 1] = rt end
                    rt.lost = (rt.lost or 0) + 1
                end
            end
        end
    end
end

-- Pauses (issue 23): time inside a statement that no array size explains,
-- found per connection and taken out of the round trips it sits in, as
-- retransmissions are (M.mark_losses), so that neither the fit nor the
-- statement's wire time carries it:
--   client stall   the client's time between a response and the next call of
--                  the same execution (less the RTT when the capture was taken
--                  near the server) above 5 x the connection's median and
--                  above 10 ms; the excess over the median is the pause, at
--                  the frame of the call that came late
--   server stall   the wait for the first byte of a fetch's answer (less the RTT
--                  near the client) above 5 x what the connection's fetches'
--                  median first-byte wait and median per row give for its
--                  rows, and above 10 ms; at the fetch's request frame (an
--                  execute's time is the statement's own: parse, open, rows)
--   delayed ACK    an ACK that came 30 ms or more after the data it covers
--                  (tcp.analysis.ack_rtt, less the RTT when it crossed the
--                  link), inside a round trip: Nagle held the sender's next
--                  segment for it (Linux delays an ACK 40 ms at least,
--                  Windows 200 ms); at the ACK's frame
--   zero window    a receiver's zero window (tcp.analysis.zero_window) until
--                  its window update, inside a round trip
-- Sets rt.paused (the seconds taken out) and rt.raw (the measured time, first
-- and gap) on the round trips concerned, st.pauses[rt] = { {kind, secs,
-- frame}, ... }; restores them first (a window draws again).
M.STALL_FACTOR, M.STALL_FLOOR, M.DELACK_MIN = 5, 0.010, 0.030
-- The median of t (may reorder t): of an even count, the mean of the two
-- middle values. Past a few thousand values (a long execution's round trips:
-- sorting them all was a fifth of the report's time on 100,000) it sorts
-- only the values between two quantiles of an evenly spaced sample that hold
-- the middle, after one pass that counts the values below them; the same
-- value as a full sort (which it falls back to when the sample misleads).
local MEDIAN_SORT_MAX = 4096
local function median(t)
    local n = #t
    if n == 0 then return 0 end
    local m = floor((n + 1) / 2)
    local m2 = n % 2 == 0 and m + 1 or m
    if n > MEDIAN_SORT_MAX then
        local step = floor(n / 1024)
        local smp, ns = {}, 0
        for i = 1, n, step do ns = ns + 1; smp[ns] = t[i] end
        table.sort(smp)
        -- the sample's ranks around the middle, widened by 4 standard
        -- deviations of a sample quantile's rank
        local pos, spread = m / n * ns, 4 * math.sqrt(ns)
        local lo = smp[max(1, floor(pos - spread))]
        local hi = smp[min(ns, ceil(pos + spread))]
        local below, mid, nm = 0, {}, 0
        for i = 1, n do
            local v = t[i]
            if v < lo then below = below + 1 elseif v <= hi then nm = nm + 1; mid[nm] = v end
        end
        if below < m and below + nm >= m2 then
            table.sort(mid)
            return (mid[m - below] + mid[m2 - below]) / 2
        end
    end
    table.sort(t)
    return (t[m] + t[m2]) / 2
end
M.median = median
function M.mark_pauses(st)
    -- (a window draws again: the measured times back first)
    for rt in pairs(st.pauses or {}) do
        if rt.raw then
            rt.time, rt.first, rt.gap = rt.raw.time, rt.raw.first, rt.raw.gap
            rt.raw, rt.paused = nil, nil
        end
    end
    st.pauses = {}
    local rts = st.rts
    local by_stream = group_by_stream(st)
    local function add(rt, kind, secs, frame, in_first, in_gap)
        if not rt.raw then rt.raw = { time = rt.time, first = rt.first, gap = rt.gap }; rt.paused = 0 end
        if in_gap then
            secs = min(secs, rt.gap)
            rt.gap = rt.gap - secs
        else
            secs = min(secs, rt.time)
            rt.time = rt.time - secs
            if in_first then rt.first = max(0, rt.first - secs) end
            rt.first = min(rt.first, rt.time)
        end
        rt.paused = rt.paused + secs
        local l = st.pauses[rt]
        if not l then l = {}; st.pauses[rt] = l end
        l[#l + 1] = { kind = kind, secs = secs, frame = frame }
    end
    for stream, idx in pairs(by_stream) do
        local c = st.streams[stream] or {}
        local rtt = c.rtt or 0
        local near_server, near_client = c.vantage == 1, c.vantage == 2
        -- what a round trip holds besides the RTT
        local function gap_net(rt) return near_server and rt.gap - min(rt.gap, rtt) or rt.gap end
        local function first_net(rt) return near_client and rt.first - min(rt.first, rtt) or rt.first end
        local gaps, gap_row, firsts, per_row = {}, {}, {}, {}
        local ng, ngr, nf, npr = 0, 0, 0, 0
        for k = 1, #idx do
            local rt = rts[idx[k]]
            local gap, r = rt.gap, rt.rows
            if gap > 0 then
                local g = gap
                if near_server then g = gap - (gap < rtt and gap or rtt) end
                ng = ng + 1
                gaps[ng] = g
                if r > 0 then ngr = ngr + 1; gap_row[ngr] = g / r end
            end
            if rt.call == FETCH and rt.execution ~= 0 then
                local f = rt.first
                if near_client then f = f - (f < rtt and f or rtt) end
                nf = nf + 1
                firsts[nf] = f
                if r > 0 then npr = npr + 1; per_row[npr] = f / r end
            end
        end
        local m_gap, m_gap_row = median(gaps), median(gap_row)
        local m_first, m_row = median(firsts), median(per_row)
        -- TCP waits inside a round trip (by time: the round trip of the
        -- stream that started last before it, if it had not ended)
        local events = {}
        for _, a in ipairs(c.late_acks or {}) do
            -- from the server: its port pair is that of the connection's
            -- round trips' completing packets (known from the first of them)
            local from_server = c.seg_key ~= nil and c.seg_key_frame < a.frame and a.key == c.seg_key
            local net = (from_server and near_client or (not from_server) and near_server) and rtt or 0
            if a.ack_rtt - net >= M.DELACK_MIN then
                events[#events + 1] = { t = a.t, kind = "delayed ACK", secs = a.ack_rtt - net, frame = a.frame }
            end
        end
        local zw = c.windows or {}
        for k, w in ipairs(zw) do
            if w.zero then
                for j = k + 1, #zw do
                    if not zw[j].zero and zw[j].src == w.src then
                        events[#events + 1] = { t = w.t, kind = "zero window", secs = zw[j].t - w.t, frame = w.frame }
                        break
                    end
                end
            end
        end
        table.sort(events, function(a, b) return a.t < b.t end)
        local j = 1
        for _, e in ipairs(events) do
            while j < #idx and st.rts[idx[j + 1]].start < e.t do j = j + 1 end
            local rt = st.rts[idx[j]]
            if rt and rt.start < e.t and e.t < rt.start + rt.time then
                add(rt, e.kind, min(e.secs, e.t - rt.start), e.frame, e.t < rt.start + rt.first)
            end
        end
        local factor, floor_s = M.STALL_FACTOR, M.STALL_FLOOR
        for n = 1, #idx do
            local i = idx[n]
            local rt = rts[i]
            -- (a round trip that waited for a retransmission: the loss line's)
            -- the client's stall: at the next call of the execution
            local gap = rt.gap
            if gap > 0 and not rt.lost then
                local g, g_expect = gap_net(rt), m_gap + m_gap_row * rt.rows
                if g > factor * g_expect and g > floor_s then
                    add(rt, "client stall", g - g_expect, idx[n + 1] and st.req_of[idx[n + 1]] or nil, false, true)
                end
            end
            -- the server's stall: the wait for the first byte of a fetch (an
            -- execute's time is the statement's own: parse, open, first rows)
            if rt.call == FETCH and rt.execution ~= 0 and not rt.lost then
                local f = rt.first
                if near_client then f = f - (f < rtt and f or rtt) end
                local expect = m_first + m_row * rt.rows
                if f > factor * expect and f > floor_s then
                    add(rt, "server stall", f - expect, st.req_of and st.req_of[i] or nil, true)
                end
            end
        end
    end
end

-- The undecrypted TNS-over-TLS conversations ({ [tcp.stream] = server port },
-- from sqlnet.tls.undecrypted): a sentence per port, the count by port, the ports.
function M.undecrypted_lines(undecrypted)
    local by_port, ports = {}, {}
    for _, port in pairs(undecrypted) do
        if not by_port[port] then by_port[port] = 0; ports[#ports + 1] = port end
        by_port[port] = by_port[port] + 1
    end
    table.sort(ports)
    local lines = {}
    for _, port in ipairs(ports) do
        lines[#lines + 1] = string.format("%d TNS-over-TLS conversation%s not decrypted (port %d): give Wireshark " ..
            "the TLS key log (tls.keylog_file), or turn on sqlnet.tls_estimate", by_port[port],
            by_port[port] == 1 and "" or "s", port)
    end
    return lines, by_port, ports
end

-- Whether prefetch follows the array size on a connection, and why: the
-- option prefetch=tied|fixed if given; else tied when every execution with
-- fetches brought on its execute as many rows as its first fetch asks for
-- (m.tied_n of them, at the array sizes m.tied_sizes; an execution whose
-- execute brought all its rows shows nothing either way), fixed when one did
-- not (m.untied = {rows=, fetch=}); equal at array size 2 only is what
-- python-oracledb's and node-oracledb's default prefetch of 2 rows shows at
-- array size 2 too: fixed, but for JDBC and go-ora; with no execution to
-- tell, tied for JDBC (its fetch size is also the execute's prefetch) and
-- go-ora (its PREFETCH_ROWS is both), fixed otherwise.  driver: "JDBC",
-- "go-ora" or nil (from the logon's key/values).
-- Returns tied, and the "seen: ..." text (nil for the option).
M.DEFAULT_PREFETCH = 2
local TIED_DRIVERS = { JDBC = "JDBC, whose fetch size is also the execute's prefetch",
                       ["go-ora"] = "go-ora, whose PREFETCH_ROWS is the execute's and every fetch's" }
function M.prefetch_tied(m, prefetch_opt, driver)
    if prefetch_opt == "tied" or prefetch_opt == "fixed" then
        return prefetch_opt == "tied", nil
    end
    if m.untied then
        return false, string.format("an execute on its connection brought %d row%s where its fetches ask for %d",
            m.untied.rows, m.untied.rows == 1 and "" or "s", m.untied.fetch)
    end
    local sizes = {}
    for a in pairs(m.tied_sizes) do sizes[#sizes + 1] = a end
    table.sort(sizes)
    if m.tied_n > 0 and #sizes == 1 and sizes[1] == M.DEFAULT_PREFETCH and not TIED_DRIVERS[driver or ""] then
        return false, string.format("every execute on its connection brought as many rows as its fetches ask, " ..
            "but only at array size %d, which is also the default prefetch of python-oracledb and node-oracledb",
            M.DEFAULT_PREFETCH)
    end
    if m.tied_n > 0 then
        return true, string.format("every execute on its connection brought as many rows as its fetches ask: " ..
            "%d execution%s at array size%s %s", m.tied_n, m.tied_n == 1 and "" or "s", #sizes == 1 and "" or "s",
            table.concat(sizes, ", "))
    end
    if TIED_DRIVERS[driver or ""] then
        return true, "no fetch after an execute on its connection; " .. TIED_DRIVERS[driver]
    end
    return false, "no fetch after an execute on its connection"
end

-- The "prefetch:" line's assumption for a statement's profile p: "tied" or
-- "fixed", and its text: "tied to the array size (seen: ...)", "fixed at N
-- (seen: ...)" (N: the rows each execute asked for, or brought), or "kept as
-- given: prefetch=tied|fixed".
function M.prefetch_assumption(p, prefetch_opt)
    local kind = p.tied and "tied" or "fixed"
    local vals, have = {}, {}
    for _, e in ipairs(p.execs) do
        local v = e.prefetch and e.prefetch > 0 and e.prefetch or e.first
        if v and not have[v] then have[v] = true; vals[#vals + 1] = v end
    end
    table.sort(vals)
    local n = #vals > 0 and table.concat(vals, ", ") or "-"
    if prefetch_opt == "tied" or prefetch_opt == "fixed" then
        return kind, "kept as given: prefetch=" .. prefetch_opt .. (p.tied and "" or (" (at " .. n .. ")"))
    end
    if p.tied then
        return kind, string.format("tied to the array size (seen: %s)", p.tied_why or "-")
    end
    return kind, string.format("fixed at %s (seen: %s)", n, p.tied_why or "-")
end

-- A query: a statement that fetched rows: SELECT / WITH, any statement with
-- fetch calls, a PL/SQL block whose REF CURSOR or implicit results delivered
-- rows. DML (also with RETURNING), DDL, commits and queries that failed or
-- returned nothing get no advice.
local NOT_QUERY = { INSERT = true, UPDATE = true, DELETE = true, MERGE = true, CREATE = true, DROP = true,
                    ALTER = true, TRUNCATE = true, COMMIT = true, ROLLBACK = true, GRANT = true, REVOKE = true }
function M.is_query(sql, rts)
    -- (rows are never negative: a round trip with rows and a fetch end it)
    local rows, fetches = false, false
    for i = 1, #rts do
        local rt = rts[i]
        if (rt.rows or 0) ~= 0 then rows = true end
        if rt.call == FETCH then fetches = true end
        if rows and fetches then return true end
    end
    if not rows then return false end
    local text = sql:gsub("/%*.-%*/", " "):gsub("%-%-[^\n]*", " "):gsub("^[%s(]+", ""):upper()
    local word = text:match("^(%a+)")
    return not (word and NOT_QUERY[word])
end

-- Options before the filter: sizes=1,7,250 (array sizes to predict),
-- sdus=2048,8192 (SDUs), prefetch=tied|fixed, format=text|csv|json.
-- Returns opts, filter.
function M.parse_args(rest)
    local opts, tokens, i = {}, {}, 1
    for tok in (rest .. ","):gmatch("([^,]*),") do tokens[#tokens + 1] = tok end
    local function numbers(first)
        local list = { tonumber(first) }
        while tokens[i + 1] and tokens[i + 1]:match("^%d+$") do
            i = i + 1
            list[#list + 1] = tonumber(tokens[i])
        end
        return list
    end
    while i <= #tokens do
        local k, v = tokens[i]:match("^(%a+)=(.*)$")
        if k == "sizes" and v:match("^%d+$") then
            opts.sizes = numbers(v)
        elseif k == "sdus" and v:match("^%d+$") then
            opts.sdus = numbers(v)
        elseif k == "prefetch" and (v == "tied" or v == "fixed") then
            opts.prefetch = v
        elseif k == "format" and (v == "csv" or v == "json" or v == "text") then
            opts.format = v
        else
            break
        end
        i = i + 1
    end
    local filter = i <= #tokens and table.concat(tokens, ",", i) or nil
    if filter == "" then filter = nil end
    return opts, filter
end


return M
