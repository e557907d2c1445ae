/* lua_facts.c - the per-packet facts of the SQL*Net Advisor (lua/sqlnet_advise.lua)
 * besides its round trips, without a protocol tree.
 *
 * The advisor read them with Lua listeners (a display filter each) and
 * field extractors: tcp.stream, tcp.len, tcp.options.mss_val,
 * tcp.options.timestamp.tsval, tcp.analysis.ack_rtt,
 * tcp.analysis.zero_window, sqlnet.auth.value and sqlnet.tls.undecrypted.
 * Wireshark registers every Lua listener as needing the tree, so a run of
 * -z sqlnet,advise built a protocol tree for every packet (about the whole
 * of its cost over -z sqlnet,stmt).  The same facts come here from what the
 * dissectors keep for their taps, with no filter and no tree:
 *
 *   syn          tcp.flags.syn == 1: the frame's MSS and timestamps options
 *                (read from the TCP header's bytes: the option kinds 2 and 8
 *                with the lengths Wireshark decodes, 4 and 10)
 *   retrans      tcp.analysis.retransmission: TCP's analysis of the frame
 *                (struct tcp_acked flags: retransmission, fast, spurious)
 *   late_ack     tcp.len == 0 && tcp.analysis.ack_rtt >= 0.025 (the frame it
 *                acknowledges and the time since, as TCP shows them)
 *   window       tcp.analysis.zero_window || tcp.analysis.window_update
 *   segment      tls && tcp.len > 0
 *   auth         sqlnet.auth.value: what the values the decoder saw in the
 *                frame on the first pass name (ttc_auth_frame_drivers, ttc_auth.c)
 *   accept       sqlnet.type == 2: the frame whose ACCEPT set the session's
 *                accept_frame (tns_connect.c)
 *   undecrypted  sqlnet.tls.undecrypted: the estimate tap's notice
 *                (SQLNET_EST_TLS_UNDECRYPTED, tls.c)
 *
 * One record per frame and kind, in frame order, each with the frame's
 * tcp.stream (the first TCP header's); lua_records.c hands them to Lua.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/conversation.h>
#include <epan/to_str.h>
#include <epan/epan_dissect.h>
#include <epan/dissectors/packet-tcp.h>

#include "compat.h"
#include "sqlnet.h"
#include "session.h"
#include "estimate.h"
#include "ttc_msg.h"
#include "lua_facts.h"

/* TCP's analysis flags (packet-tcp.c TCP_A_*, the same in 4.0, 4.4 and 4.6) */
#define TCP_A_RETRANSMISSION          0x0001
#define TCP_A_ZERO_WINDOW             0x0020
#define TCP_A_FAST_RETRANSMISSION     0x0400
#define TCP_A_WINDOW_UPDATE           0x0800
#define TCP_A_SPURIOUS_RETRANSMISSION 0x4000

#define TCPOPT_EOL       0
#define TCPOPT_NOP       1
#define TCPOPT_MSS       2
#define TCPOPT_TIMESTAMP 8

struct lua_facts {
    GArray *facts;             /* lua_fact_t */
    int proto_tcp, proto_tls;
    guint32 tcp_frame;         /* the frame whose first TCP header was taken */
    gboolean listening;
    /* the listeners' identities */
    int tcp_key, est_key;
};

static const char *const kind_names[LUA_FACT_NKINDS] = {
    "syn", "retrans", "late_ack", "window", "segment", "auth", "accept", "undecrypted"
};

const char *
lua_fact_kind_name(guint kind)
{
    return kind < LUA_FACT_NKINDS ? kind_names[kind] : "?";
}

static lua_facts_t *
of_key(void *key, gsize offset)
{
    return (lua_facts_t *)(void *)((char *)key - offset);
}

static void
fact_clear(gpointer p)
{
    lua_fact_t *f = (lua_fact_t *)p;
    g_free(f->s1);
    g_free(f->s2);
}

lua_facts_t *
lua_facts_new(void)
{
    lua_facts_t *f = g_new0(lua_facts_t, 1);

    f->facts = g_array_new(FALSE, TRUE, sizeof(lua_fact_t));
    g_array_set_clear_func(f->facts, fact_clear);
    f->proto_tcp = proto_get_id_by_filter_name("tcp");
    f->proto_tls = proto_get_id_by_filter_name("tls");
    return f;
}

void
lua_facts_clear(lua_facts_t *f)
{
    g_array_set_size(f->facts, 0);
    f->tcp_frame = 0;
}

guint
lua_facts_count(const lua_facts_t *f)
{
    return f ? f->facts->len : 0;
}

const lua_fact_t *
lua_facts_get(const lua_facts_t *f, guint i)
{
    return f && i < f->facts->len ? &g_array_index(f->facts, lua_fact_t, i) : NULL;
}

/* Lua's pinfo.abs_ts (wslua_pinfo.c) */
static double
lua_abs_ts(const packet_info *pinfo)
{
    return (double)pinfo->abs_ts.secs + (double)pinfo->abs_ts.nsecs / 1000000000.0;
}

