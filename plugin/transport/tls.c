/* tls.c - SQL*Net inside TLS (TCPS).
 *
 * Wireshark's TLS dissector decrypts application data when it has the
 * session secrets (a key log file, or secrets embedded in the pcapng) and
 * hands the plaintext to the dissector registered for the server port in the
 * "tls.port" table, or first to the heuristics on "tls".  sqlnet takes both:
 * the TLS ports 1522 and 2484 (preference "TLS ports") and, on any port, a
 * TLS conversation whose first decrypted record starts with a TNS CONNECT.
 *
 * The plaintext goes through the same TNS framing as TCP (tns_dissect_tcp():
 * tcp_dissect_pdus() works on the decrypted stream, TLS reassembles a TNS
 * packet that spans records the way TCP does across segments) and the same
 * conversation (TLS keeps the TCP addresses and ports in pinfo), so every
 * field, tap and report works as over TCP.  What TLS passes as dissector data
 * (a pointer to its application handle in 4.0, a struct tlsinfo from 4.2) is
 * not TCP's tcpinfo: the TNS layer gets NULL, as for a segment without TCP
 * information.  A response's segments are the TCP segments that carried its
 * TLS records: those sqlnet never gets (TCP reassembles a record that spans
 * segments for TLS) are counted from the tcp tap like the middle segments of
 * a TNS packet over TCP (ttc_count_segment()), from the frame after the
 * request on.
 *
 * Without the secrets, with the preference sqlnet.tls_estimate (on by
 * default): for a TLS conversation that sqlnet does not decode, the watch
 * below feeds every TLS record header it reads (on the frame where the TLS
 * dissector completes the record) to an estimate of round trips
 * (note_record()): a burst of client application-data records followed by
 * server ones is one exchange, the first (CONNECT/ACCEPT) is not a round
 * trip.  Per round trip: records and bytes each way, the TNS bytes (record
 * bytes less the header and the cipher's per-record overhead, from the
 * ServerHello's version and suite) and the response time, on the frame of
 * the server record that ends the response (shown by the postdissector once
 * the next client record has been seen: on a second pass, tshark -2 or the
 * GUI) and on the tap SQLNET_TLS_EST_TAP.  No protocol tree is needed.
 *
 * Whether or not the estimate is on, a TNS-over-TLS conversation that sqlnet
 * cannot read is said once (watch_*()): TLS on a TLS port, or on a sqlnet
 * TCP port whose first payload was a ClientHello (tns.c gives it to the watch
 * below instead of to TLS).  The watch is the conversation's dissector in
 * TCP: it reads the 5-byte TLS record headers in the segments TCP hands it
 * (no protocol tree: it costs nothing on other conversations and little on
 * these), hands every segment to the TLS dissector as TCP would, and picks
 * the client's first application-data record (the one that carries the TNS
 * CONNECT: in TLS 1.3, whose ServerHello it reads for the version, the
 * second, after the encrypted Finished).  When that record has gone through
 * TLS and sqlnet still has no decoded session, the conversation is not
 * decrypted: the frame that completes the record gets the generated field
 * sqlnet.tls.undecrypted (the server port) and an expert note, and a record
 * of kind SQLNET_EST_TLS_UNDECRYPTED goes on the estimate tap for the reports.
 * A TLS port's conversation is handed to the watch by the postdissector
 * from the frame after its first TLS frame on (TLS's heuristic takes the
 * ClientHello); the watch stops reading once it has decided.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/conversation.h>
#include <epan/dissectors/packet-tcp.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/expert.h>
#include <epan/unit_strings.h>

#include "sqlnet.h"
#include "session.h"
#include "coltext.h"

/* The README as the Debian package installs it (scripts/package.sh:
 * /usr/share/doc/sqlnet-wireshark<major.minor>/), named by the key-log hint. */
#define SQLNET_STR_(x) #x
#define SQLNET_STR(x) SQLNET_STR_(x)
#define SQLNET_DOC_README "/usr/share/doc/sqlnet-wireshark" SQLNET_STR(WIRESHARK_VERSION_MAJOR) "." \
    SQLNET_STR(WIRESHARK_VERSION_MINOR) "/README.md"
#include "tns.h"
#include "estimate.h"
#include "tls.h"

#define SQLNET_TLS_DEFAULT_PORTS "1522,2484"

static int proto_sqlnet_tls = -1;
static dissector_handle_t sqlnet_tls_handle;

