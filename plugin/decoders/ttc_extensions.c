/* ttc_extensions.c - return parameters of the calls beyond queries: two-phase
 * commit (transaction switch 103, change state 104), advanced queuing
 * (enqueue 121, dequeue 122, array 145) and direct-path load (prepare 128,
 * load stream 129, operation 130).  The calls' bodies are shown as call
 * data; their replies are walked as python-oracledb's messages read them
 * (tpc_*.pyx, aq_*.pyx, direct_path_*.pyx).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

#define AQ_MSGID_LEN 16

/* AQ message properties (python-oracledb aq_base.pyx _process_msg_props). */
static void
skip_aq_msg_props(ttc_rd_t *r)
{
    guint32 n, i;

    ttc_rd_sb4(r);                      /* priority */
    ttc_rd_sb4(r);                      /* delay */
    ttc_rd_sb4(r);                      /* expiration */
    ttc_rd_skip_bytes_with_length(r);   /* correlation */
    ttc_rd_sb4(r);                      /* attempts */
    ttc_rd_skip_bytes_with_length(r);   /* exception queue */
    ttc_rd_sb4(r);                      /* state */
    if (ttc_rd_ub4(r) > 0)              /* enqueue time */
        ttc_rd_dalc(r, NULL);
    ttc_rd_skip_bytes_with_length(r);   /* enqueue transaction id */
    n = ttc_rd_ub4(r);                  /* extensions */
    if (n > TTC_MAX_KV_PAIRS) { r->bad = TRUE; return; }
    if (n > 0) {
        ttc_rd_u8(r);
        for (i = 0; i < n && ttc_rd_ok(r); i++) {
            ttc_rd_skip_bytes_with_length(r);   /* text value */
            ttc_rd_skip_bytes_with_length(r);   /* binary value */
            ttc_rd_ub2(r);                      /* keyword */
        }
    }
    if (ttc_rd_ub4(r) > 0)              /* user properties: not sent by any client */
        r->bad = TRUE;
    ttc_rd_ub4(r);                      /* csn */
    ttc_rd_ub4(r);                      /* dsn */
    ttc_rd_ub4(r);                      /* flags */
    if (r->d->fv >= TTC_FV_21_1)
        ttc_rd_ub4(r);                  /* shard number */
}

/* AQ recipients: a count, never non-zero in what the server returns today. */
static void
skip_aq_recipients(ttc_rd_t *r)
{
    if (ttc_rd_ub4(r) > 0)
        r->bad = TRUE;
}

void
ttc_rpa_txn_change_state(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_ub4(r);                /* transaction state */
}

/* tpc_switch.pyx */
void
ttc_rpa_txn_switch(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_ub4(r);                /* application value */
    ttc_rd_skip(r, (gint)ttc_rd_ub2(r));   /* context */
}

/* aq_enq.pyx */
void
ttc_rpa_aq_enq(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_skip(r, AQ_MSGID_LEN);
    ttc_rd_ub2(r);                /* extensions length */
}

/* aq_deq.pyx */
void
ttc_rpa_aq_deq(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    if (ttc_rd_ub4(r) > 0 && ttc_rd_ok(r)) {
        skip_aq_msg_props(r);
        skip_aq_recipients(r);
        ttc_skip_object_image(r);     /* payload: object, raw or JSON image */
        ttc_rd_skip(r, AQ_MSGID_LEN);
    }
}

/* aq_array.pyx */
void
ttc_rpa_aq_array(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    guint32 i;
    guint32 iters = ttc_rd_ub4(r);
    if (iters > TTC_MAX_LIST) { r->bad = TRUE; return; }
    for (i = 0; i < iters && ttc_rd_ok(r); i++) {
        if (ttc_rd_ub2(r) > 0) {
            ttc_rd_u8(r);
            skip_aq_msg_props(r);
        }
        skip_aq_recipients(r);
        if (ttc_rd_ub2(r) > 0)
            ttc_skip_object_image(r);
        ttc_rd_skip_bytes_with_length(r);  /* message ids */
        if (ttc_rd_ub2(r) > 0)             /* extensions */
            r->bad = TRUE;
        ttc_rd_ub2(r);                     /* output ack */
    }
    /* An array enqueue adds the iterations done (ub4); the operation is
     * in the call, whose body is not decoded: a small universal integer
     * here, not a message type, says it is there. */
    if (ttc_rd_ok(r) && ttc_rd_have(r, 1)) {
        guint8 b = tvb_get_uint8(r->tvb, r->off);
        if (!r->d->native && (b == 1 || b == 2))
            ttc_rd_ub4(r);
    }
}

/* direct_path_prepare.pyx */
void
ttc_rpa_dp_prepare(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope)
{
    guint32 n, i;
    guint32 ncols = ttc_rd_ub4(r);
    ttc_column_t col;
    if (ncols > TTC_MAX_COLUMNS) { r->bad = TRUE; return; }
    for (i = 0; i < ncols && ttc_rd_ok(r); i++)
        ttc_describe_column(r, NULL, &col, scope);
    if (ttc_rd_ub2(r) > 0)        /* parameters: none in any reply seen by the reference */
        r->bad = TRUE;
    n = ttc_rd_ub2(r);            /* out values */
    for (i = 0; i < n && ttc_rd_ok(r); i++)
        ttc_rd_ub4(r);
}

/* direct_path_load_stream.pyx, direct_path_op.pyx: out values */
void
ttc_rpa_dp_out_values(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    guint32 n, i;

    n = ttc_rd_ub2(r);            /* out values */
    for (i = 0; i < n && ttc_rd_ok(r); i++)
        ttc_rd_ub4(r);
}

