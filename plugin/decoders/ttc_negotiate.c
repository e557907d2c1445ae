/* ttc_negotiate.c - the session's negotiation: protocol (PRO, message 1)
 * and data types (DTY, message 2), request and reply.  What they settle
 * (field version, integer representations, end-of-response, pointer width)
 * is the dialect every later message is decoded in.
 *
 * python-oracledb messages/protocol.pyx and data_types.pyx, go-ora
 * v2/network/..., JDBC T4C8TTIpro and T4C8TTIdty; JDBC's connection cookie
 * (message 30, T4CTTICookie), which replays an earlier PRO reply.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

static int hf_pro_platform = -1;
static int hf_dty_fv = -1;
static int hf_dty_eor = -1;
static int hf_pro_version = -1;
static int hf_pro_banner = -1;
static int hf_field_version = -1;
static int hf_cookie_version = -1;
static int hf_cookie_pro_version = -1;
static int hf_cookie_charset = -1;
static int hf_cookie_flags = -1;
static int hf_cookie_ncharset = -1;
static int hf_cookie_platform = -1;
static int hf_cookie_ccaps = -1;
static int hf_cookie_rcaps = -1;
static int hf_cookie_fv = -1;

void
ttc_msg_protocol_request(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
                         wmem_allocator_t *scope)
{
    gint s, i;
    const char *platform;

    for (i = 0; ttc_rd_ok(r) && ttc_rd_u8(r) != 0; i++)
        if (i > 64) { r->bad = TRUE; return; }
    s = r->off;
    for (i = 0; ttc_rd_ok(r) && ttc_rd_u8(r) != 0; i++)
        if (i > 1024) { r->bad = TRUE; return; }
    if (!ttc_rd_ok(r))
        return;
    platform = (const char *)tvb_get_string_enc(scope, r->tvb, s, r->off - s - 1, ENC_UTF_8);
    if (tree)
        proto_tree_add_string(tree, hf_pro_platform, r->tvb, s, r->off - s, platform);
    /* Remember the client's pointer width for a same-platform session (DTY
     * without a type table), where pointers travel in their native size:
     * "IBMPC/WIN_NT-8.1.0" is 32-bit Windows (4-byte pointers such as
     * 1c c4 29 06 in its OALL8); x86_64, AMD64, aarch64, "-64bit" are 64-bit. */
    res->dialect_update = TRUE;
    res->dialect = *r->d;
    res->dialect.pro_ptr_width = strstr(platform, "64") ? 8 : 4;
    res->is_call = TRUE;
    res->call.kind = TTC_REQ_PROTOCOL;
}

/* Representation code -> native width. */
static guint8
rep_width(guint16 rep, guint8 fallback)
{
    switch (rep) {
    case 1:  return 0;                 /* universal */
    case 10: return 1;                 /* Oracle: a presence byte (SQL*Plus 11.2, 32-bit Linux) */
    case 12: return 8;                 /* 64-bit pointer */
    default: return fallback;
    }
}

/* The type table's ub2 entries (some 1,300 per logon) read from one view of
 * the bytes left instead of one bounds-checked tvb read each.  A ub2 the view
 * does not hold goes through ttc_rd_u16be(): past the message's end it sets
 * need_more, past the captured bytes it throws, as every read did before. */
typedef struct {
    const guint8 *p;          /* the bytes [from, to) of the reader's tvb */
    gint from, to;
} dty_view_t;

static void
dty_view_init(dty_view_t *v, ttc_rd_t *r)
{
    gint left = ttc_rd_left(r), avail = tvb_captured_length_remaining(r->tvb, r->off);

    v->from = v->to = r->off;
    v->p = NULL;
    if (left > 0 && avail > 0) {
        v->p = tvb_get_ptr(r->tvb, r->off, MIN(left, avail));
        v->to = r->off + MIN(left, avail);
    }
}

static inline guint16
dty_u16(ttc_rd_t *r, const dty_view_t *v)
{
    guint16 u;

    if (!ttc_rd_ok(r) || r->off < v->from || r->off + 2 > v->to)
        return ttc_rd_u16be(r);
    u = (guint16)(v->p[r->off - v->from] << 8 | v->p[r->off - v->from + 1]);
    r->off += 2;
    return u;
}

