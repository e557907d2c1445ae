/* follow.c - a SQL*Net conversation as a transcript: Wireshark's follow
 * stream API (epan/follow.h) on the "sqlnet_follow" tap.  Each round trip
 * becomes two records: the client's call (its frame, time, call, statement
 * text or rows asked, the bind values sent, the logon's user and program)
 * and the server's answer (rows with the first rows' values, TNS packets,
 * response time, the ORA error and its message).  The first record of a
 * stream carries a header: tcp.stream, TNS version, SDU and TDU as
 * negotiated, the connect descriptor.  Text from rt_text.c, numbers from the
 * record, values as the decoders show them (ttc_values.c's text).
 *
 * Where it shows: tshark -z follow,sqlnet,ascii,N (4.0, 4.4, 4.6; N is
 * tcp.stream) and, from 4.4 on, Analyze > Follow > SQL*Net Stream (4.0's
 * Follow menu lists only the built-in protocols).
 *
 * The values are not in the round-trip record: while a Follow listener runs
 * (have_tap_listener on the follow tap, and only then), the tree of each
 * DATA packet is kept visible so the decoders' items are built, and
 * follow_packet_end reads the connect descriptor (sqlnet.connect.data, or
 * the CONNECT's bytes), the logon (sqlnet.auth.user, sqlnet.auth.program),
 * the bind values (sqlnet.bind.value) and the rows (sqlnet.row /
 * sqlnet.row.value) into the conversation's follow state; the round trip's
 * tap record takes them when its callback runs (after its frame).  Plain
 * dissection, and every other tap, pay one have_tap_listener() per packet.
 * Bind and row values follow sqlnet.show_bind_values: with it off the
 * decoders add no value items and the transcript says the values are hidden.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>
#include <glib.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/follow.h>
#include <epan/addr_resolv.h>
#include <epan/to_str.h>
#include <epan/conversation.h>
#include <epan/proto_data.h>
#include <epan/dissectors/packet-tcp.h>

#include "compat.h"
#include "sqlnet.h"
#include "sqlnet_rt.h"
#include "rt_text.h"
#include "follow.h"

static int proto_tcp_id = -1;
static int proto_follow = -1;      /* sqlnet's: the packet's mark below */
static int tap_follow = -1;

/* pinfo->pool mark of a packet whose tree follow_packet_begin made visible
 * (follow_packet_end puts it back). */
#define FOLLOW_KEY_VISIBLE 0x466f6c6c

/* The items follow_packet_end reads, by name (registered by the layers
 * below; looked up once a Follow listener runs). */
static int hf_connect_data = -1, hf_auth_user = -1, hf_auth_program = -1;
static int hf_bind_value = -1, hf_row = -1, hf_row_value = -1;

#define FOLLOW_ROWS_SHOWN   5      /* rows with their values per response */
#define FOLLOW_BINDS_SHOWN  20     /* bind values per call */
#define FOLLOW_TEXT_MAX     240    /* characters of a row or a descriptor */

typedef enum {
    FOLLOW_BIND,                   /* one bind value: "Bind 1 value: 42" */
    FOLLOW_ROW                     /* one row: "ID: 1, NAME: 'x'" */
} follow_value_kind_t;

typedef struct {
    guint32 frame;
    follow_value_kind_t kind;
    GString *text;
} follow_value_t;

/* Per conversation (sqlnet_session_t.follow), while a Follow listener runs. */
struct sqlnet_follow_conv {
    char *descriptor;              /* the CONNECT's connect data */
    char *user, *program;          /* the logon (OAUTH's key/values) */
    guint32 logon_frame;           /* the frame that carried them */
    GPtrArray *values;             /* follow_value_t *, frame order, waiting for their round trip */
    guint32 rows_waiting, binds_waiting;
};

typedef struct {
    const sqlnet_rt_t *rt;
    struct sqlnet_follow_conv *fc;
} follow_event_t;

static void
value_free(gpointer p)
{
    follow_value_t *v = (follow_value_t *)p;
    g_string_free(v->text, TRUE);
    g_free(v);
}

static sqlnet_wmem_cb_result_t
follow_conv_free(wmem_allocator_t *allocator _U_, wmem_cb_event_t event _U_, void *user_data)
{
    struct sqlnet_follow_conv *fc = (struct sqlnet_follow_conv *)user_data;
    g_ptr_array_free(fc->values, TRUE);
    return FALSE;
}

