/* ttc_calls.c - client TTC messages: function calls and piggybacks,
 * protocol and data-type negotiation, fast authentication.
 *
 * A call is decoded as far as the facts this plugin reports (function,
 * cursor, rows asked for, SQL text, options); bind and define data that
 * follow an execute are shown as call data, not walked.  Authentication
 * shows the user and key names, never secret values.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc.h"

#define MAX_AL8I4     64
#define MAX_PAIRS     256
#define MAX_CURSORS   65536

static int hf_func = -1;
static int hf_seq = -1;
static int hf_piggyback = -1;
static int hf_fetch_rows = -1;
static int hf_options = -1;
static int hf_opt_parse = -1;
static int hf_opt_bind = -1;
static int hf_opt_define = -1;
static int hf_opt_execute = -1;
static int hf_opt_fetch = -1;
static int hf_opt_commit = -1;
static int hf_opt_plsql_bind = -1;
static int hf_opt_not_plsql = -1;
static int hf_opt_describe = -1;
static int hf_prefetch = -1;
static int hf_exec_count = -1;
static int hf_is_query = -1;
static int hf_exec_flags = -1;
static int hf_num_binds = -1;
static int hf_num_defines = -1;
static int hf_iters = -1;
static int hf_close_cursor = -1;
static int hf_user = -1;
static int hf_auth_key = -1;
static int hf_auth_value = -1;
static int hf_pro_platform = -1;
static int hf_dty_fv = -1;
static int hf_dty_eor = -1;
static int hf_e2e_module = -1;
static int hf_client_features = -1;
static int hf_e2e_action = -1;
static int hf_e2e_client_id = -1;
static int hf_bind = -1;
static int hf_define = -1;
static int hf_lob_prefetch = -1;
static int hf_fetch_orientation = -1;
static int hf_fetch_pos = -1;
static int hf_lob_op = -1;
static int hf_lob_locator = -1;
static int hf_bind_type = -1;
static int hf_bind_flags = -1;
static int hf_bind_size = -1;
static int hf_bind_elements = -1;
static int hf_bind_csfrm = -1;
static int hf_returning_binds = -1;

static gint ett_call = -1;
static gint ett_options = -1;
static gint ett_bind = -1;

static int * const option_bits[] = {
    &hf_opt_parse, &hf_opt_bind, &hf_opt_define, &hf_opt_execute, &hf_opt_fetch,
    &hf_opt_commit, &hf_opt_plsql_bind, &hf_opt_not_plsql, &hf_opt_describe, NULL
};

/* Key names whose values are not secrets and help to identify a session. */
static const char *const shown_keys[] = {
    "AUTH_TERMINAL", "AUTH_PROGRAM_NM", "AUTH_MACHINE", "AUTH_PID", "AUTH_SID",
    "AUTH_CONNECT_STRING", "AUTH_COPYRIGHT", "AUTH_ACL", "AUTH_LOGICAL_SESSION_ID",
    "AUTH_FAILOVER_ID", "SESSION_CLIENT_CHARSET", "SESSION_CLIENT_LIB_TYPE",
    "SESSION_CLIENT_DRIVER_NAME", "SESSION_CLIENT_VERSION", "SESSION_CLIENT_LOBATTR",
    "AUTH_ALTER_SESSION", NULL
};

static gboolean
key_is_shown(const char *key)
{
    guint i;
    for (i = 0; shown_keys[i]; i++)
        if (strcmp(key, shown_keys[i]) == 0)
            return TRUE;
    return FALSE;
}

#define SPAN(r, start) (start), ((r)->off - (start))

static void
add_uint(proto_tree *tree, int hf, ttc_rd_t *r, gint start, guint32 v)
{
    if (tree && ttc_rd_ok(r))
        proto_tree_add_uint(tree, hf, r->tvb, SPAN(r, start), v);
}

/* SQL text of an OALL8: a DALC for most clients, raw bytes for JDBC.  The
 * al8i4 vector that follows starts with 1 (parse), which tells the two apart. */
static const char *
read_sql(ttc_rd_t *r, guint32 sql_len, gint *start, gint *len, wmem_allocator_t *scope)
{
    ttc_rd_t as_dalc = *r;
    const char *sql = ttc_rd_dalc_str(&as_dalc, scope, start, len);

    if (ttc_rd_ok(&as_dalc)) {
        ttc_rd_t probe = as_dalc;
        if (ttc_rd_ub4(&probe) == 1 && ttc_rd_ok(&probe)) {
            *r = as_dalc;
            return sql;
        }
    }
    if (sql_len > 0 && sql_len < 0x1000000 && ttc_rd_left(r) >= (gint)sql_len) {
        ttc_rd_t probe = *r;
        probe.off += sql_len;
        if (ttc_rd_ub4(&probe) == 1 && ttc_rd_ok(&probe)) {
            *start = r->off;
            *len = sql_len;
            sql = (const char *)tvb_get_string_enc(scope, r->tvb, r->off, sql_len, ENC_UTF_8);
            r->off += sql_len;
            return sql;
        }
    }
    /* OCI's native layouts differ between releases and platforms in the
     * fields before the text (no open implementation writes them): look
     * around for a DALC of at most sql_len bytes of text followed by
     * al8i4[0] = 1 (parse). */
    if (r->d->native && sql_len > 0) {
        gint k;
        for (k = -32; k <= 64; k++) {
            ttc_rd_t at = *r, probe;
            const char *text;
            gint ts, tl;
            if (k == 0 || r->off + k < 0)
                continue;
            at.off += k;
            if (!ttc_rd_have(&at, 2))
                break;
            if (tvb_get_uint8(at.tvb, at.off) == 0 || tvb_get_uint8(at.tvb, at.off) > sql_len)
                continue;
            text = ttc_rd_dalc_str(&at, scope, &ts, &tl);
            if (!ttc_rd_ok(&at) || !text || tl < 1 || !g_ascii_isalpha(text[0]))
                continue;
            probe = at;
            if (ttc_rd_ub4(&probe) == 1 && ttc_rd_ok(&probe)) {
                *start = ts;
                *len = tl;
                *r = at;
                return text;
            }
        }
    }
    /* Neither probe fits (short data): fall back on the DALC reading. */
    *r = as_dalc;
    return sql;
}

#define MAX_BINDS 4096

