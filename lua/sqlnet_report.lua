-- sqlnet_report.lua - array-size effectiveness report over the sqlnet plugin's
-- round-trip records (sqlnet.rt.values).
--
--   tshark -r cap.pcapng -q -z sqlnet,arraysize          (tshark)
--   Statistics > SQL*Net Array sizes                      (Wireshark)
--
-- For every array size seen on the wire (rows requested per call) it shows how
-- many calls asked for it, how many rows they got, how many round trips and
-- bytes they cost and how long they took: the effect of the client's array
-- size / fetch size setting at a glance.  Runs on Lua 5.2 (Wireshark 4.0) and 5.4.
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

-- Without the sqlnet C plugin: one notice for all the sqlnet scripts, and no report
if not sqlnet_model().plugin_loaded() then
    return
end

-- The round trips' records (docs/fields.md): one sqlnet.rt.values per round
-- trip, on the packet that completes it, with the rows its call asked for:
-- no request to remember and pair with its response here.
--   "rt1 number request_frame call execution cursor rows_asked rows req_ttc
--   req_tns req_packets resp_ttc resp_tns resp_packets resp_data_packets
--   resp_segments row_bytes bvc_bytes time_ns first_ns ora_error partial
--   largest_segment" ("-" absent)
-- Made only when the run can show the report: in tshark, one that asks for
-- -z sqlnet,arraysize (an extractor made while the scripts load makes tshark
-- build a protocol tree for every packet of the run: M.wants_extractors,
-- docs/performance.md "The hidden tree"); on_packet runs only then.
local f_values = sqlnet_model().wants_extractors({ "sqlnet,arraysize" }) and Field.new("sqlnet.rt.values") or nil
local VALUES_PATTERN = "^rt1" .. string.rep(" (%S+)", 22)
local ROWS_ASKED, ROWS, RESP_TNS, RESP_PACKETS, RESP_SEGMENTS, TIME_NS = 6, 7, 12, 13, 15, 18

-- State of one report instance (tshark -z argument or GUI window).
local function new_report()
    return { sizes = {} }
end

-- Each round trip whose call asked for rows, to its array size.
local function on_packet(r)
    for _, fi in ipairs({ f_values() }) do
        local v = { fi.value:match(VALUES_PATTERN) }
        local size = tonumber(v[ROWS_ASKED] or "-")
        if size then
            local s = r.sizes[size]
            if not s then
                s = { calls = 0, rows = 0, bytes = 0, packets = 0, segments = 0, time = 0.0 }
                r.sizes[size] = s
            end
            s.calls = s.calls + 1
            s.rows = s.rows + (tonumber(v[ROWS]) or 0)
            s.bytes = s.bytes + (tonumber(v[RESP_TNS]) or 0)
            s.packets = s.packets + (tonumber(v[RESP_PACKETS]) or 0)
            s.segments = s.segments + (tonumber(v[RESP_SEGMENTS]) or 0)
            s.time = s.time + (tonumber(v[TIME_NS]) or 0) / 1e9
        end
    end
end

local function render(r)
    local keys = {}
    for size in pairs(r.sizes) do keys[#keys + 1] = size end
    table.sort(keys)
    local out = {}
    out[#out + 1] = "SQL*Net array sizes (rows requested per call)"
    out[#out + 1] = string.format("%10s %8s %10s %10s %12s %9s %9s %12s",
        "array size", "calls", "rows", "rows/call", "TNS bytes", "packets", "segments", "time (ms)")
    for _, size in ipairs(keys) do
        local s = r.sizes[size]
        out[#out + 1] = string.format("%10d %8d %10d %10.1f %12d %9d %9d %12.3f",
            size, s.calls, s.rows, s.rows / s.calls, s.bytes, s.packets, s.segments, s.time * 1000.0)
    end
    if #keys == 0 then
        out[#out + 1] = "(no calls with a rows-requested value)"
    end
    return table.concat(out, "\n")
end

-- tshark: -z sqlnet,arraysize[,filter]
local function tshark_report(arg)
    local filter = arg and arg:match("^sqlnet,arraysize,(.+)$") or nil
    local r = new_report()
    local tap = Listener.new("frame", filter and ("(" .. filter .. ") && sqlnet.rt") or "sqlnet.rt")
    function tap.packet() on_packet(r) end
    function tap.draw() print("\n" .. render(r) .. "\n") end
    function tap.reset() r.sizes = {} end
end

register_stat_cmd_arg("sqlnet,arraysize", tshark_report)

-- Wireshark: Statistics > SQL*Net Array sizes (a flat item: see sqlnet_advise.lua)
if gui_enabled() then
    local function gui_report()
        local win = TextWindow.new("SQL*Net Array sizes")
        local r = new_report()
        local tap = Listener.new("frame", "sqlnet.rt")
        -- the numbers only once the capture has been read: Wireshark draws
        -- the listeners while a retap runs, with the counts of part of it
        local reading = false
        -- closed: the window is gone (its TextWindow expired): nothing draws in it
        local closed = false
        local function show()
            if closed then return end
            if reading then
                win:set("SQL*Net Array sizes: Reading packets ... (the numbers appear when the capture has been read)")
            else
                win:set(render(r))
            end
        end
        function tap.packet() on_packet(r) end
        function tap.draw() show() end
        function tap.reset() r.sizes = {} end
        win:set_atclose(function()
            closed = true
            tap:remove()
        end)
        reading = true
        show()
        retap_packets()
        reading = false
        show()
    end
    register_menu("SQL*Net Array sizes", gui_report, MENU_STAT_UNSORTED)
end