static struct sqlnet_follow_conv *
follow_conv(sqlnet_session_t *sess)
{
    if (!sess->follow) {
        sess->follow = wmem_new0(wmem_file_scope(), struct sqlnet_follow_conv);
        sess->follow->values = g_ptr_array_new_with_free_func(value_free);
        wmem_register_callback(wmem_file_scope(), follow_conv_free, sess->follow);
    }
    return sess->follow;
}

static int
field_id(int *hf, const char *name)
{
    if (*hf <= 0)
        *hf = proto_registrar_get_id_byname(name);
    return *hf;
}

gboolean
follow_listening(void)
{
    return tap_follow >= 0 && have_tap_listener(tap_follow);
}

void
follow_packet_begin(packet_info *pinfo, proto_tree *tns_tree)
{
    if (!tns_tree || !follow_listening())
        return;
    /* the items are built, not skipped, until the packet ends */
    if (!proto_tree_set_visible(tns_tree, TRUE))
        p_add_proto_data(pinfo->pool, pinfo, proto_follow, FOLLOW_KEY_VISIBLE, GUINT_TO_POINTER(1));
}

/* A string once per conversation, in file scope (kept while equal). */
static void
keep_string(char **dst, const char *text)
{
    if (text && (!*dst || strcmp(*dst, text) != 0))
        *dst = wmem_strdup(wmem_file_scope(), text);
}

/* A string item's value (its label need not exist). */
static void
keep_item_value(char **dst, const field_info *fi)
{
    char *w = fvalue_to_string_repr(NULL, SQLNET_FI_VALUE(fi), FTREPR_DISPLAY, BASE_NONE);

    if (w && *w)
        keep_string(dst, w);
    wmem_free(NULL, w);
}

static void
append_cut(GString *s, const char *text, gsize max)
{
    glong n = g_utf8_validate(text, -1, NULL) ? g_utf8_strlen(text, -1) : (glong)strlen(text);

    if (n > (glong)max && g_utf8_validate(text, -1, NULL)) {
        const char *end = g_utf8_offset_to_pointer(text, (glong)max);
        g_string_append_len(s, text, end - text);
        g_string_append(s, "...");
    } else {
        g_string_append(s, text);
    }
}

static follow_value_t *
value_new(struct sqlnet_follow_conv *fc, guint32 frame, follow_value_kind_t kind)
{
    follow_value_t *v = g_new0(follow_value_t, 1);

    v->frame = frame;
    v->kind = kind;
    v->text = g_string_new(NULL);
    g_ptr_array_add(fc->values, v);
    return v;
}

/* One item of the packet's tree (follow_packet_end's walk). */
static void
note_item(struct sqlnet_follow_conv *fc, packet_info *pinfo, const field_info *fi, follow_value_t **row)
{
    int id = fi->hfinfo->id;

    if (id == hf_row) {
        *row = NULL;
        if (!sqlnet_prefs()->show_bind_values)
            return;                   /* the row's values are hidden */
        if (fc->rows_waiting < FOLLOW_ROWS_SHOWN)
            *row = value_new(fc, pinfo->num, FOLLOW_ROW);
        fc->rows_waiting++;
        return;
    }
    if (id == hf_row_value || id == hf_bind_value) {
        /* the decoders' text for a person ("NAME: 'x'", "Bind 1 value: 42") */
        const char *text = fi->rep ? fi->rep->representation : NULL;
        gboolean cut;
        if (!text)
            return;
        /* Wireshark marks a label it cut at its length ("[truncated]" in
         * 4.0, an ellipsis in later releases): the marks out, "..." after */
        {
            static const char *const marks[] = { "[truncated]", "[\xe2\x80\xa6]" };
            GString *t = NULL;
            guint m;
            for (m = 0; m < G_N_ELEMENTS(marks); m++) {
                const char *at;
                while ((at = strstr(t ? t->str : text, marks[m])) != NULL) {
                    gssize pos;
                    if (!t) {
                        pos = at - text;
                        t = g_string_new(text);
                    } else {
                        pos = at - t->str;
                    }
                    g_string_erase(t, pos, (gssize)strlen(marks[m]));
                }
            }
            if (g_str_has_suffix(t ? t->str : text, "\xe2\x80\xa6")) {   /* an ellipsis at the end */
                if (!t)
                    t = g_string_new(text);
                g_string_truncate(t, t->len - 3);
            }
            cut = t != NULL;
            if (t) {
                g_strstrip(t->str);
                text = wmem_strdup(pinfo->pool, t->str);
                g_string_free(t, TRUE);
            }
        }
        if (id == hf_bind_value) {
            if (fc->binds_waiting++ < FOLLOW_BINDS_SHOWN) {
                GString *b = value_new(fc, pinfo->num, FOLLOW_BIND)->text;
                append_cut(b, text, FOLLOW_TEXT_MAX);
                if (cut && b->len < FOLLOW_TEXT_MAX)
                    g_string_append(b, "...");
            }
        } else if (*row && (*row)->text->len < FOLLOW_TEXT_MAX) {
            if ((*row)->text->len)
                g_string_append((*row)->text, ", ");
            append_cut((*row)->text, text, FOLLOW_TEXT_MAX);
            if (cut || (*row)->text->len >= FOLLOW_TEXT_MAX)
                g_string_append((*row)->text, ", ...");
        }
    } else if (id == hf_connect_data) {
        keep_item_value(&fc->descriptor, fi);
    } else if (id == hf_auth_user || id == hf_auth_program) {
        /* the first frame that names them (phase one of the logon), told
         * once; a pass from the start again (a retap) starts over */
        if (fc->logon_frame && pinfo->num > fc->logon_frame)
            return;
        fc->logon_frame = pinfo->num;
        keep_item_value(id == hf_auth_user ? &fc->user : &fc->program, fi);
    }
}