/* Bind metadata of an execute (one entry per bind, before the values):
 * python-oracledb messages/base.pyx _write_column_metadata, go-ora
 * v2/parameter.go ParameterInfo.write, JDBC T4CTTIoac.marshal:
 *   type u8, flags u8, precision u8, scale (u8; JDBC: ub2 for NUMBER,
 *   TIMESTAMP*, INTERVAL DS - the same byte when 0 in the universal
 *   encoding), buffer size ub4, max array elements ub4, continuation flags
 *   (ub8; go-ora: ub4 before field version 10 - the same bytes universally),
 *   type OID (ub4 length, then the bytes with a length when not 0),
 *   type version ub2 (python: ub4 with an OID), charset ub2, charset form
 *   u8, max characters ub4 (JDBC: from field version 2), and from field
 *   version 8 (12.2: python, go-ora, JDBC) the collation id ub4.
 * Decoded on a copy of the reader: a layout that does not fit (OCI's
 * native encodings, which no open client writes) leaves the call as it was.
 * Returns the binds (the reader then past them), or NULL. */
static const ttc_describe_t *
decode_bind_metadata(ttc_rd_t *from, proto_tree *tree, guint32 nbinds, gboolean defines,
                     wmem_allocator_t *scope)
{
    ttc_rd_t r = *from, shown;
    ttc_describe_t *b;
    guint32 i;

    if (nbinds == 0 || nbinds > MAX_BINDS || r.d->native)
        return NULL;
    b = wmem_new0(scope, ttc_describe_t);
    b->ncols = nbinds;
    b->kind = TTC_ROWS_OUT_BINDS;
    b->cols = wmem_alloc0_array(scope, ttc_column_t, nbinds);
    for (i = 0; i < nbinds && ttc_rd_ok(&r); i++) {
        ttc_column_t *c = &b->cols[i];
        guint32 toid;
        c->type = ttc_rd_u8(&r);
        c->bind_flags = ttc_rd_u8(&r);
        ttc_rd_u8(&r);                          /* precision */
        ttc_rd_ub2(&r);                         /* scale */
        c->buffer_size = ttc_rd_ub4(&r);
        ttc_rd_ub4(&r);                         /* max array elements */
        c->lob_prefetch = (ttc_rd_ub8(&r) & TTC_LOB_PREFETCH_FLAG) ? 1 : 0;   /* continuation flags */
        toid = ttc_rd_ub4(&r);
        if (toid > 0 && ttc_rd_ok(&r))
            ttc_rd_dalc(&r, NULL);              /* type OID */
        ttc_rd_ub4(&r);                         /* type version */
        ttc_rd_ub2(&r);                         /* charset */
        c->csfrm = ttc_rd_u8(&r);
        if (ttc_rd_ub4(&r) > 0 && c->lob_prefetch)  /* max characters: a LOB's prefetch size */
            c->lob_prefetch = 2;
        if (r.d->fv >= TTC_FV_12_2)
            ttc_rd_ub4(&r);                     /* collation id */
    }
    /* What follows is a row of values (07) or, for returning-only binds,
     * nothing more of this call; anything else means the layout is wrong. */
    if (!ttc_rd_ok(&r) || (ttc_rd_left(&r) > 0 && tvb_get_uint8(r.tvb, r.off) != TTC_MSG_ROW_DATA &&
                           tvb_get_uint8(r.tvb, r.off) != TTC_MSG_PIGGYBACK &&
                           tvb_get_uint8(r.tvb, r.off) != TTC_MSG_FUNCTION))
        return NULL;
    if (tree) {
        shown = *from;
        for (i = 0; i < nbinds; i++) {
            ttc_column_t *c = &b->cols[i];
            gint s = shown.off, bs, e;
            proto_item *bi;
            proto_tree *bt;
            guint32 elements;
            ttc_rd_u8(&shown);
            ttc_rd_u8(&shown);
            ttc_rd_u8(&shown);
            ttc_rd_ub2(&shown);
            bs = shown.off;
            ttc_rd_ub4(&shown);
            e = shown.off;
            elements = ttc_rd_ub4(&shown);
            ttc_rd_ub8(&shown);
            if (ttc_rd_ub4(&shown) > 0)
                ttc_rd_dalc(&shown, NULL);
            ttc_rd_ub4(&shown);
            ttc_rd_ub2(&shown);
            ttc_rd_u8(&shown);
            ttc_rd_ub4(&shown);
            if (shown.d->fv >= TTC_FV_12_2)
                ttc_rd_ub4(&shown);
            bi = proto_tree_add_item(tree, defines ? hf_define : hf_bind, shown.tvb, s, shown.off - s, ENC_NA);
            proto_item_append_text(bi, " %u: %s, %u bytes%s", i + 1,
                                   val_to_str_const(c->type, ttc_ora_type_vals, "type"),
                                   c->buffer_size, (c->bind_flags & TTC_BIND_FLAG_ARRAY) ? ", array" : "");
            bt = proto_item_add_subtree(bi, ett_bind);
            proto_tree_add_uint(bt, hf_bind_type, shown.tvb, s, 1, c->type);
            proto_tree_add_uint(bt, hf_bind_flags, shown.tvb, s + 1, 1, c->bind_flags);
            proto_tree_add_uint(bt, hf_bind_size, shown.tvb, bs, e - bs, c->buffer_size);
            if (c->bind_flags & TTC_BIND_FLAG_ARRAY)
                proto_tree_add_uint(bt, hf_bind_elements, shown.tvb, e, 1, elements);
            proto_tree_add_uint(bt, hf_bind_csfrm, shown.tvb, s, shown.off - s, c->csfrm);
            if (c->lob_prefetch)
                proto_tree_add_uint(bt, hf_lob_prefetch, shown.tvb, s, shown.off - s, c->lob_prefetch);
        }
    }
    from->off = r.off;                  /* the metadata is part of the call */
    return b;
}

/* DML RETURNING ... INTO: the binds after INTO are return binds, whose
 * values come back as rows (python-oracledb statement.pyx: a DML statement
 * with the keyword RETURNING then INTO; every placeholder after it is a
 * return bind).  Quoted text and comments are skipped. */
