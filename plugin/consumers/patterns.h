/* patterns.h - chatty applications (issue 36): the round trips an
 * application could have saved, recognised once per conversation while the
 * round-trip records are first published, and priced from the statement
 * accounts (account.c) so that every view shows the same numbers.
 *
 * Per round trip (sqlnet_rt_t.exec_number, .pattern, .run_*; the columns
 * sqlnet.rt.execution_number and sqlnet.rt.pattern): this SQL text's
 * execution number in the conversation and the pattern the round trip is
 * part of.  A "run" is a sequence of calls of one kind that a client could
 * have made in fewer round trips:
 *   repeated_query   the same query executed again and again, few rows each,
 *                    one right after the other (N+1; a dictionary query per
 *                    object); one query (an IN-list, a join) would do
 *   row_by_row_dml   the same INSERT/UPDATE/DELETE executed once per row
 *                    (iterations 1), one after the other: array DML would do
 *   commit           a commit call (OCOMMIT) after each statement: commit on
 *                    execute (autocommit on the last statement) or once per
 *                    piece of work would do
 *   ping             a ping (OPING) or a validation query (SELECT 1 FROM
 *                    DUAL) before each piece of work: a pool ping interval
 *                    would do; go-ora's cursor close (an OPING carrying it,
 *                    ttc_request_t.closes_cursor) is no ping but a call of
 *                    the execution it closes, in that execution's run
 *   lob_per_row      one LOB call after another (a read per row): LOB
 *                    prefetch or fetching LOBs as strings/bytes would do
 *   reparse          a statement whose executions each carry a parse (an
 *                    OALL8 with its SQL text and the parse option), one
 *                    execution after another of it in the conversation (no
 *                    time limit: a cursor is reused or not whatever the
 *                    pause): a statement cache would re-execute the open
 *                    cursor.  No round trip goes (the parse rides with the
 *                    execute): the SQL text is not sent again and the server
 *                    does not parse it again.  A round trip can be in a run
 *                    of another kind too (an N+1 query parsed each time):
 *                    it then carries both names (sqlnet.pattern twice).
 * A run continues while each call follows the previous one within
 * PATTERN_SPAN_MS (and, for a query, the previous execution brought at most
 * PATTERN_FEW_ROWS rows); it is a pattern from its PATTERN_MIN_RUN-th call:
 * the round trips from there on carry the pattern's name (decided as the
 * capture is read: the same in one pass, two passes and the GUI), the
 * reports count the whole run (its length is known at the end).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_PATTERNS_H
#define SQLNET_PATTERNS_H

#include <epan/packet.h>
#include "session.h"
#include "ttc_roundtrip.h"

typedef enum {
    SQLNET_PATTERN_NONE = 0,
    SQLNET_PATTERN_REPEATED_QUERY = 1,
    SQLNET_PATTERN_ROW_BY_ROW_DML = 2,
    SQLNET_PATTERN_COMMIT = 3,
    SQLNET_PATTERN_PING = 4,
    SQLNET_PATTERN_LOB_PER_ROW = 5,
    SQLNET_PATTERN_N,                  /* the kinds of runs of calls that cost round trips */
    SQLNET_PATTERN_REPARSE = SQLNET_PATTERN_N   /* a run of its own (reparse_* below) */
} sqlnet_pattern_t;

#define PATTERN_MIN_RUN 10         /* calls in a run before it is a pattern */
#define PATTERN_FEW_ROWS 10        /* a repeated query's executions: at most this many rows each */
#define PATTERN_SPAN_MS 1000       /* at most this long between two calls of a run */

extern const value_string sqlnet_pattern_vals[];

/* "repeated_query" ... ("" for none) */
const char *pattern_name(guint kind);

/* What the classification says of one round trip. */
typedef struct {
    guint32 exec_number;       /* its SQL text's execution number in the conversation (0: none) */
    guint8 kind;               /* sqlnet_pattern_t of its run (0: not in a run) */
    guint8 pattern;            /* kind once the run is a pattern (index >= PATTERN_MIN_RUN), else 0 */
    guint32 run_first;         /* first frame of its run */
    guint32 run_index;         /* its call's place in the run (1-based) */
    guint32 run_length;        /* the run's length as far as the capture has been read (all of it
                                * after the first pass) */
    guint32 run_saved_rts;     /* round trips of the run beyond its first call, as far as read */
    gboolean expert;           /* this round trip made the run a pattern (Expert Info here) */
    /* reparse (its own run: a round trip can be in both) */
    guint32 reparse_index;     /* the execute's place in its statement's run of parsed executions
                                * (1-based; 0: not an execute with a parse); a pattern from
                                * PATTERN_MIN_RUN */
    guint32 reparse_first;     /* first frame of that run */
    guint32 reparse_length;    /* the run's length as far as read */
    gboolean reparse_expert;   /* this execute made the run a pattern (Expert Info here) */
} sqlnet_pattern_mark_t;

/* The reparse rule, one place for the round-trip marks (patterns.c) and the
 * statement accounts (account.c): the state of one statement in one
 * conversation, stepped with each of its executions in order. */
typedef struct {
    guint32 length;            /* executions in a row, each with a parse */
    guint32 first_frame;       /* first frame of the run */
} sqlnet_reparse_run_t;

/* An execution that carries a parse: an OALL8 that executes, with the SQL
 * text and the parse option. */
gboolean patterns_parses(const ttc_request_t *req);

/* One more execution of the statement: its place in the run of parsed
 * executions (0: it does not parse, the run ends). */
guint32 patterns_reparse_step(sqlnet_reparse_run_t *r, const ttc_request_t *req);

/* Classify the round trip of resp, once, when its record is first
 * published (first pass, in frame order); afterwards the same answer. */
const sqlnet_pattern_mark_t *patterns_note(packet_info *pinfo, sqlnet_session_t *sess,
                                           const ttc_response_t *resp);

#endif /* SQLNET_PATTERNS_H */