/* The CONNECT's connect data from its bytes (its item is not built in a
 * tree nobody looks at; a descriptor sent apart is read from its item). */
static void
note_connect_descriptor(struct sqlnet_follow_conv *fc, tvbuff_t *tvb, packet_info *pinfo)
{
    guint32 len, off;

    if (tvb_captured_length(tvb) < 28)
        return;
    len = tvb_get_ntohs(tvb, 24);
    off = tvb_get_ntohs(tvb, 26);
    if (len == 0 || off < 28 || !tvb_bytes_exist(tvb, off, len))
        return;
    keep_string(&fc->descriptor, (const char *)tvb_get_string_enc(pinfo->pool, tvb, off, len, ENC_ASCII));
}

void
follow_packet_end(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tns_tree, sqlnet_session_t *sess)
{
    struct sqlnet_follow_conv *fc;
    proto_node *n;
    follow_value_t *row = NULL;

    if (!follow_listening())
        return;
    fc = follow_conv(sess);
    if (pinfo->num == sess->connect_frame && tvb_captured_length(tvb) > 4 &&
        tvb_get_uint8(tvb, 4) == 1 /* CONNECT */)
        note_connect_descriptor(fc, tvb, pinfo);
    if (!tns_tree)
        return;
    if (p_get_proto_data(pinfo->pool, pinfo, proto_follow, FOLLOW_KEY_VISIBLE)) {
        proto_tree_set_visible(tns_tree, FALSE);   /* as the caller made it (the walk reads what is built) */
        p_remove_proto_data(pinfo->pool, pinfo, proto_follow, FOLLOW_KEY_VISIBLE);
    }
    field_id(&hf_connect_data, "sqlnet.connect.data");
    field_id(&hf_auth_user, "sqlnet.auth.user");
    field_id(&hf_auth_program, "sqlnet.auth.program");
    field_id(&hf_bind_value, "sqlnet.bind.value");
    field_id(&hf_row, "sqlnet.row");
    field_id(&hf_row_value, "sqlnet.row.value");
    /* every item under the packet's tree, in order (no recursion) */
    n = tns_tree->first_child;
    while (n) {
        if (n->finfo && n->finfo->hfinfo)
            note_item(fc, pinfo, n->finfo, &row);
        if (n->first_child) {
            n = n->first_child;
            continue;
        }
        while (n != tns_tree && !n->next)
            n = n->parent;
        if (n == tns_tree)
            break;
        n = n->next;
    }
}

void
follow_queue_round_trip(packet_info *pinfo, sqlnet_session_t *sess, const sqlnet_rt_t *rt)
{
    follow_event_t *ev;

    if (!follow_listening())
        return;
    ev = wmem_new(pinfo->pool, follow_event_t);
    ev->rt = rt;
    ev->fc = follow_conv(sess);
    tap_queue_packet(tap_follow, pinfo, ev);
}

/* "[    0.017588] " : seconds since the first packet, as the Time column. */
static void
stamp(GString *s, packet_info *pinfo, nstime_t t)
{
    nstime_t first, rel;

    nstime_delta(&first, &pinfo->abs_ts, &pinfo->rel_ts);
    nstime_delta(&rel, &t, &first);
    g_string_append_printf(s, "[%13.6f] ", nstime_to_sec(&rel));
}