static guint32
returning_bind_count(const char *sql)
{
    const char *p = sql;
    gboolean dml = FALSE, returning = FALSE, into = FALSE, first = TRUE;
    guint32 n = 0;

    if (!sql)
        return 0;
    while (*p) {
        if (*p == '\'' || *p == '"') {
            char q = *p++;
            while (*p && *p != q)
                p++;
            if (*p)
                p++;
        } else if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (g_ascii_isalpha(*p)) {
            const char *w = p;
            size_t len;
            while (g_ascii_isalnum(*p) || *p == '_' || *p == '$' || *p == '#')
                p++;
            len = (size_t)(p - w);
            if (first) {
                dml = (len == 6 && (g_ascii_strncasecmp(w, "INSERT", 6) == 0 ||
                                    g_ascii_strncasecmp(w, "UPDATE", 6) == 0 ||
                                    g_ascii_strncasecmp(w, "DELETE", 6) == 0)) ||
                      (len == 5 && g_ascii_strncasecmp(w, "MERGE", 5) == 0);
                if (!dml)
                    return 0;
                first = FALSE;
            } else if (len == 9 && g_ascii_strncasecmp(w, "RETURNING", 9) == 0) {
                returning = TRUE;
            } else if (returning && len == 4 && g_ascii_strncasecmp(w, "INTO", 4) == 0) {
                into = TRUE;
            }
        } else if (*p == ':' && into && (g_ascii_isalnum(p[1]) || p[1] == '_' || p[1] == '"')) {
            n++;
            p++;
        } else {
            p++;
        }
    }
    return n;
}

static void
decode_oall8(ttc_rd_t *r, proto_tree *tree, ttc_request_t *call, ttc_msg_result_t *res,
             wmem_allocator_t *scope)
{
    const ttc_dialect_t *d = r->d;
    guint32 sql_ptr, sql_len, al8i4_len, nbinds, ndefines, i;
    guint32 al8i4[MAX_AL8I4];
    gint s, ss = 0, sl = 0;
    const char *sql = NULL;

    s = r->off;
    call->options = ttc_rd_ub4(r);
    if (tree && ttc_rd_ok(r))
        proto_tree_add_bitmask_value(tree, r->tvb, s, hf_options, ett_options, option_bits, call->options);
    s = r->off; call->cursor = ttc_rd_ub4(r); add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
    call->has_cursor = TRUE;
    sql_ptr = ttc_rd_ptr(r);
    sql_len = ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* al8i4 */
    al8i4_len = ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* al8o4 */
    ttc_rd_ptr(r);                     /* al8o4l */
    ttc_rd_ub4(r);                     /* prefetch buffer size */
    s = r->off; call->prefetch = ttc_rd_ub4(r); add_uint(tree, hf_prefetch, r, s, call->prefetch);
    ttc_rd_ub4(r);                     /* max LONG size */
    ttc_rd_ptr(r);                     /* binds */
    s = r->off; nbinds = ttc_rd_ub4(r); add_uint(tree, hf_num_binds, r, s, nbinds);
    for (i = 0; i < 5; i++)
        ttc_rd_ptr(r);                 /* al8app, al8txn, al8txl, al8kv, al8kvl */
    ttc_rd_ptr(r);                     /* defines */
    s = r->off; ndefines = ttc_rd_ub4(r); add_uint(tree, hf_num_defines, r, s, ndefines);
    /* Fields added release by release (field versions seen on the wire). */
    if (d->fv >= TTC_FV_10_1) {
        ttc_rd_ub4(r);                 /* registration id (LSB) */
        ttc_rd_ptr(r);                 /* al8objlist */
        ttc_rd_ptr(r);                 /* al8objlen */
    }
    if (d->fv >= TTC_FV_10_2) {
        ttc_rd_ptr(r);                 /* al8blv */
        ttc_rd_ub4(r);                 /* al8blvl */
        ttc_rd_ptr(r);                 /* al8dnam */
        ttc_rd_ub4(r);                 /* al8dnaml */
        ttc_rd_ub4(r);                 /* registration id (MSB) */
    }
    /* DML returning row counts: go-ora (v2/command.go basicWrite) writes them
     * from TTC field version 7 (12.1) on, and it is the one open client that
     * talks to 11.2 servers (python and node write them always, from 12.1
     * only).  SQL*Plus 11.2 at field version 6 does not: its OALL8 header
     * is 67 bytes, ending with the registration id (visblank 11.2 session
     * frame 1184, whose long-form SQL text follows right after; reading
     * these three fields there put the text 6 bytes off). */
    if (d->fv >= TTC_FV_12_1) {
        ttc_rd_ptr(r);                 /* al8pidmlrc */
        ttc_rd_ub4(r);                 /* al8pidmlrcbl */
        ttc_rd_ptr(r);                 /* al8pidmlrcl */
    }
    if (d->fv >= TTC_FV_12_2) {
        ttc_rd_ptr(r);                 /* al8sqlsig */
        ttc_rd_ub4(r);
        ttc_rd_ptr(r);                 /* SQL id */
        ttc_rd_ub4(r);
        ttc_rd_ptr(r);
    }
    if (d->fv >= TTC_FV_12_2_EXT1) {
        ttc_rd_ptr(r);                 /* chunk ids */
        ttc_rd_ub4(r);
    }
    if (!ttc_rd_ok(r))
        return;
    if (al8i4_len > MAX_AL8I4) {
        r->bad = TRUE;
        return;
    }
    if (sql_ptr || (sql_len > 0 && call->cursor == 0)) {
        sql = read_sql(r, sql_len, &ss, &sl, scope);
        if (tree && sql && ttc_rd_ok(r))
            proto_tree_add_string(tree, hf_ttc_sql, r->tvb, ss, sl, sql);
    }
    memset(al8i4, 0, sizeof(al8i4));
    s = r->off;
    for (i = 0; i < al8i4_len && ttc_rd_ok(r); i++)
        al8i4[i] = ttc_rd_ub4(r);
    if (!ttc_rd_ok(r))
        return;
    call->sql = sql;
    call->exec_count = al8i4[1];
    /* al8i4[7]: thin drivers send 1 for a query; OCI sends its statement
     * type, where 1 is SELECT (6 DROP, 4 INSERT ...). */
    call->is_query = al8i4_len > 7 && al8i4[7] == 1;
    call->exec_flags = al8i4_len > 9 ? al8i4[9] : 0;
    if (call->exec_flags & TTC_EXEC_FLAG_SCROLLABLE) {
        call->fetch_orientation = al8i4_len > 10 ? al8i4[10] : 0;
        call->fetch_pos = al8i4_len > 11 ? al8i4[11] : 0;
    }
    if (tree) {
        proto_tree_add_uint(tree, hf_exec_count, r->tvb, s, r->off - s, call->exec_count);
        proto_tree_add_boolean(tree, hf_is_query, r->tvb, s, r->off - s, call->is_query);
        proto_tree_add_uint(tree, hf_exec_flags, r->tvb, s, r->off - s, call->exec_flags);
        if (call->exec_flags & TTC_EXEC_FLAG_SCROLLABLE) {
            proto_tree_add_uint(tree, hf_fetch_orientation, r->tvb, s, r->off - s, call->fetch_orientation);
            proto_tree_add_uint(tree, hf_fetch_pos, r->tvb, s, r->off - s, call->fetch_pos);
        }
    }
    /* Rows this call asks for now. */
    if (call->is_query || (call->options & TTC_OPT_FETCH)) {
        call->has_fetch_rows = TRUE;
        if ((call->options & TTC_OPT_FETCH) && !(call->options & TTC_OPT_EXECUTE))
            call->fetch_rows = call->exec_count;      /* fetch-only call (SQL*Plus 10g) */
        else if (call->cursor != 0 && call->exec_count > 0)
            call->fetch_rows = call->exec_count;      /* re-execute of an open cursor */
        else
            call->fetch_rows = call->prefetch;
    }
    /* Bind metadata then values (or define metadata) follow: the bind
     * metadata is decoded (the server's out-bind values are laid out by it),
     * the values are shown as call data. */
    if (nbinds > 0 && ndefines == 0) {
        call->binds = decode_bind_metadata(r, tree, nbinds, FALSE, scope);
        call->returning_binds = returning_bind_count(sql);
        if (call->returning_binds > nbinds)
            call->returning_binds = 0;
        if (tree && call->returning_binds)
            proto_item_set_generated(proto_tree_add_uint(tree, hf_returning_binds, r->tvb, r->off, 0,
                                                         call->returning_binds));
    }
    /* Define metadata (a query's second call when it has LOB columns, or a
     * REF cursor's first fetch): the same layout; what the rows' LOB values
     * then carry follows from it. */
    if (ndefines > 0 && nbinds == 0)
        call->defines = decode_bind_metadata(r, tree, ndefines, TRUE, scope);
    if (nbinds > 0 || ndefines > 0)
        res->stop = TRUE;
}

