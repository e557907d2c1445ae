#!/usr/bin/env node
// node-oracledb (thin mode) client driver for the capture generator.
// Usage: node client.js '<json plan>'  (same plan format as clients/python/client.py)
// Prints ONE JSON line with its settings and the rows it actually received.
'use strict';

const oracledb = require('oracledb');

// A fetched value as text, as this driver gave it: NULL, the decimal text of a NUMBER
// (fetched as a string), a JS number's own text (-0 kept), a Date's own local fields to the
// millisecond, hex of a Buffer, TRUE/FALSE, an interval's fields.
function valueText(v) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0.0' : String(v);
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (v instanceof Date) {
    const p = (x, n = 2) => String(x).padStart(n, '0');
    return `${p(v.getFullYear(), 4)}-${p(v.getMonth() + 1)}-${p(v.getDate())} ` +
      `${p(v.getHours())}:${p(v.getMinutes())}:${p(v.getSeconds())}.${p(v.getMilliseconds(), 3)}`;
  }
  if (v instanceof oracledb.IntervalYM) return `interval_ym ${v.years} ${v.months}`;
  if (v instanceof oracledb.IntervalDS) {
    return `interval_ds_fields ${v.days} ${v.hours} ${v.minutes} ${v.seconds} ${v.fseconds}`;
  }
  return String(v);
}