static void
record_add(follow_info_t *fi, gboolean is_server, guint32 frame, nstime_t ts, GString *text)
{
    follow_record_t *rec = g_new0(follow_record_t, 1);

    rec->is_server = is_server;
    rec->packet_num = frame;
    rec->abs_ts = ts;
    rec->data = g_byte_array_sized_new((guint)text->len);
    g_byte_array_append(rec->data, (const guint8 *)text->str, (guint)text->len);
    fi->bytes_written[is_server ? 1 : 0] += (guint)text->len;
    fi->payload = g_list_prepend(fi->payload, rec);
}

/* The waiting values of frames from..to, in order; older ones are dropped
 * (their round trip was not published), later ones stay. */
static void
take_values(GString *s, struct sqlnet_follow_conv *fc, follow_value_kind_t kind, guint32 from, guint32 to,
            const char *indent)
{
    guint i = 0, taken = 0;

    while (i < fc->values->len) {
        follow_value_t *v = (follow_value_t *)g_ptr_array_index(fc->values, i);
        if (v->kind != kind || v->frame > to) {
            i++;
            continue;
        }
        if (v->frame >= from) {
            taken++;
            if (kind == FOLLOW_ROW)
                g_string_append_printf(s, "%srow %u: %s\n", indent, taken, v->text->str);
            else
                g_string_append_printf(s, "%s%s\n", indent, v->text->str);
        }
        g_ptr_array_remove_index(fc->values, i);
    }
    if (kind == FOLLOW_ROW)
        fc->rows_waiting = 0;
    else
        fc->binds_waiting = 0;
}

static void
request_text(GString *s, const sqlnet_rt_t *rt, packet_info *pinfo, struct sqlnet_follow_conv *fc)
{
    char *req = rt_text_request(rt, 0), *group = rt_text_group(rt);
    guint32 from = rt->req->first_frame ? rt->req->first_frame : rt->req->frame;

    stamp(s, pinfo, ttc_req_last_time(rt->req));
    g_string_append_printf(s, "%s\n", req);
    g_string_append_printf(s, "    (%s, frame %u)\n", group, rt->req->frame);
    if (fc && fc->logon_frame >= from && fc->logon_frame <= rt->req->frame && (fc->user || fc->program))
        g_string_append_printf(s, "    logon: user %s, program %s\n", fc->user ? fc->user : "(not sent)",
                               fc->program ? fc->program : "(not sent)");
    if (rt->req->call.bind_values) {
        g_string_append_printf(s, "    binds: %u values sent", rt->req->call.bind_values);
        if (!sqlnet_prefs()->show_bind_values)
            g_string_append(s, " (values hidden: preference sqlnet.show_bind_values is off)");
        else if (rt->req->call.bind_values > FOLLOW_BINDS_SHOWN)
            g_string_append_printf(s, " (the first %u shown)", FOLLOW_BINDS_SHOWN);
        g_string_append_c(s, '\n');
    }
    if (fc)
        take_values(s, fc, FOLLOW_BIND, from, rt->req->frame, "      ");
    g_free(req);
    g_free(group);
}

static void
response_text(GString *s, const sqlnet_rt_t *rt, packet_info *pinfo, struct sqlnet_follow_conv *fc)
{
    char *resp = rt_text_response(rt);
    GString *rows = g_string_new(NULL);
    guint32 shown;

    stamp(s, pinfo, ttc_resp_last_time(rt->resp));
    g_string_append_printf(s, "%s\n", resp);
    if (sqlnet_rt_has_ora_error(rt) && rt->resp->ora_message && *rt->resp->ora_message)
        g_string_append_printf(s, "    %s\n", rt->resp->ora_message);
    if (fc)
        take_values(rows, fc, FOLLOW_ROW, rt->resp->first_frame, pinfo->num, "    ");
    shown = 0;
    for (gsize i = 0; i < rows->len; i++)
        shown += rows->str[i] == '\n';
    g_string_append(s, rows->str);
    if (rt->resp->rows > 0 && !sqlnet_prefs()->show_bind_values)
        g_string_append(s, "    (row values hidden: preference sqlnet.show_bind_values is off)\n");
    else if (shown > 0 && rt->resp->rows > shown)
        g_string_append_printf(s, "    ... %u more %s\n", rt->resp->rows - shown,
                               rt->resp->rows - shown == 1 ? "row" : "rows");
    g_string_free(rows, TRUE);
    g_free(resp);
}

