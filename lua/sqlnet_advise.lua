-- sqlnet_advise.lua - array-size and SDU advisor, and the statements window.
--
--   tshark -r cap.pcapng -q -z sqlnet,advise[,filter]        (tshark)
--   Statistics > SQL*Net Advisor                              (Wireshark)
--   Statistics > SQL*Net Statements                           (Wireshark: wire AUTOTRACE)
--
-- From what the capture shows for each statement (rows, bytes per row, per
-- fetch overhead each way, time per round trip and per byte, SDU, MSS) it
-- predicts round trips, bytes, TNS packets, TCP segments and elapsed time at
-- other array sizes and SDUs, and recommends both. Only queries (statements
-- that fetched rows) are advised; the others are listed.
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
-- Loaded outside Wireshark (no register_stat_cmd_arg), the file returns the
-- model table so that tests can drive it with published parameters:
--   local M = dofile("sqlnet_advise.lua")
--
-- Runs on Lua 5.2 (Wireshark 4.0) and 5.4.
--
-- SPDX-License-Identifier: GPL-2.0-or-later

local M = {}

M.ARRAY_SIZES = { 1, 2, 5, 10, 15, 20, 50, 100, 200, 500, 1000, 2000, 5000 }
M.SDUS = { 2048, 8192, 32767, 65535, 2097152 }
M.TNS_DATA_HEADER = 10       -- 8-byte TNS header + 2-byte data flags
M.MAX_SDU = 2097152

local floor, ceil, max, min = math.floor, math.ceil, math.max, math.min

local function round(x) return floor(x + 0.5) end
M.round = round