static lua_fact_t *
add_fact(lua_facts_t *f, guint8 kind, packet_info *pinfo, gboolean have_stream, gint64 stream)
{
    lua_fact_t rec;

    memset(&rec, 0, sizeof(rec));
    rec.kind = kind;
    rec.frame = pinfo->num;
    rec.t = lua_abs_ts(pinfo);
    rec.have_stream = have_stream;
    rec.stream = stream;
    rec.have_a = TRUE;           /* a SYN's MSS only when the option is there */
    g_array_append_val(f->facts, rec);
    return &g_array_index(f->facts, lua_fact_t, f->facts->len - 1);
}

/* tcp.stream of the frame's conversation (the estimate tap gives
 * no TCP header) */
static gboolean
frame_stream(const lua_facts_t *f, packet_info *pinfo, gint64 *stream)
{
    conversation_t *conv = find_conversation_pinfo(pinfo, 0);
    const struct tcp_analysis *tcpd;

    if (!conv || f->proto_tcp <= 0)
        return FALSE;
    tcpd = (const struct tcp_analysis *)conversation_get_proto_data(conv, f->proto_tcp);
    if (!tcpd)
        return FALSE;
    *stream = tcpd->stream;
    return TRUE;
}

/* The MSS and timestamps options of a SYN, from the TCP header in the
 * frame's bytes: the header is where its ports, raw sequence number and
 * header length are (a SYN is short: this runs on SYNs only). */
static void
syn_options(tvbuff_t *tvb, const struct tcpheader *th, lua_fact_t *rec)
{
    gint len = (gint)tvb_captured_length(tvb);
    gint o, p, end;

    if (th->th_hlen < 20)
        return;
    for (o = 0; o + (gint)th->th_hlen <= len; o++) {
        if (tvb_get_ntohs(tvb, o) != th->th_sport || tvb_get_ntohs(tvb, o + 2) != th->th_dport ||
            tvb_get_ntohl(tvb, o + 4) != th->th_rawseq || (tvb_get_uint8(tvb, o + 12) >> 4) * 4 != th->th_hlen)
            continue;
        end = o + th->th_hlen;
        for (p = o + 20; p < end;) {
            guint8 kind = tvb_get_uint8(tvb, p), olen;
            if (kind == TCPOPT_EOL)
                break;
            if (kind == TCPOPT_NOP) {
                p++;
                continue;
            }
            if (p + 1 >= end)
                break;
            olen = tvb_get_uint8(tvb, p + 1);
            if (olen < 2 || p + olen > end)
                break;
            if (kind == TCPOPT_MSS && olen == 4 && !rec->have_a) {
                rec->a = tvb_get_ntohs(tvb, p + 2);
                rec->have_a = TRUE;
            } else if (kind == TCPOPT_TIMESTAMP && olen == 10) {
                rec->b = 1;
            }
            p += olen;
        }
        return;
    }
}

/* ack_rtt as the advisor read it: tonumber(tostring(NSTime)), "%ld.%09d" */
static double
lua_nstime(const nstime_t *t)
{
    char buf[48];

    snprintf(buf, sizeof(buf), "%ld.%09d", (long)t->secs, t->nsecs);
    return g_ascii_strtod(buf, NULL);
}