void
ttc_msg_data_types_request(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
                           wmem_allocator_t *scope _U_)
{
    guint8 ccap_len, rcap_len, ccaps[64], rcaps[16], flags;
    gint ccap_off, rcap_off, s;
    gboolean ub2_dty;
    ttc_dialect_t d = *r->d;
    guint32 n;
    guint16 rep_ub4 = 1, rep_sb1 = 10, rep_ptr = 1;
    dty_view_t view = { NULL, 0, 0 };

    res->is_call = TRUE;
    res->call.kind = TTC_REQ_DATA_TYPES;
    memset(ccaps, 0, sizeof(ccaps));
    memset(rcaps, 0, sizeof(rcaps));
    ttc_rd_u16le(r);                   /* charset */
    ttc_rd_u16le(r);                   /* ncharset */
    flags = ttc_rd_u8(r);              /* encoding flags */
    d.chr_form = (flags & TTC_DTY_CONV_LENGTH) ? TTC_CHR_DALC : TTC_CHR_BARE;
    ccap_len = ttc_rd_u8(r);
    ccap_off = r->off;
    if (ttc_rd_have(r, ccap_len))
        tvb_memcpy(r->tvb, ccaps, r->off, MIN(ccap_len, sizeof(ccaps)));
    ttc_rd_skip(r, ccap_len);
    rcap_len = ttc_rd_u8(r);
    rcap_off = r->off;
    if (ttc_rd_have(r, rcap_len))
        tvb_memcpy(r->tvb, rcaps, r->off, MIN(rcap_len, sizeof(rcaps)));
    ttc_rd_skip(r, rcap_len);
    if (!ttc_rd_ok(r))
        return;
    if (rcap_len > TTC_RCAP_TTC && (rcaps[TTC_RCAP_TTC] & TTC_RCAP_TTC_TIME_ZONE)) {
        /* The time-zone file version travels only when both sides support it
         * (in fast authentication the client has not seen the server's caps). */
        gboolean tz_version = ccap_len > TTC_CCAP_TTC3 && (ccaps[TTC_CCAP_TTC3] & TTC_CCAP_TZ_VERSION) &&
                              (d.fv_server == 0 || (d.server_ccap37 & TTC_CCAP_TZ_VERSION));
        ttc_rd_skip(r, 11);            /* client time zone */
        if (tz_version)
            ttc_rd_skip(r, 4);         /* time-zone file version */
        /* National character set: SQL*Plus 10.2 (wsSC frame 21) sends it;
         * SQL*Plus 9.0 (field version 1, visblank 9i session frame 48) ends
         * its DTY with the time zone. */
        if (ccap_len > TTC_CCAP_FIELD_VERSION && ccaps[TTC_CCAP_FIELD_VERSION] >= TTC_FV_9_2)
            ttc_rd_skip(r, 2);
        /* The server answers with its own time zone (and version). */
        d.dty_reply_prefix = 11 + (tz_version ? 4 : 0);
    } else {
        d.dty_reply_prefix = 0;
    }
    ub2_dty = ccap_len > TTC_CCAP_UB2_DTY && ccaps[TTC_CCAP_UB2_DTY] != 0;
    /* No type table at all: client and server share a platform (SQL*Plus
     * 10.2 on 32-bit Windows against a Windows server, wsSC frame 21 ends
     * with the time zone "80 00 00 00 3c 3c 3c 80 00 00 00" and ncharset
     * "d0 07").  Both sides then use their in-memory representations:
     * little-endian ub2/ub4, native pointers, and padded structs from the
     * server.  (A DTY cut by a TNS packet boundary exactly here would be
     * taken for this; the 69-byte message never is.) */
    d.structs = ttc_rd_left(r) == 0;
    if (ub2_dty && !d.structs)
        dty_view_init(&view, r);
    for (n = 0; n < 4096 && ttc_rd_ok(r) && !d.structs; n++) {
        guint16 dty = ub2_dty ? dty_u16(r, &view) : ttc_rd_u8(r);
        guint16 conv, rep;
        if (!ttc_rd_ok(r) || dty == 0)
            break;
        conv = ub2_dty ? dty_u16(r, &view) : ttc_rd_u8(r);
        if (conv == 0)
            continue;
        rep = ub2_dty ? dty_u16(r, &view) : ttc_rd_u8(r);
        if (ub2_dty) {
            dty_u16(r, &view);
        } else {
            /* u8 entries: natively represented primitives (OCI 10g) carry
             * extra bytes up to the entry's zero terminator. */
            guint k;
            for (k = 0; k < 8 && ttc_rd_ok(r) && ttc_rd_u8(r) != 0; k++)
                ;
        }
        switch (dty) {
        case 26: rep_ub4 = rep; break;
        case 27: rep_sb1 = rep; break;
        case 32: rep_ptr = rep; break;
        default: break;
        }
    }
    if (n >= 4096)
        r->bad = TRUE;
    if (!ttc_rd_ok(r))
        return;

    d.fv_client = ccap_len > TTC_CCAP_FIELD_VERSION ? ccaps[TTC_CCAP_FIELD_VERSION] : 0;
    d.fv = d.fv_server ? MIN(d.fv_client, d.fv_server) : d.fv_client;
    d.big_chunk = ccap_len > TTC_CCAP_TTC3 && (ccaps[TTC_CCAP_TTC3] & TTC_CCAP_BIG_CHUNK_CLR);
    d.eor = ccap_len > TTC_CCAP_TTC4 && (ccaps[TTC_CCAP_TTC4] & TTC_CCAP_END_OF_RESPONSE);
    d.call_status = ccap_len > TTC_CCAP_TTC1 && (ccaps[TTC_CCAP_TTC1] & TTC_CCAP_END_OF_CALL_STATUS);
    /* sb1 as a universal integer: go-ora and JDBC 12c+ ask for it; servers
     * send TTC 8.x clients raw bytes whatever they asked. */
    d.sb1_universal = rep_sb1 == 1 && d.fv_client >= TTC_FV_11_2;
    /* Integers are native when ub4 (type 26) is not universal.  ub2's own
     * entry (type 25) changes nothing: a native ub2 is two bytes, and the
     * clients declare ub2 and ub4 alike (python-oracledb, node-oracledb and
     * go-ora both universal, OCI both native). */
    d.native = rep_ub4 != 1 || d.structs;
    d.ub2_width = 2;
    d.ub4_width = 4;
    /* Native pointers are one byte before field version 4 (OCI 10.1). */
    d.ptr_width = d.fv_client < TTC_FV_10_1 ? 1 : rep_width(rep_ptr, 4);
    if (d.structs)
        d.ptr_width = d.pro_ptr_width ? d.pro_ptr_width : 4;
    d.known = TRUE;
    d.ub2_dty = ub2_dty;
    res->dialect_update = TRUE;
    res->dialect = d;
    if (tree) {
        s = ccap_off + TTC_CCAP_FIELD_VERSION;
        if (ccap_len > TTC_CCAP_FIELD_VERSION)
            proto_item_set_generated(proto_tree_add_uint(tree, hf_dty_fv, r->tvb, s, 1, d.fv_client));
        if (ccap_len > TTC_CCAP_TTC4)
            proto_item_set_generated(proto_tree_add_boolean(tree, hf_dty_eor, r->tvb, ccap_off + TTC_CCAP_TTC4,
                                                            1, d.eor));
        ttc_caps_add_compile(tree, r->tvb, ccap_off, ccap_len);
        ttc_caps_add_runtime(tree, r->tvb, rcap_off, rcap_len);
    }
}

