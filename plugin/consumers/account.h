/* account.h - a statement's and an execution's account, computed once from
 * the "sqlnet" tap's round-trip records (sqlnet_rt_t): elapsed time and its
 * parts, idle time apart, pauses, round trips, rows, bytes, packets,
 * segments, array size and prefetch, ORA errors.  Every view reads these
 * numbers (-z sqlnet,stmt in text, CSV and JSON, the Lua records module's
 * records.accounts, the GUI statement table): no view adds up its own.
 * The definitions: docs/time.md.
 *
 * Use: account_new(); account_add() for each record the tap gives (in the
 * tap's order); account_compute() before reading (after the last record:
 * it finds the pauses and the array sizes, numbers the statements; cheap to
 * call again, it does nothing until another record comes); then
 * account_statements() and the values by column (account_stmt_value).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_ACCOUNT_H
#define SQLNET_ACCOUNT_H

#include <glib.h>
#include "sqlnet_rt.h"
#include "sql_id.h"

/* The sums of one execution or one statement.  Times in nanoseconds. */
typedef struct {
    guint64 elapsed_ns;        /* network + server + transfer + client of its round trips */
    guint64 network_ns, server_ns, transfer_ns, client_ns;
    guint64 idle_ns;           /* apart: the gaps before its executions' first calls */
    guint64 wait_ns;           /* network + server + transfer: what the client waited */
    guint64 client_stall_ns, server_stall_ns;   /* pauses, inside client_ns and server_ns */
    guint32 client_stalls, server_stalls;
    guint64 response_time_ns, response_time_max_ns;   /* complete responses: last request packet
                                                       * to the packet that completes the response */
    guint32 timed;             /* round trips whose time is split (timing known) */
    guint32 net_round_trips;   /* round trips with a network part */
    guint64 rtt_ns;            /* the latest round trip's RTT (0: unknown) */
    guint8 rtt_source, vantage;   /* sqlnet_rtt_source_t, sqlnet_vantage_t of that RTT */
    guint32 round_trips, executions, fetch_calls, fetches, incomplete, partial, more_data;
    guint64 rows, bytes_to_client, bytes_from_client, tns_bytes_to_client, tns_bytes_from_client;
    guint64 row_bytes, packets_to_client, segments_to_client;
    guint64 prefetch_rows;     /* rows its executes brought (the execute's own round trip) */
    guint32 parses;            /* calls that parse (OALL8 with the parse option) */
    guint32 commits;           /* calls that commit: OCOMMIT, or an execute with commit on execute */
} sqlnet_acct_sums_t;

/* One execution: the round trips of (conversation, execution number). */
typedef struct {
    guint32 conversation, execution, tcp_stream;
    guint32 first_frame, last_frame;   /* first request frame, last response frame */
    guint32 array_size;                /* rows asked per fetch (docs/time.md); 0: none asked */
    guint32 prefetch_asked;            /* rows its execute asked for (0: none) */
    sqlnet_acct_sums_t s;
} sqlnet_acct_exec_t;

/* One statement: the round trips of one SQL text (sql NULL: the calls
 * outside a statement: logon, commit, ping ...). */
typedef struct {
    guint32 number;                    /* 1, 2 ... by first_frame; 0 outside */
    const char *sql;                   /* as the records carry it; NULL outside */
    char sql_id[SQLNET_SQL_ID_LEN + 1];   /* "" outside */
    guint32 first_frame, last_frame;
    sqlnet_acct_sums_t s;
    GArray *execs;                     /* sqlnet_acct_exec_t, in order of their first round trip
                                        * (at most ACCOUNT_MAX_EXECS kept; the sums count them all) */
    char *array_size;                  /* "100"; "2, 10, 50" when executions differ; "" none */
    char *errors;                      /* "ORA-00942 x 1, ..." (ORA-01403 excluded), "" none */
    /* Chatty applications (patterns.h, docs/time.md): its runs that are a
     * pattern, of the kind that saves the most (pattern 0: none).  pattern_s
     * sums the round trips beyond each run's first call: what one call per
     * run would have saved (its price: network + server + client of them;
     * the rows and their transfer would still come). */
    guint8 pattern;                    /* sqlnet_pattern_t */
    guint32 pattern_calls;             /* the calls of those runs (each run's length) */
    guint32 pattern_runs;
    guint32 pattern_first_frame;       /* first frame of its first such run */
    sqlnet_acct_sums_t pattern_s;
    /* Parsed on every execution (patterns.h "reparse", the same rule as the
     * round trips' sqlnet.pattern == "reparse"): its runs of PATTERN_MIN_RUN
     * or more executions in a row, per conversation, each with its SQL text
     * and a parse.  No round trip to save: a statement cache would not send
     * the SQL text again after each run's first execution
     * (reparse_sql_bytes = (reparses - reparse_runs) x its length). */
    guint32 reparses;                  /* the executions of those runs */
    guint32 reparse_runs;
    guint32 reparse_first_frame;       /* first frame of its first such run */
    guint64 reparse_sql_bytes;
} sqlnet_acct_stmt_t;

