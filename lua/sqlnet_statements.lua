-- sqlnet_statements.lua - the statement table a DBA works with (Wireshark only).
--
--   Statistics > SQL*Net Statement table
--
-- One row per statement (one distinct SQL text, one SQL_ID, across the
-- capture; numbered 1, 2 ... by the frame of its first call, as in
-- -z sqlnet,stmt), plus one unnumbered row for the calls outside a statement
-- (logon, commit, ping ...).  Columns, times in ms from the round-trip
-- records the plugin puts on each response (sqlnet.rt.*):
--   elapsed      network + server + transfer + client: the statement's time on
--                the wire, each execution from its first call to its last
--                response (the network part of its first call included)
--   network, server, transfer, client
--                the sums of sqlnet.rt.time.network/.server/.transfer/.client,
--                less "idle before" for client
--   idle before  the client part (sqlnet.rt.time.client) of the round trip
--                that starts each execution: the time the session sat idle
--                before the statement was called, summed over its executions
--                (for the calls outside a statement: before each call).
--                elapsed + idle before = -z sqlnet,stmt's "time on the wire".
--   executions   distinct (conversation, sqlnet.rt.execution)
--   round trips  COUNT(sqlnet.rt.rows);  rows  SUM(sqlnet.rt.rows)
--   ORA errors   sqlnet.rt.ora_error (ORA-01403 is never one)
-- and each statement's SQL_ID, frames and filter.  Buttons sort it, apply a
-- statement's filter to the packet list, copy it or save it as CSV.
--
-- The table is computed by plain functions (M.add, M.rows, M.sort, M.render,
-- M.csv) so that tests drive them without the GUI: under plain Lua the file
-- returns M; under tshark a driver loaded with -X lua_script: calls
-- M.init_fields() and M.listen() to collect a capture's round trips.
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
local Model = sqlnet_model()
local NO_DATA = Model.ORA_NO_DATA_FOUND

local M = {}

M.TITLE = "SQL*Net Statement table"
M.OUTSIDE = "(outside a statement)"

local floor = math.floor

-- ---------------------------------------------------------------------------
-- The table from round-trip records (plain Lua)
-- ---------------------------------------------------------------------------

function M.new_state()
    return { stmts = {}, list = {}, execs = {}, rts = 0, last_frame = 0 }
end