static void
decode_auth(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope)
{
    guint32 user_ptr, user_len, npairs, i;
    gint s, l;

    user_ptr = ttc_rd_ptr(r);
    user_len = ttc_rd_ub4(r);
    ttc_rd_ub4(r);                     /* auth mode */
    ttc_rd_ptr(r);
    npairs = ttc_rd_ub4(r);
    ttc_rd_ptr(r);
    ttc_rd_ptr(r);
    if (!ttc_rd_ok(r))
        return;
    if (npairs > MAX_PAIRS) {
        r->bad = TRUE;
        return;
    }
    if (user_ptr && user_len > 0) {
        const char *user = NULL;
        guint8 first = ttc_rd_have(r, 1) ? tvb_get_uint8(r->tvb, r->off) : 0;
        if (first == user_len || first == 0xFE) {
            user = ttc_rd_dalc_str(r, scope, &s, &l);
        } else if (user_len <= 1024 && ttc_rd_have(r, (gint)user_len)) {
            /* JDBC writes the user name without a length byte. */
            s = r->off;
            l = (gint)user_len;
            user = (const char *)tvb_get_string_enc(scope, r->tvb, s, l, ENC_UTF_8);
            r->off += l;
        } else if (user_len > 1024) {
            r->bad = TRUE;
        }
        if (tree && user && ttc_rd_ok(r))
            proto_tree_add_string(tree, hf_user, r->tvb, s, l, user);
    }
    for (i = 0; i < npairs && ttc_rd_ok(r); i++) {
        const char *key = NULL, *value = NULL;
        gint ks = 0, kl = 0, vs = 0, vl = 0;
        if (ttc_rd_ub4(r) > 0)
            key = ttc_rd_dalc_str(r, scope, &ks, &kl);
        if (ttc_rd_ub4(r) > 0)
            value = ttc_rd_dalc_str(r, scope, &vs, &vl);
        ttc_rd_ub4(r);                 /* flags */
        if (!tree || !ttc_rd_ok(r) || !key)
            continue;
        proto_tree_add_string(tree, hf_auth_key, r->tvb, ks, kl, key);
        if (value && key_is_shown(key))
            proto_tree_add_string(tree, hf_auth_value, r->tvb, vs, vl, value);
    }
}

/* Piggybacked calls whose bodies we know; FALSE if unknown. */
static gboolean
decode_piggyback_body(ttc_rd_t *r, proto_tree *tree, guint8 func, wmem_allocator_t *scope)
{
    guint32 n, i, lens[5];
    gint s;

    switch (func) {
    case TTC_FN_CLOSE_CURSORS:
        ttc_rd_ptr(r);
        n = ttc_rd_ub4(r);
        if (n > MAX_CURSORS) {
            r->bad = TRUE;
            return TRUE;
        }
        for (i = 0; i < n && ttc_rd_ok(r); i++) {
            s = r->off;
            add_uint(tree, hf_close_cursor, r, s, ttc_rd_ub4(r));
        }
        return TRUE;
    case TTC_FN_SESSION_STATE:
        ttc_rd_ub8(r);
        return TRUE;
    case TTC_FN_CLIENT_FEATURES: {
        /* JDBC thin (T4CTTIoclfeatures.marshal): PTR, SWORD length, SB8 0, then the
         * feature bitmap as text ("512,0,0,0"), a CHR written bare (JDBC's DTY leaves
         * CONV_LENGTH clear); no open client sends it. */
        guint32 len;
        ttc_rd_ptr(r);
        len = ttc_rd_ub4(r);
        ttc_rd_ub8(r);
        if (len > 4096) {
            r->bad = TRUE;
            return TRUE;
        }
        if (!ttc_rd_have(r, (gint)len))
            return TRUE;
        if (tree)
            proto_tree_add_item(tree, hf_client_features, r->tvb, r->off, (gint)len, ENC_ASCII);
        ttc_rd_skip(r, (gint)len);
        return TRUE;
    }
    case 152:                          /* set schema */
        ttc_rd_ptr(r);
        if (ttc_rd_ub4(r) > 0)
            ttc_rd_dalc(r, NULL);
        return TRUE;
    case 199:                          /* pipeline begin */
        ttc_rd_ub2(r);
        ttc_rd_u8(r);
        ttc_rd_u8(r);
        return TRUE;
    case TTC_FN_END_TO_END: {
        static int *const string_hf[5] = { &hf_e2e_client_id, &hf_e2e_module, &hf_e2e_action, NULL, NULL };
        ttc_rd_ptr(r);
        ttc_rd_ptr(r);
        ttc_rd_ub4(r);                 /* flags */
        for (i = 0; i < 3; i++) {      /* client identifier, module, action */
            ttc_rd_ptr(r);
            lens[i] = ttc_rd_ub4(r);
        }
        ttc_rd_ptr(r);                 /* cideci */
        ttc_rd_ub4(r);
        ttc_rd_u8(r);                  /* cidcct */
        ttc_rd_ub4(r);                 /* cidecs */
        ttc_rd_ptr(r);                 /* client info */
        lens[3] = ttc_rd_ub4(r);
        ttc_rd_ptr(r);                 /* cidkstk */
        ttc_rd_ub4(r);
        ttc_rd_ptr(r);                 /* cidktgt */
        ttc_rd_ub4(r);
        ttc_rd_ptr(r);                 /* dbop */
        lens[4] = ttc_rd_ub4(r);
        for (i = 0; i < 5 && ttc_rd_ok(r); i++) {
            gint ss, sl;
            const char *v;
            if (lens[i] == 0)
                continue;
            v = ttc_rd_dalc_str(r, scope, &ss, &sl);
            if (tree && v && string_hf[i] && ttc_rd_ok(r))
                proto_tree_add_string(tree, *string_hf[i], r->tvb, ss, sl, v);
        }
        return TRUE;
    }
    default:
        return FALSE;
    }
}

