// JDBC thin (ojdbc11 / ojdbc8) client driver for the capture generator.
// Usage: java -cp ojdbc11.jar:bin Client '<json plan>'  (same plan format as clients/python/client.py)
// Prints ONE JSON line with its settings and the rows it actually received.
//
// JDBC ties the execute's prefetch to the fetch size: Statement.setFetchSize(n) is used for the
// execute (rows returned with it) and every following fetch. The connection property
// oracle.jdbc.defaultRowPrefetch (plan key "default_row_prefetch") sets it for statements that do
// not call setFetchSize (steps without "arraysize" when the plan has "default_row_prefetch").
import java.sql.*;
import java.util.*;

public class Client {
    // --- a small JSON reader (objects, arrays, strings, numbers, booleans, null); iterative
    static final class Json {
        final String s; int i;
        Json(String s) { this.s = s; }
        static Object parse(String s) { Json j = new Json(s); Object v = j.value(); return v; }
        void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }
        Object value() {
            // explicit stack of containers; keys pending for objects
            Deque<Object> stack = new ArrayDeque<>();
            Deque<String> keys = new ArrayDeque<>();
            Object result = null;
            while (true) {
                ws();
                char c = s.charAt(i);
                Object v = null; boolean have = false;
                if (c == '{') { i++; stack.push(new LinkedHashMap<String, Object>()); ws();
                    if (s.charAt(i) == '}') { i++; v = stack.pop(); have = true; }
                    else { keys.push(str()); ws(); i++; /* : */ continue; } }
                else if (c == '[') { i++; stack.push(new ArrayList<Object>()); ws();
                    if (s.charAt(i) == ']') { i++; v = stack.pop(); have = true; } else continue; }
                else if (c == '"') { v = str(); have = true; }
                else if (s.startsWith("true", i)) { i += 4; v = Boolean.TRUE; have = true; }
                else if (s.startsWith("false", i)) { i += 5; v = Boolean.FALSE; have = true; }
                else if (s.startsWith("null", i)) { i += 4; v = null; have = true; }
                else { int st = i; while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
                    String n = s.substring(st, i);
                    v = (n.contains(".") || n.contains("e") || n.contains("E")) ? (Object) Double.valueOf(n) : (Object) Long.valueOf(n);
                    have = true; }
                // attach v to the enclosing container, closing containers as they end
                while (have) {
                    if (stack.isEmpty()) return v;
                    Object top = stack.peek();
                    if (top instanceof Map) { @SuppressWarnings("unchecked") Map<String, Object> m = (Map<String, Object>) top; m.put(keys.pop(), v); }
                    else { @SuppressWarnings("unchecked") List<Object> l = (List<Object>) top; l.add(v); }
                    ws();
                    char d = s.charAt(i++);
                    if (d == ',') { ws(); if (top instanceof Map) { keys.push(str()); ws(); i++; } have = false; }
                    else { v = stack.pop(); /* '}' or ']' closes top */ }
                }
            }
        }
        String str() {
            StringBuilder b = new StringBuilder(); i++; // opening quote
            while (true) { char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c == '\\') { char e = s.charAt(i++);
                    switch (e) { case 'n': b.append('\n'); break; case 't': b.append('\t'); break;
                        case 'r': b.append('\r'); break; case 'b': b.append('\b'); break; case 'f': b.append('\f'); break;
                        case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                        default: b.append(e); } }
                else b.append(c); }
        }
    }

    static String q(String v) {
        if (v == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char c : v.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static int num(Map<String, Object> m, String k, int dflt) {
        Object v = m.get(k);
        return v instanceof Number ? ((Number) v).intValue() : dflt;
    }

    static String runSession(Map<String, Object> plan, int idx) throws Exception {
        @SuppressWarnings("unchecked") Map<String, Object> tls = (Map<String, Object>) plan.get("tls");
        String url = "jdbc:oracle:thin:@(DESCRIPTION=(SDU=" + num(plan, "sdu", 8192) + ")(ADDRESS=(PROTOCOL="
                + (tls != null ? "tcps" : "tcp") + ")(HOST="
                + plan.get("host") + ")(PORT=" + num(plan, "port", 1521) + "))(CONNECT_DATA=(SERVICE_NAME="
                + plan.getOrDefault("service", "freepdb1") + ")))";
        Properties props = new Properties();
        if (tls != null) {
            // TCPS without a wallet: a PKCS12 truststore holding the generator's throwaway CA
            // (made with keytool -importcert), the TLS version pinned like the server's, and the
            // host name checked against the certificate (off by default in ojdbc 23.26: with it
            // on, the HOST must match the CN or a SAN, an IP address against an IP SAN, else
            // ORA-17965; the generator's certificate carries the server address as an IP SAN)
            props.setProperty("javax.net.ssl.trustStore", String.valueOf(tls.get("truststore")));
            props.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
            props.setProperty("javax.net.ssl.trustStorePassword", String.valueOf(tls.get("truststore_password")));
            props.setProperty("oracle.net.ssl_version", String.valueOf(tls.get("version")));
            props.setProperty("oracle.net.ssl_server_dn_match", "true");
        }
        props.setProperty("user", String.valueOf(plan.getOrDefault("user", "scott")));
        props.setProperty("password", String.valueOf(plan.getOrDefault("password", "tiger")));
        props.setProperty("oracle.net.disableOob", "true");
        boolean tiedPrefetch = plan.containsKey("default_row_prefetch");
        // plan key "jdbc_properties": further connection properties, as a user sets them
        Object extra = plan.get("jdbc_properties");
        if (extra instanceof Map) for (Map.Entry<?, ?> e : ((Map<?, ?>) extra).entrySet())
            props.setProperty(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
        if (tiedPrefetch) props.setProperty("oracle.jdbc.defaultRowPrefetch", String.valueOf(num(plan, "default_row_prefetch", 10)));
        StringBuilder out = new StringBuilder();
        List<String> stmts = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        long total = 0;
        try (Connection conn = DriverManager.getConnection(url, props)) {
            conn.setAutoCommit(false);
            DatabaseMetaData md = conn.getMetaData();
            String serverVersion = md.getDatabaseProductVersion();
            @SuppressWarnings("unchecked") List<Object> steps = (List<Object>) plan.getOrDefault("steps", new ArrayList<>());
            Map<String, PreparedStatement> dmlStatements = new HashMap<>();
            for (Object so : steps) {
                @SuppressWarnings("unchecked") Map<String, Object> step = (Map<String, Object>) so;
                if (Boolean.TRUE.equals(step.get("commit"))) { conn.commit(); stmts.add("{\"action\":\"commit\"}"); continue; }
                if (Boolean.TRUE.equals(step.get("ping"))) { ((oracle.jdbc.OracleConnection) conn).pingDatabase(); stmts.add("{\"action\":\"ping\"}"); continue; }
                // {"ping": "isValid"}: the validation a pool makes on borrow (an OPING in the thin driver)
                if ("isValid".equals(step.get("ping"))) {
                    if (!conn.isValid(10)) throw new SQLException("isValid() returned false");
                    stmts.add("{\"action\":\"ping\",\"api\":\"isValid\"}"); continue;
                }
                if (step.containsKey("plsql_out")) {
                    // CallableStatement with OUT parameters: NUMBER, VARCHAR2, REF CURSOR (read to its end)
                    String sql = (String) step.get("plsql_out");
                    @SuppressWarnings("unchecked") List<Object> types = (List<Object>) step.get("types");
                    List<String> outs = new ArrayList<>();
                    String err = null;
                    try (CallableStatement cs = conn.prepareCall(sql)) {
                        for (int k = 0; k < types.size(); k++) {
                            String t = (String) types.get(k);
                            cs.registerOutParameter(k + 1, t.equals("number") ? Types.NUMERIC
                                    : t.equals("varchar") ? Types.VARCHAR : oracle.jdbc.OracleTypes.CURSOR);
                        }
                        cs.execute();
                        for (int k = 0; k < types.size(); k++) {
                            String t = (String) types.get(k);
                            if (t.equals("number")) outs.add(String.valueOf(cs.getLong(k + 1)));
                            else if (t.equals("varchar")) outs.add(q(cs.getString(k + 1)));
                            else {
                                long n = 0;
                                try (ResultSet rs = (ResultSet) cs.getObject(k + 1)) {
                                    rs.setFetchSize(num(step, "arraysize", num(plan, "arraysize", 10)));
                                    while (rs.next()) n++;
                                }
                                outs.add("{\"cursor_rows\":" + n + "}");
                            }
                        }
                    } catch (SQLException e) { err = String.format("ORA-%05d", e.getErrorCode()); }
                    if (err != null) errors.add(q(err));
                    stmts.add("{\"plsql\":" + q(sql) + ",\"out\":[" + String.join(",", outs) + "],\"error\":" + q(err) + "}");
                    continue;
                }
                if (Boolean.TRUE.equals(step.get("returning"))) {
                    // INSERT ... RETURNING id INTO ?: the returned value through OraclePreparedStatement
                    String sql = (String) step.get("sql");
                    @SuppressWarnings("unchecked") List<Object> params = (List<Object>) step.getOrDefault("params", new ArrayList<>());
                    String err = null; long count = -1; List<String> ret = new ArrayList<>();
                    try (PreparedStatement ps = conn.prepareStatement(sql)) {
                        oracle.jdbc.OraclePreparedStatement ops = ps.unwrap(oracle.jdbc.OraclePreparedStatement.class);
                        for (int k = 0; k < params.size(); k++) ps.setLong(k + 1, ((Number) params.get(k)).longValue());
                        ops.registerReturnParameter(params.size() + 1, Types.NUMERIC);
                        count = ps.executeUpdate();
                        try (ResultSet rs = ops.getReturnResultSet()) { while (rs.next()) ret.add(String.valueOf(rs.getLong(1))); }
                    } catch (SQLException e) { err = String.format("ORA-%05d", e.getErrorCode()); }
                    if (err != null) errors.add(q(err));
                    stmts.add("{\"sql\":" + q(sql) + ",\"dml\":true,\"rows\":0,\"rowcount\":" + count
                            + ",\"returned\":[" + String.join(",", ret) + "],\"error\":" + q(err) + "}");
                    continue;
                }
                if (step.containsKey("many")) {
                    // array DML: addBatch per row, one executeBatch (JDBC sends the rows as one call's
                    // iterations and has no batch-errors mode: the first failing row ends the call)
                    String sql = (String) step.get("sql");
                    @SuppressWarnings("unchecked") List<Object> rowsIn = (List<Object>) step.get("many");
                    String err = null, msg = null; long count = 0; List<String> counts = new ArrayList<>();
                    try (PreparedStatement ps = conn.prepareStatement(sql)) {
                        for (Object ro : rowsIn) {
                            @SuppressWarnings("unchecked") List<Object> row = (List<Object>) ro;
                            for (int k = 0; k < row.size(); k++) ps.setLong(k + 1, ((Number) row.get(k)).longValue());
                            ps.addBatch();
                        }
                        for (int c : ps.executeBatch()) { counts.add(String.valueOf(c)); count += Math.max(c, 0); }
                    } catch (BatchUpdateException e) {
                        err = String.format("ORA-%05d", e.getErrorCode()); msg = e.getMessage();
                        for (int c : e.getUpdateCounts()) { counts.add(String.valueOf(c)); count += Math.max(c, 0); }
                    } catch (SQLException e) { err = String.format("ORA-%05d", e.getErrorCode()); msg = e.getMessage(); }
                    if (err != null) errors.add(q(err));
                    // the row count only when the batch succeeded: after a failure ojdbc's update
                    // counts need not add up to the rows the server inserted before the failing row
                    stmts.add("{\"sql\":" + q(sql) + ",\"dml\":true,\"many\":" + rowsIn.size() + ",\"rows\":0"
                            + (err == null ? ",\"rowcount\":" + count : "")
                            + ",\"update_counts\":[" + String.join(",", counts) + "],\"error\":" + q(err)
                            + (msg != null ? ",\"error_message\":" + q(msg) : "") + "}");
                    continue;
                }
                if (Boolean.TRUE.equals(step.get("dml")) && step.containsKey("binds")) {
                    // one row per execution on one PreparedStatement, kept open across the steps
                    // of its text (a loop of setLong + executeUpdate: row-by-row DML, issue 36)
                    String sql = (String) step.get("sql");
                    @SuppressWarnings("unchecked") List<Object> binds = (List<Object>) step.get("binds");
                    String err = null, msg = null; long count = -1;
                    try {
                        PreparedStatement ps = dmlStatements.get(sql);
                        if (ps == null) { ps = conn.prepareStatement(sql); dmlStatements.put(sql, ps); }
                        for (int k = 0; k < binds.size(); k++) {
                            @SuppressWarnings("unchecked") List<Object> b = (List<Object>) binds.get(k);
                            ps.setLong(k + 1, Long.parseLong(String.valueOf(b.get(1))));
                        }
                        count = ps.executeLargeUpdate();
                    } catch (SQLException e) { err = String.format("ORA-%05d", e.getErrorCode()); msg = e.getMessage(); }
                    if (err != null) errors.add(q(err));
                    stmts.add("{\"sql\":" + q(sql) + ",\"dml\":true,\"rows\":0,\"rowcount\":" + count + ",\"error\":" + q(err)
                            + (msg != null ? ",\"error_message\":" + q(msg) : "") + "}");
                    continue;
                }
                if (Boolean.TRUE.equals(step.get("dml"))) {
                    String sql = (String) step.get("sql");
                    String err = null, msg = null; long count = -1;
                    try (Statement st = conn.createStatement()) { count = st.executeLargeUpdate(sql); }
                    catch (SQLException e) { err = String.format("ORA-%05d", e.getErrorCode()); msg = e.getMessage(); }
                    if (err != null) errors.add(q(err));
                    stmts.add("{\"sql\":" + q(sql) + ",\"dml\":true,\"rows\":0,\"rowcount\":" + count + ",\"error\":" + q(err)
                            + (msg != null ? ",\"error_message\":" + q(msg) : "") + "}");
                    continue;
                }
                int repeat = num(step, "repeat", 1);
                for (int r = 0; r < repeat; r++) {
                    String sql = (String) step.get("sql");
                    int fetch = -1;
                    if (step.containsKey("arraysize") || !tiedPrefetch) fetch = num(step, "arraysize", num(plan, "arraysize", 10));
                    long n = 0, chars = 0, lobReads = 0, lobChars = 0; String err = null, msg = null;
                    // step key "lob_locators": the CLOB values come as bare locators (LOB
                    // prefetch off, oracle.jdbc.defaultLobPrefetchSize -1), so each non-NULL
                    // value getString reads is a LOB read: counted as lob_reads, its characters
                    // as lob_chars (the server's log has the reads: testgen verify compares)
                    boolean lobLocators = Boolean.TRUE.equals(step.get("lob_locators"));
                    List<String> values = new ArrayList<>();
                    try (Statement st = conn.createStatement()) {
                        if (fetch > 0) st.setFetchSize(fetch);
                        boolean isQuery = st.execute(sql);
                        if (isQuery) {
                            try (ResultSet rs = st.getResultSet()) {
                                int cols = rs.getMetaData().getColumnCount();
                                try {
                                    boolean report = Boolean.TRUE.equals(step.get("report_values"));
                                    while (rs.next()) {
                                        n++;
                                        if (report) {
                                            List<String> row = new ArrayList<>();
                                            for (int c = 1; c <= cols; c++) row.add(q(valueText(rs, c)));
                                            values.add("[" + String.join(",", row) + "]");
                                            continue;
                                        }
                                        for (int c = 1; c <= cols; c++) {
                                            String v = rs.getString(c);
                                            if (v == null) continue;
                                            chars += v.length();
                                            if (lobLocators && "CLOB".equals(rs.getMetaData().getColumnTypeName(c))) {
                                                lobReads++; lobChars += v.length();
                                            }
                                        }
                                    }
                                } catch (SQLException e) { err = String.format("ORA-%05d", e.getErrorCode()); msg = e.getMessage(); }
                            }
                        } else {
                            n = st.getUpdateCount();
                        }
                        if (fetch <= 0) fetch = st.getFetchSize();
                    } catch (SQLException e) { err = String.format("ORA-%05d", e.getErrorCode()); msg = e.getMessage(); }
                    if (err != null) errors.add(q(err));
                    total += Math.max(n, 0);
                    stmts.add("{\"sql\":" + q(sql) + ",\"arraysize\":" + fetch + ",\"prefetchrows\":" + fetch
                            + ",\"rows\":" + n + ",\"value_chars\":" + chars + ",\"error\":" + q(err)
                            + (lobLocators ? ",\"lob_reads\":" + lobReads + ",\"lob_chars\":" + lobChars : "")
                            + (Boolean.TRUE.equals(step.get("report_values")) ? ",\"values\":[" + String.join(",", values) + "]" : "")
                            + (msg != null ? ",\"error_message\":" + q(msg) : "") + "}");
                }
            }
            for (PreparedStatement ps : dmlStatements.values()) ps.close();
            out.append("{\"session\":").append(idx).append(",\"server_version\":").append(q(serverVersion))
               .append(",\"statements\":[").append(String.join(",", stmts)).append("],\"rows_received\":").append(total)
               .append(",\"errors\":[").append(String.join(",", errors)).append("]}");
        }
        return out.toString();
    }

    // A fetched value as text, as the driver gives it by the column's type: NULL, NUMBER as
    // BigDecimal text, BINARY_FLOAT/DOUBLE as Float/Double text, RAW as hex, DATE/TIMESTAMP as a
    // LocalDateTime, WITH TIME ZONE as an OffsetDateTime, a CLOB's length in characters, the
    // rest as getString.
    static String valueText(ResultSet rs, int c) throws SQLException {
        String type = rs.getMetaData().getColumnTypeName(c);
        Object o = rs.getObject(c);
        if (o == null) return "NULL";
        switch (type) {
            case "NUMBER": return rs.getBigDecimal(c).toString();
            case "BINARY_FLOAT": return Float.toString(rs.getFloat(c));
            case "BINARY_DOUBLE": return Double.toString(rs.getDouble(c));
            case "RAW": {
                StringBuilder b = new StringBuilder();
                for (byte x : rs.getBytes(c)) b.append(String.format("%02x", x));
                return b.toString();
            }
            case "DATE": case "TIMESTAMP":
                return rs.getObject(c, java.time.LocalDateTime.class).toString();
            case "TIMESTAMP WITH TIME ZONE":
                return rs.getObject(c, java.time.OffsetDateTime.class).toString();
            case "CLOB": case "NCLOB":
                return "LOB DB_TYPE_CLOB " + rs.getClob(c).length();
            default: return rs.getString(c);
        }
    }

    public static void main(String[] args) throws Exception {
        @SuppressWarnings("unchecked") Map<String, Object> plan = (Map<String, Object>) Json.parse(args[0]);
        int nsess = num(plan, "sessions", 1);
        // plan keys "warmup_port" / "warmup_runs": run the plan's session that many times first
        // against a second server on that port, which the capture does not see, so the captured
        // session meets a JVM whose JIT has compiled the driver's paths, as in a long-running
        // application server (a cold JVM compiles in the middle of a sweep)
        if (plan.get("warmup_port") instanceof Number) {
            Map<String, Object> warm = new LinkedHashMap<>(plan);
            warm.put("port", plan.get("warmup_port"));
            for (int k = 0; k < num(plan, "warmup_runs", 1); k++) runSession(warm, 0);
        }
        String[] results = new String[nsess];
        List<String> fatal = Collections.synchronizedList(new ArrayList<>());
        Thread[] th = new Thread[nsess];
        // plan key "sessions_serial": the sessions one after another (each closed before the
        // next connects) in this JVM, as an application reconnecting; ojdbc 23 then sends its
        // cached TTC cookie (message 30) from the second session on when the server's ACCEPT
        // carried a database id it has seen
        boolean serial = Boolean.TRUE.equals(plan.get("sessions_serial"));
        for (int k = 0; k < nsess; k++) {
            final int idx = k;
            th[k] = new Thread(() -> {
                try { results[idx] = runSession(plan, idx); }
                catch (Throwable e) { e.printStackTrace(); fatal.add(q("session " + idx + ": " + e)); }
            });
            th[k].start();
            if (serial) th[k].join(600_000);
        }
        for (Thread t : th) t.join(600_000);
        List<String> sess = new ArrayList<>();
        List<String> sqls = new ArrayList<>();
        @SuppressWarnings("unchecked") List<Object> planSteps = (List<Object>) plan.getOrDefault("steps", new ArrayList<>());
        for (Object so : planSteps) { Object sql = ((Map<?, ?>) so).get("sql"); if (sql != null) sqls.add(q((String) sql)); }
        long rows = 0;
        for (String r : results) if (r != null) { sess.add(r);
            int p = r.indexOf("\"rows_received\":") + 16; int e = p; while (Character.isDigit(r.charAt(e))) e++;
            rows += Long.parseLong(r.substring(p, e)); }
        String ver = oracle.jdbc.OracleDriver.getDriverVersion();
        System.out.println("{\"driver\":\"jdbc-thin\",\"driver_version\":" + q(ver) + ",\"thin\":true,\"arraysize\":"
                + num(plan, "arraysize", 10) + ",\"prefetchrows\":" + num(plan, "arraysize", 10)
                + ",\"sdu_requested\":" + num(plan, "sdu", 8192) + ",\"sessions\":[" + String.join(",", sess)
                + "],\"statements\":[" + String.join(",", sqls) + "],\"rows_received\":" + rows + ",\"fatal_errors\":[" + String.join(",", fatal) + "]}");
        System.exit(fatal.isEmpty() ? 0 : 1);
    }
}
