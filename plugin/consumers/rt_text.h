/* rt_text.h - a round trip in words, for the views that draw or tell the
 * conversation (flow.c: the Flow Graph's arrows, follow.c: the Follow
 * transcript): the call and what it carried, the answer and what it cost.
 * Every number is read from the round-trip record (sqlnet_rt.h) and every
 * time is printed by account_ms(), so the arrow, the transcript line, the
 * packet's fields and -z sqlnet,rt say the same.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_RT_TEXT_H
#define SQLNET_RT_TEXT_H

#include <glib.h>
#include "sqlnet_rt.h"

/* The call's name: "OALL8", "OFETCH", "OCOMMIT", "PRO" ... ("response"
 * without a request). */
const char *rt_text_call(const sqlnet_rt_t *rt);

/* The request: "OALL8 SELECT ..." (the statement text on one line, cut to
 * sql_max characters with "..."; sql_max 0: whole), "OFETCH 10 rows" (rows
 * asked). g_free(). */
char *rt_text_request(const sqlnet_rt_t *rt, gsize sql_max);

/* The response: "10 rows, 2 pkts, 1.234 ms" (rows delivered, TNS packets,
 * sqlnet.rt.time), "ORA-01722, 1 pkt, 0.412 ms" on an error. g_free(). */
char *rt_text_response(const sqlnet_rt_t *rt);

/* The group a round trip belongs to: "exec 3 sql 7zyx... rt 17" (execution,
 * SQL_ID, round-trip number; the parts the record has). g_free(). */
char *rt_text_group(const sqlnet_rt_t *rt);

#endif /* SQLNET_RT_TEXT_H */