static gboolean
is_known_function(guint8 f)
{
    switch (f) {
    case TTC_FN_REEXECUTE: case TTC_FN_FETCH: case TTC_FN_LOGOFF: case TTC_FN_COMMIT:
    case TTC_FN_ROLLBACK: case TTC_FN_VERSION: case TTC_FN_OALL7: case TTC_FN_REEXECUTE_FETCH:
    case TTC_FN_OALL8: case TTC_FN_LOB_OP: case TTC_FN_AUTH_PHASE_TWO: case TTC_FN_AUTH_PHASE_ONE:
    case TTC_FN_PING: case TTC_FN_CLOSE_CURSORS: case TTC_FN_SESSION_STATE: case TTC_FN_END_TO_END:
    case TTC_FN_SESSION_SWITCH: case TTC_FN_CANCEL_ALL: case TTC_FN_CLIENT_FEATURES:
        return TRUE;
    default:
        return FALSE;
    }
}

/* After a piggyback we cannot walk: find the next call header. */
static void
resync_to_next_call(ttc_rd_t *r, guint8 seq)
{
    gint p;
    for (p = r->off; p + 3 <= r->end; p++) {
        guint8 t = tvb_get_uint8(r->tvb, p);
        guint8 f = tvb_get_uint8(r->tvb, p + 1);
        guint8 q = tvb_get_uint8(r->tvb, p + 2);
        if ((t == TTC_MSG_FUNCTION || t == TTC_MSG_PIGGYBACK) && is_known_function(f) &&
            (q == (guint8)(seq + 1) || q == seq || (seq == 255 && q == 1))) {
            r->off = p;
            return;
        }
    }
    r->need_more = TRUE;
}

static void
decode_call_header(ttc_rd_t *r, proto_tree *tree, ttc_request_t *call, gboolean piggyback)
{
    gint s = r->off;

    call->func = ttc_rd_u8(r);
    add_uint(tree, piggyback ? hf_piggyback : hf_func, r, s, call->func);
    s = r->off; call->seq = ttc_rd_u8(r); add_uint(tree, hf_seq, r, s, call->seq);
    if (r->d->fv >= TTC_FV_23_1_EXT_1) {
        guint64 tok;
        s = r->off;
        tok = ttc_rd_ub8(r);
        if (tree && ttc_rd_ok(r))
            proto_tree_add_uint64(tree, hf_ttc_token, r->tvb, SPAN(r, s), tok);
    }
}

static const value_string lob_prefetch_vals[] = {
    { 1, "size and chunk size" }, { 2, "size, chunk size and data" },
    { 0, NULL }
};

static const value_string fetch_orientation_vals[] = {
    { TTC_FETCH_CURRENT, "current" }, { TTC_FETCH_NEXT, "next" }, { TTC_FETCH_FIRST, "first" },
    { TTC_FETCH_LAST, "last" }, { TTC_FETCH_PRIOR, "prior" }, { TTC_FETCH_ABSOLUTE, "absolute" },
    { TTC_FETCH_RELATIVE, "relative" },
    { 0, NULL }
};

static const value_string lob_op_vals[] = {
    { 0x0001, "get length" }, { 0x0002, "read" }, { 0x0020, "trim" }, { 0x0040, "write" },
    { 0x4000, "get chunk size" }, { 0x0110, "create temporary" }, { 0x0111, "free temporary" },
    { 0x8000, "open" }, { 0x10000, "close" }, { 0x11000, "is open" }, { 0x0800, "file exists" },
    { 0x0100, "file open" }, { 0x0200, "file close" }, { 0x0400, "file is open" },
    { 0, NULL }
};

/* LOB operation (OLOBOPS): python-oracledb messages/lob_op.pyx, go-ora
 * v2/lob.go writeOp (the field version gates are go-ora's): source and
 * destination locator pointers and lengths, short offsets (ub4 each before
 * field version 3), pointers for a charset, a short amount, a NULL-LOB
 * flag, the operation, the SCN array pointer and length, from field version
 * 3 the 8-byte offsets and the amount pointer, from 4 an array-LOB block of
 * 6 bytes, then the locators themselves.  What the reply's return
 * parameters hold follows from the pointers (see decode_rpa). */
