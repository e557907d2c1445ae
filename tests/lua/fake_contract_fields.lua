-- tests/lua/fake_contract_fields.lua - test-only stand-in for the plugin's
-- once-per-round-trip and TLS fields of CONTRACT.md (issue 22), for builds
-- that do not publish them yet: a postdissector that adds
--   sqlnet.rt.call, sqlnet.rt.rows_asked   on the packet that completes a
--                                          round trip (from its request's
--                                          sqlnet.call / sqlnet.fetch.rows)
--   sqlnet.rt.sql_id                       there too, a made-up id per SQL
--                                          text (not Oracle's SQL_ID)
--   sqlnet.tls.undecrypted                 the server port (the lower port),
--                                          on the first TLS application-data
--                                          frame of each TCP stream
-- Loaded before lua/sqlnet_advise.lua (alphabetical order in the plugin
-- folder), so the advisor finds the fields.  tests/test_advise.py uses it.
local p = Proto("fake_contract", "Fake contract fields (test)")
local pf_call = ProtoField.uint8("sqlnet.rt.call", "Call")
local pf_asked = ProtoField.uint32("sqlnet.rt.rows_asked", "Rows asked")
local pf_id = ProtoField.string("sqlnet.rt.sql_id", "SQL_ID (fake)")
local pf_tls = ProtoField.uint16("sqlnet.tls.undecrypted", "Undecrypted (fake)")
p.fields = { pf_call, pf_asked, pf_id, pf_tls }
local f_call, f_fetch, f_dir = Field.new("sqlnet.call"), Field.new("sqlnet.fetch.rows"), Field.new("sqlnet.direction")
local f_req, f_sql = Field.new("sqlnet.request_in"), Field.new("sqlnet.sql")
local f_type, f_stream = Field.new("tls.record.opaque_type"), Field.new("tcp.stream")
local f_sport, f_dport = Field.new("tcp.srcport"), Field.new("tcp.dstport")
local calls, asks, ids, first_tls = {}, {}, {}, {}
local n_ids = 0
function p.dissector(tvb, pinfo, tree)
    local d = f_dir()
    if d and d.value == 0 then
        local c, f = f_call(), f_fetch()
        if c then calls[pinfo.number] = c.value end
        if f then asks[pinfo.number] = f.value end
    end
    local r = f_req()
    if r then
        local t = tree:add(p)
        if calls[r.value] then t:add(pf_call, calls[r.value]) end
        if asks[r.value] then t:add(pf_asked, asks[r.value]) end
        local s = f_sql()
        if s then
            local text = tostring(s.value)
            if not ids[text] then n_ids = n_ids + 1; ids[text] = string.format("fake%09d", n_ids) end
            t:add(pf_id, ids[text])
        end
    end
    local st = f_stream()
    if st then
        local app = false
        for _, x in ipairs({ f_type() }) do if x.value == 23 then app = true end end
        if app and (not first_tls[st.value] or first_tls[st.value] == pinfo.number) then
            first_tls[st.value] = pinfo.number
            tree:add(p):add(pf_tls, math.min(f_sport().value, f_dport().value))
        end
    end
end
register_postdissector(p)
