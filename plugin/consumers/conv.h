/* conv.h - one row per SQL*Net conversation: who (user, service, client
 * program, from the logon and the connect descriptor), how (TNS version,
 * SDU) and what it cost (statements, round trips, rows, time), for
 * tshark -z sqlnet,conv and the GUI table Statistics > SQL*Net
 * Conversations (conv_table.c).  The numbers are account.c's sums
 * (account_sums_add: the arithmetic of -z sqlnet,stmt) grouped by
 * conversation: round trips = records (as the rows of -z sqlnet,rt), rows,
 * time = the response times' sum (-z sqlnet,stmt's response_time_sum_ms),
 * wait = the waits' sum (its wait_ms); statements = distinct SQL_IDs.  A
 * conversation's numbers are the sums of its statements' rows in
 * -z sqlnet,stmt (tests/test_conv_views.py compares them).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_CONV_H
#define SQLNET_CONV_H

#include <glib.h>
#include <epan/packet.h>
#include "sqlnet_rt.h"
#include "account.h"

typedef struct conv_acc conv_acc_t;

typedef struct {
    guint32 conversation, tcp_stream;
    address client, server;
    guint32 client_port, server_port;
    char *user, *service, *program;
    gboolean negotiated;
    guint32 version, sdu;
    GHashTable *sql_ids;
    guint32 errors;
    sqlnet_acct_sums_t s;        /* account_sums_add() of its records */
    guint32 row;                 /* its index in conv_rows() */
    guint32 table_row;           /* conv_table.c: its row + 1 in the window's table (0: none yet) */
} conv_row_t;

conv_acc_t *conv_acc_new(void);
void conv_acc_reset(conv_acc_t *a);
void conv_acc_free(conv_acc_t *a);
/* A round-trip record (the "sqlnet" tap); returns its conversation's row. */
conv_row_t *conv_acc_add(conv_acc_t *a, packet_info *pinfo, const sqlnet_rt_t *rt);
/* The session facts (user, service, program) heard on the "frame" tap:
 * conv_facts_listen() registers that listener (with the filter that makes
 * Wireshark build those fields), conv_facts_stop() removes it. */
gboolean conv_facts_listen(conv_acc_t *a, void (*changed)(conv_acc_t *a, conv_row_t *row, void *user), void *user);
void conv_facts_stop(conv_acc_t *a);
/* The facts listener is being removed by Wireshark itself (epan's cleanup). */
void conv_acc_forget_listener(conv_acc_t *a);
const GPtrArray *conv_rows(const conv_acc_t *a);

/* Columns: name, text or number, a row's value (g_free()). */
guint conv_ncolumns(void);
const char *conv_column(guint col);
gboolean conv_column_is_text(guint col);
gboolean conv_column_is_ms(guint col);
char *conv_value(const conv_row_t *r, guint col);

/* At tap registration: tshark -z sqlnet,conv[,format=text|csv][,filter]. */
void conv_register_taps(void);

#endif /* SQLNET_CONV_H */