/* The server's compile-time capabilities (its PRO reply, or a JDBC cookie
 * echoing one): the field version and TTC3 byte the dialect takes from them;
 * hf shows the field version where it was read. */
static void
server_caps_learnt(ttc_rd_t *r, proto_tree *tree, ttc_msg_result_t *res, gint ccap_off, guint ccap_len, int hf)
{
    guint8 fv;

    if (ccap_len <= TTC_CCAP_FIELD_VERSION)
        return;
    fv = tvb_get_uint8(r->tvb, ccap_off + TTC_CCAP_FIELD_VERSION);
    res->dialect_update = TRUE;
    res->dialect = *r->d;
    res->dialect.fv_server = fv;
    if (ccap_len > TTC_CCAP_TTC3)
        res->dialect.server_ccap37 = tvb_get_uint8(r->tvb, ccap_off + TTC_CCAP_TTC3);
    if (tree)
        proto_item_set_generated(proto_tree_add_uint(tree, hf, r->tvb, ccap_off + TTC_CCAP_FIELD_VERSION, 1, fv));
}

void
ttc_msg_protocol_reply(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
                       wmem_allocator_t *scope)
{
    gint s = r->off, bs;
    guint8 ver;
    guint16 nelem, fdo_len;
    guint8 ccap_len, rcap_len;
    gint ccap_off, rcap_off;
    char *banner;
    gint i;

    ver = ttc_rd_u8(r);
    ttc_add_uint(tree, hf_pro_version, r, s, ver);
    ttc_rd_u8(r);
    bs = r->off;
    for (i = 0; ttc_rd_ok(r) && ttc_rd_u8(r) != 0; i++)
        if (i > 1024) { r->bad = TRUE; return; }
    if (!ttc_rd_ok(r))
        return;
    banner = (char *)tvb_get_string_enc(scope, r->tvb, bs, r->off - bs - 1, ENC_UTF_8);
    if (tree)
        proto_tree_add_string(tree, hf_pro_banner, r->tvb, bs, r->off - bs, banner);
    ttc_rd_u16le(r);                  /* charset */
    ttc_rd_u8(r);                     /* flags */
    nelem = ttc_rd_u16le(r);
    ttc_rd_skip(r, nelem * 5);
    fdo_len = ttc_rd_u16be(r);
    ttc_rd_skip(r, fdo_len);
    ccap_len = ttc_rd_u8(r);
    ccap_off = r->off;
    ttc_rd_skip(r, ccap_len);
    rcap_len = ttc_rd_u8(r);
    rcap_off = r->off;
    ttc_rd_skip(r, rcap_len);
    if (!ttc_rd_ok(r))
        return;
    server_caps_learnt(r, tree, res, ccap_off, ccap_len, hf_field_version);
    ttc_caps_add_compile(tree, r->tvb, ccap_off, ccap_len);
    ttc_caps_add_runtime(tree, r->tvb, rcap_off, rcap_len);
    res->terminal = TRUE;
}