static int hf_est = -1;
static int hf_est_round_trip = -1;
static int hf_est_req_records = -1;
static int hf_est_req_bytes = -1;
static int hf_est_records = -1;
static int hf_est_bytes = -1;
static int hf_est_tns_bytes = -1;
static int hf_est_time = -1;
static int hf_est_tls_version = -1;
static int ett_est = -1;
static dissector_handle_t est_handle;
/* conversations not decrypted */
static int hf_undecrypted = -1;
static expert_field ei_undecrypted = EI_INIT;
static expert_field ei_undecrypted_est = EI_INIT;    /* the same, sqlnet.tls_estimate on */
static dissector_handle_t watch_handle, tls_handle;
static range_t *tls_ports;                       /* the "tls.port" range, as last applied */
static int proto_tcp_id = -1;

/* Decrypted application data of a TLS conversation sqlnet owns. */
static int
dissect_sqlnet_tls(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
    if (!PINFO_FD_VISITED(pinfo))
        session_get(pinfo)->tls = TRUE;
    return tns_dissect_tcp(tvb, pinfo, tree, NULL);
}

/* ---- without the secrets: an estimate from TLS record sizes ------------ */

#define TLS_RECORD_HEADER 5
#define TLS_CT_APPLICATION_DATA 23

struct tls_est {
    guint32 conv;                   /* conversation index */
    guint16 version;                /* 0x0304 when the ServerHello says TLS 1.3 */
    guint16 suite;                  /* the ServerHello's cipher suite */
    guint8  phase;                  /* 0 none yet, 1 client burst, 2 server burst */
    guint32 exchanges;              /* closed exchanges */
    gboolean resp_markers_only;     /* the server burst so far: TNS markers only */
    sqlnet_est_rec_t cur;       /* the exchange in progress */
    nstime_t req_last_time, resp_last_time;
    guint32 resp_last_frame;
    wmem_tree_t *by_frame;          /* last server frame -> sqlnet_est_rec_t */
};

static gboolean
is_tls_port(guint32 port)
{
    if (!tls_ports)
        tls_ports = prefs_get_range_value(SQLNET_FILTER, "tls.port");
    return tls_ports != NULL && value_is_in_range(tls_ports, port);
}

/* ---- conversations not decrypted: the watch ---------------------------- */

typedef enum {
    WATCH_ON = 0,                   /* reading record headers */
    WATCH_DECRYPTED,                /* sqlnet decodes it: nothing to say */
    WATCH_UNDECRYPTED,              /* said on marked_frame */
    WATCH_NOT_TLS                   /* its first payload was no TLS record: given back to TCP */
} watch_state_t;

typedef struct {
    guint8   state;                 /* watch_state_t */
    gboolean tls13;                 /* the ServerHello chose TLS 1.3 */
    gboolean hello_read;
    gboolean synced[2];             /* by direction: 0 client, 1 server */
    guint32  next[2];               /* TCP sequence number of the next record header */
    guint32  client_app;            /* client application-data records seen */
    struct {                        /* a record whose end is in a later segment */
        gboolean on;
        guint32  end;               /* TCP sequence number after it */
        guint8   type;
        guint32  len;
    } pend[2];
    guint16  suite;                 /* the ServerHello's cipher suite */
    guint16  server_port;
    guint32  marked_frame;
    sqlnet_est_rec_t rec;           /* the notice on the estimate tap */
} tls_watch_t;

/* What tls.c keeps per conversation (sess->tls_est). */
typedef struct tls_est tls_est_t;
typedef struct tls_conv {
    tls_watch_t watch;
    gboolean watch_set;             /* the watch is the conversation's dissector */
    tls_est_t *est;                 /* the estimate, created with its first record */
} tls_conv_t;

static tls_conv_t *
tls_conv(sqlnet_session_t *sess)
{
    if (!sess->tls_est)
        sess->tls_est = wmem_new0(wmem_file_scope(), tls_conv_t);
    return sess->tls_est;
}

/* The server's port: TCP's, from the SYN, else the TLS port. */
static guint16
server_port_of(packet_info *pinfo, conversation_t *conv)
{
    const struct tcp_analysis *tcpd = proto_tcp_id >= 0 ?
        (const struct tcp_analysis *)conversation_get_proto_data(conv, proto_tcp_id) : NULL;

    if (tcpd && tcpd->server_port)
        return (guint16)tcpd->server_port;
    return (guint16)(is_tls_port(pinfo->srcport) ? pinfo->srcport : pinfo->destport);
}