async function runSession(plan, idx) {
  // TCPS: no wallet; the generator's throwaway CA comes in through NODE_EXTRA_CA_CERTS
  const protocol = plan.tls ? 'tcps' : 'tcp';
  const connectString = `(DESCRIPTION=(SDU=${plan.sdu})(ADDRESS=(PROTOCOL=${protocol})(HOST=${plan.host})` +
    `(PORT=${plan.port}))(CONNECT_DATA=(SERVICE_NAME=${plan.service || 'freepdb1'})))`;
  const res = { session: idx, statements: [], rows_received: 0, errors: [] };
  const conn = await oracledb.getConnection({
    user: plan.user || 'scott', password: plan.password || 'tiger', connectString,
  });
  res.server_version = conn.oracleServerVersionString;
  try {
    for (const step of plan.steps || []) {
      if (step.commit) { await conn.commit(); res.statements.push({ action: 'commit' }); continue; }
      if (step.ping) { await conn.ping(); res.statements.push({ action: 'ping' }); continue; }
      if (step.plsql_out) {
        // PL/SQL OUT binds: NUMBER, VARCHAR2, REF CURSOR (its result set read to the end)
        const entry = { plsql: step.plsql_out, out: [], error: null };
        const types = { number: oracledb.NUMBER, varchar: oracledb.STRING, cursor: oracledb.CURSOR };
        const binds = step.types.map((t) => ({ dir: oracledb.BIND_OUT, type: types[t], maxSize: 100 }));
        try {
          const result = await conn.execute(step.plsql_out, binds);
          for (let i = 0; i < step.types.length; i++) {
            const v = result.outBinds[i];
            if (step.types[i] === 'cursor') {
              let n = 0;
              const size = step.arraysize || plan.arraysize || 100;
              for (;;) {
                const rows = await v.getRows(size);
                if (!rows.length) break;
                n += rows.length;
              }
              await v.close();
              entry.out.push({ cursor_rows: n });
            } else {
              entry.out.push(v);
            }
          }
        } catch (err) {
          entry.error = err.message.split(':')[0];
          res.errors.push(entry.error);
        }
        res.statements.push(entry);
        continue;
      }
      if (step.plsql_implicit) {
        // implicit result sets: read each to its end
        const entry = { plsql: step.plsql_implicit, implicit: [], error: null };
        try {
          const result = await conn.execute(step.plsql_implicit, [], { resultSet: true });
          const size = step.arraysize || plan.arraysize || 100;
          for (const rs of result.implicitResults || []) {
            let n = 0;
            for (;;) {
              const rows = await rs.getRows(size);
              if (!rows.length) break;
              n += rows.length;
            }
            await rs.close();
            entry.implicit.push(n);
          }
        } catch (err) {
          entry.error = err.message.split(':')[0];
          res.errors.push(entry.error);
        }
        res.statements.push(entry);
        continue;
      }
      if (step.binds) {
        // typed input binds (issue 25): each value as node-oracledb takes it, reported as text
        const entry = { sql: step.sql, dml: true, rows: 0, error: null, bind_types: [], bind_values: [] };
        const two = (n) => String(n).padStart(2, '0');
        const kinds = {
          NUMBER: [oracledb.DB_TYPE_NUMBER, Number], VARCHAR2: [oracledb.DB_TYPE_VARCHAR, String],
          CHAR: [oracledb.DB_TYPE_CHAR, String], NVARCHAR2: [oracledb.DB_TYPE_NVARCHAR, String],
          BINARY_FLOAT: [oracledb.DB_TYPE_BINARY_FLOAT, Number],
          BINARY_DOUBLE: [oracledb.DB_TYPE_BINARY_DOUBLE, Number],
          DATE: [oracledb.DB_TYPE_DATE, (v) => new Date(v.replace(' ', 'T'))],
          TIMESTAMP: [oracledb.DB_TYPE_TIMESTAMP, (v) => new Date(v.replace(' ', 'T'))],
          RAW: [oracledb.DB_TYPE_RAW, (v) => Buffer.from(v, 'hex')],
          NULL: [oracledb.DB_TYPE_VARCHAR, () => null],
        };
        const binds = step.binds.map(([kind, raw]) => {
          const [type, conv] = kinds[kind];
          const val = conv(raw);
          let text;
          if (val === null) text = 'NULL';
          else if (val instanceof Date) {
            text = `${val.getFullYear()}-${two(val.getMonth() + 1)}-${two(val.getDate())} ` +
              `${two(val.getHours())}:${two(val.getMinutes())}:${two(val.getSeconds())}` +
              (val.getMilliseconds() ? '.' + String(val.getMilliseconds()).padStart(3, '0') : '');
          } else if (Buffer.isBuffer(val)) text = val.toString('hex');
          else text = String(val);
          entry.bind_types.push(kind);
          entry.bind_values.push(text);
          return { val, type, dir: oracledb.BIND_IN };
        });
        try {
          const result = await conn.execute(step.sql, binds);
          entry.rowcount = result.rowsAffected;
        } catch (err) {
          entry.error = err.message.split(':')[0];
          res.errors.push(entry.error);
        }
        res.statements.push(entry);
        continue;
      }
      if (step.many) {
        // array DML: executeMany with batch errors and per-row counts
        const entry = { sql: step.sql, dml: true, many: step.many.length, rows: 0, error: null };
        try {
          const result = await conn.executeMany(step.sql, step.many, {
            batchErrors: !!step.batcherrors, dmlRowCounts: !!step.arraydmlrowcounts,
          });
          entry.rowcount = result.rowsAffected;
          // node thin sets the error's message ("ORA-02290: ..."), not always errorNum
          entry.batch_errors = (result.batchErrors || []).map((e) =>
            [e.errorNum || parseInt((/ORA-(\d+)/.exec(e.message) || [0, 0])[1], 10), e.offset]);
          if (step.arraydmlrowcounts) entry.dml_row_counts = result.dmlRowCounts;
        } catch (err) {
          entry.error = err.message.split(':')[0];   // node reports no row count with the error
          res.errors.push(entry.error);
        }
        res.statements.push(entry);
        continue;
      }
      const repeat = step.repeat || 1;
      for (let k = 0; k < repeat; k++) {
        const arraysize = step.arraysize || plan.arraysize || 100;
        const prefetchrows = step.prefetchrows !== undefined ? step.prefetchrows
          : (plan.prefetchrows !== undefined ? plan.prefetchrows : 2);
        const entry = { sql: step.sql, arraysize, prefetchrows, rows: 0, error: null };
        let n = 0;
        try {
          const opts = {
            resultSet: true, fetchArraySize: arraysize, prefetchRows: prefetchrows,
            outFormat: oracledb.OUT_FORMAT_ARRAY,
          };
          if (step.report_values) {
            // NUMBER columns as the driver's decimal text (exact), the rest as it gives them
            opts.fetchTypeHandler = (md) => (md.dbType === oracledb.DB_TYPE_NUMBER ? { type: oracledb.STRING } : undefined);
            entry.values = [];
          }
          if (step.fetch_lobs === false) {
            // the CLOB columns as strings with the rows (fetchInfo: no LOB read calls)
            opts.fetchInfo = {};
            for (const c of step.lob_columns || ['DOC']) opts.fetchInfo[c] = { type: oracledb.STRING };
            entry.fetch_lobs = false;
          }
          const result = await conn.execute(step.sql, [], opts);
          const rs = result.resultSet;
          let chars = 0;
          for (;;) {
            const rows = await rs.getRows(arraysize);
            if (!rows.length) break;
            n += rows.length;
            for (const r of rows) {
              const texts = [];
              for (const v of r) {
                if (v instanceof oracledb.Lob) {
                  const text = await v.getData();   // LOB read operations
                  entry.lob_chars = (entry.lob_chars || 0) + text.length;
                  entry.lob_reads = (entry.lob_reads || 0) + 1;
                  chars += text.length;
                  texts.push(`LOB ${v.type === oracledb.DB_TYPE_BLOB ? 'DB_TYPE_BLOB' : 'DB_TYPE_CLOB'} ${text.length}`);
                } else {
                  chars += String(v).length;
                  texts.push(valueText(v));
                }
              }
              // the CLOB (last column) with the row, no LOB read
              if (step.fetch_lobs === false) entry.lob_text_chars = (entry.lob_text_chars || 0) + String(r[r.length - 1] || '').length;
              if (entry.values) entry.values.push(texts);
            }
          }
          await rs.close();
          entry.rows = n;
          entry.value_chars = chars;
        } catch (err) {
          entry.error = err.message.split(':')[0];
          entry.error_message = err.message;
          entry.rows = n;
          res.errors.push(entry.error);
        }
        res.rows_received += entry.rows;
        res.statements.push(entry);
      }
    }
  } finally {
    await conn.close();
  }
  return res;
}

async function main() {
  const plan = JSON.parse(process.argv[2]);
  const nsess = plan.sessions || 1;
  const fatal = [];
  const sessions = await Promise.all([...Array(nsess).keys()].map((i) =>
    runSession(plan, i).catch((e) => { fatal.push(`session ${i}: ${e.message}`); return null; })));
  const ok = sessions.filter((s) => s);
  const report = {
    driver: 'node-oracledb', driver_version: oracledb.versionString, thin: oracledb.thin,
    arraysize: plan.arraysize, prefetchrows: plan.prefetchrows, sdu_requested: plan.sdu,
    sessions: ok, rows_received: ok.reduce((a, s) => a + s.rows_received, 0),
    statements: ok.flatMap((s) => s.statements.filter((x) => x.sql).map((x) => x.sql)),
    fatal_errors: fatal,
  };
  process.stdout.write(JSON.stringify(report) + '\n');
  process.exitCode = fatal.length ? 1 : 0;
}

main();
