/* ttc_negotiate.c - the session's negotiation: protocol (PRO, message 1)
 * and data types (DTY, message 2), request and reply.  What they settle
 * (field version, integer representations, end-of-response, pointer width)
 * is the dialect every later message is decoded in.
 *
 * python-oracledb messages/protocol.pyx and data_types.pyx, go-ora
 * v2/network/..., JDBC T4C8TTIpro and T4C8TTIdty.
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

void
ttc_msg_data_types_request(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
                           wmem_allocator_t *scope _U_)
{
    guint8 ccap_len, rcap_len, ccaps[64], rcaps[16];
    gint ccap_off, s;
    gboolean ub2_dty;
    ttc_dialect_t d = *r->d;
    guint32 n;
    guint16 rep_ub4 = 1, rep_sb1 = 10, rep_ptr = 1;

    res->is_call = TRUE;
    res->call.kind = TTC_REQ_DATA_TYPES;
    memset(ccaps, 0, sizeof(ccaps));
    memset(rcaps, 0, sizeof(rcaps));
    ttc_rd_u16le(r);                   /* charset */
    ttc_rd_u16le(r);                   /* ncharset */
    ttc_rd_u8(r);                      /* flags */
    ccap_len = ttc_rd_u8(r);
    ccap_off = r->off;
    if (ttc_rd_have(r, ccap_len))
        tvb_memcpy(r->tvb, ccaps, r->off, MIN(ccap_len, sizeof(ccaps)));
    ttc_rd_skip(r, ccap_len);
    rcap_len = ttc_rd_u8(r);
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
    for (n = 0; n < 4096 && ttc_rd_ok(r) && !d.structs; n++) {
        guint16 dty = ub2_dty ? ttc_rd_u16be(r) : ttc_rd_u8(r);
        guint16 conv, rep;
        if (!ttc_rd_ok(r) || dty == 0)
            break;
        conv = ub2_dty ? ttc_rd_u16be(r) : ttc_rd_u8(r);
        if (conv == 0)
            continue;
        rep = ub2_dty ? ttc_rd_u16be(r) : ttc_rd_u8(r);
        if (ub2_dty) {
            ttc_rd_u16be(r);
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
    }
}

void
ttc_msg_protocol_reply(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
                       wmem_allocator_t *scope)
{
    gint s = r->off, bs;
    guint8 ver;
    guint16 nelem, fdo_len;
    guint8 ccap_len, rcap_len;
    gint ccap_off;
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
    ttc_rd_skip(r, rcap_len);
    if (!ttc_rd_ok(r))
        return;
    if (ccap_len > TTC_CCAP_FIELD_VERSION) {
        guint8 fv = tvb_get_uint8(r->tvb, ccap_off + TTC_CCAP_FIELD_VERSION);
        res->dialect_update = TRUE;
        res->dialect = *r->d;
        res->dialect.fv_server = fv;
        if (ccap_len > TTC_CCAP_TTC3)
            res->dialect.server_ccap37 = tvb_get_uint8(r->tvb, ccap_off + TTC_CCAP_TTC3);
        if (tree)
            proto_item_set_generated(proto_tree_add_uint(tree, hf_field_version, r->tvb,
                                                         ccap_off + TTC_CCAP_FIELD_VERSION, 1, fv));
    }
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
    };

    proto_register_field_array(proto, hf, array_length(hf));
}