/* The ServerHello's supported_versions extension says TLS 1.3 (RFC 8446
 * 4.1.3, 4.2.1); `off` is the handshake message's start.  Its cipher suite
 * goes to *suite. */
static gboolean
server_hello_is_tls13(tvbuff_t *tvb, guint off, guint16 *suite)
{
    guint p, end;

    if (!tvb_bytes_exist(tvb, off, 4 + 2 + 32 + 1) || tvb_get_uint8(tvb, off) != 2)   /* server_hello */
        return FALSE;
    p = off + 4 + 2 + 32;
    p += 1 + tvb_get_uint8(tvb, p);                   /* legacy_session_id_echo */
    if (tvb_bytes_exist(tvb, p, 2))
        *suite = tvb_get_ntohs(tvb, p);
    p += 2 + 1;                                       /* cipher_suite, legacy_compression_method */
    if (!tvb_bytes_exist(tvb, p, 2))
        return FALSE;
    end = p + 2 + tvb_get_ntohs(tvb, p);
    p += 2;
    while (p + 4 <= end && tvb_bytes_exist(tvb, p, 4)) {
        guint type = tvb_get_ntohs(tvb, p), len = tvb_get_ntohs(tvb, p + 2);
        if (type == 0x002b)                           /* supported_versions */
            return len == 2 && tvb_bytes_exist(tvb, p + 4, 2) && tvb_get_ntohs(tvb, p + 4) == 0x0304;
        p += 4 + len;
    }
    return FALSE;
}

static void note_record(tls_est_t *e, packet_info *pinfo, gboolean from_server, guint8 type, guint32 len);

/* A record complete in this frame (where the TLS dissector shows it): the
 * CONNECT's?  And, with the estimate on, one record of the estimate. */
static void
record_done(tls_conv_t *c, packet_info *pinfo, int dir, guint8 type, guint32 len, gboolean *connect_done)
{
    tls_watch_t *w = &c->watch;

    if (dir == 0 && type == TLS_CT_APPLICATION_DATA && w->state == WATCH_ON &&
        ++w->client_app == (w->tls13 ? 2u : 1u))
        *connect_done = TRUE;
    if (c->est && w->state != WATCH_DECRYPTED)
        note_record(c->est, pinfo, dir == 1, type, len);
}

/* Reads the record headers of one segment (or reassembled PDU) of the
 * conversation; TRUE when the record that carries the TNS CONNECT ends in it. */
static gboolean
watch_records(tls_conv_t *c, tvbuff_t *tvb, packet_info *pinfo, const struct tcpinfo *tcpi)
{
    tls_watch_t *w = &c->watch;
    int dir = pinfo->srcport == w->server_port ? 1 : 0;
    guint32 seq = tcpi->seq, len = tvb_reported_length(tvb), cap = tvb_captured_length(tvb);
    gboolean connect_done = FALSE;

    if (w->pend[dir].on) {
        gint32 left = (gint32)(w->pend[dir].end - seq);
        if (left > 0 && (guint32)left > len)
            return FALSE;           /* it ends in a later segment still */
        w->pend[dir].on = FALSE;
        record_done(c, pinfo, dir, w->pend[dir].type, w->pend[dir].len, &connect_done);
    }
    if (!w->synced[dir]) {
        /* a segment that starts a flight starts a record (type 20 to 24, version 3.x) */
        if (cap < 5 || tvb_get_uint8(tvb, 0) < 20 || tvb_get_uint8(tvb, 0) > 24 || tvb_get_uint8(tvb, 1) != 3)
            return connect_done;
        w->synced[dir] = TRUE;
        w->next[dir] = seq;
    }
    for (;;) {
        guint32 off = w->next[dir] - seq, rlen;
        guint8 type;

        if (off >= len)                 /* in a later segment (or behind: a retransmission) */
            return connect_done;
        if (off + 5 > cap) {            /* a header cut by the segment: find the next flight */
            w->synced[dir] = FALSE;
            return connect_done;
        }
        type = tvb_get_uint8(tvb, off);
        if (type < 20 || type > 24 || tvb_get_uint8(tvb, off + 1) != 3) {
            w->synced[dir] = FALSE;
            return connect_done;
        }
        rlen = tvb_get_ntohs(tvb, off + 3);
        if (dir == 1 && type == 22 && !w->hello_read) {
            w->hello_read = TRUE;
            w->tls13 = server_hello_is_tls13(tvb, off + 5, &w->suite);
            if (c->est) {
                c->est->version = w->tls13 ? 0x0304 : 0;
                c->est->suite = w->suite;
            }
        }
        w->next[dir] += 5 + rlen;
        if (off + 5 + rlen <= len) {
            record_done(c, pinfo, dir, type, rlen, &connect_done);
        } else {
            w->pend[dir].on = TRUE;
            w->pend[dir].end = w->next[dir];
            w->pend[dir].type = type;
            w->pend[dir].len = rlen;
            return connect_done;
        }
    }
}

