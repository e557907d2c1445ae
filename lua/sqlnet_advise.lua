-- sqlnet_advise.lua - array-size and SDU advisor, and the statements window
-- (-z sqlnet,stmt's report, written by the plugin).
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
-- The model (the fits, the predictions, the recommendations) is
-- lua/sqlnet_model.lua's, a plain-Lua module beside this file; this file
-- collects the round trips (from the plugin's round-trip records, or the
-- sqlnet.rt.* fields of the packet that completes each round trip) and
-- writes the report.  Loaded outside Wireshark (no register_stat_cmd_arg),
-- the file returns the model table:
--   local M = dofile("sqlnet_advise.lua")
--
-- Runs on Lua 5.2 (Wireshark 4.0) and 5.4.
--
-- SPDX-License-Identifier: GPL-2.0-or-later

-- The reports' shared module (lua/sqlnet_model.lua: the advisor's model, the
-- numbers the reports name, the plugin check), from this script's own
-- folder; one copy per Lua state.
local function sqlnet_model()
    local mod = package.loaded.sqlnet_model
    if not mod then
        local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
        mod = assert(loadfile(dir .. "sqlnet_model.lua"))()
        package.loaded.sqlnet_model = mod
    end
    return mod
end
local M = sqlnet_model()

local floor, ceil, max, min = math.floor, math.ceil, math.max, math.min
local round, median, group_by_stream = M.round, M.median, M.group_by_stream
local fit_connection_cols = M.fit_connection_cols
local FETCH, NO_DATA, LOB_OP, PING = M.TTC_FN_FETCH, M.ORA_NO_DATA_FOUND, M.TTC_FN_LOB_OP, M.TTC_FN_PING
if not register_stat_cmd_arg then
    return M           -- plain Lua: the model only
end

-- Without the sqlnet C plugin: one notice for all the sqlnet scripts, and no report
if not M.plugin_loaded() then
    return M
end


-- ---------------------------------------------------------------------------
-- Collecting round trips from the plugin's fields
-- ---------------------------------------------------------------------------

-- The round trips come from the plugin, once per round trip, never paired
-- again here: the plugin's round-trip records (plugin/consumers/lua_records.c),
-- kept by a C listener on the "sqlnet" tap, so that no Lua code runs per
-- round trip while the capture is read; or, without that module (a build
-- without it: in-tree builds, a Lua other than Wireshark's), the
-- sqlnet.rt.values field of the packet that completes each round trip (the
-- same numbers, docs/fields.md).  The library is the plugin Wireshark has
-- loaded (its SONAME is sqlnet.so). SQLNET_LUA_RECORDS=0 turns it off (tests
-- compare both).
-- The statements' accounts (records.accounts: the observed figures) come
-- from the same module whichever way the round trips are read.
-- With the module's per-packet facts (records.events: lua_facts.c) the
-- advisor registers no Lua listener and no field extractor at all: the
-- plugin's C listeners collect the TCP facts, the logon's driver, the
-- ACCEPT's endpoints and the undecrypted TLS conversations as well, and call
-- the report's draw and reset, so that a -z sqlnet,advise run (and the
-- window's retap) needs no protocol tree (a Lua Listener makes Wireshark
-- build one for every packet; docs/performance.md).
local RECORDS, ACCOUNTS, EVENTS
do
    local ok, open = pcall(package.loadlib, "sqlnet.so", "luaopen_sqlnet_records")
    if ok and type(open) == "function" then
        local ok2, mod = pcall(open)
        if ok2 and type(mod) == "table" and mod.open then
            if os.getenv("SQLNET_LUA_RECORDS") ~= "0" then
                RECORDS = mod
                EVENTS = mod.events and true or nil
            end
            if mod.accounts and mod.statements then ACCOUNTS = mod end
        end
    end
end

local F = {}
-- a field extractor, or nil when this build has no such field (an older
-- plugin: Field.new of an unknown field fails, and a load error would take
-- every report with it)
local function field(name)
    local ok, f = pcall(Field.new, name)
    F[name] = ok and f or nil
    return F[name]