void
ttc_msg_data_types_reply(ttc_rd_t *r, proto_tree *tree _U_, ttc_state_t *st, ttc_msg_result_t *res,
                         wmem_allocator_t *scope _U_)
{
    gboolean wide = r->d->ub2_dty;
    guint32 n;

    if (!st->dialect->known) {
        r->bad = TRUE;                /* the client's DTY (its layout) was not seen */
        return;
    }
    /* [server time zone] then (type, conversion type[, representation, 0])
     * entries until a zero type; u16 or u8 values as the client's DTY chose. */
    ttc_rd_skip(r, r->d->dty_reply_prefix);
    /* Same-platform session: no table, the time zone is all (wsSC frame 22). */
    if (r->d->structs && ttc_rd_ok(r) && ttc_rd_left(r) == 0) {
        res->terminal = TRUE;
        return;
    }
    for (n = 0; n < 4096 && ttc_rd_ok(r); n++) {
        guint16 dty = wide ? ttc_rd_u16be(r) : ttc_rd_u8(r);
        if (!ttc_rd_ok(r) || dty == 0)
            break;
        if ((wide ? ttc_rd_u16be(r) : ttc_rd_u8(r)) != 0)
            ttc_rd_skip(r, wide ? 4 : 2);
    }
    if (n >= 4096)
        r->bad = TRUE;
    res->terminal = TRUE;
}

/* Connection cookie (message 30, client): ojdbc 23 keeps the PRO reply of
 * a database's first session (keyed by the 16-byte database id of the
 * ACCEPT, TNS >= 319) and sends it back after its PRO request on every later
 * connection to that database, followed by its DTY and the OSESSKEY call in
 * the same request.  Layout from ojdbc 23.26 T4CTTICookie.marshal (javap):
 * sb1 cookie version (1), ub1 protocol version, ub2 charset in native order
 * (marshalNativeUB2: little-endian, as the PRO reply has it), ub1 charset
 * flags, ub2 ncharset (native), ub1 length of the server's platform string
 * + 1, the string, sb1 0, ub1 length + server compile-time capabilities,
 * ub1 length + runtime capabilities.  Before the DTY every integer is a raw
 * byte.  The server's field version (compile-time capability 7) is learnt
 * from it as from a PRO reply: the DTY and the call that follow need it. */