static void
watch_note(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, tls_watch_t *w)
{
    proto_item *pi;

    if (p_get_proto_data(pinfo->pool, pinfo, proto_sqlnet_tls, SQLNET_KEY_TLS_WATCH))
        return;                     /* once per frame (TCP may call the watch twice) */
    p_add_proto_data(pinfo->pool, pinfo, proto_sqlnet_tls, SQLNET_KEY_TLS_WATCH, GUINT_TO_POINTER(1));
    pi = proto_tree_add_uint(tree, hf_undecrypted, tvb, 0, 0, w->server_port);
    proto_item_set_generated(pi);
    /* a warning naming Wireshark's TLS preference; "turn on the estimate"
     * only where it is off */
    expert_add_info(pinfo, pi, sqlnet_prefs()->tls_estimate ? &ei_undecrypted_est : &ei_undecrypted);
    tap_queue_packet(sqlnet_est_tap(), pinfo, &w->rec);
}

/* The conversation's dissector in TCP: reads, then hands the segment to TLS
 * with TCP's reassembly service (as a TCP proxy such as SOCKS does). */
static int
dissect_tls_watch(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    const struct tcpinfo *tcpi = (const struct tcpinfo *)data;
    conversation_t *conv = find_conversation_pinfo(pinfo, 0);
    sqlnet_session_t *sess = conv ? (sqlnet_session_t *)conversation_get_proto_data(conv, proto_sqlnet_tls) : NULL;
    tls_conv_t *c = sess ? sess->tls_est : NULL;
    gboolean decide = FALSE;
    int ret;

    if (!PINFO_FD_VISITED(pinfo) && conv && tcpi) {
        if (!c) {
            c = tls_conv(session_get(pinfo));
            c->watch_set = TRUE;
        }
        if (!c->watch.server_port && tvb_reported_length(tvb) > 0 &&
            (tvb_captured_length(tvb) < 3 || tvb_get_uint8(tvb, 0) < 20 || tvb_get_uint8(tvb, 0) > 24 ||
             tvb_get_uint8(tvb, 1) != 3 || tvb_get_uint8(tvb, 2) > 4))
            /* a TLS port's conversation that is not TLS (TNS on 1522, which is both) */
            c->watch.state = WATCH_NOT_TLS;
        if (c->watch.state != WATCH_NOT_TLS && !c->watch.server_port) {
            c->watch.server_port = server_port_of(pinfo, conv);
            if (sqlnet_prefs()->tls_estimate && !c->est) {
                /* the estimate reads the same record headers, from the start */
                c->est = wmem_new0(wmem_file_scope(), tls_est_t);
                c->est->conv = conv->conv_index;
                c->est->by_frame = wmem_tree_new(wmem_file_scope());
            }
        }
        if (c->watch.state == WATCH_ON || (c->watch.state == WATCH_UNDECRYPTED && c->est))
            decide = watch_records(c, tvb, pinfo, tcpi) && c->watch.state == WATCH_ON;
    }
    if (c && c->watch.state == WATCH_NOT_TLS)
        return 0;                   /* TCP goes on: port dissectors, heuristics */
    pinfo->can_desegment = pinfo->saved_can_desegment;
    sqlnet_col_forget(pinfo);       /* Wireshark's TLS dissector sets the Info column */
    ret = call_dissector_only(tls_handle, tvb, pinfo, tree, data);
    sqlnet_col_forget(pinfo);
    if (decide) {
        sess = (sqlnet_session_t *)conversation_get_proto_data(conv, proto_sqlnet_tls);
        if (sess && sess->tls) {
            c->watch.state = WATCH_DECRYPTED;
        } else {
            c->watch.state = WATCH_UNDECRYPTED;
            c->watch.marked_frame = pinfo->num;
            c->watch.rec.kind = SQLNET_EST_TLS_UNDECRYPTED;
            c->watch.rec.conversation = conv->conv_index;
            c->watch.rec.port = c->watch.server_port;
        }
        if (c->watch.state == WATCH_DECRYPTED || !c->est)
            /* nothing more to read: TLS itself from the next frame on */
            conversation_set_dissector_from_frame_number(conv, pinfo->num + 1, tls_handle);
    }
    if (c && c->watch.state == WATCH_UNDECRYPTED && c->watch.marked_frame == pinfo->num)
        watch_note(tvb, pinfo, tree, &c->watch);
    return ret;
}