-- Fetch calls one execution needs at array size a for `rem` rows after the
-- execute call's own.
function M.fetches(rem, a, ended)
    if ended then return 0 end
    return floor(rem / a) + 1
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
        local f = M.fetches(rem, a, ended)
        if tm then
            -- the execute as observed (its rows and bytes moved at the model's rates)
            el = el + (e.exec_time or 0) + tm.t_row * (first - (e.first or first))
                + M.transfer_time(tm, exec_to or 0) - M.transfer_time(tm, e.exec_to or exec_to or 0)
            if f > 0 then
                -- the gap after the execute as observed when fetches followed
                -- it; its rows moved at the model's rate
                el = el + (e.exec_gap and not e.ended and e.exec_gap + tm.g_row * (first - e.first)
                           or gap(first))
            end
        end
        if f > 0 then
            local last_n = rem - (f - 1) * a
            local full = fetch_bytes(s, a, false, a)
            local final = fetch_bytes(s, last_n, true, a)
            p.fetches = p.fetches + f
            p.to = p.to + (f - 1) * full + final
            add_response(full, f - 1)
            add_response(final, 1)
            if tm then
                -- every fetch but the last is followed by the client's gap
                el = el + (f - 1) * (rt_time(a, full) + gap(a)) + rt_time(last_n, final)
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
-- An SDU is recommended only when it predicts at least this much fewer TNS
-- packets or TCP segments, or this much less time, than the negotiated one.
M.SDU_MARGIN_COUNT, M.SDU_MARGIN_TIME = 0.10, 0.05

-- The SDU to recommend from predicted rows { {sdu=, packets=, segments=,
-- elapsed=, responses=, candidate=}, ... } (one of them the negotiated SDU):
-- the smallest candidate that is no worse than the negotiated SDU in
-- packets, segments and time, saves at least the margin in one of them, and
-- after which no candidate saves another margin's worth.  A saving of
-- packets or segments counts from two on (3 packets instead of 2 is no
-- reason to change a setting).  Returns the row and its savings (fractions
-- of the negotiated packets, segments, time), or nil.
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
    local cands, bp, bs, be = {}, 0, 0, 0
    for _, r in ipairs(rows) do
        if r.candidate and r.sdu ~= negotiated and no_worse(r) then
            cands[#cands + 1] = r
            local a, b, c = saving(r)
            bp, bs, be = max(bp, a), max(bs, b), max(be, c)
        end
    end
    table.sort(cands, function(a, b) return a.sdu < b.sdu end)
    for _, r in ipairs(cands) do
        local sp, ss, se = saving(r)
        if (sp >= M.SDU_MARGIN_COUNT or ss >= M.SDU_MARGIN_COUNT or se >= M.SDU_MARGIN_TIME)
            and bp - sp < M.SDU_MARGIN_COUNT and bs - ss < M.SDU_MARGIN_COUNT and be - se < M.SDU_MARGIN_TIME then
            return r, sp, ss, se
        end
    end
    return nil
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
        elseif not e.ended and M.fetches(rows, a, false) > 1 then
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
            if rt.call == 5 and rt.execution ~= 0 then
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
            if rt.call == 5 and rt.execution ~= 0 and not rt.lost then
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

if not register_stat_cmd_arg then
    return M           -- plain Lua: the model only
end

-- Without the sqlnet C plugin (sqlnet.so, sqlnet.dll) there are no sqlnet fields:
-- say so once, for all the sqlnet scripts, and register nothing (docs/install.md)
if not pcall(Field.new, "sqlnet.call") then
    if not rawget(_G, "sqlnet_plugin_missing_said") then
        rawset(_G, "sqlnet_plugin_missing_said", true)
        local msg = "sqlnet Lua reports: the sqlnet plugin (sqlnet.so) is not loaded, so -z sqlnet,advise, "
            .. "-z sqlnet,arraysize and the SQL*Net windows are off; install it (README.md, docs/install.md)"
        io.stderr:write(msg .. "\n")
        if gui_enabled and gui_enabled() then
            register_menu("SQL*Net (plugin not loaded)", function()
                TextWindow.new("SQL*Net"):set(msg)
            end, MENU_STAT_UNSORTED)
        end
    end
    return M
end


-- ---------------------------------------------------------------------------
-- Collecting round trips from the plugin's fields
-- ---------------------------------------------------------------------------

-- The plugin's round-trip records (plugin/consumers/lua_records.c): the same numbers
-- as the completing packets' fields, kept by a C listener on the "sqlnet"
-- tap, so that no Lua code runs per round trip while the capture is read.
-- The library is the plugin Wireshark has loaded (its SONAME is sqlnet.so);
-- without it (another build, Lua scripts without the plugin) the report
-- reads fields. SQLNET_LUA_RECORDS=0 turns it off (tests compare both).
local RECORDS
if os.getenv("SQLNET_LUA_RECORDS") ~= "0" then
    local ok, open = pcall(package.loadlib, "sqlnet.so", "luaopen_sqlnet_records")
    if ok and type(open) == "function" then
        local ok2, mod = pcall(open)
        if ok2 and type(mod) == "table" and mod.open then RECORDS = mod end
    end
end
M.records_available = function() return RECORDS ~= nil end

local F = {}
-- a field extractor, or nil when this build has no such field (the
-- once-per-round-trip sqlnet.rt.* and sqlnet.tls.undecrypted come with newer
-- plugins: Field.new of an unknown field fails, and a load error would take
-- every report with it)
local function field(name)
    local ok, f = pcall(Field.new, name)
    F[name] = ok and f or nil
    return F[name]
end
-- the fields the listeners other than the round trips' read
for _, n in ipairs({ "tcp.stream", "tcp.len", "tcp.options.mss_val", "tcp.options.timestamp.tsval",
                     "sqlnet.auth.value", "sqlnet.tls.undecrypted", "tcp.analysis.ack_rtt",
                     "tcp.analysis.zero_window" }) do
    field(n)
end
-- the round trips' fields, only without the plugin's records (every field a
-- Lua script names is built on every packet it can be on, and matched by a
-- filter Wireshark runs on every packet)
if not RECORDS then
    for _, n in ipairs({ "sqlnet.call", "sqlnet.fetch.rows", "sqlnet.sql",
                         "sqlnet.execution", "sqlnet.rows", "sqlnet.ora_error", "sqlnet.response.ttc_bytes",
                         "sqlnet.response.row_bytes", "sqlnet.response.bvc_bytes", "sqlnet.response.bytes",
                         "sqlnet.response.packets", "sqlnet.response.segments", "sqlnet.request.ttc_bytes",
                         "sqlnet.request.bytes", "sqlnet.time", "sqlnet.time.first", "sqlnet.request_in", "sqlnet.sdu",
                         "sqlnet.tdu", "sqlnet.version",
                         "sqlnet.rt.call", "sqlnet.rt.rows_asked", "sqlnet.rt.sql_id", "sqlnet.rt.values",
                         -- the time split's client part and the RTT (issue 23)
                         "sqlnet.rt.time.client", "sqlnet.rtt", "sqlnet.capture_point" }) do
        field(n)
    end
end
-- with the round-trip fields the completing packet names its call and the
-- rows it asked for: no need to remember every request
local HAVE_RT = RECORDS ~= nil or (F["sqlnet.rt.call"] ~= nil and F["sqlnet.rt.rows_asked"] ~= nil)

-- the value of a numeric field on this packet (nil when absent)
local function n(f)
    local fi = f()
    if fi then return fi.value end
end
-- a time field in seconds (NSTime)
local function secs(f)
    local fi = f()
    if not fi then return 0 end
    local v = fi.value
    if type(v) == "number" then return v end
    return tonumber(tostring(v)) or 0
end

local OTHER = "(calls outside a statement: logon, commit, ping ...)"

local function one_line(sql)
    return (sql:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

local function new_state()
    return { rts = {}, n_rts = 0, streams = {}, order = {}, by_sql = {}, req_call = {}, req_fetch = {}, lines = {},
             undecrypted = {}, seg = {}, seg_frame = {}, req_of = {} }
end

local function stream_of(st, stream)
    local c = st.streams[stream]
    if not c then
        c = { ts = false, multi_seg = false }
        st.streams[stream] = c
    end
    return c
end

-- The collectors: one listener per kind of packet, each with a filter that
-- lets through only the packets it reads (a Lua call and its field reads on
-- every packet of the capture cost more than the dissection of it):
--   syn       a client's SYN (MSS, timestamps)
--   segment   every segment with payload: the largest per stream and port
--             (the server's, once its port is known, gives the MSS when no
--             SYN was captured, or segments larger than it: GRO)
--   retrans   a retransmission (Wireshark's TCP analysis)
--   auth      the logon's key/values (the driver: JDBC ties prefetch to the
--             fetch size)
--   request   a call (its function and the rows it asks for), only without
--             the sqlnet.rt fields
--   rt        the packet that completes a round trip
local C = {}

function C.syn(st, pinfo)
    local c = stream_of(st, n(F["tcp.stream"]) or -1)
    local mss = n(F["tcp.options.mss_val"])
    if mss and (not c.mss_syn or mss < c.mss_syn) then c.mss_syn = mss end
    if F["tcp.options.timestamp.tsval"]() then c.ts = true end
end

local f_tcp_len = F["tcp.len"]
function C.segment(st, pinfo, tvb)
    -- by port pair (no field read: this runs on every segment); tcp.len
    -- only when the frame is longer than any before in that direction (the
    -- headers' length is the same in a direction unless its TCP options vary)
    local key = pinfo.src_port * 65536 + pinfo.dst_port
    local flen = tvb:len()
    if flen > (st.seg_frame[key] or 0) then
        st.seg_frame[key] = flen
        local fi = f_tcp_len()
        local len = fi and fi.value
        if len and len > (st.seg[key] or 0) then st.seg[key] = len end
    end
end

function C.retrans(st, pinfo)
    -- a segment sent again: a loss, and the round trip it falls in waited for
    -- its recovery (M.mark_losses)
    local c = stream_of(st, n(F["tcp.stream"]) or -1)
    c.retrans = c.retrans or {}
    c.retrans[#c.retrans + 1] = pinfo.abs_ts
end

-- an ACK 25 ms or more after the data it covers (a delayed ACK, or one that
-- crossed a slow link): M.mark_pauses decides
function C.late_ack(st, pinfo)
    local c = stream_of(st, n(F["tcp.stream"]) or -1)
    local a = n(F["tcp.analysis.ack_rtt"])
    if not a then return end
    a = type(a) == "number" and a or tonumber(tostring(a)) or 0
    c.late_acks = c.late_acks or {}
    c.late_acks[#c.late_acks + 1] = { t = pinfo.abs_ts, ack_rtt = a, frame = pinfo.number,
        key = pinfo.src_port * 65536 + pinfo.dst_port }
end

-- a zero window and the window updates that end it
function C.window(st, pinfo)
    local c = stream_of(st, n(F["tcp.stream"]) or -1)
    c.windows = c.windows or {}
    c.windows[#c.windows + 1] = { t = pinfo.abs_ts, frame = pinfo.number, src = pinfo.src_port,
                                  zero = F["tcp.analysis.zero_window"] and F["tcp.analysis.zero_window"]() ~= nil }
end

function C.auth(st, pinfo)
    local c = stream_of(st, n(F["tcp.stream"]) or -1)
    for _, fi in ipairs({ F["sqlnet.auth.value"]() }) do
        local v = tostring(fi.value):lower()
        if v:find("jdbc", 1, true) then c.jdbc = true end
        -- go-ora's SESSION_CLIENT_DRIVER_NAME: its PREFETCH_ROWS is the execute's and every fetch's
        if v:find("oracleclientgo", 1, true) then c.goora = true end
    end
end

-- the ACCEPT (server to client): the connection's addresses, for its SDU advice
function C.accept(st, pinfo)
    local c = stream_of(st, n(F["tcp.stream"]) or -1)
    local function addr(a, port)
        a = tostring(a)
        return (a:find(":", 1, true) and ("[" .. a .. "]") or a) .. ":" .. tostring(port)
    end
    c.server, c.client = addr(pinfo.src, pinfo.src_port), addr(pinfo.dst, pinfo.dst_port)
end

function C.request(st, pinfo)
    local frame = pinfo.number
    st.req_call[frame] = n(F["sqlnet.call"])
    st.req_fetch[frame] = n(F["sqlnet.fetch.rows"])
end

function C.undecrypted(st, pinfo)
    local port, stream = n(F["sqlnet.tls.undecrypted"]), n(F["tcp.stream"])
    if port and stream then st.undecrypted[stream] = port end
end

local f_rows, f_req, f_stream, f_exec = F["sqlnet.rows"], F["sqlnet.request_in"], F["tcp.stream"], F["sqlnet.execution"]
local f_sql, f_err, f_to, f_rowb = F["sqlnet.sql"], F["sqlnet.ora_error"], F["sqlnet.response.ttc_bytes"],
    F["sqlnet.response.row_bytes"]
local f_bvc, f_tns_to, f_pk, f_seg = F["sqlnet.response.bvc_bytes"], F["sqlnet.response.bytes"],
    F["sqlnet.response.packets"], F["sqlnet.response.segments"]
local f_from, f_tns_from, f_time, f_first = F["sqlnet.request.ttc_bytes"], F["sqlnet.request.bytes"],
    F["sqlnet.time"], F["sqlnet.time.first"]
local f_rt_call, f_rt_asked, f_rt_sql_id = F["sqlnet.rt.call"], F["sqlnet.rt.rows_asked"], F["sqlnet.rt.sql_id"]

-- sqlnet.rt.values: "rt1 number request_frame call execution cursor rows_asked rows
-- req_ttc req_tns req_packets resp_ttc resp_tns resp_packets resp_data_packets
-- resp_segments row_bytes bvc_bytes time_ns first_ns ora_error partial largest_segment"
-- ("-" absent, 22 values; the largest segment replaces the segment listener
-- but over TLS):
-- one field read instead of twenty (a field's value costs more than the rest
-- of the collection)
local f_rt_values = F["sqlnet.rt.values"]
local VALUES_PATTERN = "^rt1" .. string.rep(" (%S+)", 22)

-- the round trip's numbers from sqlnet.rt.values, or nil without it
local function rt_values()
    if not f_rt_values then return nil end
    local fi = f_rt_values()
    if not fi then return nil end
    local v = { fi.value:match(VALUES_PATTERN) }
    if #v ~= 22 then return nil end
    for i = 1, 22 do v[i] = tonumber(v[i]) end   -- "-" becomes nil
    return v
end

-- Where a round trip's lazily read values come from (the SQL text, the
-- negotiated sizes, the time split, the RTT): the completing packet's
-- fields, or the plugin's record (RECORD_SOURCE below). Each is read only
-- where the collection needs it.
local FIELD_SOURCE = {
    sql = function() local fi = f_sql(); return fi and fi.value end,
    sizes = function() return n(F["sqlnet.sdu"]) or 0, n(F["sqlnet.tdu"]) or 0, n(F["sqlnet.version"]) or 0 end,
    client_ms = function()
        local f = F["sqlnet.rt.time.client"]
        local fi = f and f()
        return fi and fi.value
    end,
    rtt = function()
        local f_rtt, f_cp = F["sqlnet.rtt"], F["sqlnet.capture_point"]
        local v = f_rtt and f_rtt()
        if not v then return nil end
        local cp = f_cp and f_cp()
        return tonumber(tostring(v.value)), cp and cp.value
    end,
    sql_id = function() return f_rt_sql_id and n(f_rt_sql_id) end,
}

-- One round trip into the state. stream: its tcp.stream; key: the
-- completing (server's) packet's port pair; frame, now: that packet's number
-- and time; src: where the lazily read values come from; then its numbers
-- in sqlnet.rt.values's order (request frame, call, execution, rows asked,
-- rows, request TTC and TNS bytes, response TTC and TNS bytes, TNS packets,
-- TCP segments, row bytes, bit-vector bytes, response time and time to the
-- first response packet in ns, ORA error, largest segment), as arguments:
-- no table per round trip besides its own (this runs once per round trip of
-- the capture).
local function add_rt(st, stream, key, frame, now, src, req, call, execution, fetch, rows, from, tns_from,
                      to, tns_to, packets, segments, rowb, bvc, tns, fns, err, largest)
    if not (rows and req) then return end
    local c = st.streams[stream] or stream_of(st, stream)
    -- the completing packet is the server's
    local seg_key = c.seg_key
    if not seg_key then c.seg_key, c.seg_key_frame, seg_key = key, frame, key end
    if largest and largest > (st.seg[seg_key] or 0) then st.seg[seg_key] = largest end
    if not c.sdu or c.sdu == 0 then
        c.sdu, c.tdu, c.version = src.sizes()
    end
    execution = execution or 0
    -- the SQL text: the same as the previous round trip's within an execution
    local prev = c.last
    local sql
    if prev and execution ~= 0 and prev.execution == execution then
        sql = c.last_sql
    else
        local text = src.sql()
        sql = OTHER
        if text then
            sql = st.lines[text]
            if not sql then
                sql = one_line(text)
                st.lines[text] = sql
            end
        end
    end
    -- sixteen keys (a Lua table's hash part holds a power of two of them):
    -- the ORA error only when there is one, the SQL text and the TNS bytes
    -- from the client on the statement
    local t = tns / 1e9
    local rt = {
        stream = stream, execution = execution, call = call, fetch = fetch, rows = rows,
        to = to, row_bytes = rowb, bvc = bvc, tns_to = tns_to,
        packets = packets, segments = segments, from = from,
        time = t, first = fns / 1e9, start = now - t, gap = 0,
    }
    if err and err ~= 0 then rt.error = err end
    if segments > packets then c.multi_seg = true end
    -- client time before this request, charged to the previous round trip of
    -- the same execution (time between executions is the application's)
    local idle
    if prev and prev.execution ~= 0 and prev.execution == execution and rt.start > c.last_stop then
        prev.gap = rt.start - c.last_stop
    elseif prev and not (execution ~= 0 and prev.execution == execution) then
        -- the first call of an execution (or a call outside one): the time
        -- since the connection's previous round trip ended is idle time, the
        -- statement's own part "idle before" (the plugin's client part: less
        -- the RTT near the server; as the Statement table counts it)
        local client = src.client_ms()
        idle = client and client / 1000 or max(0, rt.start - c.last_stop)
    end
    -- the conversation's RTT and where the capture was taken (the latest, at
    -- each execution's first call: two field reads per round trip cost)
    if idle or not c.rtt then
        local rtt, vantage = src.rtt()
        if rtt then
            c.rtt = rtt
            c.vantage = vantage or c.vantage
        end
    end
    c.last, c.last_stop, c.last_sql = rt, now, sql
    local n = st.n_rts + 1
    st.n_rts, st.rts[n], st.req_of[n] = n, rt, req
    local s = st.by_sql[sql]
    if not s then
        s = { sql = sql, rts = {}, n_rts = 0, first_frame = req, last_frame = frame, tns_from = 0 }
        st.by_sql[sql] = s
        st.order[#st.order + 1] = s
    end
    if req < s.first_frame then s.first_frame = req end
    s.last_frame = frame
    if not s.sql_id and sql ~= OTHER then s.sql_id = src.sql_id() end
    n = s.n_rts + 1
    s.n_rts, s.rts[n] = n, rt
    s.tns_from = s.tns_from + (tns_from or 0)
    if idle and idle > 0 then s.idle = (s.idle or 0) + idle end
end

-- the bind values the call sent (a per-call fact of the round-trip record)
local f_bind_values = field("sqlnet.rt.bind_values")

-- the completing packet of a round trip, read from its fields
function C.rt(st, pinfo)
    local V = rt_values()
    if not V then
        -- a plugin without sqlnet.rt.values: the fields one by one
        local fi = f_rows()
        local rows = fi and fi.value
        fi = f_req()
        local req = fi and fi.value
        if not (rows and req) then return end
        local call, fetch
        if HAVE_RT then
            call, fetch = n(f_rt_call), n(f_rt_asked)
        else
            call, fetch = st.req_call[req], st.req_fetch[req]
            st.req_call[req], st.req_fetch[req] = nil, nil
        end
        fi = f_exec()
        V = { nil, req, call, fi and fi.value or nil, nil, fetch, rows, n(f_from) or 0, n(f_tns_from), nil,
              n(f_to) or 0, n(f_tns_to) or 0, n(f_pk) or 0, nil, n(f_seg) or 0, n(f_rowb) or 0, n(f_bvc) or 0,
              secs(f_time) * 1e9, secs(f_first) * 1e9, n(f_err), nil, nil }
    end
    local fi, n0 = f_stream(), st.n_rts
    add_rt(st, fi and fi.value or -1, pinfo.src_port * 65536 + pinfo.dst_port, pinfo.number, pinfo.abs_ts,
           FIELD_SOURCE, V[2], V[3], V[4], V[6], V[7], V[8], V[9], V[11], V[12], V[13], V[15], V[16], V[17],
           V[18], V[19], V[20], V[22])
    if st.n_rts > n0 and f_bind_values then st.rts[st.n_rts].bind_values = n(f_bind_values) end
end


-- a collector's records into the state (then forgotten by the collector)
local function take_records(st, col, texts)
    local cur = {}
    local function text(k)
        if not k then return nil end
        local t = texts[k]
        if not t then t = col:text(k); texts[k] = t end
        return t
    end
    local src = {
        sql = function() return text(cur.sql) end,
        sizes = function() return cur.sdu, cur.tdu, cur.version end,
        client_ms = function() return cur.client end,
        rtt = function() return cur.rtt, cur.vantage end,
        sql_id = function() return text(cur.sql_id) end,
    }
    for i = 1, col:count() do
        local stream, sp, dp, frame, now, req, call, execution, fetch, rows, from, tns_from, to, tns_to, packets,
              segments, rowb, bvc, tns, fns, err, largest, sdu, tdu, version, sql, sql_id, client, rtt, vantage =
            col:get(i)
        cur.sql, cur.sdu, cur.tdu, cur.version, cur.client, cur.rtt, cur.vantage, cur.sql_id =
            sql, sdu, tdu, version, client, rtt, vantage, sql_id
        local n0 = st.n_rts
        add_rt(st, stream, sp * 65536 + dp, frame, now, src, req, call, execution, fetch, rows, from, tns_from,
               to, tns_to, packets, segments, rowb, bvc, tns, fns, err, largest)
        if st.n_rts > n0 then st.rts[st.n_rts].bind_values = col:fact(i, "bind_values") end
    end
    col:clear()
end

-- The listeners of one report instance, all feeding `get()`'s state (the
-- state is replaced on reset).  filter: the user's filter on sqlnet packets.
local function listeners(get, filter, reset)
    local function f(expr) return filter and ("(" .. filter .. ") && (" .. expr .. ")") or expr end
    local list = {
        { "syn", "tcp.flags.syn == 1" },
        { "retrans", "tcp.analysis.retransmission" },
        { "auth", "sqlnet.auth.value" },
        { "accept", "sqlnet.type == 2" },
    }
    local col
    if RECORDS then
        local err
        col, err = RECORDS.open(f("sqlnet.request_in && sqlnet.rows"))
        if not col then error(err) end
    else
        list[#list + 1] = { "rt", f("sqlnet.request_in && sqlnet.rows") }
    end
    -- pauses (M.mark_pauses): late ACKs, zero windows
    if F["tcp.analysis.ack_rtt"] then
        list[#list + 1] = { "late_ack", "tcp.len == 0 && tcp.analysis.ack_rtt >= 0.025" }
        list[#list + 1] = { "window", "tcp.analysis.zero_window || tcp.analysis.window_update" }
    end
    -- the largest segment per direction: from sqlnet.rt.values, else a
    -- listener on every segment (a Lua call per packet: the advisor's
    -- largest cost before the plugin gave it)
    -- (over TLS the plugin does not know it: the listener on TLS segments)
    list[#list + 1] = { "segment", (RECORDS or f_rt_values) and "tls && tcp.len > 0" or "tcp.len > 0" }
    if not HAVE_RT then list[#list + 1] = { "request", f("sqlnet.direction == 0 && (sqlnet.call || sqlnet.fetch.rows)") } end
    if F["sqlnet.tls.undecrypted"] then list[#list + 1] = { "undecrypted", "sqlnet.tls.undecrypted" } end
    local taps = {}
    for i, l in ipairs(list) do
        local tap = Listener.new("frame", l[2])
        local fn = C[l[1]]
        function tap.packet(pinfo, tvb) fn(get(), pinfo, tvb) end
        -- one reset for the instance (the first listener's)
        if i == 1 then function tap.reset() reset() end end
        taps[i] = tap
    end
    -- before a report reads the state: the records the plugin has kept
    -- since (none to take without the records module)
    local texts = {}
    function taps.collect()
        if col then take_records(get(), col, texts) end
    end
    -- the window's end: every listener removed
    function taps.close()
        for _, tap in ipairs(taps) do tap:remove() end
        if col then col:close() end
    end
    return taps
end

-- Effective MSS of the server's direction for one stream: what the client's
-- SYN allows (less the timestamp option), else the largest server segment.
local function stream_mss(st, c)
    if not c then return nil, "unknown" end
    c.max_server_seg = c.seg_key and st.seg[c.seg_key] or 0
    if c.mss_syn then
        local mss = c.mss_syn - (c.ts and 12 or 0)
        if c.max_server_seg > mss then return c.max_server_seg, "largest server segment" end
        return mss, c.ts and "client SYN MSS less timestamps" or "client SYN MSS"
    end
    if c.max_server_seg > 0 then
        return c.max_server_seg, c.multi_seg and "largest server segment" or "largest server segment (lower bound)"
    end
    return nil, "unknown"
end

-- The share of per-TNS-packet segments the connection showed (M.segment_push
-- on its responses of several TNS packets because of the SDU: more TTC bytes
-- than one packet holds; not an error's MARKER packets), once per stream;
-- nil when none tells.
-- The round trips of one stream (grouped once per report: a capture of
-- many connections would otherwise walk every round trip per connection).
local function stream_rts(st, stream)
    if not st.by_stream or st.by_stream_n ~= #st.rts then group_by_stream(st) end
    return st.by_stream[stream] or {}
end

local function connection_push(st, stream, mss)
    local c = st.streams[stream]
    local sdu = c and c.sdu
    if not c or not mss or not sdu or sdu <= 0 then return nil end
    if c.push_key ~= sdu .. "/" .. mss then
        local responses = {}
        for _, rt in ipairs(stream_rts(st, stream)) do
            if rt.packets > 1 and rt.to > sdu - M.TNS_DATA_HEADER and not rt.lost then
                responses[#responses + 1] = { ttc = rt.to, segments = rt.segments }
            end
        end
        c.push_key, c.push, c.push_n = sdu .. "/" .. mss, M.segment_push(responses, sdu, mss)
    end
    return c.push
end

-- Per connection (tcp stream): the time model fitted on the fetch round trips
-- of all its statements (M.fit_connection), and whether prefetch follows the
-- array size there (JDBC, or every query execution with fetches shows its
-- execute asking for as many rows as its fetches, at two array sizes at
-- least).
local FIT_POINTS = 2000
local function connection_models(st, prefetch_opt)
    M.mark_losses(st)
    M.mark_pauses(st)
    -- the round trips of each execution, in the order of their first
    -- (by stream, then execution number: no key string per round trip)
    -- (an execution's round trips mostly follow each other: the current one
    -- and its count kept at hand)
    local by_stream, order, norder = {}, {}, 0
    local counts = {}
    local rts = st.rts
    local cur_e, cur_k, cur_stream, cur_x = nil, 0, nil, nil
    for i = 1, #rts do
        local rt = rts[i]
        local x = rt.execution
        if x ~= 0 then
            local stream = rt.stream
            if x ~= cur_x or stream ~= cur_stream then
                local by_exec = by_stream[stream]
                if not by_exec then by_exec = {}; by_stream[stream] = by_exec end
                local e = by_exec[x]
                if not e then
                    e = {}
                    by_exec[x] = e
                    norder = norder + 1
                    order[norder] = e
                end
                if cur_e then counts[cur_e] = cur_k end
                cur_e, cur_k, cur_stream, cur_x = e, counts[e] or 0, stream, x
            end
            cur_k = cur_k + 1
            cur_e[cur_k] = rt
        end
    end
    local models = {}
    for _, e in ipairs(order) do
        local m = models[e[1].stream]
        if not m then
            m = { tied_n = 0, tied_sizes = {},
                  D = { nf = 0, f_time = {}, f_first = {}, f_rows = {}, f_bytes = {}, f_w = {}, f_last = {},
                        ng = 0, g_gap = {}, g_rows = {}, g_w = {},
                        r_groups = { count = {}, time = {}, sizes = {} },
                        ne = 0, e_time = {}, e_rows = {}, e_bytes = {}, e_w = {} } }
            models[e[1].stream] = m
        end
        local D = m.D
        -- a fetch's cost: its round trip and the client's gap before the next
        -- call of the execution (the last fetch has none: left out)
        -- every execution weighs the same in the fit, whatever its number of
        -- fetches (an array size of 1 would otherwise decide the per-row time)
        -- (a round trip that waited for a retransmission is left out: its time
        -- is the recovery's, which no array size predicts)
        -- (curve_group's work inline: once per round trip)
        local G = D.r_groups
        local Gc, Gt, Gs = G.count, G.time, G.sizes
        for i = 1, #e do
            local rt = e[i]
            local b = rt.to
            if b > 0 and not rt.lost then
                local t = rt.time - rt.first
                if not (t > 0) then t = 0 end
                local k = Gc[b]
                if not k then
                    Gs[#Gs + 1] = b
                    Gc[b], Gt[b] = 1, t
                else
                    Gc[b], Gt[b] = k + 1, Gt[b] + t
                end
            end
        end
        local ex = e[1]
        if ex.call ~= 5 and ex.rows > 0 and not ex.lost then      -- not a fetch: the execute
            local k = D.ne + 1
            D.ne, D.e_time[k], D.e_rows[k], D.e_bytes[k], D.e_w[k] = k, ex.time, ex.rows, ex.to, 1
        end
        -- (within the execution, each fetch weighs its share of the execution's
        -- time: a last fetch of no rows after an execute that brought them all is
        -- a sliver of its statement's time, and weighs as much)
        -- (an execution of more than FIT_POINTS fetches is fitted on every
        -- step-th of them, each weighing for step: its fetches are samples of
        -- the same call, and the fit's cost grows with its points)
        local total = 0
        for i = 1, #e do total = total + e[i].time + e[i].gap end
        local step = max(1, ceil((#e - 1) / FIT_POINTS))
        for i = 2, #e do
            local rt = e[i]
            if not rt.lost and ((i - 2) % step == 0 or i == #e) then
                local k = D.nf + 1
                D.nf, D.f_time[k], D.f_first[k], D.f_rows[k], D.f_bytes[k], D.f_w[k], D.f_last[k] =
                    k, rt.time, rt.first, rt.rows, rt.to,
                    (total > 0 and (rt.time + rt.gap) / total or 1 / (#e - 1)) * (i == #e and 1 or step), i == #e
            end
        end
        -- the client's gap after each fetch of the execution but the last (the
        -- gap after the execute is the statement's own: describe, first rows)
        for i = 2, #e - 1, step do
            local rt = e[i]
            if not rt.lost then
                local k = D.ng + 1
                D.ng, D.g_gap[k], D.g_rows[k], D.g_w[k] = k, rt.gap, rt.rows, 1 / (#e - 2) * step
            end
        end
        -- prefetch: the rows the execute brought against the rows its first
        -- fetch asks for (an execution without fetches shows nothing either way)
        if #e > 1 and ex.call ~= 5 and e[2].call == 5 and e[2].fetch and e[2].fetch > 0 then
            if ex.rows == e[2].fetch then
                m.tied_n = m.tied_n + 1
                m.tied_sizes[e[2].fetch] = true
            elseif not m.untied then
                m.untied = { rows = ex.rows, fetch = e[2].fetch }
            end
        end
    end
    for stream, m in pairs(models) do
        local c = st.streams[stream]
        if m.D.nf >= 2 and m.D.ng >= 1 then
            m.timing = fit_connection_cols(m.D)
        end
        m.D = nil
        m.tied, m.why = M.prefetch_tied(m, prefetch_opt, c and (c.jdbc and "JDBC" or c.goora and "go-ora"))
    end
    return models
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

-- Build the model profile of one statement from its round trips.
local function profile(st, s, models)
    local execs, by_exec = {}, {}
    local p = { execs = {}, min_array = 1, fixed_rts = 0, fixed_to = 0, fixed_from = 0,
                fixed_sizes = {}, rows = 0, observed = { round_trips = #s.rts, to = 0, from = 0,
                packets = 0, tns_to = 0, segments = 0, elapsed = 0 },
                notes = {} }
    -- one pass over the statement's round trips (the sums in their order)
    local o = p.observed
    local o_to, o_from, o_packets, o_tns_to, o_segments, o_elapsed = 0, 0, 0, 0, 0, 0
    local o_rt_time, o_client_time, o_paused = 0, 0, nil
    local rows, fixed_rts, fixed_to, fixed_from, fixed_sizes = 0, 0, 0, 0, p.fixed_sizes
    local t_other, lost = 0, nil
    local pauses = st.pauses
    local last_stream, in_stream
    local cur_e, cur_rts, cur_n, cur_x, cur_in = nil, nil, 0, nil, nil
    local sdu, tdu, version = 0, 0, 0
    local rts = s.rts
    for i = 1, #rts do
        local rt = rts[i]
        local to, from, time, gap, paused = rt.to, rt.from, rt.time, rt.gap, rt.paused
        o_to, o_from = o_to + to, o_from + from
        o_packets, o_tns_to, o_segments = o_packets + rt.packets, o_tns_to + rt.tns_to, o_segments + rt.segments
        -- measured: with the pauses M.mark_pauses took out of the round trip
        o_elapsed = o_elapsed + time + gap + (paused or 0)
        local raw = rt.raw
        o_rt_time = o_rt_time + (raw and raw.time or time)
        o_client_time = o_client_time + (raw and raw.gap or gap)
        if paused then
            o_paused = (o_paused or 0) + paused
            for _, x in ipairs(pauses and pauses[rt] or {}) do
                p.pauses = p.pauses or {}
                p.pauses[#p.pauses + 1] = x
            end
        end
        rows = rows + rt.rows
        local stream = rt.stream
        if stream ~= last_stream then
            -- (the connection's sizes: the largest over the statement's)
            last_stream = stream
            local c = st.streams[stream]
            sdu = max(sdu, c and c.sdu or 0)
            tdu = max(tdu, c and c.tdu or 0)
            version = max(version, c and c.version or 0)
            p.stream = p.stream or stream
            in_stream = by_exec[stream]
            if not in_stream then in_stream = {}; by_exec[stream] = in_stream end
        end
        local x = rt.execution
        if x ~= 0 then
            -- by stream, then execution number (no key string per round trip;
            -- the current execution's list and count at hand)
            if x ~= cur_x or in_stream ~= cur_in then
                local e = in_stream[x]
                if not e then
                    e = { rts = {}, n = 0 }
                    in_stream[x] = e
                    execs[#execs + 1] = e
                end
                if cur_e then cur_e.n = cur_n end
                cur_e, cur_rts, cur_n, cur_x, cur_in = e, e.rts, e.n, x, in_stream
            end
            cur_n = cur_n + 1
            cur_rts[cur_n] = rt
        else
            fixed_rts = fixed_rts + 1
            fixed_to, fixed_from = fixed_to + to, fixed_from + from
            fixed_sizes[#fixed_sizes + 1] = to
            t_other = t_other + time + gap
        end
        if rt.lost then
            lost = lost or {}
            lost[#lost + 1] = rt
        end
    end
    if cur_e then cur_e.n = cur_n end
    o.to, o.from, o.packets, o.tns_to, o.segments, o.elapsed = o_to, o_from, o_packets, o_tns_to, o_segments,
        o_elapsed
    o.rt_time, o.client_time, o.paused = o_rt_time, o_client_time, o_paused
    p.rows, p.fixed_rts, p.fixed_to, p.fixed_from = rows, fixed_rts, fixed_to, fixed_from
    p.sdu, p.tdu, p.version = sdu, tdu, version
    local fetch_rows, row_data, bvc, bvc_rows, over, over_n, last, last_n = 0, 0, 0, 0, 0, 0, 0, 0
    local req_bytes, req_n, first_rts, transfer, transfer_bytes = 0, 0, {}, 0, 0
    local n_first = 0
    local sizes, seen = {}, {}
    local undrained = 0
    for _, e in ipairs(execs) do
        local ex = e.rts[1]
        -- the execute call is one round trip whatever the array size; its
        -- response (with its prefetched rows) is added by M.predict
        p.fixed_rts = p.fixed_rts + 1
        p.fixed_from = p.fixed_from + ex.from
        local rem, ended = 0, ex.error == 1403
        for i = 2, #e.rts do
            local rt = e.rts[i]
            rem = rem + rt.rows
            fetch_rows = fetch_rows + rt.rows
            row_data = row_data + (rt.row_bytes - rt.bvc)
            if rt.rows > 1 then
                bvc, bvc_rows = bvc + rt.bvc, bvc_rows + rt.rows - 1
            end
            if i == #e.rts and rt.error == 1403 then
                last, last_n = last + (rt.to - rt.row_bytes), last_n + 1
            else
                over, over_n = over + (rt.to - rt.row_bytes), over_n + 1
            end
            req_bytes, req_n = req_bytes + rt.from, req_n + 1
            n_first = n_first + 1
            first_rts[n_first] = rt.first + rt.gap
            transfer = transfer + max(0, rt.time - rt.first)
            transfer_bytes = transfer_bytes + rt.tns_to
            if rt.fetch and rt.fetch > 0 and not seen[rt.fetch] then
                seen[rt.fetch] = true
                sizes[#sizes + 1] = rt.fetch
            end
        end
        if #e.rts > 1 and e.rts[#e.rts].error ~= 1403 then undrained = undrained + 1 end
        p.execs[#p.execs + 1] = { rem = rem, ended = ended or #e.rts == 1, rows = ex.rows + rem,
                                  first = ex.rows, exec_to = ex.to, exec_bvc = ex.bvc, exec_row_bytes = ex.row_bytes,
                                  prefetch = ex.fetch }
        if #e.rts > 1 then p.fetched = true end
    end
    table.sort(sizes)
    p.array_size = sizes[#sizes]
    -- per row: row data without bit vectors; bit vectors per row after the first
    if fetch_rows > 0 then
        p.row_bytes = row_data / fetch_rows
    else
        local r, b = 0, 0
        for _, e in ipairs(execs) do r, b = r + e.rts[1].rows, b + e.rts[1].row_bytes - e.rts[1].bvc end
        p.row_bytes = r > 0 and b / r or 0
    end
    p.bvc_bytes = bvc_rows > 0 and bvc / bvc_rows or 0
    -- the execute response less its rows: what it carries whatever the prefetch
    for _, e in ipairs(p.execs) do
        e.exec_overhead = e.exec_to - e.first * p.row_bytes - max(0, e.first - 1) * p.bvc_bytes
    end
    if over_n > 0 then
        p.overhead = over / over_n
    elseif last_n > 0 then
        p.overhead = last / last_n
        p.notes[#p.notes + 1] = "one fetch per execution: the overhead of a fetch that does not end the " ..
            "cursor was not seen, so bytes at smaller array sizes are over-estimated"
    else
        p.overhead = 0
    end
    p.overhead_last = last_n > 0 and last / last_n or p.overhead
    p.request_bytes = req_n > 0 and req_bytes / req_n or 0
    p.varint = true     -- the universal (thin client) encoding; fixed-width native counts do not change
    if fetch_rows > 0 and bvc_rows == 0 and (p.array_size or 0) <= 1 then
        p.notes[#p.notes + 1] = "single-row fetches: the cost of bit vectors between rows of one " ..
            "response is not visible, so bytes at larger array sizes may be under-estimated"
    end
    if undrained > 0 then
        p.notes[#p.notes + 1] = string.format("%d execution(s) stopped fetching before the last row; " ..
            "predictions assume every row is fetched", undrained)
    end
    -- time: per call, per row and per byte from the connection's fit (all its
    -- statements' fetches); without two fetches there, this statement's own
    -- median (server first byte + client gap) and transfer rate
    local m = models and models[p.stream]
    if m and m.timing then
        p.timing = m.timing
        p.t_rt, p.t_row, p.t_byte = m.timing.t_call, m.timing.t_row, m.timing.t_byte
        p.time_source = "fitted on the connection's round trips"
    else
        p.t_rt = median(first_rts)
        p.t_row = 0
        p.t_byte = transfer_bytes > 0 and transfer / transfer_bytes or 0
        p.time_source = "this statement's fetches"
    end
    if m then p.tied, p.tied_why = m.tied, m.why end
    if p.tied and not p.array_size then
        -- no fetch: with prefetch tied, the rows the execute asked for are the array size
        for _, e in ipairs(p.execs) do
            if e.prefetch and e.prefetch > 0 then p.array_size = max(p.array_size or 0, e.prefetch) end
        end
    end
    -- the execute round trips and the calls outside an execution cost what
    -- they were observed to cost; the fetches and the gaps come from the model
    for _, e in ipairs(execs) do
        local pe
        for _, x in ipairs(p.execs) do if x.exec_to == e.rts[1].to and not x.exec_time then pe = x; break end end
        if pe then
            local ex = e.rts[1]
            if ex.lost and p.timing then
                -- the execute waited for a retransmission: the model's time for it
                local tm = p.timing
                pe.exec_time = tm.t_call + (tm.t_exec or 0) + tm.t_row * ex.rows + M.transfer_time(tm, ex.to)
            else
                pe.exec_time, pe.exec_gap = ex.time, ex.gap
            end
        end
    end
    -- retransmissions: the round trips that waited for one, and how much longer
    -- they took than the model's time for them (the recovery)
    for _, rt in ipairs(lost or {}) do
        do
            local l = p.loss or { segments = 0, round_trips = 0, excess = 0 }
            p.loss = l
            l.segments, l.round_trips = l.segments + rt.lost, l.round_trips + 1
            local tm = p.timing
            if tm and rt.execution ~= 0 then
                local model = tm.t_call + tm.t_row * rt.rows + M.transfer_time(tm, rt.to)
                    + (rt.call ~= 5 and (tm.t_exec or 0) or 0)
                    + (rt.gap > 0 and (tm.g_call + tm.g_row * rt.rows) or 0)
                l.excess = l.excess + max(0, rt.time + rt.gap - model)
            end
        end
    end
    p.t_other = t_other
    -- the statement's wire time: measured, less its pauses (idle time before
    -- its executions is not in it): what it is compared and predicted by
    p.observed.wire = p.observed.elapsed - (p.observed.paused or 0)
    p.idle_before = s.idle or 0
    if p.pauses then table.sort(p.pauses, function(a, b) return (a.frame or 0) < (b.frame or 0) end) end
    local c0 = st.streams[p.stream]
    p.rtt, p.vantage = c0 and c0.rtt, c0 and c0.vantage
    if not p.timing then
        p.t_fixed = 0
        p.t_fixed = p.observed.wire - M.predict(p, p.array_size or 1).elapsed
    end
    p.model_at_observed = M.predict(p, p.array_size or 1).elapsed
    local c = st.streams[p.stream]
    p.mss, p.mss_source = stream_mss(st, c)
    p.multi_seg = c and c.multi_seg
    p.push = p.mss_source and p.mss_source:find("SYN", 1, true) and connection_push(st, p.stream, p.mss) or nil
    return p
end

-- ---------------------------------------------------------------------------
-- Rendering
-- ---------------------------------------------------------------------------

local function fmt_int(x) return string.format("%d", round(x)) end
local function ms(x) return string.format("%.3f", x * 1000) end

-- A statement's header: its number, its text, its filter and frames
-- (CONTRACT: the same form in every report).
local function header(s)
    if s.sql == OTHER then
        return string.format("Calls outside a statement: logon, commit, ping ... (frames %d-%d)",
            s.first_frame, s.last_frame)
    end
    return string.format("Statement %d: %s (%sframes %d-%d)", s.number, s.sql,
        s.sql_id and string.format("sqlnet.rt.sql_id == \"%s\", ", s.sql_id) or "", s.first_frame, s.last_frame)
end

-- Number the statements (distinct SQL texts) 1, 2, ... in the order of
-- their first call's frame across the whole capture; returns them in that
-- order, the calls outside a statement (if any) first.
local function number_statements(st)
    local list = {}
    for _, s in ipairs(st.order) do list[#list + 1] = s end
    table.sort(list, function(a, b)
        if (a.sql == OTHER) ~= (b.sql == OTHER) then return a.sql == OTHER end
        return a.first_frame < b.first_frame
    end)
    local n = 0
    for _, s in ipairs(list) do
        if s.sql ~= OTHER then n = n + 1; s.number = n end
    end
    return list
end

-- rec (optional) receives the figures for -z sqlnet,advise,format=csv|json:
-- rec.observed, rec.predictions (by array size), rec.sdus (by SDU), rec.advice.
local function advise_statement(out, s, p, opts, rec)
    rec = rec or {}
    local rows_per_exec = 0
    for _, e in ipairs(p.execs) do rows_per_exec = max(rows_per_exec, e.rows) end
    local o = p.observed
    rec.observed = { executions = #p.execs, rows = round(p.rows), array_size = p.array_size,
                     round_trips = o.round_trips, bytes_to_client = round(o.to), bytes_from_client = round(o.from),
                     tns_bytes_to_client = round(o.tns_to), tns_packets = o.packets, tcp_segments = o.segments,
                     elapsed_ms = o.elapsed * 1000, sdu = p.sdu, tdu = p.tdu, mss = p.mss }
    rec.predictions, rec.sdus, rec.advice = {}, {}, {}
    out[#out + 1] = ""
    out[#out + 1] = header(s)
    out[#out + 1] = string.format("  observed: %d execution(s), %s rows, array size %s, %d round trips, " ..
        "%s bytes to client, %s from client, %d TNS packets, %d TCP segments, %s ms",
        #p.execs, fmt_int(p.rows), p.array_size and tostring(p.array_size) or "-", o.round_trips,
        fmt_int(o.to), fmt_int(o.from), o.packets, o.segments, ms(o.elapsed))
    out[#out + 1] = string.format("  per row %.1f B (+ %.1f B bit vector after the first row of a response); " ..
        "per fetch %.1f B overhead (%.1f B on the last), %.1f B request", p.row_bytes, p.bvc_bytes,
        p.overhead, p.overhead_last, p.request_bytes)
    local tm = p.timing
    -- the network round trip named (issue 23): the RTT sits in the client's
    -- gap when the capture was taken near the server, in the wait for the
    -- answer near the client; the fit holds it in that term, shown without it
    local rt_call, gap_call, net = p.t_rt, tm and tm.g_call or 0, ""
    if p.rtt and p.rtt > 0 and (p.vantage == 1 or p.vantage == 2) then
        if p.vantage == 1 then gap_call = max(0, gap_call - p.rtt) else rt_call = max(0, rt_call - p.rtt) end
        net = string.format("network round trip %s ms (RTT, captured near the %s) + ", ms(p.rtt),
            p.vantage == 1 and "server" or "client")
    end
    out[#out + 1] = string.format("  time model (%s): %sround trip %s ms + %s ms per row + transfer (by response " ..
        "size, on average %s ms per KB); " ..
        "client gap %s ms + %s ms per row", p.time_source or "-", net, ms(rt_call), ms(p.t_row or 0),
        ms(p.t_byte * 1024), ms(gap_call), ms(tm and tm.g_row or 0))
    out[#out + 1] = string.format("  SDU %d, TDU %d, MSS %s (%s)", p.sdu or 0, p.tdu or 0,
        p.mss and tostring(p.mss) or "?", p.mss_source or "unknown")
    local pf_kind, pf_text = M.prefetch_assumption(p, opts and opts.prefetch)
    rec.prefetch_assumption, rec.prefetch_text = pf_kind, pf_text
    out[#out + 1] = "  prefetch: " .. pf_text
    local rt_time = o.rt_time or 0
    if o.elapsed - rt_time >= 0.0000005 then
        out[#out + 1] = string.format("  time: observed %s ms = %s ms of round trips (-z sqlnet,stmt's response " ..
            "time sum) + %s ms of client time between the round trips of an execution (%s)",
            ms(o.elapsed), ms(rt_time), ms(o.elapsed - rt_time),
            p.vantage == 1 and "with the network round trip: captured near the server" or
            p.vantage == 2 and "captured near the client: the network round trip is in the round trips" or
            "the network round trip too, when captured near the server")
    end
    rec.pauses, rec.pauses_ms, rec.idle_before_ms = {}, (o.paused or 0) * 1000, p.idle_before * 1000
    if p.pauses then
        local parts = {}
        for _, x in ipairs(p.pauses) do
            parts[#parts + 1] = string.format("%s %s ms at frame %s", x.kind, ms(x.secs),
                x.frame and tostring(x.frame) or "?")
            rec.pauses[#rec.pauses + 1] = { keys = { "kind", "ms", "frame" },
                                            values = { kind = x.kind, ms = x.secs * 1000, frame = x.frame } }
        end
        out[#out + 1] = string.format("  pauses: %s ms not explained by the model: %s", ms(o.paused or 0),
            table.concat(parts, ", "))
    end
    if p.idle_before >= 0.0000005 then
        out[#out + 1] = string.format("  idle before: %s ms (before its first call; not counted in its time)",
            ms(p.idle_before))
    end
    if p.loss then
        out[#out + 1] = string.format("  loss: %d retransmitted TCP segment(s) in %d round trip(s), which took " ..
            "%s ms more than the model's time for them (the recovery); which round trip a loss hits is " ..
            "chance: the predictions below are without retransmissions", p.loss.segments, p.loss.round_trips,
            ms(p.loss.excess))
    end
    for _, n in ipairs(p.notes) do out[#out + 1] = "  note: " .. n end
    if #p.execs == 0 then
        out[#out + 1] = "  no executions with fetches: nothing to predict"
        return
    end
    if not p.fetched and not p.tied then
        -- every row came with the execute call: no fetch call to save
        local pf = p.execs[1].prefetch
        out[#out + 1] = string.format("  all %s rows came with the execute call%s: no fetch calls, so the " ..
            "array size does not matter here (keep the prefetch at or above the rows)", fmt_int(p.rows),
            pf and string.format(" (prefetch %d)", pf) or "")
        -- its execute responses still travel in TNS packets: in its connection's SDU advice
        rec.sdu_profile, rec.sdu_array = p, p.array_size or 1
        return
    end
    local sizes, have = {}, {}
    for _, a in ipairs(opts and opts.sizes or M.ARRAY_SIZES) do
        if not have[a] then sizes[#sizes + 1] = a; have[a] = true end
    end
    if p.array_size and not have[p.array_size] then sizes[#sizes + 1] = p.array_size end
    table.sort(sizes)
    local rec_a, rule = M.recommend_array(p, sizes, rows_per_exec)
    out[#out + 1] = "  predicted by array size (rows per fetch call), at the negotiated SDU; recommended: " .. rule .. ":"
    out[#out + 1] = string.format("  %10s %12s %16s %16s %12s %12s %14s", "array size", "round trips",
        "bytes to client", "bytes from cl.", "TNS packets", "TCP segments", "elapsed (ms)")
    local now, at_rec
    for _, a in ipairs(sizes) do
        local pr = M.predict(p, a)
        local row, model = pr, nil
        if a == p.array_size then
            -- the observed row shows what was observed (as the observed line);
            -- the model's own figures beside it where they differ
            row, model = M.observed_row(o, pr)
            now = pr
        end
        local mark = (a == p.array_size and " observed" or "") .. (model and (" (model: " .. model .. ")") or "")
            .. (a == rec_a and " recommended" or "")
        out[#out + 1] = string.format("  %10d %12d %16s %16s %12d %12d %14s%s", a, row.round_trips,
            fmt_int(row.to), fmt_int(row.from), row.packets, row.segments, ms(row.elapsed), mark)
        rec.predictions[#rec.predictions + 1] = { array_size = a, round_trips = row.round_trips,
            bytes_to_client = round(row.to), bytes_from_client = round(row.from), tns_bytes_to_client = round(row.tns_to),
            tns_packets = row.packets, tcp_segments = row.segments, elapsed_ms = row.elapsed * 1000,
            observed = a == p.array_size, recommended = a == rec_a,
            model_elapsed_ms = a == p.array_size and pr.elapsed * 1000 or nil }
        if a == rec_a then at_rec = row end
    end
    if at_rec then
        rec.advice.array_size, rec.advice.round_trips = rec_a, at_rec.round_trips
        rec.advice.elapsed_ms = at_rec.elapsed * 1000
    end
    if now and at_rec then
        local function rts(n) return string.format("%d round trip%s", n, n == 1 and "" or "s") end
        local at = M.predict(p, rec_a)
        if rec_a ~= p.array_size then
            -- the model's round trips and time at both sizes: like with like
            out[#out + 1] = string.format("  array size: %s it from %d to %d: %s instead of %d, " ..
                "about %s ms %s (%.0f%%)%s", rec_a > p.array_size and "raise" or "change", p.array_size, rec_a,
                rts(at.round_trips), now.round_trips, ms(math.abs(now.elapsed - at.elapsed)),
                at.elapsed <= now.elapsed and "less" or "more",
                now.elapsed > 0 and 100 * math.abs(now.elapsed - at.elapsed) / now.elapsed or 0,
                now.round_trips ~= o.round_trips and string.format(" (the model's figures at both sizes: at %d it " ..
                    "predicts %s where %d were observed)", p.array_size, rts(now.round_trips), o.round_trips) or "")
        else
            out[#out + 1] = string.format("  array size: %d is enough (no size is predicted more than 10%% faster)",
                p.array_size)
        end
        local whole = M.one_call_rows(p, rec_a)
        if whole then
            out[#out + 1] = string.format("  array size: %d fetches %s %s in one call (%sany size above " ..
                "%d does the same); a larger table would need one more round trip per further %d rows", rec_a,
                whole == 1 and "the 1 row" or string.format("all %d rows", whole),
                p.tied and "of an execution" or "after each execute", p.tied and "the execute's; " or "", whole,
                rec_a)
        end
    end
    -- SDU: negotiated per connection, advised per connection (advise_connections);
    -- here this statement's packets, segments and time at some SDUs
    local conns = {}
    for _, k in ipairs(s.connections or {}) do conns[#conns + 1] = tostring(k) end
    out[#out + 1] = string.format("  SDU: negotiated per connection: see Connection %s below", table.concat(conns, ", "))
    local _, max_sdu = M.sdu_range(p.version)
    -- the SDUs negotiated on the statement's connections (one each), then the others
    local sdus, seen, where = {}, {}, {}
    for _, k in ipairs(s.connections or {}) do
        local v = s.connection_sdus[k]
        if v and v > 0 then
            where[v] = (where[v] and (where[v] .. ", ") or "") .. tostring(k)
            if not seen[v] then sdus[#sdus + 1] = v; seen[v] = true end
        end
    end
    for _, v in ipairs({ p.sdu }) do if v and v > 0 and not seen[v] then sdus[#sdus + 1] = v; seen[v] = true end end
    for _, v in ipairs(opts and opts.sdus or M.SDUS) do if v <= max_sdu and not seen[v] then sdus[#sdus + 1] = v; seen[v] = true end end
    table.sort(sdus)
    local preds, same_time = {}, true
    for i, v in ipairs(sdus) do
        preds[i] = M.predict(p, rec_a, v, p.mss)
        if math.abs(preds[i].elapsed - preds[1].elapsed) > 1e-9 then same_time = false end
    end
    out[#out + 1] = string.format("  predicted by SDU at array size %d%s:", rec_a, same_time and
        " (elapsed: the time model has no cost per TNS packet or TCP segment: the same at every SDU)" or "")
    out[#out + 1] = string.format("  %10s %12s %16s %12s %14s %14s", "SDU", "TNS packets", "TNS bytes to cl.",
        "TCP segments", "pkts/response", "elapsed (ms)")
    for i, v in ipairs(sdus) do
        local pr = preds[i]
        local mark = #conns > 1 and where[v] and (" negotiated (connection " .. where[v] .. ")")
            or (v == p.sdu and " negotiated" or "")
        out[#out + 1] = string.format("  %10d %12d %16s %12s %14.1f %14s%s", v, pr.packets, fmt_int(pr.tns_to),
            p.mss and tostring(pr.segments) or "-", pr.packets / max(1, pr.round_trips), ms(pr.elapsed), mark)
        rec.sdus[#rec.sdus + 1] = { sdu = v, array_size = rec_a, round_trips = pr.round_trips,
            tns_packets = pr.packets, tns_bytes_to_client = round(pr.tns_to), tcp_segments = p.mss and pr.segments,
            elapsed_ms = pr.elapsed * 1000, negotiated = where[v] ~= nil or v == p.sdu,
            in_step = p.mss and v % p.mss == 0 or false }
    end
    -- for the connection's advice (advise_connections)
    rec.sdu_profile, rec.sdu_array = p, rec_a
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
        if rt.call == 5 then fetches = true end
        if rows and fetches then return true end
    end
    if not rows then return false end
    local text = sql:gsub("/%*.-%*/", " "):gsub("%-%-[^\n]*", " "):gsub("^[%s(]+", ""):upper()
    local word = text:match("^(%a+)")
    return not (word and NOT_QUERY[word])
end

-- M.is_query of a statement, once per report (its round trips are walked once)
local function statement_is_query(s)
    if s.is_query_n ~= #s.rts then
        s.is_query_n, s.is_query = #s.rts, M.is_query(s.sql, s.rts)
    end
    return s.is_query
end

-- Number the connections (tcp streams) that carry a query, 1, 2, ... in the
-- order of their first round trip; sets s.connections (the numbers of the
-- statement's connections) and returns { {stream=, number=}, ... }.
local function number_connections(st, list)
    local first, conns = {}, {}
    for _, s in ipairs(list) do
        if s.sql ~= OTHER and statement_is_query(s) then
            local rts = s.rts
            for i = 1, #rts do
                local rt = rts[i]
                local stream, start = rt.stream, rt.start
                local f = first[stream]
                if not f or start < f then first[stream] = start end
            end
        end
    end
    for stream, t in pairs(first) do conns[#conns + 1] = { stream = stream, start = t } end
    table.sort(conns, function(a, b) return a.start < b.start end)
    local number = {}
    for i, c in ipairs(conns) do c.number = i; number[c.stream] = i end
    for _, s in ipairs(list) do
        local ks, seen, sdus = {}, {}, {}
        local rts, last = s.rts, nil
        local streams, n_streams = {}, 0
        for i = 1, #rts do
            local stream = rts[i].stream
            if stream ~= last then
                last = stream
                if not streams[stream] then streams[stream], n_streams = true, n_streams + 1 end
                local k = number[stream]
                if k and not seen[k] then
                    seen[k] = true
                    ks[#ks + 1] = k
                    sdus[k] = st.streams[stream] and st.streams[stream].sdu or 0
                end
            end
        end
        table.sort(ks)
        s.connections, s.connection_sdus, s.n_streams = ks, sdus, n_streams
    end
    return conns
end

local function pct(x) return string.format("%.0f%%", 100 * x) end

-- SDU advice once per connection (the SDU is negotiated per connection), on
-- all its advised statements at their recommended array sizes: the table of
-- TNS packets, TCP segments and time at the SDUs, the flags (costs the
-- capture shows, all of them pointing the way the advice goes) and one "SDU:"
-- sentence.  Fills each statement's rec.advice.sdu / sdu_flags; returns the
-- connections' records for JSON and CSV.
local function advise_connections(out, st, conns, advised, models, opts)
    local records = {}
    -- each advised statement's round trips by stream (one pass)
    -- (a statement of one connection: its own list, not a copy)
    local split = {}
    for i, a in ipairs(advised) do
        local rts = a.s.rts
        if a.s.n_streams == 1 then
            split[i] = { by = { [rts[1].stream] = rts }, n = 1 }
        else
            local by, n, counts = {}, 0, {}
            for k = 1, #rts do
                local stream = rts[k].stream
                local l = by[stream]
                if not l then l = {}; by[stream] = l; n = n + 1 end
                local c = (counts[stream] or 0) + 1
                counts[stream], l[c] = c, rts[k]
            end
            split[i] = { by = by, n = n }
        end
    end
    for _, conn in ipairs(conns) do
        local stream, c = conn.stream, st.streams[conn.stream]
        local items, numbers, arrays = {}, {}, {}
        for i, a in ipairs(advised) do
            local r = a.rec
            if r.sdu_profile then
                local mine, all = split[i].by[stream] or {}, split[i].n == 1
                if #mine > 0 then
                    local p = all and r.sdu_profile or profile(st, { sql = a.s.sql, rts = mine }, models)
                    items[#items + 1] = { p = p, a = r.sdu_array, rec = r }
                    numbers[#numbers + 1] = tostring(a.s.number)
                    arrays[#arrays + 1] = tostring(r.sdu_array)
                end
            end
        end
        if #items > 0 then
            local p0 = items[1].p
            local sdu, tdu, mss, version = c.sdu or 0, c.tdu or 0, p0.mss, c.version or 0
            local lo_sdu, hi_sdu = M.sdu_range(version)
            local name = c.client and string.format("client %s -> server %s", c.client, c.server)
                or string.format("tcp.stream %d", stream)
            local rec = { connection = conn.number, client = c.client, server = c.server, tcp_stream = stream,
                          sdu = sdu, tdu = tdu, mss = mss, tns_version = version ~= 0 and version or nil,
                          sdu_min = lo_sdu, sdu_max = hi_sdu, statements = {}, flags = {}, sdu_predictions = {} }
            for _, k in ipairs(numbers) do rec.statements[#rec.statements + 1] = tonumber(k) end
            records[#records + 1] = rec
            out[#out + 1] = ""
            out[#out + 1] = string.format("Connection %d (%s): SDU %d, TDU %d, MSS %s, TNS version %s " ..
                "(SDU settable from %d to %d)", conn.number, name, sdu, tdu, mss and tostring(mss) or "?",
                version ~= 0 and tostring(version) or "unknown", lo_sdu, hi_sdu)
            -- what the capture shows: responses of several TNS packets and their
            -- segments (counted only with the MSS from the SYN and no segment
            -- above it: else the capture does not show the wire's segments:
            -- GRO on the capturing host, or one TNS packet per frame)
            local wire = mss and p0.mss_source and p0.mss_source:find("SYN", 1, true) ~= nil
            local multi, obs_segs, full_segs, biggest = 0, 0, 0, nil
            for _, rt in ipairs(stream_rts(st, stream)) do
                if rt.packets > 1 and rt.to > sdu - M.TNS_DATA_HEADER and not rt.lost then
                    multi = multi + 1
                    if mss then
                        obs_segs, full_segs = obs_segs + rt.segments, full_segs + ceil(rt.tns_to / mss)
                    end
                    if not biggest or rt.to > biggest.to then biggest = rt end
                end
            end
            if wire and c.push then
                local seen_as = c.push >= 0.995 and "each TNS packet left as its own segments"
                    or c.push <= 0.005 and string.format("the TNS packets left in full %d-byte segments (queued " ..
                        "behind the TCP window)", mss)
                    or string.format("%s of the way from full %d-byte segments (packets queued behind the TCP " ..
                        "window) to each TNS packet as its own segments", pct(c.push), mss)
                out[#out + 1] = string.format("  TCP segments: in the connection's %d response(s) of several TNS " ..
                    "packets, %s; the predictions assume the same", c.push_n or 0, seen_as)
            elseif mss then
                out[#out + 1] = "  TCP segments: each TNS packet sent as its own segments (no response of several " ..
                    "TNS packets here to tell; a server whose packets queue sends fewer, full segments)"
            else
                out[#out + 1] = "  TCP segments: not predicted (no MSS known: no handshake, single-segment responses)"
            end
            -- the predictions, summed over the connection's statements
            local shown, seen = {}, {}
            local function add(list, v) if v and v > 0 and not seen[v] then seen[v] = true; list[#list + 1] = v end end
            add(shown, sdu)
            for _, v in ipairs(opts and opts.sdus or M.SDUS) do if v >= lo_sdu and v <= hi_sdu then add(shown, v) end end
            local cands, outside = {}, {}
            for _, v in ipairs(opts and opts.sdus or M.SDU_CANDIDATES) do
                if v >= lo_sdu and v <= hi_sdu then cands[#cands + 1] = v
                elseif opts and opts.sdus then outside[#outside + 1] = tostring(v) end
            end
            if #outside > 0 then
                out[#out + 1] = string.format("  SDUs asked for but left out: %s (outside %d to %d, what TNS version " ..
                    "%s allows)", table.concat(outside, ", "), lo_sdu, hi_sdu,
                    version ~= 0 and tostring(version) or "unknown")
            end
            local rows, by_sdu = {}, {}
            local function row(v)
                if by_sdu[v] then return by_sdu[v] end
                local r = { sdu = v, packets = 0, segments = 0, elapsed = 0, responses = 0 }
                for _, it in ipairs(items) do
                    local pr = M.predict(it.p, it.a, v, mss)
                    r.packets, r.segments = r.packets + pr.packets, r.segments + pr.segments
                    r.elapsed, r.responses = r.elapsed + pr.elapsed, r.responses + pr.round_trips
                end
                by_sdu[v] = r
                rows[#rows + 1] = r
                return r
            end
            if sdu > 0 then row(sdu) end
            for _, v in ipairs(cands) do row(v).candidate = true end
            local best, sp, ss, se
            if sdu > 0 then best, sp, ss, se = M.recommend_sdu(rows, sdu) end
            if best then add(shown, best.sdu) end
            table.sort(shown)
            local same_time = true
            for _, v in ipairs(shown) do
                if math.abs(row(v).elapsed - row(shown[1]).elapsed) > 1e-9 then same_time = false end
            end
            out[#out + 1] = string.format("  predicted by SDU, statement%s %s at array size%s %s%s:",
                #numbers > 1 and "s" or "", table.concat(numbers, ", "), #arrays > 1 and "s" or "",
                table.concat(arrays, ", "), same_time and " (elapsed: the time model has no cost per TNS packet or " ..
                "TCP segment: the same at every SDU)" or "")
            -- the segments' range: every byte in full segments .. each TNS packet as its own segments
            local function range(v)
                local lo, hi = 0, 0
                for _, it in ipairs(items) do
                    lo = lo + M.predict(setmetatable({ push = 0 }, { __index = it.p }), it.a, v, mss).segments
                    hi = hi + M.predict(setmetatable({ push = 1 }, { __index = it.p }), it.a, v, mss).segments
                end
                return lo, hi
            end
            out[#out + 1] = string.format("  %10s %12s %12s %16s %14s", "SDU", "TNS packets", "TCP segments",
                "(full..per pkt)", "elapsed (ms)")
            for _, v in ipairs(shown) do
                local r = row(v)
                local mark = (v == sdu and " negotiated" or "") .. (best and v == best.sdu and " recommended" or "")
                local lo, hi = range(v)
                out[#out + 1] = string.format("  %10d %12d %12s %16s %14s%s", v, r.packets, mss and tostring(r.segments) or "-",
                    mss and string.format("%d..%d", lo, hi) or "-", ms(r.elapsed), mark)
                rec.sdu_predictions[#rec.sdu_predictions + 1] = { sdu = v, tns_packets = r.packets,
                    tcp_segments = mss and r.segments or nil, tcp_segments_full = mss and lo or nil,
                    tcp_segments_per_packet = mss and hi or nil, elapsed_ms = r.elapsed * 1000,
                    negotiated = v == sdu, recommended = best ~= nil and v == best.sdu }
            end
            -- flags: what the capture shows costs something; every one of them
            -- is lifted by a larger SDU (or TDU), none asks for a smaller one
            local flags = rec.flags
            if wire and multi > 0 and obs_segs - full_segs >= max(2, M.SDU_MARGIN_COUNT * full_segs) then
                flags[#flags + 1] = string.format("part-filled TCP segments: the %d response(s) of several TNS " ..
                    "packets took %d TCP segments where full %d-byte segments would take %d (%d more, %s): the " ..
                    "server sent TNS packets of up to %d bytes one by one, each ending in a part-filled segment",
                    multi, obs_segs, mss, full_segs, obs_segs - full_segs, pct((obs_segs - full_segs) / full_segs),
                    sdu)
            end
            local base = sdu > 0 and row(sdu)
            if base and best and sp >= M.SDU_MARGIN_COUNT and base.packets > base.responses then
                flags[#flags + 1] = string.format("responses of several TNS packets: at the recommended array " ..
                    "size%s, %d responses take %d TNS packets at SDU %d (each packet after a response's first is " ..
                    "another \"SQL*Net more data to client\" send)", #arrays > 1 and "s" or "",
                    base.responses, base.packets, sdu)
            end
            if tdu > 0 and tdu < sdu then
                flags[#flags + 1] = string.format("TDU bottleneck: TDU %d is below the SDU %d, so the " ..
                    "transport writes at most %d bytes at a time", tdu, sdu, tdu)
            end
            for _, f in ipairs(flags) do out[#out + 1] = "  flag: " .. f end
            local margin = string.format(">= %.0f%% fewer TNS packets or TCP segments, or >= %.0f%% less time",
                100 * M.SDU_MARGIN_COUNT, 100 * M.SDU_MARGIN_TIME)
            local advice
            if sdu == 0 then
                advice = "no SDU advice: the capture does not show the negotiated SDU (no ACCEPT)"
            elseif best then
                advice = string.format("set %d (SDU=%d in the connect descriptor, or DEFAULT_SDU_SIZE in " ..
                    "sqlnet.ora, on both ends: the smaller one wins): %d TNS packets instead of %d (%s fewer), %s, " ..
                    "%s; recommended as it predicts %s than SDU %d, and a larger SDU would not save another " ..
                    "margin's worth", best.sdu, best.sdu, best.packets, base.packets,
                    pct((base.packets - best.packets) / max(1, base.packets)),
                    mss and string.format("%d TCP segments instead of %d (%s fewer)", best.segments, base.segments,
                        pct((base.segments - best.segments) / max(1, base.segments))) or "TCP segments unknown",
                    same_time and "the same predicted time" or string.format("%s ms instead of %s (%s less)",
                        ms(best.elapsed), ms(base.elapsed), pct(se)), margin, sdu)
            else
                advice = string.format("keep %d: no SDU from %d to %d predicts %s", sdu, lo_sdu, hi_sdu, margin)
            end
            out[#out + 1] = "  SDU: " .. advice
            rec.recommended_sdu = best and best.sdu or (sdu > 0 and sdu or nil)
            rec.advice = advice
            for _, it in ipairs(items) do
                local adv = it.rec.advice
                if adv and not adv.sdu then adv.sdu, adv.sdu_flags = rec.recommended_sdu, flags end
            end
        end
    end
    return records
end

-- The advisor's statements: { s=, p= (profile), rec= (figures) } for the
-- queries, and the other statements (not advised), both in number order.
local function advise_all(st, opts, out)
    local models = connection_models(st, opts.prefetch)
    local advised, skipped = {}, {}
    local list = number_statements(st)
    local conns = number_connections(st, list)
    for _, s in ipairs(list) do
        if s.sql ~= OTHER then
            if statement_is_query(s) then
                local rec = {}
                advise_statement(out, s, profile(st, s, models), opts, rec)
                advised[#advised + 1] = { s = s, rec = rec }
            else
                local err = 0
                for _, rt in ipairs(s.rts) do
                    if (rt.error or 0) ~= 0 and rt.error ~= 1403 then err = rt.error end
                end
                skipped[#skipped + 1] = { s = s, error = err }
            end
        end
    end
    local connections = advise_connections(out, st, conns, advised, models, opts)
    return advised, skipped, connections
end

-- The summary at the top: one line per advised statement, the costliest on
-- the wire first (observed time less pauses; idle time is never in it), and
-- one per connection with its SDU advice; a person reads the advice there
-- without the details below.
local function summary_lines(advised, connections)
    local out = {}
    local order = {}
    for _, a in ipairs(advised) do order[#order + 1] = a end
    local function wire(a)
        local o = a.rec.observed or {}
        return (o.elapsed_ms or 0) - (a.rec.pauses_ms or 0)
    end
    table.sort(order, function(x, y)
        local wx, wy = wire(x), wire(y)
        if wx ~= wy then return wx > wy end
        return x.s.number < y.s.number
    end)
    out[#out + 1] = "Summary (the costliest on the wire first: observed time less pauses, idle time apart):"
    for _, a in ipairs(order) do
        local o, adv = a.rec.observed or {}, a.rec.advice or {}
        local function rts(n) return string.format("%d round trip%s", n, n == 1 and "" or "s") end
        local head = string.format("  Statement %d: %s ms, %s at array size %s", a.s.number, ms(wire(a) / 1000),
            rts(o.round_trips or 0), o.array_size and tostring(o.array_size) or "-")
        if adv.array_size and o.array_size and adv.array_size ~= o.array_size then
            out[#out + 1] = string.format("%s -> array size %d: %s, about %s ms", head, adv.array_size,
                rts(adv.round_trips or 0), ms((adv.elapsed_ms or 0) / 1000))
        elseif adv.array_size then
            out[#out + 1] = head .. ": keep it"
        else
            out[#out + 1] = head
        end
    end
    for _, c in ipairs(connections or {}) do
        if c.advice then
            out[#out + 1] = string.format("  Connection %d (%s -> %s): SDU %s", c.connection, c.client or "?",
                c.server or "?", c.advice:match("^(%a+ %d+)") or c.advice)
        end
    end
    return out
end

local RULE = "================================================================================"

local function render_text(st, filter, opts)
    local out = {}
    out[#out + 1] = RULE
    out[#out + 1] = "SQL*Net array-size and SDU advisor" .. (filter and ("  filter: " .. filter) or "")
    out[#out + 1] = RULE
    local tls = M.undecrypted_lines(st.undecrypted)
    for _, l in ipairs(tls) do out[#out + 1] = l end
    local details = {}
    local advised, skipped, connections = advise_all(st, opts, details)
    if #advised > 0 then
        for _, l in ipairs(summary_lines(advised, connections)) do out[#out + 1] = l end
    elseif #skipped > 0 then
        out[#out + 1] = "(no queries that fetched rows)"
    elseif #tls == 0 then
        out[#out + 1] = "(no statements)"
    end
    for _, l in ipairs(details) do out[#out + 1] = l end
    if #skipped > 0 then
        out[#out + 1] = ""
        out[#out + 1] = string.format("Not advised (no rows fetched: DML, DDL, commits, failed or empty " ..
            "queries): %d statement(s)", #skipped)
        for _, k in ipairs(skipped) do
            local sql = #k.s.sql > 100 and (k.s.sql:sub(1, 97) .. "...") or k.s.sql
            local bv = 0
            for _, rt in ipairs(k.s.rts) do bv = bv + (rt.bind_values or 0) end
            out[#out + 1] = "  " .. sql .. (k.error ~= 0 and string.format("  (ORA-%05d)", k.error) or "") ..
                (bv > 0 and string.format("  (%d bind values sent)", bv) or "")
        end
    end
    out[#out + 1] = ""
    out[#out + 1] = "How the advisor computes:"
    out[#out + 1] = "Model: fetches = floor((rows - first) / array size) + 1 per execution; bytes = fixed +"
    out[#out + 1] = "per-fetch overhead + rows x row bytes; packets = ceil(bytes / (SDU - 10)) per response;"
    out[#out + 1] = "elapsed = fixed + round trips x time per call + rows x time per row + bytes x time per"
    out[#out + 1] = "byte, the times fitted per connection on the round trips of all its statements (a round"
    out[#out + 1] = "trip that waited for a TCP retransmission left out: see a statement's loss line)."
    out[#out + 1] = "Observed time: the round-trip times plus the client's time between the round trips of"
    out[#out + 1] = "an execution (-z sqlnet,stmt's response time sum counts the round-trip times only)."
    out[#out + 1] = "Only queries are advised: statements that fetched rows; statements are numbered as in"
    out[#out + 1] = "-z sqlnet,stmt (all statements, in the order of their first call)."
    out[#out + 1] = RULE
    return table.concat(out, "\n")
end

-- ---------------------------------------------------------------------------
-- format=json and format=csv: one record per advised statement, with the
-- statement numbers of the text (docs/reports.md "Formats")
-- ---------------------------------------------------------------------------

local function json_string(v)
    return '"' .. v:gsub('[%c"\\]', function(c)
        if c == '"' then return '\\"' elseif c == "\\" then return "\\\\" end
        return string.format("\\u%04x", c:byte())
    end) .. '"'
end

local function json_value(v, key)
    if v == nil then return "null" end
    local t = type(v)
    if t == "boolean" then return tostring(v) end
    if t == "string" then return json_string(v) end
    if t == "number" then
        if v ~= v or v == math.huge or v == -math.huge then return "null" end
        if key and key:find("_ms$") then return string.format("%.3f", v) end
        if v == floor(v) then return string.format("%d", v) end
        return string.format("%.3f", v)
    end
    return "null"
end

-- an object with its keys in the given order; values may be nested
-- (tables of { keys=, values= } or arrays of them)
local function json_object(keys, values, indent)
    local parts = {}
    for _, k in ipairs(keys) do
        local v = values[k]
        local text
        if type(v) == "table" and v.keys then
            text = json_object(v.keys, v.values, indent .. "  ")
        elseif type(v) == "table" then
            local items = {}
            for _, item in ipairs(v) do
                items[#items + 1] = type(item) == "table" and json_object(item.keys, item.values, indent .. "    ")
                    or json_value(item)
            end
            text = #items == 0 and "[]" or
                ("[\n" .. indent .. "    " .. table.concat(items, ",\n" .. indent .. "    ") .. "\n" .. indent .. "  ]")
        else
            text = json_value(v, k)
        end
        parts[#parts + 1] = json_string(k) .. ": " .. text
    end
    return "{\n" .. indent .. "  " .. table.concat(parts, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
end

local OBS_KEYS = { "executions", "rows", "array_size", "round_trips", "bytes_to_client", "bytes_from_client",
                   "tns_bytes_to_client", "tns_packets", "tcp_segments", "elapsed_ms", "sdu", "tdu", "mss" }
local PRED_KEYS = { "array_size", "round_trips", "bytes_to_client", "bytes_from_client", "tns_bytes_to_client",
                    "tns_packets", "tcp_segments", "elapsed_ms", "observed", "recommended", "model_elapsed_ms" }
local SDU_KEYS = { "sdu", "array_size", "round_trips", "tns_packets", "tns_bytes_to_client", "tcp_segments",
                   "elapsed_ms", "negotiated", "in_step" }
-- a connection's SDU advice (advise_connections)
local CONN_KEYS = { "connection", "client", "server", "tcp_stream", "tns_version", "sdu", "tdu", "mss", "sdu_min",
                    "sdu_max", "statements", "recommended_sdu", "advice", "flags", "sdu_predictions" }
local CONN_SDU_KEYS = { "sdu", "tns_packets", "tcp_segments", "tcp_segments_full", "tcp_segments_per_packet",
                        "elapsed_ms", "negotiated", "recommended" }

local function render_json(st, filter, opts)
    local advised, skipped, connections = advise_all(st, opts, {})
    local stmts = {}
    for _, a in ipairs(advised) do
        local s, r = a.s, a.rec
        local preds, sdus = {}, {}
        for _, x in ipairs(r.predictions) do preds[#preds + 1] = { keys = PRED_KEYS, values = x } end
        for _, x in ipairs(r.sdus) do sdus[#sdus + 1] = { keys = SDU_KEYS, values = x } end
        stmts[#stmts + 1] = { keys = { "statement", "sql_id", "sql", "first_frame", "last_frame", "observed",
                                       "prefetch_assumption", "recommended", "predictions", "sdu_predictions" },
            values = { statement = s.number, sql_id = s.sql_id, sql = s.sql, first_frame = s.first_frame,
                       last_frame = s.last_frame, observed = { keys = OBS_KEYS, values = r.observed },
                       prefetch_assumption = r.prefetch_assumption,
                       recommended = { keys = { "array_size", "round_trips", "elapsed_ms", "sdu", "sdu_flags" },
                                       values = r.advice },
                       predictions = preds, sdu_predictions = sdus } }
        -- pauses and idle time (issue 23)
        local obj = stmts[#stmts]
        obj.keys[#obj.keys + 1], obj.values.pauses = "pauses", r.pauses or {}
        obj.keys[#obj.keys + 1], obj.values.idle_before_ms = "idle_before_ms", r.idle_before_ms or 0
    end
    local others = {}
    for _, k in ipairs(skipped) do
        others[#others + 1] = { keys = { "statement", "sql_id", "sql", "first_frame", "last_frame", "ora_error" },
            values = { statement = k.s.number, sql_id = k.s.sql_id, sql = k.s.sql, first_frame = k.s.first_frame,
                       last_frame = k.s.last_frame, ora_error = k.error ~= 0 and k.error or nil } }
    end
    local _, by_port, ports = M.undecrypted_lines(st.undecrypted)
    local tls = {}
    for _, port in ipairs(ports) do
        tls[#tls + 1] = { keys = { "port", "conversations" }, values = { port = port, conversations = by_port[port] } }
    end
    local conns = {}
    for _, c in ipairs(connections) do
        local v = {}
        for k, x in pairs(c) do v[k] = x end
        v.sdu_predictions = {}
        for _, x in ipairs(c.sdu_predictions) do v.sdu_predictions[#v.sdu_predictions + 1] = { keys = CONN_SDU_KEYS, values = x } end
        conns[#conns + 1] = { keys = CONN_KEYS, values = v }
    end
    return json_object({ "report", "filter", "statements", "not_advised", "undecrypted_tls", "connections" },
        { report = "sqlnet,advise", filter = filter, statements = stmts, not_advised = others,
          undecrypted_tls = tls, connections = conns }, "")
end

-- CSV (RFC 4180): one header; a row of kind "statement" per advised
-- statement (observed figures and the advice), then its rows of kind
-- "array_size" (the predictions by array size at the negotiated SDU) and
-- "sdu" (by SDU at the recommended array size); "not_advised" rows for the
-- other statements.
local CSV_COLUMNS = { "kind", "statement", "sql_id", "sql", "first_frame", "last_frame", "executions", "rows",
                      "array_size", "sdu", "round_trips", "bytes_to_client", "bytes_from_client",
                      "tns_bytes_to_client", "tns_packets", "tcp_segments", "elapsed_ms", "recommended_array_size",
                      "recommended_round_trips", "recommended_ms", "recommended_sdu", "mss", "mark", "note",
                      "prefetch_assumption", "pauses_ms", "idle_before_ms" }

local function csv_field(v, key)
    if v == nil then return "" end
    local text = type(v) == "string" and v or json_value(v, key)
    if text:find('[,"\r\n]') then text = '"' .. text:gsub('"', '""') .. '"' end
    return text
end

local function render_csv(st, filter, opts)
    local advised, skipped, connections = advise_all(st, opts, {})
    local lines = { table.concat(CSV_COLUMNS, ",") }
    local function row(values)
        local f = {}
        for i, k in ipairs(CSV_COLUMNS) do f[i] = csv_field(values[k], k) end
        lines[#lines + 1] = table.concat(f, ",")
    end
    for _, a in ipairs(advised) do
        local s, r = a.s, a.rec
        local o, adv = r.observed, r.advice
        local id = { statement = s.number, sql_id = s.sql_id }
        row({ kind = "statement", statement = s.number, sql_id = s.sql_id, sql = s.sql, first_frame = s.first_frame,
              last_frame = s.last_frame, executions = o.executions, rows = o.rows, array_size = o.array_size,
              sdu = o.sdu, round_trips = o.round_trips, bytes_to_client = o.bytes_to_client,
              bytes_from_client = o.bytes_from_client, tns_bytes_to_client = o.tns_bytes_to_client,
              tns_packets = o.tns_packets, tcp_segments = o.tcp_segments, elapsed_ms = o.elapsed_ms,
              recommended_array_size = adv.array_size, recommended_round_trips = adv.round_trips,
              recommended_ms = adv.elapsed_ms, recommended_sdu = adv.sdu, mss = o.mss,
              prefetch_assumption = r.prefetch_assumption,
              pauses_ms = r.pauses_ms or 0, idle_before_ms = r.idle_before_ms or 0,
              note = adv.sdu_flags and table.concat(adv.sdu_flags, "; ") or nil })
        for _, x in ipairs(r.predictions) do
            local v = { kind = "array_size", statement = id.statement, sql_id = id.sql_id, sdu = o.sdu }
            for k, val in pairs(x) do v[k] = val end
            v.observed, v.recommended = nil, nil
            v.mark = (x.observed and "observed" or "") .. (x.observed and x.recommended and " " or "") ..
                (x.recommended and "recommended" or "")
            row(v)
        end
        for _, x in ipairs(r.sdus) do
            local v = { kind = "sdu", statement = id.statement, sql_id = id.sql_id }
            for k, val in pairs(x) do v[k] = val end
            v.mark = x.negotiated and "negotiated" or ""
            v.negotiated, v.in_step = nil, nil
            row(v)
        end
    end
    for _, k in ipairs(skipped) do
        row({ kind = "not_advised", statement = k.s.number, sql_id = k.s.sql_id, sql = k.s.sql,
              first_frame = k.s.first_frame, last_frame = k.s.last_frame,
              note = k.error ~= 0 and string.format("ORA-%05d", k.error) or nil })
    end
    local tls = M.undecrypted_lines(st.undecrypted)
    for _, l in ipairs(tls) do row({ kind = "undecrypted_tls", note = l }) end
    -- per connection: its SDU advice (kind "connection": statement = the
    -- connection's number, sql = its addresses) and its rows by SDU
    for _, c in ipairs(connections) do
        row({ kind = "connection", statement = c.connection,
              sql = c.client and (c.client .. " -> " .. c.server) or ("tcp.stream " .. c.tcp_stream), sdu = c.sdu,
              recommended_sdu = c.recommended_sdu, mss = c.mss,
              note = table.concat(c.flags, "; ") .. (#c.flags > 0 and "; " or "") .. "SDU: " .. c.advice })
        for _, x in ipairs(c.sdu_predictions) do
            row({ kind = "connection_sdu", statement = c.connection, sdu = x.sdu, tns_packets = x.tns_packets,
                  tcp_segments = x.tcp_segments, elapsed_ms = x.elapsed_ms,
                  mark = (x.negotiated and "negotiated" or "") .. (x.negotiated and x.recommended and " " or "") ..
                      (x.recommended and "recommended" or "") })
        end
    end
    return table.concat(lines, "\r\n")
end

local function render_advice(st, filter, opts)
    opts = opts or {}
    if opts.format == "json" then return render_json(st, filter, opts) end
    if opts.format == "csv" then return render_csv(st, filter, opts) end
    return render_text(st, filter, opts)
end

-- The statements window (wire AUTOTRACE, like -z sqlnet,stmt) for the GUI.
local function render_statements(st)
    local out = { "SQL*Net statements (wire AUTOTRACE): bytes via SQL*Net are TTC bytes (TNS headers excluded)" }
    for _, s in ipairs(number_statements(st)) do
        local r = { ex = {}, fetch = 0, rows = 0, to = 0, from = 0, tns_to = 0, tns_from = 0, packets = 0,
                    segments = 0, time = 0, tmax = 0, more = 0, sizes = {}, seen = {}, errors = {} }
        local execs = 0
        for _, rt in ipairs(s.rts) do
            if rt.execution ~= 0 and not r.ex[rt.stream .. ":" .. rt.execution] then
                r.ex[rt.stream .. ":" .. rt.execution] = true
                execs = execs + 1
            end
            if rt.call == 5 then r.fetch = r.fetch + 1 end
            r.rows, r.to, r.from = r.rows + rt.rows, r.to + rt.to, r.from + rt.from
            r.tns_to = r.tns_to + rt.tns_to
            r.packets, r.segments = r.packets + rt.packets, r.segments + rt.segments
            r.time = r.time + rt.time
            if rt.time > r.tmax then r.tmax = rt.time end
            if rt.packets > 1 then r.more = r.more + 1 end
            if (rt.error or 0) ~= 0 and rt.error ~= 1403 then r.errors[rt.error] = (r.errors[rt.error] or 0) + 1 end
            if rt.fetch and rt.fetch > 0 and not r.seen[rt.fetch] then
                r.seen[rt.fetch] = true
                r.sizes[#r.sizes + 1] = rt.fetch
            end
        end
        table.sort(r.sizes)
        local sizes = {}
        for _, v in ipairs(r.sizes) do sizes[#sizes + 1] = tostring(v) end
        local function line(k, v) out[#out + 1] = string.format("  %-44s %14s", k, v) end
        out[#out + 1] = ""
        out[#out + 1] = header(s)
        line("executions", tostring(s.sql == OTHER and 0 or execs))
        line("fetch calls", tostring(r.fetch))
        line("rows processed", fmt_int(r.rows))
        line("SQL*Net roundtrips to/from client", tostring(#s.rts))
        line("bytes sent via SQL*Net to client", fmt_int(r.to))
        line("bytes received via SQL*Net from client", fmt_int(r.from))
        line("TNS bytes to / from client", fmt_int(r.tns_to) .. " / " .. fmt_int(s.tns_from))
        line("TNS packets / TCP segments to client", r.packets .. " / " .. r.segments)
        line("array sizes seen", #sizes > 0 and table.concat(sizes, ", ") or "-")
        line("rows per round trip", string.format("%.1f", r.rows / #s.rts))
        line("response time sum / avg / max (ms)", ms(r.time) .. " / " .. ms(r.time / #s.rts) .. " / " .. ms(r.tmax))
        line("responses larger than one SDU", tostring(r.more))
        local codes, errs = {}, {}
        for code in pairs(r.errors) do codes[#codes + 1] = code end
        table.sort(codes)
        for _, code in ipairs(codes) do errs[#errs + 1] = string.format("ORA-%05d x %d", code, r.errors[code]) end
        line("ORA errors (ORA-01403 end of fetch excluded)", #errs > 0 and table.concat(errs, ", ") or "-")
    end
    if #st.order == 0 then out[#out + 1] = "(no round trips)" end
    return table.concat(out, "\n")
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

-- tshark: -z sqlnet,advise[,sizes=...][,sdus=...][,prefetch=tied|fixed][,format=csv|json][,filter]
local function tshark_advise(arg)
    local opts, filter = {}, nil
    local rest = arg and arg:match("^sqlnet,advise,(.+)$")
    if rest then opts, filter = M.parse_args(rest) end
    local st = new_state()
    local taps = listeners(function() return st end, filter, function() st = new_state() end)
    taps[1].draw = function()
        taps.collect()
        if opts.format == "json" or opts.format == "csv" then
            print(render_advice(st, filter, opts))
        else
            print("\n" .. render_advice(st, filter, opts) .. "\n")
        end
    end
end

register_stat_cmd_arg("sqlnet,advise", tshark_advise)

-- what a window shows while its retap reads the capture
local READING = "Reading packets ... (the numbers appear when the capture has been read)"
M.READING = READING

if gui_enabled() then
    -- with_options: a "Predict..." button asks which array sizes, SDUs and
    -- prefetch mode to predict (as -z sqlnet,advise,sizes=,sdus=,prefetch=)
    -- and draws the window again with them
    local function window(title, render, with_options)
        return function()
            local win = TextWindow.new(title)
            local st = new_state()
            local opts = {}
            -- the numbers only once the capture has been read: Wireshark
            -- draws the listeners while a retap runs (every few seconds),
            -- which would show the counts of part of the capture
            local reading = false
            local taps
            local function show()
                if reading then
                    win:set(title .. ": " .. READING)
                else
                    taps.collect()
                    win:set(render(st, nil, opts))
                end
            end
            taps = listeners(function() return st end, nil, function() st = new_state() end)
            taps[1].draw = function() show() end
            win:set_atclose(function() taps.close() end)
            if with_options then
                win:add_button("Predict...", function()
                    new_dialog(title .. ": what to predict", function(sizes, sdus, prefetch)
                        local o, err = M.dialog_options(sizes, sdus, prefetch)
                        if o then opts = o end
                        if reading then return end
                        taps.collect()
                        win:set((err and ("Not changed: " .. err .. "\n") or "") .. render(st, nil, opts))
                    end, "Array sizes (e.g. 1,7,250; empty: 1 to 5000)",
                        "SDUs (e.g. 2048,8192; empty: 2048 to 2097152)",
                        "Prefetch with the array size: tied, fixed (empty: as the capture shows)")
                end)
            end
            reading = true
            show()
            retap_packets()
            reading = false
            show()
        end
    end
    -- Wireshark's Qt menus put a Lua item of the Statistics group flat, with
    -- its name as its text (only the Tools group makes submenus of "a/b"):
    -- names that read as one family with the C plugin's SQL*Net Overview.
    -- (Lua menu names are shown as they are: no "&" keyboard mnemonics.)
    register_menu("SQL*Net Advisor", window("SQL*Net Advisor", render_advice, true), MENU_STAT_UNSORTED)
    register_menu("SQL*Net Statements", window("SQL*Net Statements", render_statements), MENU_STAT_UNSORTED)
end