static void
decode_lob_op(ttc_rd_t *r, proto_tree *tree, ttc_request_t *call)
{
    gboolean amount_short;
    gint s;

    ttc_rd_ptr(r);                     /* source locator */
    call->lob_src_len = ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* destination locator */
    call->lob_dst_len = ttc_rd_ub4(r);
    if (r->d->fv < TTC_FV_9_2) {
        ttc_rd_ub4(r);                 /* source offset */
        ttc_rd_ub4(r);                 /* destination offset */
    } else {
        ttc_rd_ub4(r);                 /* short offsets (0) */
        ttc_rd_ub4(r);
    }
    call->lob_charset = ttc_rd_ptr(r);
    amount_short = ttc_rd_ptr(r);
    call->lob_null = ttc_rd_ptr(r);
    s = r->off; call->lob_op = ttc_rd_ub4(r); add_uint(tree, hf_lob_op, r, s, call->lob_op);
    ttc_rd_ptr(r);                     /* SCN array */
    ttc_rd_ub4(r);                     /* SCN array length */
    if (r->d->fv >= TTC_FV_9_2) {
        ttc_rd_ub8(r);                 /* source offset */
        ttc_rd_ub8(r);                 /* destination offset */
        call->lob_amount = ttc_rd_ptr(r);
    } else {
        call->lob_amount = amount_short;
    }
    if (r->d->fv >= TTC_FV_10_1)
        ttc_rd_skip(r, 6);             /* array LOB (3 x u16, unused) */
    s = r->off;
    ttc_rd_skip(r, (gint)call->lob_src_len);
    if (tree && call->lob_src_len && ttc_rd_ok(r))
        proto_tree_add_item(tree, hf_lob_locator, r->tvb, s, (gint)call->lob_src_len, ENC_NA);
    ttc_rd_skip(r, (gint)call->lob_dst_len);
    if (call->lob_src_len > 65535 || call->lob_dst_len > 65535)
        r->bad = TRUE;
}

static void
decode_function(ttc_rd_t *r, proto_tree *tree, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    ttc_request_t *call = &res->call;
    gint s;

    gint body;

    decode_call_header(r, tree, call, FALSE);
    if (!ttc_rd_ok(r))
        return;
    res->is_call = TRUE;
    call->kind = TTC_REQ_FUNCTION;
    body = r->off;
    switch (call->func) {
    case TTC_FN_OALL8:
        decode_oall8(r, tree, call, res, scope);
        break;
    case TTC_FN_FETCH:
        s = r->off; call->cursor = ttc_rd_ub4(r); add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
        s = r->off; call->fetch_rows = ttc_rd_ub4(r); add_uint(tree, hf_fetch_rows, r, s, call->fetch_rows);
        call->has_cursor = call->has_fetch_rows = call->is_query = TRUE;
        break;
    case TTC_FN_REEXECUTE_FETCH:
    case TTC_FN_REEXECUTE:
        s = r->off; call->cursor = ttc_rd_ub4(r); add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
        s = r->off; call->exec_count = ttc_rd_ub4(r); add_uint(tree, hf_iters, r, s, call->exec_count);
        s = r->off; call->options = ttc_rd_ub4(r);
        if (tree && ttc_rd_ok(r))
            proto_tree_add_bitmask_value(tree, r->tvb, s, hf_options, ett_options, option_bits, call->options);
        ttc_rd_ub4(r);                 /* options 2 */
        call->has_cursor = TRUE;
        if (call->func == TTC_FN_REEXECUTE_FETCH) {
            call->has_fetch_rows = call->is_query = TRUE;
            call->fetch_rows = call->exec_count;
        }
        res->stop = TRUE;              /* bind values may follow */
        break;
    case TTC_FN_AUTH_PHASE_ONE:
    case TTC_FN_AUTH_PHASE_TWO:
        if (r->d->native)
            res->stop = TRUE;
        else
            decode_auth(r, tree, scope);
        break;
    case TTC_FN_LOB_OP:
        decode_lob_op(r, tree, call);
        res->stop = TRUE;              /* charset, data, amount may follow */
        break;
    case TTC_FN_PARSE:
        /* OCI before OALL8 (SQL*Plus 9.0, visblank 9i session frames 64, 80,
         * 94): cursor, SQL pointer, SQL length, the text as a DALC; no open
         * client writes it. */
        if (!r->d->native) {
            res->stop = TRUE;
            break;
        }
        s = r->off; call->cursor = ttc_rd_ub4(r); add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
        call->has_cursor = TRUE;
        ttc_rd_ptr(r);
        ttc_rd_ub4(r);                 /* SQL length */
        {
            gint ss, sl;
            const char *sql = ttc_rd_dalc_str(r, scope, &ss, &sl);
            if (ttc_rd_ok(r) && sql) {
                call->sql = sql;
                if (tree)
                    proto_tree_add_string(tree, hf_ttc_sql, r->tvb, ss, sl, sql);
            }
        }
        res->stop = TRUE;
        break;
    case TTC_FN_OALL7:
        /* OCI 9.0's execute (frames 66, 82): options, then its cursor */
        if (r->d->native) {
            s = r->off; call->options = ttc_rd_ub4(r);
            s = r->off; call->cursor = ttc_rd_ub4(r); add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
            call->has_cursor = TRUE;
        }
        res->stop = TRUE;
        break;
    case TTC_FN_LOGOFF:
    case TTC_FN_COMMIT:
    case TTC_FN_ROLLBACK:
    case TTC_FN_PING:
        break;
    default:
        res->stop = TRUE;              /* named, body not decoded */
        break;
    }
    if (r->bad && !r->strict) {
        /* A body we cannot walk: keep the call, show the rest as call data. */
        guint8 func = call->func, seq = call->seq;
        memset(call, 0, sizeof(*call));
        call->kind = TTC_REQ_FUNCTION;
        call->func = func;
        call->seq = seq;
        r->bad = FALSE;
        r->off = body;
        res->stop = TRUE;
    }
}

static void
decode_piggyback(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope)
{
    ttc_request_t pb;

    ttc_rd_t body;

    memset(&pb, 0, sizeof(pb));
    decode_call_header(r, tree, &pb, TRUE);
    if (!ttc_rd_ok(r))
        return;
    /* Walk the body on a copy: layouts differ between clients (OCI's
     * end-to-end piggyback is not python's); if it does not fit, find the
     * next call header instead. */
    body = *r;
    if (decode_piggyback_body(&body, NULL, pb.func, scope) && ttc_rd_ok(&body) &&
        (body.off == body.end || tvb_get_uint8(body.tvb, body.off) == TTC_MSG_FUNCTION ||
         tvb_get_uint8(body.tvb, body.off) == TTC_MSG_PIGGYBACK)) {
        decode_piggyback_body(r, tree, pb.func, scope);
        return;
    }
    {
        ttc_rd_t scan = *r;
        resync_to_next_call(&scan, pb.seq);
        if (!scan.need_more) {
            *r = scan;
            return;
        }
    }
    if (body.need_more) {
        r->need_more = TRUE;           /* the piggyback continues in the next packet */
        return;
    }
    resync_to_next_call(r, pb.seq);
}