dissector_handle_t
sqlnet_tls_watch_handle(void)
{
    return watch_handle;
}

gboolean
sqlnet_tls_estimate_enabled(void)
{
    return sqlnet_prefs()->tls_estimate;
}

/* Per-record overhead of the protection: the AEAD tag (and TLS 1.3's inner
 * content type, TLS 1.2 GCM/CCM's explicit nonce); 0 when unknown. */
static guint32
record_overhead(const tls_est_t *e)
{
    if (e->version == 0x0304)
        return 16 + 1;
    switch (e->suite) {
    case 0x009C: case 0x009D: case 0x009E: case 0x009F:      /* RSA/DHE AES-GCM */
    case 0xC02B: case 0xC02C: case 0xC02F: case 0xC030:      /* ECDHE AES-GCM */
        return 8 + 16;
    case 0xCCA8: case 0xCCA9: case 0xCCAA:                   /* ChaCha20-Poly1305 */
        return 16;
    default:
        return 0;
    }
}

static void
close_exchange(tls_est_t *e, packet_info *pinfo)
{
    e->exchanges++;
    if (e->exchanges > 1) {         /* the first is the CONNECT/ACCEPT */
        sqlnet_est_rec_t *rec = wmem_new(wmem_file_scope(), sqlnet_est_rec_t);
        *rec = e->cur;
        rec->kind = SQLNET_EST_TLS;
        rec->conversation = e->conv;
        rec->round_trip = e->exchanges - 1;
        nstime_delta(&rec->resp_time, &e->resp_last_time, &e->req_last_time);
        wmem_tree_insert32(e->by_frame, e->resp_last_frame, rec);
        tap_queue_packet(sqlnet_est_tap(), pinfo, rec);
    }
    memset(&e->cur, 0, sizeof(e->cur));
}

/* One TLS record of this frame (first pass, in frame and offset order). */
/* A record whose plaintext is a TNS MARKER packet (8-byte header, 3 bytes),
 * when the cipher's overhead is known. */
static gboolean
is_marker_record(const tls_est_t *e, guint32 len)
{
    guint32 overhead = record_overhead(e);
    return overhead != 0 && len == overhead + TNS_HDR_LEN + 3;
}

static void
note_record(tls_est_t *e, packet_info *pinfo, gboolean from_server, guint8 type, guint32 len)
{
    guint32 total = len + TLS_RECORD_HEADER, overhead;

    if (type != TLS_CT_APPLICATION_DATA)
        return;
    if (!from_server) {
        /* A marker after a server burst of markers is the client's reset
         * answering the server's break: the same round trip goes on (an
         * error response: break, reset, reset, error). */
        if (e->phase == 2 && e->resp_markers_only && is_marker_record(e, len)) {
            e->cur.req_records++;
            e->cur.req_bytes += total;
            return;
        }
        if (e->phase == 2)
            close_exchange(e, pinfo);
        e->phase = 1;
        e->resp_markers_only = TRUE;
        e->cur.req_records++;
        e->cur.req_bytes += total;
        e->req_last_time = pinfo->abs_ts;
        return;
    }
    if (e->phase == 0)              /* before any client data: TLS 1.3 handshake, tickets */
        return;
    e->phase = 2;
    if (!is_marker_record(e, len))
        e->resp_markers_only = FALSE;
    overhead = record_overhead(e);
    e->cur.records++;
    e->cur.bytes += total;
    e->cur.tns_bytes += len > overhead ? len - overhead : 0;
    e->resp_last_time = pinfo->abs_ts;
    e->resp_last_frame = pinfo->num;
}

