/* metrics.h - per-response metrics: generated fields, expert advice, TCP
 * segment counting and (later) the tap record.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_METRICS_H
#define SQLNET_METRICS_H

#include <epan/packet.h>
#include "session.h"

/* One record per round trip (a completed response, or one closed by the
 * next request), queued on the "sqlnet" tap. */
typedef struct sqlnet_tap_rec {
    guint32 conversation;      /* conversation index */
    guint32 execution;         /* statement execution (per conversation), 0 = none */
    guint32 request_frame, response_frame;
    guint32 number;            /* round trip number in the conversation (sqlnet.rt.number), 0 = no request */
    guint8  kind;              /* ttc_req_kind_t */
    guint8  func;              /* function code of the main call */
    gboolean has_cursor;
    guint32 cursor;
    const char *sql;           /* statement text, NULL if unknown */
    const char *sql_id;        /* its SQL_ID (sqlnet.rt.sql_id), NULL if no text */
    gboolean has_fetch_rows;
    guint32 fetch_rows;        /* rows requested (array size) */
    gboolean executes;         /* the call executes a statement */
    guint32 rows;              /* rows delivered */
    guint64 rowcount;          /* cumulative row count (OER) */
    guint32 ora_error;
    guint32 req_packets, req_bytes;  /* TNS packets and bytes, headers included */
    guint32 req_ttc_bytes;           /* DATA payload after the data flags */
    guint32 resp_packets, resp_data_packets, resp_bytes, resp_segments;
    guint32 resp_ttc_bytes;          /* Oracle's "bytes sent via SQL*Net to client" */
    guint32 resp_row_bytes;          /* row data and bit vector messages */
    guint32 resp_bvc_bytes;          /* the bit vector messages alone */
    guint32 largest_packet;
    gboolean multi_segment;    /* a TNS packet of the response spanned TCP segments */
    nstime_t time, time_first; /* request to last / first response packet */
    nstime_t abs_request;      /* when the request was sent */
    /* where the time went (timing.c): parts of the stretch from the previous
     * response's last byte to this response's last byte */
    nstime_t t_network, t_server, t_transfer, t_client;
    gboolean timing_known, rtt_known;
    nstime_t rtt;
    guint8  rtt_source, vantage;
    guint32 sdu;
    /* as the completing packet's fields show them (for the Lua reports'
     * records, lua_records.c) */
    guint32 tcp_stream;        /* tcp.stream */
    gboolean has_oer;          /* ora_error is an end-of-call status's */
    guint32 largest_segment;   /* payload bytes of the largest TCP segment, 0 = unknown (TLS) */
    guint32 negotiated_sdu, negotiated_tdu, negotiated_version;   /* 0 before the ACCEPT */
    gboolean complete;         /* ended by its terminal message or the EOR flag */
    guint8  partial;           /* ttc_partial_t: not decoded to its end (counts are lower bounds) */
} sqlnet_tap_rec_t;

#define SQLNET_TAP_NAME "sqlnet"

void metrics_register(int proto);
void metrics_handoff(void);

/* Generated request/response fields and Info text for one DATA packet. */
void metrics_add_summary(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                         sqlnet_session_t *sess, sqlnet_dir_t dir);

/* This TNS packet was reassembled from several TCP segments. */
void metrics_note_multi_segment(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir,
                                guint32 tns_len);

#endif /* SQLNET_METRICS_H */