local function one_line(sql)
    return (sql:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

-- One round trip, in frame order:
--   frame (the packet that carries its record), request (its call's first
--   frame, when known), stream (conversation), execution, sql, sql_id, rows,
--   time, network, server, transfer, client (ms; network..client nil when
--   unknown), ora_error.
function M.add(st, r)
    st.rts = st.rts + 1
    local key, s
    if r.sql_id and r.sql_id ~= "" then
        key = "id:" .. r.sql_id
    elseif r.sql and r.sql ~= "" then
        key = "sql:" .. one_line(r.sql)
    else
        key = "outside"
    end
    s = st.stmts[key]
    if not s then
        s = { key = key, outside = key == "outside", sql_id = r.sql_id ~= "" and r.sql_id or nil,
              sql = r.sql and one_line(r.sql) or M.OUTSIDE, first = r.request or r.frame, last = r.frame,
              elapsed = 0, network = 0, server = 0, transfer = 0, client = 0, idle = 0,
              executions = 0, round_trips = 0, rows = 0, errors = {}, error_codes = {}, untimed = 0 }
        st.stmts[key] = s
        st.list[#st.list + 1] = s
    end
    local first = r.request or r.frame
    if first < s.first then s.first = first end
    if r.frame > s.last then s.last = r.frame end
    s.round_trips = s.round_trips + 1
    s.rows = s.rows + (r.rows or 0)
    -- does this round trip start an execution?  (a call outside an execution
    -- stands alone: the time before it is idle time too)
    local starts = true
    if r.execution and not s.outside then
        local ek = tostring(r.stream or 0) .. ":" .. r.execution
        starts = not st.execs[ek]
        if starts then
            st.execs[ek] = true
            s.executions = s.executions + 1
        end
    end
    if r.client then
        local n, sv, tr, cl = r.network or 0, r.server or 0, r.transfer or 0, r.client
        s.network, s.server, s.transfer = s.network + n, s.server + sv, s.transfer + tr
        if starts then
            s.idle = s.idle + cl
            cl = 0
        end
        s.client = s.client + cl
        s.elapsed = s.elapsed + n + sv + tr + cl
    else
        -- no breakdown (the call's request was not seen): its response time
        s.untimed = s.untimed + 1
        s.elapsed = s.elapsed + (r.time or 0)
    end
    if r.ora_error and r.ora_error ~= 0 and r.ora_error ~= NO_DATA then
        if not s.errors[r.ora_error] then s.error_codes[#s.error_codes + 1] = r.ora_error end
        s.errors[r.ora_error] = (s.errors[r.ora_error] or 0) + 1
    end
end

-- The statements with their numbers: 1, 2 ... by the frame of the first
-- call; the calls outside a statement get none (no = nil) and come first.
function M.rows(st)
    local rows = {}
    for _, s in ipairs(st.list) do rows[#rows + 1] = s end
    table.sort(rows, function(a, b)
        if a.outside ~= b.outside then return a.outside end
        if a.first ~= b.first then return a.first < b.first end
        return a.key < b.key
    end)
    local n = 0
    for _, s in ipairs(rows) do
        if not s.outside then
            n = n + 1
            s.no = n
        end
    end
    return rows
end

-- Sort keys: the column names a user types, and the field each sorts on.
M.COLUMNS = {
    { "elapsed", "elapsed" }, { "network", "network" }, { "server", "server" },
    { "transfer", "transfer" }, { "client", "client" }, { "idle before", "idle" },
    { "executions", "executions" }, { "round trips", "round_trips" }, { "rows", "rows" },
    { "ora errors", "nerrors" }, { "no.", "no" },
}

-- "elapsed", "Round trips", "rt", "idle", "rows asc" ... -> field, descending
-- (nil, message when the text names no column).  No. sorts ascending unless
-- "desc" is given; every other column descending unless "asc" is given.
function M.parse_sort(text)
    local t = (text or ""):lower():gsub("^%s+", ""):gsub("%s+$", "")
    local dir
    local word = t:match("%s(%a+)$")
    if word == "asc" or word == "ascending" or word == "desc" or word == "descending" then
        dir = word:sub(1, 1) == "d"
        t = t:gsub("%s+%a+$", "")
    end
    if t == "" then return nil, "no column given" end
    if t == "rt" or t == "round trip" then t = "round trips" end
    if t == "no" or t == "number" or t == "statement" then t = "no." end
    if t == "errors" or t == "ora" then t = "ora errors" end
    for _, c in ipairs(M.COLUMNS) do
        if c[1]:sub(1, #t) == t then
            if dir == nil then dir = c[2] ~= "no" end
            return c[2], dir
        end
    end
    local names = {}
    for _, c in ipairs(M.COLUMNS) do names[#names + 1] = c[1] end
    return nil, "unknown column '" .. t .. "' (one of: " .. table.concat(names, ", ") .. ")"
end

local function error_count(s)
    local n = 0
    for _, c in pairs(s.errors) do n = n + c end
    return n
end

-- A sorted copy of rows (from M.rows): by field, descending unless desc is
-- false; ties by No. (the calls outside a statement first).
function M.sort(rows, field, desc)
    local out = {}
    for i, s in ipairs(rows) do
        s.nerrors = error_count(s)
        out[i] = s
    end
    field = field or "no"
    local function rank(s) return s.no or 0 end
    table.sort(out, function(a, b)
        local x, y
        if field == "no" then x, y = rank(a), rank(b) else x, y = a[field], b[field] end
        if x ~= y then
            if desc then return x > y end
            return x < y
        end
        return rank(a) < rank(b)
    end)
    return out
end

-- The rows whose SQL text or SQL_ID contains `text` (any case; plain text,
-- not a pattern); all of them for an empty text.
function M.matching(rows, text)
    local t = (text or ""):lower()
    if t == "" then return rows end
    local out = {}
    for _, s in ipairs(rows) do
        if s.sql:lower():find(t, 1, true) or (s.sql_id and s.sql_id:find(t, 1, true)) then
            out[#out + 1] = s
        end
    end
    return out
end

-- A statement's packets: its calls (sqlnet.sql_id, on every call of it,
-- fetches too) and the packets that complete their responses
-- (sqlnet.rt.sql_id); for the calls outside a statement, those without.
function M.filter(s)
    if s.outside then
        return "(sqlnet.call && !sqlnet.sql_id) || (sqlnet.rt && !sqlnet.rt.sql_id)"
    elseif s.sql_id then
        return string.format('sqlnet.rt.sql_id == "%s" || sqlnet.sql_id == "%s"', s.sql_id, s.sql_id)
    end
    return string.format('sqlnet.rt.sql == "%s"', s.sql:gsub('\\', '\\\\'):gsub('"', '\\"'))
end

local function ms(x) return string.format("%.3f", x) end

local function errors_text(s, sep)
    local parts = {}
    for _, code in ipairs(s.error_codes) do
        local n = s.errors[code]
        parts[#parts + 1] = string.format("ORA-%05d", code) .. (n > 1 and (" x" .. n) or "")
    end
    return table.concat(parts, sep)
end

local function short_errors(s)
    if #s.error_codes == 0 then return "-" end
    local first = string.format("ORA-%05d", s.error_codes[1])
    if #s.error_codes > 1 then return first .. "+" .. (#s.error_codes - 1) end
    local n = s.errors[s.error_codes[1]]
    return n > 1 and (first .. " x" .. n) or first
end

local function cut(text, width)
    if #text <= width then return text end
    return text:sub(1, width - 3) .. "..."
end

M.SORT_NAMES = {
    no = "No.", elapsed = "elapsed", network = "network", server = "server", transfer = "transfer",
    client = "client", idle = "idle before", executions = "executions", round_trips = "round trips",
    rows = "rows", nerrors = "ORA errors",
}

-- The window's text: a header, the fixed-width table (in the order of
-- `rows`), then each statement's full text, filter and frames.
--   opts.field, opts.desc: the order shown; opts.note: a line on top
function M.render(rows, opts)
    opts = opts or {}
    local out = {}
    if opts.note then out[#out + 1] = opts.note; out[#out + 1] = "" end
    if opts.match and opts.match ~= "" then
        out[#out + 1] = string.format("Only the statements whose SQL or SQL_ID contains '%s' (Find statements... with an empty text shows all)", opts.match)
        out[#out + 1] = ""
    end
    local nstmt, nrt = 0, 0
    for _, s in ipairs(rows) do
        if not s.outside then nstmt = nstmt + 1 end
        nrt = nrt + s.round_trips
    end
    local field = opts.field or "no"
    out[#out + 1] = string.format("%s: %d statement%s, %d round trip%s; sorted by %s%s", M.TITLE,
        nstmt, nstmt == 1 and "" or "s", nrt, nrt == 1 and "" or "s", M.SORT_NAMES[field] or field,
        field == "no" and "" or (opts.desc == false and " (smallest first)" or " (largest first)"))
    out[#out + 1] = "Times in ms. elapsed = network + server + transfer + client (each execution from its first call"
    out[#out + 1] = "to its last response); idle before = the client's time before each execution, not in elapsed."
    out[#out + 1] = ""
    -- columns as wide as their widest cell (a small capture, a narrow table)
    local cols = { { "No.", "r" }, { "elapsed", "r" }, { "network", "r" }, { "server", "r" },
                   { "transfer", "r" }, { "client", "r" }, { "idle before", "r" }, { "execs", "r" },
                   { "round trips", "r" }, { "rows", "r" }, { "ORA errors", "l" }, { "SQL_ID", "l" },
                   { "SQL", "l" } }
    local cells = {}
    for i, s in ipairs(rows) do
        cells[i] = { s.no and tostring(s.no) or "-", ms(s.elapsed), ms(s.network), ms(s.server),
                     ms(s.transfer), ms(s.client), ms(s.idle), tostring(s.executions),
                     tostring(s.round_trips), tostring(s.rows), short_errors(s), s.sql_id or "-",
                     cut(s.sql, 50) }
    end
    local total     -- the sums of the rows shown, under a table of several
    if #rows > 1 then
        local t = { elapsed = 0, network = 0, server = 0, transfer = 0, client = 0, idle = 0,
                    executions = 0, round_trips = 0, rows = 0 }
        for _, s in ipairs(rows) do
            for k in pairs(t) do t[k] = t[k] + s[k] end
        end
        total = { "sum", ms(t.elapsed), ms(t.network), ms(t.server), ms(t.transfer), ms(t.client), ms(t.idle),
                  tostring(t.executions), tostring(t.round_trips), tostring(t.rows), "", "", "" }
    end
    local width = {}
    for c, col in ipairs(cols) do
        width[c] = #col[1]
        for _, row in ipairs(cells) do
            if #row[c] > width[c] then width[c] = #row[c] end
        end
        if total and #total[c] > width[c] then width[c] = #total[c] end
    end
    local function line(row)
        local parts = {}
        for c, col in ipairs(cols) do
            if c == #cols then
                parts[c] = row[c]
            else
                parts[c] = string.format((col[2] == "r" and "%" or "%-") .. width[c] .. "s", row[c])
            end
        end
        return (table.concat(parts, "  "):gsub("%s+$", ""))
    end
    local head = {}
    for c, col in ipairs(cols) do head[c] = col[1] end
    out[#out + 1] = line(head)
    for _, row in ipairs(cells) do out[#out + 1] = line(row) end
    if total then out[#out + 1] = line(total) end
    if #rows == 0 then
        out[#out + 1] = "(no round trips: no sqlnet.rt records in this capture)"
        return table.concat(out, "\n")
    end
    out[#out + 1] = ""
    out[#out + 1] = "Filters (Show packets of statement... applies one):"
    for _, s in ipairs(rows) do
        local name = s.outside and "Calls outside a statement" or ("Statement " .. s.no .. ": " .. s.sql)
        out[#out + 1] = string.format("%s (%s, frames %d-%d)", name, M.filter(s), s.first, s.last)
        if #s.error_codes > 0 then out[#out + 1] = "  ORA errors: " .. errors_text(s, ", ") end
        if s.untimed > 0 then
            out[#out + 1] = string.format("  %d round trip%s without a time breakdown (response time counted in elapsed)",
                s.untimed, s.untimed == 1 and "" or "s")
        end
    end
    return table.concat(out, "\n")
end

M.CSV_HEADER = { "no", "sql_id", "elapsed_ms", "network_ms", "server_ms", "transfer_ms", "client_ms",
                 "idle_before_ms", "executions", "round_trips", "rows", "ora_errors", "first_frame",
                 "last_frame", "filter", "sql" }

local function csv_field(v)
    v = tostring(v)
    if v:find('[,"\r\n]') then return '"' .. v:gsub('"', '""') .. '"' end
    return v
end

-- The same numbers as CSV (RFC 4180: CRLF line ends), one line per row.
function M.csv(rows)
    local lines = { table.concat(M.CSV_HEADER, ",") }
    for _, s in ipairs(rows) do
        local f = { s.no and tostring(s.no) or "", s.sql_id or "", ms(s.elapsed), ms(s.network), ms(s.server),
                    ms(s.transfer), ms(s.client), ms(s.idle), s.executions, s.round_trips, s.rows,
                    errors_text(s, " "), s.first, s.last, M.filter(s), s.sql }
        for i, v in ipairs(f) do f[i] = csv_field(v) end
        lines[#lines + 1] = table.concat(f, ",")
    end
    return table.concat(lines, "\r\n") .. "\r\n"
end

-- "3", " 3 ", "a5ks9fhw2v9s1", "-" / "outside" -> the row it names.
function M.find(rows, text)
    local t = (text or ""):gsub("^%s+", ""):gsub("%s+$", "")
    for _, s in ipairs(rows) do
        if (s.no and tostring(s.no) == t) or (s.sql_id and s.sql_id == t)
            or (s.outside and (t == "-" or t:lower() == "outside")) then
            return s
        end
    end
    return nil
end

-- The round-trip record fields, and the key each goes to in a record.
M.RT_KEYS = {
    ["sqlnet.rt.execution"] = "execution", ["sqlnet.rt.sql"] = "sql", ["sqlnet.rt.sql_id"] = "sql_id",
    ["sqlnet.rt.rows"] = "rows", ["sqlnet.rt.time"] = "time", ["sqlnet.rt.time.network"] = "network",
    ["sqlnet.rt.time.server"] = "server", ["sqlnet.rt.time.transfer"] = "transfer",
    ["sqlnet.rt.time.client"] = "client", ["sqlnet.rt.ora_error"] = "ora_error",
}

-- One packet's records from its fields, {name, value} in tree order: each
-- "Round trip" subtree starts with sqlnet.rt.number (a packet may complete
-- more than one round trip).  The call's frame: sqlnet.request_in, paired in
-- order when every round trip of the packet has one (a response cut short
-- by the next call has its record on that call, without one).
function M.records(fields, frame, stream)
    local recs, requests, cur = {}, {}, nil
    for _, f in ipairs(fields) do
        local name, v = f[1], f[2]
        if name == "sqlnet.rt.number" then
            cur = { frame = frame, stream = stream }
            recs[#recs + 1] = cur
        elseif name == "sqlnet.request_in" then
            requests[#requests + 1] = v
        elseif cur and M.RT_KEYS[name] then
            cur[M.RT_KEYS[name]] = v
        end
    end
    if #requests == #recs then
        for i, r in ipairs(recs) do r.request = requests[i] end
    end
    return recs
end

if not Field then
    return M          -- plain Lua: the table functions only
end

-- ---------------------------------------------------------------------------
-- Collecting round-trip records from the plugin's fields
-- ---------------------------------------------------------------------------

-- Field extractors make Wireshark put these fields in the tree; made at load
-- time (Wireshark allows no later) in Wireshark, or by a test driver under
-- tshark, so that a plain tshark run does not compute them for nothing.  A
-- field not registered (an older plugin) is left out: the script still loads.
local RT_FIELDS = { "sqlnet.rt.number", "sqlnet.rt.execution", "sqlnet.rt.sql", "sqlnet.rt.sql_id",
                    "sqlnet.rt.rows", "sqlnet.rt.time", "sqlnet.rt.time.network", "sqlnet.rt.time.server",
                    "sqlnet.rt.time.transfer", "sqlnet.rt.time.client", "sqlnet.rt.ora_error",
                    "sqlnet.request_in", "sqlnet.sql_id", "tcp.stream" }
local F = {}
function M.init_fields()
    for _, name in ipairs(RT_FIELDS) do
        local ok, f = pcall(Field.new, name)
        if ok then F[name] = f end
    end
    M.have_fields = F["sqlnet.rt.rows"] ~= nil
    return M.have_fields
end


local function value(fi)
    local v = fi.value
    if type(v) == "number" or type(v) == "string" then return v end
    return tonumber(tostring(v))
end

-- One packet: its round-trip records (a packet may complete more than one
-- round trip: each "Round trip" subtree starts with sqlnet.rt.number, so the
-- fields are grouped in tree order).
function M.collect(st, frame)
    local numbers = F["sqlnet.rt.number"] and { F["sqlnet.rt.number"]() } or {}
    if #numbers == 0 then return end
    local stream = F["tcp.stream"]()
    stream = stream and stream.value or 0
    local fields = {}
    if #numbers == 1 then
        -- the usual case, one round trip: its fields by name
        fields[1] = { "sqlnet.rt.number", value(numbers[1]) }
        for name in pairs(M.RT_KEYS) do
            local fi = F[name] and F[name]()
            if fi then fields[#fields + 1] = { name, value(fi) } end
        end
        for _, fi in ipairs(F["sqlnet.request_in"] and { F["sqlnet.request_in"]() } or {}) do
            fields[#fields + 1] = { "sqlnet.request_in", value(fi) }
        end
    else
        for _, fi in ipairs({ all_field_infos() }) do
            local name = fi.name
            if name == "sqlnet.rt.number" or name == "sqlnet.request_in" or M.RT_KEYS[name] then
                fields[#fields + 1] = { name, value(fi) }
            end
        end
    end
    for _, r in ipairs(M.records(fields, frame, stream)) do M.add(st, r) end
end

-- A listener that collects every frame's records into st (st.last_frame:
-- the highest frame number seen, to know when a retap reached the end;
-- st.file: frame 1's time, to know another file from the same one).
function M.listen(get_state)
    local tap = Listener.new("frame", "frame")
    function tap.packet(pinfo)
        local st = get_state()
        if pinfo.number > st.last_frame then st.last_frame = pinfo.number end
        if pinfo.number == 1 then st.file = tostring(pinfo.abs_ts) end    -- which file
        M.collect(st, pinfo.number)
    end
    return tap
end

if not (gui_enabled and gui_enabled()) then
    return M          -- tshark: a test driver may use M.listen
end

-- Without the sqlnet C plugin: one notice for all the sqlnet scripts, and no window
if not Model.plugin_loaded() then
    return M
end


-- ---------------------------------------------------------------------------
-- The window
-- ---------------------------------------------------------------------------

M.init_fields()

local function open_window()
    local win = TextWindow.new(M.TITLE)
    local st = M.new_state()
    local view = { field = "no", desc = false, note = nil }
    local busy = true          -- a retap of ours is running
    local frames = 0           -- the capture's last frame, from the last full read
    local file = nil           -- and that capture's frame 1 time
    local shown = {}           -- the rows in the order shown

    -- the table only once every frame has been read: while a retap runs
    -- (ours, or another window's, a display filter's: each resets the tap)
    -- Wireshark draws every few seconds on what it has read so far
    local function show()
        if busy or st.last_frame < frames then
            win:set(busy and "Reading packets ..." or
                string.format("Reading packets ... (frame %d of %d)", st.last_frame, frames))
            return
        end
        local rows = M.matching(M.rows(st), view.match)
        shown = M.sort(rows, view.field, view.desc)
        win:set(M.render(shown, view))
    end
    local function note(text)
        view.note = text
        show()
    end

    local tap = M.listen(function() return st end)
    function tap.reset() st = M.new_state() end
    function tap.draw()
        if busy then return end
        if st.file ~= file then       -- another file: its frame count is not known
            file, frames = st.file, 0
        end
        if st.last_frame > frames then frames = st.last_frame end     -- a live capture grows
        show()
    end
    win:set_atclose(function() tap:remove() end)

    if not M.have_fields then
        win:set("This window needs the sqlnet.rt.* fields: the sqlnet plugin loaded is older than this script.")
        return
    end

    -- The dialogs' fields: Enter in one is the dialog's OK (it closes the
    -- dialog, never this window; Enter in the window's own Highlight field
    -- presses its default button, Close: Find statements... is the search
    -- that Enter does not close).
    win:add_button("Sort by elapsed", function()
        view.field, view.desc, view.note = "elapsed", true, nil
        show()
    end)
    win:add_button("Sort by...", function()
        new_dialog(M.TITLE .. ": sort by", function(text)
            local field, desc = M.parse_sort(text)
            if not field then return note("Not sorted: " .. desc) end
            view.field, view.desc, view.note = field, desc, nil
            show()
        end, "Column: elapsed, network, server, transfer, client, idle, executions, round trips, rows, errors, No. (add asc or desc)")
    end)
    win:add_button("Find statements...", function()
        new_dialog(M.TITLE .. ": find statements", function(text)
            view.match, view.note = (text or ""):gsub("^%s+", ""):gsub("%s+$", ""), nil
            show()
        end, "Text in the SQL or SQL_ID (empty: all statements)")
    end)
    win:add_button("Show packets of statement...", function()
        new_dialog(M.TITLE .. ": show packets", function(text)
            local s = M.find(M.rows(st), text)
            if not s then return note("No statement '" .. (text or "") .. "': give its No. or SQL_ID (- for the calls outside a statement)") end
            local f = M.filter(s)
            set_filter(f)
            apply_filter()
            note("Display filter applied: " .. f)
        end, "Statement No. or SQL_ID (- for the calls outside a statement)")
    end)
    win:add_button("Copy as CSV", function()
        copy_to_clipboard(M.csv(shown))
        note(string.format("Copied %d rows as CSV to the clipboard", #shown))
    end)
    win:add_button("Save as CSV...", function()
        new_dialog(M.TITLE .. ": save as CSV", function(path)
            path = (path or ""):gsub("^%s+", ""):gsub("%s+$", "")
            if path == "" then return note("Not saved: no file name given") end
            path = path:gsub("^~/", (os.getenv("HOME") or "~") .. "/")
            local f, err = io.open(path, "wb")
            if not f then return note("Not saved: " .. tostring(err)) end
            f:write(M.csv(shown))
            f:close()
            note(string.format("Saved %d rows as CSV to %s", #shown, path))
        end, "File (e.g. ~/statements.csv)")
    end)

    show()
    retap_packets()
    busy = false
    frames, file = st.last_frame, st.file
    show()
end

register_menu(M.TITLE, open_window, MENU_STAT_UNSORTED)

return M