static tap_packet_status
follow_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *data, tap_flags_t flags _U_)
{
    follow_info_t *fi = (follow_info_t *)tapdata;
    const follow_event_t *ev = (const follow_event_t *)data;
    const sqlnet_rt_t *rt = ev ? ev->rt : NULL;
    GString *s;

    if (!fi || !rt || !rt->resp)
        return TAP_PACKET_DONT_REDRAW;
    if (fi->client_port == 0 && fi->server_port == 0) {
        /* published on a packet of the response: the server sent it */
        copy_address(&fi->server_ip, &pinfo->src);
        fi->server_port = pinfo->srcport;
        copy_address(&fi->client_ip, &pinfo->dst);
        fi->client_port = pinfo->destport;
    }
    s = g_string_new(NULL);
    if (fi->bytes_written[0] == 0 && fi->bytes_written[1] == 0) {
        g_string_append_printf(s, "SQL*Net conversation, tcp.stream %u", rt->tcp_stream);
        if (rt->negotiated)
            g_string_append_printf(s, ", TNS version %u, SDU %u, TDU %u", rt->negotiated_version,
                                   rt->negotiated_sdu, rt->negotiated_tdu);
        g_string_append(s, "\n");
        if (ev->fc && ev->fc->descriptor) {
            g_string_append(s, "connect descriptor: ");
            append_cut(s, ev->fc->descriptor, 4 * FOLLOW_TEXT_MAX);
            g_string_append(s, "\n");
        }
    }
    if (rt->req) {
        request_text(s, rt, pinfo, ev->fc);
        record_add(fi, FALSE, rt->req->frame, ttc_req_last_time(rt->req), s);
        g_string_truncate(s, 0);
    }
    response_text(s, rt, pinfo, ev->fc);
    record_add(fi, TRUE, pinfo->num, pinfo->abs_ts, s);
    g_string_free(s, TRUE);
    return TAP_PACKET_REDRAW;
}

/* tcp.stream of the packet's conversation, if TCP saw it. */
static gboolean
packet_stream(packet_info *pinfo, guint *stream)
{
    conversation_t *conv = find_conversation_pinfo(pinfo, 0);
    const struct tcp_analysis *tcpd;

    if (proto_tcp_id <= 0)
        proto_tcp_id = proto_get_id_by_filter_name("tcp");
    if (!conv || proto_tcp_id <= 0)
        return FALSE;
    tcpd = (const struct tcp_analysis *)conversation_get_proto_data(conv, proto_tcp_id);
    if (!tcpd)
        return FALSE;
    *stream = tcpd->stream;
    return TRUE;
}

static gchar *
follow_conv_filter(epan_dissect_t *edt _U_, packet_info *pinfo, guint *stream, guint *sub_stream _U_)
{
    if (!proto_is_frame_protocol(pinfo->layers, SQLNET_FILTER) || !packet_stream(pinfo, stream))
        return NULL;
    return g_strdup_printf(SQLNET_FILTER " && tcp.stream eq %u", *stream);
}

static gchar *
follow_index_filter(guint stream, guint sub_stream _U_)
{
    return g_strdup_printf(SQLNET_FILTER " && tcp.stream eq %u", stream);
}

static gchar *
follow_address_filter(address *src_addr, address *dst_addr, int src_port, int dst_port)
{
    const char *ip = src_addr->type == AT_IPv6 ? "ipv6" : "ip";
    char *src = address_to_str(NULL, src_addr), *dst = address_to_str(NULL, dst_addr);
    gchar *f = g_strdup_printf(SQLNET_FILTER " && ((%s.src eq %s && tcp.srcport eq %d && %s.dst eq %s && "
                               "tcp.dstport eq %d) || (%s.src eq %s && tcp.srcport eq %d && %s.dst eq %s && "
                               "tcp.dstport eq %d))",
                               ip, src, src_port, ip, dst, dst_port, ip, dst, dst_port, ip, src, src_port);
    wmem_free(NULL, src);
    wmem_free(NULL, dst);
    return f;
}

static gchar *
follow_port_to_display(wmem_allocator_t *allocator, guint port)
{
    return wmem_strdup_printf(allocator, "%u", port);
}

#if SQLNET_FOLLOW_HAS_STREAM_COUNT
static uint32_t
follow_stream_count(void)
{
    return get_tcp_stream_count();
}
#else
#define follow_stream_count NULL
#endif

void
follow_register(int proto)
{
    proto_follow = proto;
    tap_follow = register_tap(SQLNET_FOLLOW_TAP_NAME);
    SQLNET_REGISTER_FOLLOW_STREAM(proto, SQLNET_FOLLOW_TAP_NAME, follow_conv_filter, follow_index_filter,
                                  follow_address_filter, follow_port_to_display, follow_packet, follow_stream_count);
}