void
ttc_msg_cookie_request(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
                       wmem_allocator_t *scope)
{
    gint s = r->off, ccap_off, rcap_off;
    guint8 version, pro_ver, flags, plen, ccap_len, rcap_len;
    guint16 charset, ncharset;

    version = ttc_rd_u8(r);
    ttc_add_uint(tree, hf_cookie_version, r, s, version);
    if (ttc_rd_ok(r) && version != 1) {
        r->bad = TRUE;                 /* the only version ojdbc 23.26 writes */
        return;
    }
    s = r->off; pro_ver = ttc_rd_u8(r); ttc_add_uint(tree, hf_cookie_pro_version, r, s, pro_ver);
    s = r->off; charset = ttc_rd_u16le(r); ttc_add_uint(tree, hf_cookie_charset, r, s, charset);
    s = r->off; flags = ttc_rd_u8(r); ttc_add_uint(tree, hf_cookie_flags, r, s, flags);
    s = r->off; ncharset = ttc_rd_u16le(r); ttc_add_uint(tree, hf_cookie_ncharset, r, s, ncharset);
    plen = ttc_rd_u8(r);
    if (ttc_rd_ok(r) && plen == 0) {
        r->bad = TRUE;                 /* at least the terminator's count */
        return;
    }
    s = r->off;
    ttc_rd_skip(r, plen - 1);
    if (tree && ttc_rd_ok(r))
        proto_tree_add_string(tree, hf_cookie_platform, r->tvb, s, plen - 1,
                              (const char *)tvb_get_string_enc(scope, r->tvb, s, plen - 1, ENC_UTF_8));
    if (ttc_rd_u8(r) != 0 && ttc_rd_ok(r)) {
        r->bad = TRUE;                 /* the sb1 0 after the string */
        return;
    }
    ccap_len = ttc_rd_u8(r);
    ccap_off = r->off;
    ttc_rd_skip(r, ccap_len);
    if (tree && ttc_rd_ok(r))
        proto_tree_add_item(tree, hf_cookie_ccaps, r->tvb, ccap_off, ccap_len, ENC_NA);
    rcap_len = ttc_rd_u8(r);
    rcap_off = r->off;
    ttc_rd_skip(r, rcap_len);
    if (!ttc_rd_ok(r))
        return;
    if (tree)
        proto_tree_add_item(tree, hf_cookie_rcaps, r->tvb, rcap_off, rcap_len, ENC_NA);
    server_caps_learnt(r, tree, res, ccap_off, ccap_len, hf_cookie_fv);
    ttc_caps_add_compile(tree, r->tvb, ccap_off, ccap_len);
    ttc_caps_add_runtime(tree, r->tvb, rcap_off, rcap_len);
}

void
ttc_negotiate_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_pro_platform, { "Client platform", "sqlnet.pro.client", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_dty_fv, { "Client TTC field version", "sqlnet.dty.field_version", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_dty_eor, { "Client asks for end-of-response", "sqlnet.dty.end_of_response", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_pro_version, { "Protocol version", "sqlnet.pro.version", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_pro_banner, { "Platform", "sqlnet.pro.platform", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_field_version, { "TTC field version", "sqlnet.ttc.field_version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 7 (6 = 11.2, 7 = 12.1, 12 = 19c, 24 = 23.4)", HFILL } },
        { &hf_cookie_version, { "Cookie version", "sqlnet.cookie.version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "JDBC connection cookie (message 30): its layout version", HFILL } },
        { &hf_cookie_pro_version, { "Server protocol version", "sqlnet.cookie.protocol_version", FT_UINT8,
            BASE_DEC, NULL, 0x0, "The protocol version of the PRO reply the cookie keeps", HFILL } },
        { &hf_cookie_charset, { "Server character set", "sqlnet.cookie.charset", FT_UINT16, BASE_DEC, NULL, 0x0,
            "Database character set id of the PRO reply the cookie keeps (873 = AL32UTF8)", HFILL } },
        { &hf_cookie_flags, { "Server charset flags", "sqlnet.cookie.charset_flags", FT_UINT8, BASE_HEX, NULL,
            0x0, NULL, HFILL } },
        { &hf_cookie_ncharset, { "Server national character set", "sqlnet.cookie.ncharset", FT_UINT16, BASE_DEC,
            NULL, 0x0, "National character set id (2000 = AL16UTF16)", HFILL } },
        { &hf_cookie_platform, { "Server platform", "sqlnet.cookie.platform", FT_STRING, BASE_NONE, NULL, 0x0,
            "The platform string of the PRO reply the cookie keeps", HFILL } },
        { &hf_cookie_ccaps, { "Server compile-time capabilities", "sqlnet.cookie.compile_caps", FT_BYTES,
            BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cookie_rcaps, { "Server runtime capabilities", "sqlnet.cookie.runtime_caps", FT_BYTES, BASE_NONE,
            NULL, 0x0, NULL, HFILL } },
        { &hf_cookie_fv, { "Server TTC field version", "sqlnet.cookie.field_version", FT_UINT8, BASE_DEC, NULL,
            0x0, "Compile-time capability 7 of the cookie: the dialect of the DTY and call that follow", HFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
    ttc_caps_register(proto);
}