static tap_packet_status
tcp_packet(void *key, packet_info *pinfo, epan_dissect_t *edt, const void *p, tap_flags_t flags _U_)
{
    lua_facts_t *f = of_key(key, G_STRUCT_OFFSET(lua_facts_t, tcp_key));
    const struct tcpheader *th = (const struct tcpheader *)p;
    const struct tcp_acked *ta = NULL;
    sqlnet_session_t *sess;
    conversation_t *conv;
    guint32 drivers;
    lua_fact_t *rec;
    gint64 stream;

    if (!th || f->tcp_frame == pinfo->num)
        return TAP_PACKET_DONT_REDRAW;
    f->tcp_frame = pinfo->num;
    stream = th->th_stream;
    if (th->th_flags & TH_SYN) {
        rec = add_fact(f, LUA_FACT_SYN, pinfo, TRUE, stream);
        rec->have_a = FALSE;
        if (edt && edt->tvb)
            syn_options(edt->tvb, th, rec);
    }
    /* TCP's analysis of this frame: tcpd->ta is the frame's (reset for each
     * segment, looked up again on a revisit) */
    conv = find_conversation(pinfo->num, &th->ip_src, &th->ip_dst, CONVERSATION_TCP, th->th_sport,
                             th->th_dport, 0);
    if (conv && f->proto_tcp > 0) {
        const struct tcp_analysis *tcpd =
            (const struct tcp_analysis *)conversation_get_proto_data(conv, f->proto_tcp);
        if (tcpd)
            ta = tcpd->ta;
    }
    if (ta && (ta->flags & (TCP_A_RETRANSMISSION | TCP_A_FAST_RETRANSMISSION | TCP_A_SPURIOUS_RETRANSMISSION)))
        add_fact(f, LUA_FACT_RETRANS, pinfo, TRUE, stream);
    if (ta && th->th_have_seglen && th->th_seglen == 0 && ta->frame_acked &&
        (ta->ts.secs || ta->ts.nsecs) && (ta->ts.secs > 0 || ta->ts.nsecs >= 25000000)) {
        rec = add_fact(f, LUA_FACT_LATE_ACK, pinfo, TRUE, stream);
        rec->x = lua_nstime(&ta->ts);
        rec->a = (guint32)pinfo->srcport * 65536u + pinfo->destport;
    }
    if (ta && (ta->flags & (TCP_A_ZERO_WINDOW | TCP_A_WINDOW_UPDATE))) {
        rec = add_fact(f, LUA_FACT_WINDOW, pinfo, TRUE, stream);
        rec->a = pinfo->srcport;
        rec->b = (ta->flags & TCP_A_ZERO_WINDOW) ? 1 : 0;
    }
    if (th->th_have_seglen && th->th_seglen > 0 && f->proto_tls > 0 &&
        proto_is_frame_protocol(pinfo->layers, "tls")) {
        rec = add_fact(f, LUA_FACT_SEGMENT, pinfo, TRUE, stream);
        rec->a = (guint32)pinfo->srcport * 65536u + pinfo->destport;
        rec->b = edt && edt->tvb ? tvb_captured_length(edt->tvb) : 0;
        rec->c = th->th_seglen;
    }
    /* the logon's values this frame carried: the drivers they name (the
     * decoder keeps them) */
    drivers = ttc_auth_frame_drivers(pinfo);
    if (drivers & TTC_AUTH_VALUES) {
        rec = add_fact(f, LUA_FACT_AUTH, pinfo, TRUE, stream);
        rec->a = (drivers & TTC_AUTH_DRIVER_JDBC ? LUA_FACT_DRIVER_JDBC : 0) |
                 (drivers & TTC_AUTH_DRIVER_GOORA ? LUA_FACT_DRIVER_GOORA : 0) |
                 (drivers & TTC_AUTH_DRIVER_NODE ? LUA_FACT_DRIVER_NODE : 0) |
                 (drivers & TTC_AUTH_DRIVER_PYTHON ? LUA_FACT_DRIVER_PYTHON : 0);
    }
    /* the ACCEPT of this frame (a session's accept_frame is the frame that
     * carried its ACCEPT) */
    sess = session_of_packet(pinfo, th->th_sport, th->th_dport);
    if (sess && session_frame_is(pinfo, sess->accept_frame, sess->accept_off)) {
        rec = add_fact(f, LUA_FACT_ACCEPT, pinfo, TRUE, stream);
        rec->s1 = address_to_display(NULL, &pinfo->src);
        rec->a = pinfo->srcport;
        rec->s2 = address_to_display(NULL, &pinfo->dst);
        rec->b = pinfo->destport;
    }
    return TAP_PACKET_DONT_REDRAW;
}


static tap_packet_status
est_packet(void *key, packet_info *pinfo, epan_dissect_t *edt _U_, const void *p, tap_flags_t flags _U_)
{
    lua_facts_t *f = of_key(key, G_STRUCT_OFFSET(lua_facts_t, est_key));
    const sqlnet_est_rec_t *e = (const sqlnet_est_rec_t *)p;
    lua_fact_t *rec;
    gint64 stream = -1;

    if (!e || e->kind != SQLNET_EST_TLS_UNDECRYPTED || !frame_stream(f, pinfo, &stream))
        return TAP_PACKET_DONT_REDRAW;
    rec = add_fact(f, LUA_FACT_UNDECRYPTED, pinfo, TRUE, stream);
    rec->a = e->port;
    return TAP_PACKET_DONT_REDRAW;
}

static void
facts_reset(void *key _U_)
{
    /* each listener's reset: the collector's lua_records.c clears the facts */
}

gboolean
lua_facts_start(lua_facts_t *f, char **err)
{
    static const struct {
        const char *tap;
        gsize key;
        tap_packet_cb packet;
    } taps[] = {
        { "tcp", G_STRUCT_OFFSET(lua_facts_t, tcp_key), tcp_packet },
        { SQLNET_EST_TAP, G_STRUCT_OFFSET(lua_facts_t, est_key), est_packet },
    };
    guint i, j;

    if (f->listening)
        return TRUE;
    for (i = 0; i < G_N_ELEMENTS(taps); i++) {
        GString *e = register_tap_listener(taps[i].tap, (char *)f + taps[i].key, NULL, TL_REQUIRES_NOTHING,
                                           facts_reset, taps[i].packet, NULL, NULL);
        if (e) {
            for (j = 0; j < i; j++)
                remove_tap_listener((char *)f + taps[j].key);
            if (err)
                *err = g_strdup(e->str);
            g_string_free(e, TRUE);
            return FALSE;
        }
    }
    f->listening = TRUE;
    return TRUE;
}

void
lua_facts_stop(lua_facts_t *f)
{
    if (f && f->listening) {
        remove_tap_listener(&f->tcp_key);
        remove_tap_listener(&f->est_key);
        f->listening = FALSE;
    }
}

void
lua_facts_free(lua_facts_t *f)
{
    if (!f)
        return;
    lua_facts_stop(f);
    g_array_free(f->facts, TRUE);
    g_free(f);
}