static void
decode_protocol_request(ttc_rd_t *r, proto_tree *tree, ttc_msg_result_t *res, wmem_allocator_t *scope)
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

static void
decode_data_types_request(ttc_rd_t *r, proto_tree *tree, ttc_msg_result_t *res)
{
    guint8 ccap_len, rcap_len, ccaps[64], rcaps[16];
    gint ccap_off, s;
    gboolean ub2_dty;
    ttc_dialect_t d = *r->d;
    guint32 n;
    guint16 rep_ub2 = 1, rep_ub4 = 1, rep_sb1 = 10, rep_ptr = 1;

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
        case 25: rep_ub2 = rep; break;
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
    d.native = rep_ub4 != 1 || d.structs;
    d.ub2_width = rep_ub2 == 1 ? 2 : 2;
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

/* The body of one client message whose type byte has been read.  Fast
 * authentication is not among them: it is a wrapper (see below), never
 * nested in another message. */
static void
decode_body(ttc_rd_t *r, proto_tree *mt, guint8 type, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    switch (type) {
    case TTC_MSG_PROTOCOL:
        decode_protocol_request(r, mt, res, scope);
        res->is_call = TRUE;
        res->call.kind = TTC_REQ_PROTOCOL;
        break;
    case TTC_MSG_DATA_TYPES:
        decode_data_types_request(r, mt, res);
        res->is_call = TRUE;
        res->call.kind = TTC_REQ_DATA_TYPES;
        break;
    case TTC_MSG_FUNCTION:
        decode_function(r, mt, res, scope);
        break;
    case TTC_MSG_PIGGYBACK:
        decode_piggyback(r, mt, scope);
        break;
    case TTC_MSG_FLUSH_OUT_BINDS:
        break;
    default:
        r->bad = TRUE;
        break;
    }
}

/* Type byte and tree item of a message; FALSE when the byte is not there. */
static gboolean
start_message(ttc_rd_t *r, proto_tree *tree, guint8 *type, proto_item **mi, proto_tree **mt)
{
    gint start = r->off;

    *type = ttc_rd_u8(r);
    *mi = NULL;
    *mt = NULL;
    if (!ttc_rd_ok(r))
        return FALSE;
    if (tree) {
        *mi = proto_tree_add_uint(tree, hf_ttc_msg, r->tvb, start, 1, *type);
        *mt = proto_item_add_subtree(*mi, ett_call);
    }
    return TRUE;
}

/* Piggybacked calls allowed before the call inside a fast-auth message. */
#define MAX_NESTED_PIGGYBACKS 16

/* One message inside a fast-auth message: its type must be `want` (PRO, DTY
 * or the authentication call, which piggybacks may precede).  Not
 * recursive: a fast-auth byte here is an error, whatever the wire says. */
static void
decode_nested(ttc_rd_t *r, proto_tree *tree, guint8 want, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    guint n;

    for (n = 0; n <= MAX_NESTED_PIGGYBACKS; n++) {
        gint start = r->off;
        guint8 type;
        proto_item *mi;
        proto_tree *mt;

        if (!start_message(r, tree, &type, &mi, &mt))
            return;
        if (type != want && !(want == TTC_MSG_FUNCTION && type == TTC_MSG_PIGGYBACK)) {
            r->bad = TRUE;
            return;
        }
        decode_body(r, mt, type, res, scope);
        if (mi && ttc_rd_ok(r))
            proto_item_set_len(mi, r->off - start);
        if (type == want || !ttc_rd_ok(r))
            return;
    }
    r->bad = TRUE;                     /* more piggybacks than any client sends */
}

/* Fast authentication (python-oracledb FastAuthMessage, 23ai): version,
 * flags, then PRO, the server's charsets, the field version the rest is
 * written in, DTY and the OSESSKEY call, in that order. */
static void
decode_fast_auth(ttc_rd_t *r, proto_tree *mt, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    ttc_dialect_t fa = *r->d;
    ttc_rd_t sub;
    ttc_msg_result_t part;

    ttc_rd_skip(r, 3);                 /* version, flags */
    if (!ttc_rd_ok(r))
        return;
    memset(&part, 0, sizeof(part));
    decode_nested(r, mt, TTC_MSG_PROTOCOL, &part, scope);
    ttc_rd_skip(r, 5);                 /* server charset, flag, ncharset (unused) */
    fa.fv = ttc_rd_u8(r);
    if (!ttc_rd_ok(r))
        return;
    ttc_rd_init(&sub, r->tvb, r->off, r->end, &fa);
    memset(&part, 0, sizeof(part));
    decode_nested(&sub, mt, TTC_MSG_DATA_TYPES, &part, scope);
    if (part.dialect_update)
        res->dialect_update = TRUE, res->dialect = part.dialect;
    if (ttc_rd_ok(&sub)) {
        ttc_msg_result_t call;
        memset(&call, 0, sizeof(call));
        decode_nested(&sub, mt, TTC_MSG_FUNCTION, &call, scope);
        res->stop = call.stop;
    }
    r->off = sub.off;
    r->need_more = sub.need_more;
    if (sub.bad)
        res->stop = TRUE;              /* the rest is shown as call data */
    res->is_call = TRUE;
    res->call.kind = TTC_REQ_FAST_AUTH;
    res->call.func = TTC_FN_AUTH_PHASE_ONE;
}

void
ttc_decode_client(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                  ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    gint start = r->off;
    guint8 type;
    proto_item *mi;
    proto_tree *mt;

    (void)pinfo;
    (void)st;
    if (!start_message(r, tree, &type, &mi, &mt))
        return;
    res->type = type;
    if (type == TTC_MSG_FAST_AUTH)
        decode_fast_auth(r, mt, res, scope);
    else
        decode_body(r, mt, type, res, scope);
    if (mi && ttc_rd_ok(r))
        proto_item_set_len(mi, r->off - start);
}

void
ttc_calls_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_func, { "Function", "sqlnet.func", FT_UINT8, BASE_DEC, VALS(ttc_function_vals), 0x0, NULL, HFILL } },
        { &hf_piggyback, { "Piggybacked function", "sqlnet.piggyback", FT_UINT8, BASE_DEC, VALS(ttc_function_vals), 0x0, NULL, HFILL } },
        { &hf_seq, { "Sequence number", "sqlnet.seq", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_fetch_rows, { "Rows", "sqlnet.ofetch.rows", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Rows asked for by OFETCH", HFILL } },
        { &hf_options, { "Options", "sqlnet.oall8.options", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_fetch_orientation, { "Fetch orientation", "sqlnet.oall8.fetch_orientation", FT_UINT32, BASE_HEX,
            VALS(fetch_orientation_vals), 0x0, "Scrollable cursor: how the fetch position is given (al8i4[10])", HFILL } },
        { &hf_fetch_pos, { "Fetch position", "sqlnet.oall8.fetch_pos", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Scrollable cursor: the row (from 1) the fetch starts at (al8i4[11])", HFILL } },
        { &hf_lob_op, { "LOB operation", "sqlnet.lob.operation", FT_UINT32, BASE_HEX, VALS(lob_op_vals), 0x0, NULL, HFILL } },
        { &hf_lob_locator, { "LOB locator", "sqlnet.lob.locator", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_define, { "Define", "sqlnet.define", FT_NONE, BASE_NONE, NULL, 0x0,
            "Define metadata of an execute (a column as the client wants it)", HFILL } },
        { &hf_lob_prefetch, { "LOB prefetch", "sqlnet.bind.lob_prefetch", FT_UINT8, BASE_DEC,
            VALS(lob_prefetch_vals), 0x0, NULL, HFILL } },
        { &hf_bind, { "Bind", "sqlnet.bind", FT_NONE, BASE_NONE, NULL, 0x0,
            "Bind metadata of an execute", HFILL } },
        { &hf_bind_type, { "Type", "sqlnet.bind.type", FT_UINT8, BASE_DEC, VALS(ttc_ora_type_vals), 0x0, NULL, HFILL } },
        { &hf_bind_flags, { "Flags", "sqlnet.bind.flags", FT_UINT8, BASE_HEX, NULL, 0x0,
            "0x01 indicators, 0x40 array (PL/SQL index-by table)", HFILL } },
        { &hf_bind_size, { "Buffer size", "sqlnet.bind.buffer_size", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_bind_elements, { "Array elements", "sqlnet.bind.array_elements", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_bind_csfrm, { "Charset form", "sqlnet.bind.csfrm", FT_UINT8, BASE_DEC, NULL, 0x0,
            "1 = database character set, 2 = national character set", HFILL } },
        { &hf_returning_binds, { "Return binds", "sqlnet.oall8.returning_binds", FT_UINT32, BASE_DEC, NULL, 0x0,
            "DML RETURNING ... INTO: binds whose values come back as rows", HFILL } },
        { &hf_opt_parse, { "Parse", "sqlnet.oall8.options.parse", FT_BOOLEAN, 32, NULL, TTC_OPT_PARSE, NULL, HFILL } },
        { &hf_opt_bind, { "Bind", "sqlnet.oall8.options.bind", FT_BOOLEAN, 32, NULL, TTC_OPT_BIND, NULL, HFILL } },
        { &hf_opt_define, { "Define", "sqlnet.oall8.options.define", FT_BOOLEAN, 32, NULL, TTC_OPT_DEFINE, NULL, HFILL } },
        { &hf_opt_execute, { "Execute", "sqlnet.oall8.options.execute", FT_BOOLEAN, 32, NULL, TTC_OPT_EXECUTE, NULL, HFILL } },
        { &hf_opt_fetch, { "Fetch", "sqlnet.oall8.options.fetch", FT_BOOLEAN, 32, NULL, TTC_OPT_FETCH, NULL, HFILL } },
        { &hf_opt_commit, { "Commit", "sqlnet.oall8.options.commit", FT_BOOLEAN, 32, NULL, TTC_OPT_COMMIT, NULL, HFILL } },
        { &hf_opt_plsql_bind, { "PL/SQL bind", "sqlnet.oall8.options.plsql_bind", FT_BOOLEAN, 32, NULL, TTC_OPT_PLSQL_BIND, NULL, HFILL } },
        { &hf_opt_not_plsql, { "Not PL/SQL", "sqlnet.oall8.options.not_plsql", FT_BOOLEAN, 32, NULL, TTC_OPT_NOT_PLSQL, NULL, HFILL } },
        { &hf_opt_describe, { "Describe", "sqlnet.oall8.options.describe", FT_BOOLEAN, 32, NULL, TTC_OPT_DESCRIBE, NULL, HFILL } },
        { &hf_prefetch, { "Prefetch rows", "sqlnet.oall8.prefetch", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_exec_count, { "Execution count (al8i4[1])", "sqlnet.oall8.exec_count", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_is_query, { "Query", "sqlnet.oall8.is_query", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_exec_flags, { "Execute flags (al8i4[9])", "sqlnet.oall8.exec_flags", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_num_binds, { "Binds", "sqlnet.oall8.binds", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_num_defines, { "Defines", "sqlnet.oall8.defines", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_iters, { "Iterations", "sqlnet.reexec.iterations", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_close_cursor, { "Cursor to close", "sqlnet.close_cursor", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_user, { "User", "sqlnet.auth.user", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_auth_key, { "Key", "sqlnet.auth.key", FT_STRING, BASE_NONE, NULL, 0x0,
            "Authentication key name (values of secret keys are never shown)", HFILL } },
        { &hf_auth_value, { "Value", "sqlnet.auth.value", FT_STRING, BASE_NONE, NULL, 0x0,
            "Value of a non-secret key (program, machine, terminal...)", HFILL } },
        { &hf_pro_platform, { "Client platform", "sqlnet.pro.client", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_dty_fv, { "Client TTC field version", "sqlnet.dty.field_version", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_dty_eor, { "Client asks for end-of-response", "sqlnet.dty.end_of_response", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_e2e_module, { "Module", "sqlnet.e2e.module", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_client_features, { "Client features", "sqlnet.ttc.client_features", FT_STRING, BASE_NONE, NULL, 0x0,
            "JDBC's client feature bitmap (OCLFEATURES piggyback)", HFILL } },
        { &hf_e2e_action, { "Action", "sqlnet.e2e.action", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_e2e_client_id, { "Client identifier", "sqlnet.e2e.client_id", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
    };
    static gint *ett[] = { &ett_call, &ett_options, &ett_bind };

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
}