/* What a pattern's avoidable round trips cost (ns): network + server + client. */
static inline guint64
account_pattern_saved_ns(const sqlnet_acct_stmt_t *st)
{
    return st->pattern_s.network_ns + st->pattern_s.server_ns + st->pattern_s.client_ns;
}

#define ACCOUNT_MAX_EXECS 1000

/* A round trip outside the fetch plan: a call of an execution that is
 * neither its execute nor a fetch of its rows - a LOB operation (a LOB read
 * per row by its locator) or a cursor close of its own (go-ora's OPING that
 * carries the close: the one OPING with an execution, ttc_pairing.c).  The
 * advisor's model keeps it as a round trip at
 * every array size, at its observed bytes and time (an OALL8 that fetches a
 * REF CURSOR or an implicit result, or python-oracledb's define re-execute,
 * is a fetch).  One rule for the C accounts and the Lua model (lua_records.c
 * gives it per round trip: rt.fixed). */
gboolean account_rt_fixed(const sqlnet_rt_t *rt);

typedef struct sqlnet_account sqlnet_account_t;

sqlnet_account_t *account_new(void);
void account_reset(sqlnet_account_t *a);
void account_free(sqlnet_account_t *a);
/* One round-trip record of the "sqlnet" tap (the report's listener gives it). */
void account_add(sqlnet_account_t *a, const sqlnet_rt_t *rt);
/* What one round-trip record adds to a set of sums: the arithmetic
 * account_add() does for a statement and an execution, for a view that
 * groups the records otherwise (the conversations, conv.c) and must count
 * as the statements do.  Pauses are not in it (account_compute() finds
 * them over a whole conversation's statements). */
void account_sums_add(sqlnet_acct_sums_t *s, const sqlnet_rt_t *rt);
/* Pauses, array sizes, numbering: before reading. */
void account_compute(sqlnet_account_t *a);
/* The statements in number order, the calls outside a statement (number 0)
 * first when there are any: account_statements(a)->pdata[i] are
 * const sqlnet_acct_stmt_t *, owned by the account. */
const GPtrArray *account_statements(sqlnet_account_t *a);

/* ---- the values by column: -z sqlnet,stmt's CSV/JSON columns ------------
 * One row per statement (account_stmt_*) and one per execution
 * (account_exec_*); a value as -z sqlnet,stmt,format=csv prints it, NULL
 * when empty (JSON null).  Times in ms with 3 decimals, rounded from the
 * nanosecond sums. */
guint account_stmt_ncolumns(void);
const char *account_stmt_column(guint col);
gboolean account_stmt_column_is_text(guint col);   /* JSON: a string (else a number) */
/* g_free() the result */
char *account_stmt_value(const sqlnet_acct_stmt_t *s, guint col);

guint account_exec_ncolumns(void);
const char *account_exec_column(guint col);
gboolean account_exec_column_is_text(guint col);
char *account_exec_value(const sqlnet_acct_stmt_t *s, const sqlnet_acct_exec_t *e, guint col);

/* "12.345": nanoseconds as milliseconds with 3 decimals, rounded half up
 * (every view prints a time so). */
void account_ms(char *buf, gsize len, guint64 ns);
/* SQL on one line: whitespace runs (newlines, tabs) become one space; g_free(). */
char *account_one_line(const char *sql);

#endif /* SQLNET_ACCOUNT_H */