end
-- No extractor at all in a tshark run that asks for no -z sqlnet,advise:
-- one made while the scripts load makes tshark build a protocol tree for
-- every packet of the run (M.wants_extractors, docs/performance.md "The
-- hidden tree"); the report's functions below then never run.
local EXTRACTORS = not EVENTS and M.wants_extractors({ "sqlnet,advise" })
-- the fields the listeners other than the round trips' read
for _, n in ipairs(EXTRACTORS and { "tcp.stream", "tcp.len", "tcp.options.mss_val", "tcp.options.timestamp.tsval",
                                    "sqlnet.auth.value", "sqlnet.tls.undecrypted", "tcp.analysis.ack_rtt",
                                    "tcp.analysis.zero_window" } or {}) do
    field(n)
end
-- the round trips' fields, only without the plugin's records (every field a
-- Lua script names is built on every packet it can be on, and matched by a
-- filter Wireshark runs on every packet): the record's numbers
-- (sqlnet.rt.values), its SQL text and SQL_ID, and what the completing packet
-- tells of its connection (sizes, RTT)
if EXTRACTORS and not RECORDS then
    for _, n in ipairs({ "sqlnet.rt.values", "sqlnet.rt.sql", "sqlnet.rt.sql_id", "sqlnet.sdu", "sqlnet.tdu",
                         "sqlnet.version", "sqlnet.rt.bind_values",
                         -- the time split's client part and the RTT (issue 23)
                         "sqlnet.rt.time.client", "sqlnet.time.idle", "sqlnet.rtt", "sqlnet.capture_point" }) do
        field(n)
    end
end
-- neither: a plugin older than this script (no sqlnet.rt.values)
-- (with EVENTS no field at all: F stays empty)
local NO_RECORDS = not RECORDS and not F["sqlnet.rt.values"] and
    "-z sqlnet,advise needs the plugin's round-trip records (the sqlnet.rt.values field): the sqlnet plugin " ..
    "loaded is older than this script"

-- the value of a numeric field on this packet (nil when absent)
local function n(f)
    local fi = f()
    if fi then return fi.value end
end

local OTHER = "(calls outside a statement: logon, commit, ping ...)"

local function one_line(sql)
    return (sql:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

local function new_state()
    return { rts = {}, n_rts = 0, streams = {}, order = {}, by_sql = {}, lines = {},
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
--   segment   a TLS segment with payload: the largest per stream and port
--             (the record gives it otherwise; the server's, once its port
--             is known, gives the MSS when no SYN was captured, or segments
--             larger than it: GRO)
--   retrans   a retransmission (Wireshark's TCP analysis)
--   auth      the logon's key/values (the driver: JDBC ties prefetch to the
--             fetch size)
--   rt        the packet that completes a round trip: its record
--             (sqlnet.rt.values), without the records module
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
        -- node-oracledb thin tops its first fetch up to its fetchArraySize (M.fetch_plan)
        if v:find("node-oracledb", 1, true) then c.node = true end
        -- python-oracledb's driver name ("python-oracledb thn : 26.1.0"): the fix's wording
        if v:find("python-oracledb", 1, true) then c.python = true end
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

function C.undecrypted(st, pinfo)
    local port, stream = n(F["sqlnet.tls.undecrypted"]), n(F["tcp.stream"])
    if port and stream then st.undecrypted[stream] = port end
end

local f_stream, f_sql, f_rt_sql_id = F["tcp.stream"], F["sqlnet.rt.sql"], F["sqlnet.rt.sql_id"]

-- sqlnet.rt.values: "rt1 number request_frame call execution cursor rows_asked rows
-- req_ttc req_tns req_packets resp_ttc resp_tns resp_packets resp_data_packets
-- resp_segments row_bytes bvc_bytes time_ns first_ns ora_error partial largest_segment"
-- ("-" absent, 22 values; the largest segment: the segment listener only
-- over TLS):
-- one field read instead of twenty (a field's value costs more than the rest
-- of the collection)
local f_rt_values = F["sqlnet.rt.values"]
local VALUES_PATTERN = "^rt1" .. string.rep(" (%S+)", 22)

-- the round trip's numbers from sqlnet.rt.values
local function rt_values()
    local fi = f_rt_values()
    if not fi then return nil end
    local v = { fi.value:match(VALUES_PATTERN) }
    if #v ~= 22 then return nil end
    for i = 1, 22 do v[i] = tonumber(v[i]) end   -- "-" becomes nil
    return v
end

-- Where a round trip's lazily read values come from (the SQL text, the
-- negotiated sizes, the time split, the RTT): the completing packet's
-- fields, or the plugin's record (take_records below). Each is read only
-- where the collection needs it.
local FIELD_SOURCE = {
    sql = function() local fi = f_sql(); return fi and fi.value end,
    sizes = function() return n(F["sqlnet.sdu"]) or 0, n(F["sqlnet.tdu"]) or 0, n(F["sqlnet.version"]) or 0 end,
    client_ms = function()
        local f = F["sqlnet.rt.time.client"]
        local fi = f and f()
        -- the client's whole gap less the network: its client and idle parts
        -- (issue 34 split them; the records module gives the same sum)
        local fidle = F["sqlnet.time.idle"]
        local idle = fidle and fidle()
        local secs = idle and (type(idle.value) == "userdata" and idle.value.tonumber and idle.value:tonumber()
                               or tonumber(tostring(idle.value))) or 0
        return fi and (fi.value + secs * 1000)
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
                      to, tns_to, packets, segments, rowb, bvc, tns, fns, err, largest, fixed)
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
    -- outside the fetch plan (account.c's account_rt_fixed: a LOB read of an
    -- execution): kept at every array size
    if fixed then rt.fixed = true end
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
    -- the network round trip that -z sqlnet,stmt counts in the first call of an
    -- execution (and in a call outside one) captured near the server: the RTT
    -- taken from the gap before it, or added at the capture's first call
    -- (timing.c; docs/time.md): the model adds it to the execution it starts
    if c.vantage == 1 and c.rtt and not (prev and execution ~= 0 and prev.execution == execution) then
        rt.net_before = prev and min(c.rtt, max(0, rt.start - c.last_stop)) or c.rtt
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

-- the packet that completes a round trip: its record, read from sqlnet.rt.values
-- the bind values the call sent (a per-call fact of the round-trip record)
local f_bind_values = F["sqlnet.rt.bind_values"]

function C.rt(st, pinfo)
    local V = rt_values()
    if not V then return end
    local fi, n0 = f_stream(), st.n_rts
    add_rt(st, fi and fi.value or -1, pinfo.src_port * 65536 + pinfo.dst_port, pinfo.number, pinfo.abs_ts,
           FIELD_SOURCE, V[2], V[3], V[4], V[6], V[7], V[8], V[9], V[11], V[12], V[13], V[15], V[16], V[17],
           V[18], V[19], V[20], V[22],
           -- account_rt_fixed's rule, on the fields (only without the plugin's
           -- records module): a LOB operation or an OPING (go-ora's cursor
           -- close) of an execution
           (V[3] == LOB_OP or V[3] == PING) and (V[4] or 0) ~= 0)
    if st.n_rts > n0 and f_bind_values then st.rts[st.n_rts].bind_values = n(f_bind_values) end
end


-- The per-packet facts the plugin collected (lua_facts.c), in frame order,
-- into the state as the listeners above took them: one handler per kind,
-- each the listener's own (C.syn ...) on the fact's values.
local E = {}
function E.syn(st, stream, _frame, _t, mss, ts)
    local c = stream_of(st, stream or -1)
    if mss and (not c.mss_syn or mss < c.mss_syn) then c.mss_syn = mss end
    if ts == 1 then c.ts = true end
end
function E.retrans(st, stream, _frame, t)
    local c = stream_of(st, stream or -1)
    c.retrans = c.retrans or {}
    c.retrans[#c.retrans + 1] = t
end
function E.late_ack(st, stream, frame, t, key, _b, _c, ack_rtt)
    local c = stream_of(st, stream or -1)
    c.late_acks = c.late_acks or {}
    c.late_acks[#c.late_acks + 1] = { t = t, ack_rtt = ack_rtt, frame = frame, key = key }
end
function E.window(st, stream, frame, t, src, zero)
    local c = stream_of(st, stream or -1)
    c.windows = c.windows or {}
    c.windows[#c.windows + 1] = { t = t, frame = frame, src = src, zero = zero == 1 }
end
function E.segment(st, _stream, _frame, _t, key, flen, len)
    if flen > (st.seg_frame[key] or 0) then
        st.seg_frame[key] = flen
        if len and len > (st.seg[key] or 0) then st.seg[key] = len end
    end
end
function E.auth(st, stream, _frame, _t, bits)
    local c = stream_of(st, stream or -1)
    bits = bits or 0
    -- the driver names the values held (lua_facts.h LUA_FACT_DRIVER_*): see C.auth
    if bits % 2 == 1 then c.jdbc = true end
    if math.floor(bits / 2) % 2 == 1 then c.goora = true end
    if math.floor(bits / 4) % 2 == 1 then c.node = true end
    if math.floor(bits / 8) % 2 == 1 then c.python = true end
end
local function addr_port(a, port)
    a = tostring(a)
    return (a:find(":", 1, true) and ("[" .. a .. "]") or a) .. ":" .. tostring(port)
end
function E.accept(st, stream, _frame, _t, sport, dport, _c, _x, src, dst)
    local c = stream_of(st, stream or -1)
    c.server, c.client = addr_port(src, sport), addr_port(dst, dport)
end
function E.undecrypted(st, stream, _frame, _t, port)
    if port and stream then st.undecrypted[stream] = port end
end

local function take_events(st, col)
    for i = 1, col:event_count() do
        local kind, frame, t, stream, a, b, c, x, s1, s2 = col:event(i)
        local fn = E[kind]
        if fn then fn(st, stream, frame, t, a, b, c, x, s1, s2) end
    end
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
              segments, rowb, bvc, tns, fns, err, largest, sdu, tdu, version, sql, sql_id, client, rtt, vantage,
              fixed = col:get(i)
        cur.sql, cur.sdu, cur.tdu, cur.version, cur.client, cur.rtt, cur.vantage, cur.sql_id =
            sql, sdu, tdu, version, client, rtt, vantage, sql_id
        local n0 = st.n_rts
        add_rt(st, stream, sp * 65536 + dp, frame, now, src, req, call, execution, fetch, rows, from, tns_from,
               to, tns_to, packets, segments, rowb, bvc, tns, fns, err, largest, fixed)
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
    local taps = {}
    if EVENTS then
        -- every listener in C (lua_facts.c, lua_records.c): no filter without
        -- the user's (the collector takes the packets that complete a round
        -- trip itself), no Lua listener, the draw and reset called from C
        local err
        list = {}
        col, err = RECORDS.open(filter and f("sqlnet.request_in && sqlnet.rows") or nil, {
            facts = true,
            draw = function() if taps.draw then taps.draw() end end,
            reset = function() reset() end,
        })
        if not col then error(err) end
    elseif RECORDS then
        local err
        col, err = RECORDS.open(f("sqlnet.request_in && sqlnet.rows"))
        if not col then error(err) end
    else
        list[#list + 1] = { "rt", f("sqlnet.request_in && sqlnet.rows") }
    end
    -- pauses (M.mark_pauses): late ACKs, zero windows
    if not EVENTS and F["tcp.analysis.ack_rtt"] then
        list[#list + 1] = { "late_ack", "tcp.len == 0 && tcp.analysis.ack_rtt >= 0.025" }
        list[#list + 1] = { "window", "tcp.analysis.zero_window || tcp.analysis.window_update" }
    end
    -- the largest segment per direction: from the record (over TLS the
    -- plugin does not know it: a listener on TLS segments)
    if not EVENTS then list[#list + 1] = { "segment", "tls && tcp.len > 0" } end
    if not EVENTS and F["sqlnet.tls.undecrypted"] then
        list[#list + 1] = { "undecrypted", "sqlnet.tls.undecrypted" }
    end
    -- the statements' observed numbers: the plugin's accounts (account.c,
    -- -z sqlnet,stmt's), never summed here (issue 34)
    local acct = ACCOUNTS and ACCOUNTS.statements("open", filter)
    for i, l in ipairs(list) do
        local tap = Listener.new("frame", l[2])
        local fn = C[l[1]]
        function tap.packet(pinfo, tvb) fn(get(), pinfo, tvb) end
        -- one reset and one draw for the instance (the first listener's):
        -- the draw is taps.draw, which the caller sets
        if i == 1 then
            function tap.reset() reset() end
            function tap.draw() if taps.draw then taps.draw() end end
        end
        taps[i] = tap
    end
    -- before a report reads the state: the facts and records the plugin has
    -- kept since (none to take without the records module)
    local texts = {}
    function taps.collect()
        if col and EVENTS then take_events(get(), col) end
        if col then take_records(get(), col, texts) end
        if acct then get().accounts = ACCOUNTS.accounts(acct) end
    end
    -- the window's end: every listener removed
    function taps.close()
        for _, tap in ipairs(taps) do tap:remove() end
        if col then col:close() end
        if acct then ACCOUNTS.statements("close", acct) end
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

-- Whether a connection's client tops its first fetch up to the array size
-- (M.fetch_plan): node-oracledb by its driver name, or any client whose
-- execution shows it (a first fetch asking less than the next, the rows
-- the execute brought making up the difference).
local function tops_up(e)
    local ex, f1, f2 = e[1], e[2], e[3]
    return ex.call ~= FETCH and ex.rows > 0 and f1 and f2 and f1.call == FETCH and f2.call == FETCH
        and f1.fetch and f2.fetch and f1.fetch > 0 and f1.fetch < f2.fetch
        and (ex.rows + f1.fetch) % f2.fetch == 0
end

-- An execution's array size: the rows its fetches ask for (the largest
-- when they differ); a client that tops up its first fetch (topup) asks
-- less there: its array size is the next fetch's ask, or with one fetch
-- alone, what that fetch and the execute's rows make together (the execute
-- brought fewer rows than the array size: node-oracledb's warm-up that
-- asked 100 rows in all, 2 with the execute and 98 with its fetch, reads
-- 100).  nil without a fetch that asks for rows.  rts: the execution's
-- round trips, the execute first.
local function execution_array_size(rts, n, topup)
    local a
    local from = 2
    if topup and n >= 2 and rts[1].call ~= FETCH and rts[1].rows > 0 and rts[2].fetch and rts[2].fetch > 0 then
        if n == 2 then
            local f, first = rts[2].fetch, rts[1].rows
            return f == first and f or f + first
        end
        from = 3
    end
    for i = from, n do
        local f = rts[i].fetch
        if rts[i].call == FETCH and f and f > 0 and (not a or f > a) then a = f end
    end
    return a
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
        if not m.topup and tops_up(e) then m.topup = true end
        if ex.call ~= FETCH and ex.rows > 0 and not ex.lost then      -- not a fetch: the execute
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
    end
    for _, e in ipairs(order) do
        local m, ex = models[e[1].stream], e[1]
        local c = st.streams[ex.stream]
        m.topup = m.topup or (c and c.node) or false
        -- prefetch: the rows the execute brought against its array size
        -- (an execution without fetches shows nothing either way)
        local a = #e > 1 and ex.call ~= FETCH and e[2].call == FETCH and execution_array_size(e, #e, m.topup)
        if a then
            if ex.rows == a then
                m.tied_n = m.tied_n + 1
                m.tied_sizes[a] = true
            elseif not m.untied then
                m.untied = { rows = ex.rows, fetch = a }
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
        -- measured: with the pauses M.mark_pauses took out of the round trip,
        -- and the network round trip before an execution's first call
        -- captured near the server (as -z sqlnet,stmt's elapsed has it)
        o_elapsed = o_elapsed + time + gap + (paused or 0) + (rt.net_before or 0)
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
            t_other = t_other + time + gap + (rt.net_before or 0)
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
    -- the client tops its first fetch up to the array size (M.fetch_plan)
    local m0 = models and models[p.stream]
    p.topup = m0 and m0.topup or false
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
        local rem, ended = 0, ex.error == NO_DATA
        local last_fetch = nil
        for i = 2, #e.rts do
            local rt = e.rts[i]
            if rt.fixed then
                -- outside the fetch plan (account.c's account_rt_fixed: a LOB
                -- read of the execution, one per LOB value the client reads by
                -- its locator; go-ora's close of the cursor): as many round
                -- trips whatever the array size, at their observed bytes and
                -- time: their own and the client's before them (charged to the
                -- round trip before; captured near the server it holds the
                -- network round trip), which the fetch plan does not count
                -- (a gap follows each fetch but the last, none the execute
                -- that no fetch follows) (an OALL8 that fetches a REF CURSOR or
                -- an implicit result is a fetch)
                p.fixed_rts = p.fixed_rts + 1
                p.fixed_to, p.fixed_from = p.fixed_to + rt.to, p.fixed_from + rt.from
                fixed_sizes[#fixed_sizes + 1] = rt.to
                t_other = t_other + rt.time + e.rts[i - 1].gap + (rt.net_before or 0)
                goto next_rt
            end
            last_fetch = rt
            rem = rem + rt.rows
            fetch_rows = fetch_rows + rt.rows
            row_data = row_data + (rt.row_bytes - rt.bvc)
            if rt.rows > 1 then
                bvc, bvc_rows = bvc + rt.bvc, bvc_rows + rt.rows - 1
            end
            if rt.error == NO_DATA then
                last, last_n = last + (rt.to - rt.row_bytes), last_n + 1
            else
                over, over_n = over + (rt.to - rt.row_bytes), over_n + 1
            end
            req_bytes, req_n = req_bytes + rt.from, req_n + 1
            n_first = n_first + 1
            first_rts[n_first] = rt.first + rt.gap
            transfer = transfer + max(0, rt.time - rt.first)
            transfer_bytes = transfer_bytes + rt.tns_to
            ::next_rt::
        end
        local a = #e.rts > 1 and execution_array_size(e.rts, #e.rts, p.topup)
        if a and not seen[a] then
            seen[a] = true
            sizes[#sizes + 1] = a
        end
        if last_fetch and last_fetch.error ~= NO_DATA then undrained = undrained + 1 end
        p.execs[#p.execs + 1] = { rem = rem, ended = ended or #e.rts == 1, rows = ex.rows + rem,
                                  first = ex.rows, exec_to = ex.to, exec_bvc = ex.bvc, exec_row_bytes = ex.row_bytes,
                                  prefetch = ex.fetch }
        if last_fetch then p.fetched = true end
    end
    table.sort(sizes)
    -- the array size (the largest when executions differ: the model's), and
    -- all of them (what the reports state)
    p.array_size, p.array_sizes = sizes[#sizes], sizes
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
        if n_first == 0 then
            -- no fetch: a fetch would cost what an execute round trip cost
            -- (its first byte, and the network round trip before it captured
            -- near the server)
            for _, e in ipairs(execs) do
                local ex = e.rts[1]
                n_first = n_first + 1
                first_rts[n_first] = ex.first + (ex.net_before or 0)
                if ex.net_before then p.t_rt_net = true end
            end
            if n_first > 0 then p.time_source = "this statement's execute calls: no fetch" end
        end
        p.t_rt = median(first_rts)
        p.t_row = 0
        p.t_byte = transfer_bytes > 0 and transfer / transfer_bytes or 0
        p.time_source = p.time_source or "this statement's fetches"
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
            pe.exec_net = ex.net_before
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
                    + (rt.call ~= FETCH and (tm.t_exec or 0) or 0)
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
-- seconds as ms with three decimals; never "0.000" (issue 34): a quantity
-- below half a microsecond reads "< 0.001" (the report drops the ones that
-- are nothing where it can)
local function ms(x)
    local v = x * 1000
    if math.abs(v) < 0.0005 then return "< 0.001" end
    return string.format("%.3f", v)
end

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
-- The verdict on a statement (its summary line's last words, issue 34):
-- what its time is made of, from the accounts, and whether the array size
-- is the lever.  rec_a: the recommended array size (nil: none to predict);
-- now, at: the model's predictions at the observed and recommended sizes.
-- (the shares of the time less its stalls, which no array size explains:
-- the client's and the server's stalls out of their parts)
local function time_share(obs)
    if not obs.server then return nil end
    local client, server = obs.client - obs.client_stall, obs.server - obs.server_stall
    local total = obs.network + server + obs.transfer + client
    if not (total > 0) then return nil end
    local parts = { { "network", obs.network }, { "server", server }, { "transfer", obs.transfer },
                    { "client", client } }
    table.sort(parts, function(x, y) return x[2] > y[2] end)
    return server / total, parts[1][1], parts[1][2] / total
end

local function verdict(p, obs, rec_a, now, at)
    local server, most, most_share = time_share(obs)
    local bound = most and string.format("%s-bound (%s%% of its time)", most, string.format("%.0f", 100 * most_share))
    if #p.execs == 0 then
        return "nothing to predict (no execution with fetches)"
    end
    if not p.fetched and not p.tied then
        return "all rows came with the execute call: array size is not the lever"
    end
    if rec_a and rec_a ~= p.array_size and at then
        local saved = now and now.elapsed > 0 and (now.elapsed - at.elapsed) / now.elapsed
        return string.format("%s%s the array size to %d: %d round trip%s, about %s ms%s",
            bound and (bound .. ": ") or "", not p.array_size and "set" or rec_a > p.array_size and "raise" or "change",
            rec_a, at.round_trips, at.round_trips == 1 and "" or "s", ms(at.elapsed),
            saved and string.format(" (%.0f%% less)", 100 * saved) or "")
    end
    if server and server >= 0.9 then
        return "all server time: array size is not the lever"
    elseif server and server >= 0.5 then
        return string.format("mostly server time (%.0f%%): array size is not the lever", 100 * server)
    end
    return "already at the best array size (no size is predicted 10% faster)" ..
        (bound and ("; " .. bound) or "")
end

local function advise_statement(out, s, p, opts, rec)
    rec = rec or {}
    local rows_per_exec = 0
    for _, e in ipairs(p.execs) do rows_per_exec = max(rows_per_exec, e.rows) end
    -- the observed numbers: the plugin's accounts (-z sqlnet,stmt's, account.c:
    -- elapsed, its parts, pauses, array size, rows), computed there once; the
    -- round trips' own sums only without the records module
    local o = p.observed
    local a = s.account
    -- TCP waits inside round trips (delayed ACKs, zero windows): the
    -- advisor's own kinds of pause (the accounts have the stalls)
    local tcp_waits = 0
    for _, x in ipairs(p.pauses or {}) do
        if x.kind ~= "client stall" and x.kind ~= "server stall" then tcp_waits = tcp_waits + x.secs end
    end
    local obs
    if a then
        local function sec(k) return (a[k] or 0) / 1000 end
        -- (executions: the count column, or the list of the executions' accounts under that name)
        local ex = a.executions
        obs = { executions = type(ex) == "table" and #ex or ex or 0, rows = a.rows or 0, round_trips = a.round_trips or 0,
                to = a.bytes_to_client or 0, from = a.bytes_from_client or 0, tns_to = a.tns_bytes_to_client or 0,
                packets = a.packets_to_client or 0, segments = a.segments_to_client or 0,
                elapsed = sec("elapsed_ms"), network = sec("network_ms"), server = sec("server_ms"),
                transfer = sec("transfer_ms"), client = sec("client_ms"), idle = sec("idle_ms"),
                client_stall = sec("client_stall_ms"), server_stall = sec("server_stall_ms"),
                paused = sec("client_stall_ms") + sec("server_stall_ms") + tcp_waits,
                array_sizes = a.array_size and tostring(a.array_size) or nil, prefetch = a.prefetch_rows }
    else
        local list = {}
        for i, x in ipairs(p.array_sizes or {}) do list[i] = tostring(x) end
        obs = { executions = #p.execs, rows = round(p.rows), round_trips = o.round_trips, to = o.to, from = o.from,
                tns_to = o.tns_to, packets = o.packets, segments = o.segments, elapsed = o.elapsed,
                idle = p.idle_before, paused = o.paused or 0,
                array_sizes = #list > 0 and table.concat(list, ", ") or (p.array_size and tostring(p.array_size)) }
    end
    p.obs = obs
    -- "array size 100", "array sizes 10, 50"; no fetch call and no rows asked: said so
    local asz = obs.array_sizes and ((obs.array_sizes:find(",", 1, true) and "array sizes " or "array size ") ..
        obs.array_sizes) or "no rows asked"
    rec.observed = { executions = obs.executions, rows = round(obs.rows), array_size = p.array_size,
                     array_sizes = obs.array_sizes, prefetch_rows = obs.prefetch,
                     round_trips = obs.round_trips, bytes_to_client = round(obs.to), bytes_from_client = round(obs.from),
                     tns_bytes_to_client = round(obs.tns_to), tns_packets = obs.packets, tcp_segments = obs.segments,
                     elapsed_ms = obs.elapsed * 1000, network_ms = obs.network and obs.network * 1000,
                     server_ms = obs.server and obs.server * 1000, transfer_ms = obs.transfer and obs.transfer * 1000,
                     client_ms = obs.client and obs.client * 1000, sdu = p.sdu, tdu = p.tdu, mss = p.mss }
    rec.predictions, rec.sdus, rec.advice = {}, {}, {}
    out[#out + 1] = ""
    out[#out + 1] = header(s)
    out[#out + 1] = string.format("  observed: %d execution(s), %s rows, %s, %d round trips, " ..
        "%s bytes to client, %s from client, %d TNS packets, %d TCP segments, %s ms",
        obs.executions, fmt_int(obs.rows), asz, obs.round_trips, fmt_int(obs.to), fmt_int(obs.from), obs.packets, obs.segments, ms(obs.elapsed))
    out[#out + 1] = string.format("  per row %.1f B (+ %.1f B bit vector after the first row of a response); " ..
        "per fetch %.1f B overhead (%.1f B on the last), %.1f B request", p.row_bytes, p.bvc_bytes,
        p.overhead, p.overhead_last, p.request_bytes)
    local tm = p.timing
    -- the network round trip named (issue 23): the RTT sits in the client's
    -- gap when the capture was taken near the server, in the wait for the
    -- answer near the client; the fit holds it in that term, shown without it
    local rt_call, gap_call, net = p.t_rt, tm and tm.g_call or 0, ""
    if p.rtt and p.rtt > 0 and (p.vantage == 1 or p.vantage == 2) then
        -- (near the server without a fit, from the execute calls: the
        -- round trip holds the RTT taken from the gap before each)
        if p.vantage == 1 and not p.t_rt_net then gap_call = max(0, gap_call - p.rtt)
        else rt_call = max(0, rt_call - p.rtt) end
        net = string.format("network round trip %s ms (RTT, captured near the %s) + ", ms(p.rtt),
            p.vantage == 1 and "server" or "client")
    end
    -- (a term that is nothing is left out: no "0.000 ms")
    local function per(x, what) return x * 1000 >= 0.0005 and string.format(" + %s ms %s", ms(x), what) or "" end
    out[#out + 1] = string.format("  time model (%s): %sround trip %s ms%s + transfer (by response size%s); " ..
        "client gap %s ms%s", p.time_source or "-", net, ms(rt_call), per(p.t_row or 0, "per row"),
        p.t_byte * 1024 * 1000 >= 0.0005 and string.format(", on average %s ms per KB", ms(p.t_byte * 1024)) or
            ": too fast to measure per KB", ms(gap_call), per(tm and tm.g_row or 0, "per row"))
    out[#out + 1] = string.format("  SDU %d, TDU %d, MSS %s (%s)", p.sdu or 0, p.tdu or 0,
        p.mss and tostring(p.mss) or "?", p.mss_source or "unknown")
    local pf_kind, pf_text = M.prefetch_assumption(p, opts and opts.prefetch)
    rec.prefetch_assumption, rec.prefetch_text = pf_kind, pf_text
    out[#out + 1] = "  prefetch: " .. pf_text
    if a then
        -- the time as -z sqlnet,stmt gives it (its parts that are nothing left out)
        local parts = {}
        for _, k in ipairs({ "network", "server", "transfer", "client" }) do
            if obs[k] * 1000 >= 0.0005 then parts[#parts + 1] = string.format("%s ms %s", ms(obs[k]), k) end
        end
        out[#out + 1] = string.format("  time: elapsed %s ms = %s (-z sqlnet,stmt's: as the client lived it, %s)",
            ms(obs.elapsed), #parts > 0 and table.concat(parts, " + ") or "nothing measured",
            p.vantage == 1 and "the network round trip added: captured near the server" or
            p.vantage == 2 and "captured near the client" or "where the capture was taken unknown")
    else
        local rt_time = o.rt_time or 0
        if o.elapsed - rt_time >= 0.0000005 then
            out[#out + 1] = string.format("  time: observed %s ms = %s ms of round trips (-z sqlnet,stmt's response " ..
                "time sum) + %s ms of client time between the round trips of an execution (%s)",
                ms(o.elapsed), ms(rt_time), ms(o.elapsed - rt_time),
                p.vantage == 1 and "with the network round trip: captured near the server" or
                p.vantage == 2 and "captured near the client: the network round trip is in the round trips" or
                "the network round trip too, when captured near the server")
        end
    end
    rec.pauses, rec.pauses_ms, rec.idle_before_ms = {}, obs.paused * 1000, (obs.idle or 0) * 1000
    if p.pauses and obs.paused * 1000 >= 0.0005 then
        local parts = {}
        for _, x in ipairs(p.pauses) do
            parts[#parts + 1] = string.format("%s %s ms at frame %s", x.kind, ms(x.secs),
                x.frame and tostring(x.frame) or "?")
            rec.pauses[#rec.pauses + 1] = { keys = { "kind", "ms", "frame" },
                                            values = { kind = x.kind, ms = x.secs * 1000, frame = x.frame } }
        end
        out[#out + 1] = string.format("  pauses: %s ms not explained by the model: %s", ms(obs.paused),
            table.concat(parts, ", "))
    end
    if (obs.idle or 0) >= 0.0000005 then
        out[#out + 1] = string.format("  idle before: %s ms (before its first call; not counted in its time)",
            ms(obs.idle))
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
        rec.verdict = verdict(p, obs)
        return
    end
    if not p.fetched and not p.tied then
        rec.verdict = verdict(p, obs)
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
            row, model = M.observed_row(obs, pr)
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
    rec.verdict = verdict(p, obs, rec_a, now, rec_a and M.predict(p, rec_a))
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
                now.round_trips ~= obs.round_trips and string.format(" (the model's figures at both sizes: at %d it " ..
                    "predicts %s where %d were observed)", p.array_size, rts(now.round_trips), obs.round_trips) or "")
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
            local margin = string.format(">= %.0f%% fewer TCP segments or >= %.0f%% less time",
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
                -- fewer TNS packets that save nothing on the wire: why they are not advised
                local po = base and M.packets_only_sdu(rows, sdu)
                if po then
                    advice = advice .. string.format(" (SDU %d would take %d TNS packets instead of %d, but %s " ..
                        "and %s: nothing saved on the wire)", po.sdu, po.packets, base.packets,
                        mss and string.format("%d TCP segments instead of %d", po.segments, base.segments)
                            or "no fewer TCP segments known (no MSS)",
                        math.abs(po.elapsed - base.elapsed) <= 1e-9 * max(1, base.elapsed) and "the same predicted time"
                            or string.format("%s ms instead of %s", ms(po.elapsed), ms(base.elapsed)))
                end
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
    -- each statement's account (by SQL_ID, else by its text on one line)
    local by_id, by_text = {}, {}
    for _, a in ipairs(st.accounts or {}) do
        if a.sql_id then by_id[a.sql_id] = a end
        if a.sql then by_text[one_line(a.sql)] = a end
    end
    for _, s in ipairs(list) do
        s.account = s.sql ~= OTHER and (s.sql_id and by_id[s.sql_id] or by_text[s.sql]) or nil
    end
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
                    if (rt.error or 0) ~= 0 and rt.error ~= NO_DATA then err = rt.error end
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
    out[#out + 1] = "Summary (elapsed time, idle time apart; the costliest first, its pauses left out):"
    for _, a in ipairs(order) do
        local o = a.rec.observed or {}
        local function rts(n) return string.format("%d round trip%s", n, n == 1 and "" or "s") end
        -- the array size as the accounts define it (a list when executions differ)
        local sizes = o.array_sizes
        -- its elapsed time as every report gives it; the pauses inside it said apart
        local paused = a.rec.pauses_ms or 0
        local head = string.format("  Statement %d: %s ms%s, %s at %s", a.s.number, ms((o.elapsed_ms or 0) / 1000),
            paused >= 0.0005 and (" (" .. ms(paused / 1000) .. " ms of it pauses)") or "",
            rts(o.round_trips or 0), sizes and ((sizes:find(",", 1, true) and "array sizes " or "array size ") .. sizes)
                or "no rows asked")
        out[#out + 1] = head .. ": " .. (a.rec.verdict or "nothing to predict")
    end
    for _, c in ipairs(connections or {}) do
        if c.advice then
            out[#out + 1] = string.format("  Connection %d (%s -> %s): SDU %s", c.connection, c.client or "?",
                c.server or "?", c.advice:match("^(%a+ %d+)") or c.advice)
        end
    end
    return out
end

-- Chatty applications (issue 36): the accounts' patterns (account.c,
-- patterns.c: counted and priced once in C), ranked by the time one call per
-- run would save, with the fix in the words of the client the capture shows
-- (its driver name at logon); a client the capture does not name gets every
-- family's fix.
local PATTERN_FIX = {
    repeated_query = {
        all = "one query for all of them (an IN-list or a join), or keep what it returns " ..
              "(a tool's dictionary query per object: cache the metadata)",
    },
    row_by_row_dml = {
        python = "cursor.executemany() with all the rows", node = "connection.executeMany()",
        jdbc = "PreparedStatement.addBatch() and executeBatch()", goora = "array binds (slices) in one Exec",
        all = "array DML (executemany / addBatch / executeMany / array binds)",
    },
    commit = {
        python = "commit once per piece of work, or connection.autocommit = True for the last statement " ..
                 "(the commit goes with its execute)",
        node = "commit once per piece of work, or autoCommit: true on the last execute()",
        jdbc = "setAutoCommit(false) and one commit() per transaction",
        goora = "one Tx.Commit() per piece of work",
        all = "commit once per piece of work, or commit on the last execute (autocommit)",
    },
    ping = {
        python = "the pool's ping_interval (a ping only after a connection was idle that long)",
        node = "the pool's poolPingInterval", jdbc = "UCP's secondsToTrustIdleConnection / no validation on borrow",
        goora = "no Ping() before each use (database/sql checks connections itself)",
        all = "a pool ping interval instead of a ping or validation query before each use",
    },
    lob_per_row = {
        python = "oracledb.defaults.fetch_lobs = False (LOBs as str/bytes with the row)",
        node = "fetchAsString / fetchAsBuffer for the LOB columns", jdbc = "a LOB prefetch size (defaultLobPrefetchSize)",
        goora = "the connection option LOB FETCH=PRE (the default; not POST): the LOB data with the row", all = "LOB prefetch, or LOBs fetched as strings/bytes",
    },
}
local PATTERN_WHAT = {
    repeated_query = "the same query executed %d times in a row, %s rows per execution",
    row_by_row_dml = "the same DML executed %d times in a row, one row each",
    commit = "%d commit calls, each right after one statement",
    ping = "%d pings / validation queries, one before each piece of work",
    lob_per_row = "%d LOB calls in a row",
}

local function client_family(st)
    local fam
    for _, c in pairs(st.streams or {}) do
        local f = (c.jdbc and "jdbc") or (c.goora and "goora") or (c.node and "node") or (c.python and "python")
        if f then
            if fam and fam ~= f then return nil end
            fam = f
        end
    end
    return fam
end

local FAMILY_NAME = { python = "python-oracledb", node = "node-oracledb", jdbc = "JDBC", goora = "go-ora" }

-- The pattern section's records, ranked (the text, JSON and CSV forms print
-- these): one per statement (or the calls outside a statement) with a pattern.
local function pattern_records(st)
    local found = {}
    for _, a in ipairs(st.accounts or {}) do
        if a.pattern then found[#found + 1] = a end
    end
    table.sort(found, function(x, y)
        if x.pattern_saved_ms ~= y.pattern_saved_ms then return x.pattern_saved_ms > y.pattern_saved_ms end
        return (x.pattern_first_frame or 0) < (y.pattern_first_frame or 0)
    end)
    local fam = client_family(st)
    local out = {}
    for _, a in ipairs(found) do
        local fixes = PATTERN_FIX[a.pattern] or {}
        out[#out + 1] = { statement = a.statement, sql_id = a.sql_id, sql = a.sql, pattern = a.pattern,
            calls = a.pattern_calls, first_frame = a.pattern_first_frame,
            rows_per_execution = a.rows_per_execution, executions = a.executions, parses = a.parses,
            commits = a.commits, saved_round_trips = a.pattern_saved_round_trips, saved_ms = a.pattern_saved_ms,
            saved_network_ms = a.pattern_saved_network_ms, saved_server_ms = a.pattern_saved_server_ms,
            saved_client_ms = a.pattern_saved_client_ms,
            family = fam and FAMILY_NAME[fam] or nil, fix = (fam and fixes[fam]) or fixes.all or "fewer calls" }
    end
    return out
end

local function pattern_lines(st)
    local found = pattern_records(st)
    if #found == 0 then return {} end
    local out = { "", "Avoidable round trips (chatty application), the most time saved first:" }
    for _, p in ipairs(found) do
        local what = string.format(PATTERN_WHAT[p.pattern] or (p.pattern .. ": %d calls"), p.calls,
            p.rows_per_execution and string.format("%.1f", p.rows_per_execution) or "-")
        local where = p.statement and string.format("Statement %d", p.statement) or "Calls outside a statement"
        out[#out + 1] = string.format("  %s (sqlnet.pattern == \"%s\", from frame %d): %s", where, p.pattern,
            p.first_frame, what)
        out[#out + 1] = string.format("    one call instead: %d round trips and about %s ms less (network %s, " ..
            "server %s, client %s ms), if the %d calls can be one", p.saved_round_trips,
            string.format("%.3f", p.saved_ms), string.format("%.3f", p.saved_network_ms),
            string.format("%.3f", p.saved_server_ms), string.format("%.3f", p.saved_client_ms), p.calls)
        out[#out + 1] = "    fix" .. (p.family and (" (" .. p.family .. ")") or "") .. ": " .. p.fix
    end
    return out
end

-- Parsed on every execution (issue 36): the statements the plugin marks
-- sqlnet.pattern == "reparse" (patterns.c: PATTERN_MIN_RUN executions or
-- more in a row in a conversation, each an OALL8 with its SQL text and the
-- parse option), counted and priced in C (account.c: reparses, reparse_runs,
-- reparse_sql_bytes, reparse_first_frame), where a statement cache would
-- have re-executed the open cursor.  No round trip goes (the parse rides
-- with the execute); the SQL text is not sent again, and the server's parse
-- (inside the executions' server time, not separable on the wire) goes.
local REPARSE_MIN = 10          -- patterns.h PATTERN_MIN_RUN (for the text)
local REPARSE_FIX = {
    python = "keep the statement cache on (connection stmtcachesize, default 20) and the same SQL text",
    node = "keep oracledb.stmtCacheSize above 0 (default 30) and the same SQL text",
    jdbc = "the implicit statement cache (setImplicitCachingEnabled(true), setStatementCacheSize(n)), " ..
           "or one PreparedStatement kept for the loop",
    goora = "one prepared statement (db.Prepare) executed for each call",
    all = "a statement cache (stmtcachesize / stmtCacheSize / setStatementCacheSize) or one prepared " ..
          "statement kept for the loop",
}

local function reparse_records(st)
    local found = {}
    for _, a in ipairs(st.accounts or {}) do
        if a.statement and (a.reparses or 0) > 0 then
            found[#found + 1] = a
        end
    end
    table.sort(found, function(x, y)
        if x.reparse_sql_bytes ~= y.reparse_sql_bytes then return x.reparse_sql_bytes > y.reparse_sql_bytes end
        return x.statement < y.statement
    end)
    local fam = client_family(st)
    local out = {}
    for _, a in ipairs(found) do
        out[#out + 1] = { statement = a.statement, sql_id = a.sql_id, sql = a.sql, executions = a.executions,
            parses = a.parses, reparses = a.reparses, reparse_runs = a.reparse_runs,
            first_frame = a.reparse_first_frame, sql_bytes_not_resent = a.reparse_sql_bytes,
            saved_round_trips = 0, family = fam and FAMILY_NAME[fam] or nil,
            fix = (fam and REPARSE_FIX[fam]) or REPARSE_FIX.all }
    end
    return out
end

local function reparse_lines(st)
    local found = reparse_records(st)
    if #found == 0 then return {} end
    local out = { "", "Parsed on every execution (no statement cache), the most SQL text re-sent first:" }
    for _, r in ipairs(found) do
        out[#out + 1] = string.format("  Statement %d: %d parses for %d executions (each an OALL8 with the SQL " ..
            "text and the parse option; sqlnet.pattern == \"reparse\" from frame %d: %d executions in %d run(s) " ..
            "of %d or more)", r.statement, r.parses, r.executions, r.first_frame, r.reparses, r.reparse_runs,
            REPARSE_MIN)
        out[#out + 1] = string.format("    a statement cache: the same round trips, %d bytes of SQL text not " ..
            "sent again (%d times), and no parse on the server (its time is inside the executions')",
            r.sql_bytes_not_resent, r.reparses - r.reparse_runs)
        out[#out + 1] = "    fix" .. (r.family and (" (" .. r.family .. ")") or "") .. ": " .. r.fix
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
    for _, l in ipairs(pattern_lines(st)) do out[#out + 1] = l end
    for _, l in ipairs(reparse_lines(st)) do out[#out + 1] = l end
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
    out[#out + 1] = "Model: fetches = floor((rows - first) / array size) + 1 per execution, one more where"
    out[#out + 1] = "the client tops its first fetch up to the array size (node-oracledb) and the execute's"
    out[#out + 1] = "rows are not a whole array; bytes = fixed + per-fetch overhead + rows x row bytes;"
    out[#out + 1] = "packets = ceil(bytes / (SDU - 10)) per response;"
    out[#out + 1] = "elapsed = fixed + round trips x time per call + rows x time per row + bytes x time per"
    out[#out + 1] = "byte, the times fitted per connection on the round trips of all its statements (a round"
    out[#out + 1] = "trip that waited for a TCP retransmission left out: see a statement's loss line)."
    out[#out + 1] = "Observed: -z sqlnet,stmt's numbers (elapsed = network + server + transfer + client, idle"
    out[#out + 1] = "apart; array size = rows asked per fetch); the model predicts, it does not measure again."
    out[#out + 1] = "SDU advice only for >= 10% fewer TCP segments or >= 5% less predicted time."
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

-- (array_size: the largest, the model's; array_sizes: -z sqlnet,stmt's, a list
-- when executions differ; the time's parts: -z sqlnet,stmt's)
local OBS_KEYS = { "executions", "rows", "array_size", "round_trips", "bytes_to_client", "bytes_from_client",
                   "tns_bytes_to_client", "tns_packets", "tcp_segments", "elapsed_ms", "sdu", "tdu", "mss",
                   "array_sizes", "prefetch_rows", "network_ms", "server_ms", "transfer_ms", "client_ms" }
local PRED_KEYS = { "array_size", "round_trips", "bytes_to_client", "bytes_from_client", "tns_bytes_to_client",
                    "tns_packets", "tcp_segments", "elapsed_ms", "observed", "recommended", "model_elapsed_ms" }
local SDU_KEYS = { "sdu", "array_size", "round_trips", "tns_packets", "tns_bytes_to_client", "tcp_segments",
                   "elapsed_ms", "negotiated", "in_step" }
-- a connection's SDU advice (advise_connections)
local CONN_KEYS = { "connection", "client", "server", "tcp_stream", "tns_version", "sdu", "tdu", "mss", "sdu_min",
                    "sdu_max", "statements", "recommended_sdu", "advice", "flags", "sdu_predictions" }
local CONN_SDU_KEYS = { "sdu", "tns_packets", "tcp_segments", "tcp_segments_full", "tcp_segments_per_packet",
                        "elapsed_ms", "negotiated", "recommended" }

local PATTERN_KEYS = { "statement", "sql_id", "sql", "pattern", "calls", "first_frame", "executions",
                       "rows_per_execution", "parses", "commits", "saved_round_trips", "saved_ms",
                       "saved_network_ms", "saved_server_ms", "saved_client_ms", "family", "fix" }
local REPARSE_KEYS = { "statement", "sql_id", "sql", "executions", "parses", "first_frame",
                       "sql_bytes_not_resent", "saved_round_trips", "family", "fix", "reparses", "reparse_runs" }

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
        -- the summary line's verdict (issue 34)
        obj.keys[#obj.keys + 1], obj.values.verdict = "verdict", r.verdict
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
    -- the chatty-application sections (the text's records)
    local pats, reps = {}, {}
    for _, p in ipairs(pattern_records(st)) do pats[#pats + 1] = { keys = PATTERN_KEYS, values = p } end
    for _, r in ipairs(reparse_records(st)) do reps[#reps + 1] = { keys = REPARSE_KEYS, values = r } end
    return json_object({ "report", "filter", "statements", "not_advised", "undecrypted_tls", "connections",
                         "patterns", "reparses" },
        { report = "sqlnet,advise", filter = filter, statements = stmts, not_advised = others,
          undecrypted_tls = tls, connections = conns, patterns = pats, reparses = reps }, "")
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
                      "prefetch_assumption", "pauses_ms", "idle_before_ms", "verdict" }

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
              pauses_ms = r.pauses_ms or 0, idle_before_ms = r.idle_before_ms or 0, verdict = r.verdict,
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
    -- the chatty-application sections: a "pattern" row per pattern (executions = its
    -- calls, round_trips / elapsed_ms = the round trips and ms one call saves, mark = the
    -- pattern, note = the fix), a "reparse" row per statement parsed on every execution
    -- (executions, round_trips 0, note = the fix)
    for _, p in ipairs(pattern_records(st)) do
        row({ kind = "pattern", statement = p.statement, sql_id = p.sql_id, sql = p.sql, first_frame = p.first_frame,
              executions = p.calls, round_trips = p.saved_round_trips, elapsed_ms = p.saved_ms, mark = p.pattern,
              note = "fix" .. (p.family and (" (" .. p.family .. ")") or "") .. ": " .. p.fix })
    end
    for _, r in ipairs(reparse_records(st)) do
        row({ kind = "reparse", statement = r.statement, sql_id = r.sql_id, sql = r.sql, first_frame = r.first_frame,
              executions = r.executions, round_trips = 0, mark = "reparse",
              note = "fix" .. (r.family and (" (" .. r.family .. ")") or "") .. ": " .. r.fix })
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

-- tshark: -z sqlnet,advise[,sizes=...][,sdus=...][,prefetch=tied|fixed][,format=csv|json][,filter]
local function tshark_advise(arg)
    if NO_RECORDS then
        io.stderr:write("tshark: " .. NO_RECORDS .. "\n")
        return
    end
    local opts, filter = {}, nil
    local rest = arg and arg:match("^sqlnet,advise,(.+)$")
    if rest then opts, filter = M.parse_args(rest) end
    local st = new_state()
    local taps = listeners(function() return st end, filter, function() st = new_state() end)
    taps.draw = function()
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

if gui_enabled() then
    -- with_options: a "Predict..." button asks which array sizes, SDUs and
    -- prefetch mode to predict (as -z sqlnet,advise,sizes=,sdus=,prefetch=)
    -- and draws the window again with them
    local function window(title, render, with_options)
        return function()
            local win = TextWindow.new(title)
            if NO_RECORDS then
                win:set(NO_RECORDS)
                return
            end
            local st = new_state()
            local opts = {}
            -- the numbers only once the capture has been read: Wireshark
            -- draws the listeners while a retap runs (every few seconds),
            -- which would show the counts of part of the capture
            local reading = false
            -- closed: the window is gone (its TextWindow expired); a draw or
            -- a Predict dialog answered after that must not touch it
            local closed = false
            local taps
            local function show()
                if closed then return end
                if reading then
                    win:set(title .. ": " .. READING)
                else
                    taps.collect()
                    win:set(render(st, nil, opts))
                end
            end
            taps = listeners(function() return st end, nil, function() st = new_state() end)
            taps.draw = function() show() end
            win:set_atclose(function()
                closed = true
                taps.close()
            end)
            if with_options then
                win:add_button("Predict...", function()
                    if closed then return end
                    new_dialog(title .. ": what to predict", function(sizes, sdus, prefetch)
                        if closed then return end
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
end