static void
add_estimate(tvbuff_t *tvb, proto_tree *tree, const tls_est_t *e, const sqlnet_est_rec_t *rec)
{
    proto_item *ti, *pi;
    proto_tree *t;

    ti = proto_tree_add_item(tree, hf_est, tvb, 0, 0, ENC_NA);
    proto_item_set_generated(ti);
    t = proto_item_add_subtree(ti, ett_est);
    proto_item_append_text(ti, ": round trip %u, %u records, %u bytes", rec->round_trip,
                           rec->records, rec->bytes);
    pi = proto_tree_add_uint(t, hf_est_round_trip, tvb, 0, 0, rec->round_trip);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_est_req_records, tvb, 0, 0, rec->req_records);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_est_req_bytes, tvb, 0, 0, rec->req_bytes);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_est_records, tvb, 0, 0, rec->records);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_est_bytes, tvb, 0, 0, rec->bytes);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_est_tns_bytes, tvb, 0, 0, rec->tns_bytes);
    proto_item_set_generated(pi);
    pi = proto_tree_add_time(t, hf_est_time, tvb, 0, 0, &rec->resp_time);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_est_tls_version, tvb, 0, 0, e->version ? e->version : 0x0303);
    proto_item_set_generated(pi);
}

/* Postdissector: hands a TLS port's conversation to the watch from its
 * first frame on (every frame: a port test, then one conversation lookup on
 * the TLS ports until the watch is set); on a later pass (tshark -2, the GUI)
 * shows an estimated round trip on the frame that ends its response. */
static int
dissect_tls_estimate(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
    conversation_t *conv;
    sqlnet_session_t *sess;
    tls_conv_t *c;

    if (pinfo->ptype != PT_TCP)
        return 0;
    if (!is_tls_port(pinfo->srcport) && !is_tls_port(pinfo->destport))
        return 0;
    if (PINFO_FD_VISITED(pinfo) ? !sqlnet_prefs()->tls_estimate : !proto_is_frame_protocol(pinfo->layers, "tls"))
        return 0;
    conv = find_conversation_pinfo(pinfo, 0);
    if (!conv)
        return 0;
    sess = (sqlnet_session_t *)conversation_get_proto_data(conv, proto_sqlnet_tls);
    c = sess ? sess->tls_est : NULL;
    if (!PINFO_FD_VISITED(pinfo) && (!c || !c->watch_set) && watch_handle && !(sess && sess->tls)) {
        /* its first TLS frame (the ClientHello, which TLS's heuristic took): TCP
         * asks the conversation's dissector first, the watch from the next
         * frame on.  A conversation that is not TLS (TNS on 1522, a TLS port
         * too) never gets it. */
        sess = session_get(pinfo);
        c = tls_conv(sess);
        c->watch_set = TRUE;
        conversation_set_dissector_from_frame_number(conv, pinfo->num + 1, watch_handle);
    }
    if (PINFO_FD_VISITED(pinfo) && c && c->est && !(sess && sess->tls)) {
        const sqlnet_est_rec_t *rec = (const sqlnet_est_rec_t *)wmem_tree_lookup32(c->est->by_frame, pinfo->num);
        if (rec && rec->round_trip) {
            add_estimate(tvb, tree, c->est, rec);
            tap_queue_packet(sqlnet_est_tap(), pinfo, rec);
        }
    }
    return 0;
}

/* TLS application data on any port: a TNS CONNECT (or ACCEPT) claims the TLS
 * session, so that its later records come to sqlnet without the heuristic. */
static sqlnet_heur_result_t
dissect_sqlnet_tls_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    dissector_handle_t *app_handle = SQLNET_TLS_APP_HANDLE(data);

    if (!tns_looks_like_handshake(tvb, pinfo))
        return FALSE;
    if (app_handle)
        *app_handle = sqlnet_tls_handle;
    dissect_sqlnet_tls(tvb, pinfo, tree, NULL);
    return TRUE;
}

void
sqlnet_tls_register(int proto)
{
    proto_sqlnet_tls = proto;
    static hf_register_info hf[] = {
        { &hf_est, { "SQL*Net (encrypted, estimated from TLS record sizes)", "sqlnet.tls_estimate",
            FT_NONE, BASE_NONE, NULL, 0x0,
            "A round trip of a TLS conversation on a TLS port without the secrets, estimated from "
            "the TLS record headers: not decoded, never counted with decoded round trips", HFILL } },
        { &hf_est_round_trip, { "Round trip (estimated)", "sqlnet.tls_estimate.round_trip",
            FT_UINT32, BASE_DEC, NULL, 0x0,
            "Client application-data records followed by server ones, after the CONNECT/ACCEPT exchange",
            HFILL } },
        { &hf_est_req_records, { "Client records", "sqlnet.tls_estimate.request_records",
            FT_UINT32, BASE_DEC, NULL, 0x0, "TLS application-data records of the request", HFILL } },
        { &hf_est_req_bytes, { "Client record bytes", "sqlnet.tls_estimate.request_bytes",
            FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "TLS application-data records of the request, 5-byte headers included", HFILL } },
        { &hf_est_records, { "Server records", "sqlnet.tls_estimate.records",
            FT_UINT32, BASE_DEC, NULL, 0x0, "TLS application-data records of the response", HFILL } },
        { &hf_est_bytes, { "Server record bytes", "sqlnet.tls_estimate.bytes",
            FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "TLS application-data records of the response, 5-byte headers included", HFILL } },
        { &hf_est_tns_bytes, { "TNS bytes (estimated)", "sqlnet.tls_estimate.tns_bytes",
            FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "The response's record bytes less the record headers and the cipher's per-record "
            "overhead (AEAD tag; TLS 1.3 inner type, TLS 1.2 explicit nonce)", HFILL } },
        { &hf_est_time, { "Response time (estimated)", "sqlnet.tls_estimate.time",
            FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "Last client record of the request to the last server record of the response", HFILL } },
        { &hf_est_tls_version, { "TLS version", "sqlnet.tls_estimate.tls_version",
            FT_UINT16, BASE_HEX, NULL, 0x0, "0x0304 when the ServerHello chose TLS 1.3", HFILL } },
        { &hf_undecrypted, { "TNS over TLS not decrypted (server port)", "sqlnet.tls.undecrypted",
            FT_UINT16, BASE_DEC, NULL, 0x0,
            "Once per TNS-over-TLS conversation that sqlnet cannot read (no TLS secrets), on the frame "
            "of the client's first application-data record (its TNS CONNECT): the server port", HFILL } },
    };
    static gint *ett[] = { &ett_est };
    static ei_register_info ei[] = {
        /* under 240 characters: Wireshark cuts an expert message there */
        { &ei_undecrypted, { "sqlnet.tls.undecrypted.expert", PI_DECRYPTION, PI_WARN,
            "TNS over TLS not decrypted: set Preferences > Protocols > TLS > (Pre)-Master-Secret log filename "
            "(tls.keylog_file); see 'Encrypted traffic' in " SQLNET_DOC_README "; "
            "or turn on sqlnet.tls_estimate to estimate it", EXPFILL } },
        { &ei_undecrypted_est, { "sqlnet.tls.undecrypted.estimated", PI_DECRYPTION, PI_WARN,
            "TNS over TLS not decrypted (estimated from TLS record sizes): to decode it, set Preferences > "
            "Protocols > TLS > (Pre)-Master-Secret log filename (tls.keylog_file); see 'Encrypted traffic' in "
            SQLNET_DOC_README, EXPFILL } },
    };
    expert_module_t *expert;

    proto_sqlnet_tls = proto;
    sqlnet_tls_handle = register_dissector(SQLNET_FILTER "_tls", dissect_sqlnet_tls, proto);
    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert = expert_register_protocol(proto);
    expert_register_field_array(expert, ei, array_length(ei));
    est_handle = create_dissector_handle(dissect_tls_estimate, proto);
    watch_handle = create_dissector_handle(dissect_tls_watch, proto);
}

void
sqlnet_tls_prefs_apply(void)
{
    tls_ports = prefs_get_range_value(SQLNET_FILTER, "tls.port");
}

void
sqlnet_tls_handoff(void)
{
    dissector_add_uint_range_with_preference("tls.port", SQLNET_TLS_DEFAULT_PORTS, sqlnet_tls_handle);
    tls_handle = find_dissector("tls");
    proto_tcp_id = proto_get_id_by_filter_name("tcp");
    if (!tls_handle)
        watch_handle = NULL;
    heur_dissector_add("tls", dissect_sqlnet_tls_heur, "Oracle SQL*Net over TLS (TNS CONNECT)",
                       "sqlnet_tls", proto_sqlnet_tls, HEURISTIC_ENABLE);
    register_postdissector(est_handle);
}
