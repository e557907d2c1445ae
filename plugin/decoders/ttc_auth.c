/* ttc_auth.c - session setup: the authentication calls (OSESSKEY 118,
 * OAUTH 115) and their return parameters, the server version call (OVERSION
 * 59) and its banner.
 *
 * python-oracledb messages/auth.pyx, go-ora v2/auth_object.go, JDBC
 * T4CTTIoauthenticate.  Key names are shown, and the values of the keys that
 * are not secrets (program, machine, terminal ...); a secret's value (session
 * key, verifier, encrypted password) only as the bytes on the wire
 * (sqlnet.auth.secret).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "ttc_msg.h"

#define MAX_PAIRS     256

/* The protocol whose per-frame data keeps what the logon's values name
 * (ttc_auth_frame_drivers); set at registration. */
static int auth_proto = -1;

static int hf_user = -1;
static int hf_auth_key = -1;
static int hf_auth_value = -1;
static int hf_rpa_key = -1;
static int hf_rpa_banner = -1;
static int hf_auth_secret = -1;
static int hf_auth_program = -1;
static int hf_auth_machine = -1;
static int hf_auth_terminal = -1;
static int hf_auth_os_user = -1;
static int hf_auth_pid = -1;
static int hf_auth_connect_string = -1;
static int hf_auth_alter_session = -1;
static int hf_auth_secret_length = -1;
static int hf_auth_verifier_type = -1;
static int hf_auth_session_id = -1;
static int hf_auth_serial_num = -1;
static int hf_auth_version_no = -1;
static int hf_version_buffer_len = -1;
static int hf_version_format = -1;
static int hf_version_number = -1;
static int hf_version_release = -1;


/* Keys that also have a field of their own. */
static const struct { const char *key; int *hf; } named_keys[] = {
    { "AUTH_PROGRAM_NM", &hf_auth_program },
    { "AUTH_MACHINE", &hf_auth_machine },
    { "AUTH_TERMINAL", &hf_auth_terminal },
    { "AUTH_SID", &hf_auth_os_user },
    { "AUTH_PID", &hf_auth_pid },
    { "AUTH_CONNECT_STRING", &hf_auth_connect_string },
    { "AUTH_ALTER_SESSION", &hf_auth_alter_session },
    { "AUTH_SESSION_ID", &hf_auth_session_id },
    { "AUTH_SERIAL_NUM", &hf_auth_serial_num },
    { "AUTH_VERSION_NO", &hf_auth_version_no },
};

/* The client drivers a value names (TTC_AUTH_DRIVER_*: "jdbc" in JDBC's
 * program and driver names, "oracleclientgo" in go-ora's driver name,
 * node-oracledb's and python-oracledb's driver names; any case). */
static inline char
ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

/* Do the bytes at p (up to end) start with the lower-case ASCII `low`, in
 * any case? */
static gboolean
starts_ci(const char *p, const char *end, const char *low)
{
    for (; *low; p++, low++)
        if (p >= end || ascii_lower(*p) != *low)
            return FALSE;
    return TRUE;
}

/* The drivers the n bytes of a value name, in any case: the same as
 * strstr() on its g_ascii_strdown(), in one pass without the copy. */
static guint32
driver_bits(const char *value, gsize n)
{
    guint32 bits = 0;
    const char *p, *end = value + n;

    for (p = value; p < end; p++) {
        switch (ascii_lower(*p)) {
        case 'j':
            if (starts_ci(p, end, "jdbc"))
                bits |= TTC_AUTH_DRIVER_JDBC;
            break;
        case 'o':
            if (starts_ci(p, end, "oracleclientgo"))
                bits |= TTC_AUTH_DRIVER_GOORA;
            break;
        case 'n':
            if (starts_ci(p, end, "node-oracledb"))
                bits |= TTC_AUTH_DRIVER_NODE;
            break;
        case 'p':
            if (starts_ci(p, end, "python-oracledb"))
                bits |= TTC_AUTH_DRIVER_PYTHON;
            break;
        default:
            break;
        }
    }
    return bits;
}

/* Whether the values are kept (publish_value): on the first pass, not in a
 * trial decode (pinfo NULL). */
static gboolean
publishing(const packet_info *pinfo)
{
    return pinfo && !PINFO_FD_VISITED(pinfo) && auth_proto >= 0;
}

/* A value the tree shows as sqlnet.auth.value (not a secret's), its n
 * bytes: what it names is kept with its frame on the first pass, with or
 * without a tree (a later pass without one does not decode the message
 * again); pinfo NULL: a trial decode, nothing kept.  A message's values are
 * noted in *bits, kept once at its end (publish_bits): a few bits per
 * frame, no allocation. */
static void
publish_value(packet_info *pinfo, const char *value, gsize n, guint32 *bits)
{
    if (!publishing(pinfo))
        return;
    *bits |= TTC_AUTH_VALUES | driver_bits(value, n);
}

static void
publish_bits(packet_info *pinfo, guint32 bits)
{
    if (!pinfo || bits == 0)
        return;
    bits |= GPOINTER_TO_UINT(p_get_proto_data(wmem_file_scope(), pinfo, auth_proto, SQLNET_KEY_AUTH_VALUES));
    p_set_proto_data(wmem_file_scope(), pinfo, auth_proto, SQLNET_KEY_AUTH_VALUES, GUINT_TO_POINTER(bits));
}

guint32
ttc_auth_frame_drivers(packet_info *pinfo)
{
    if (auth_proto < 0)
        return 0;
    return GPOINTER_TO_UINT(p_get_proto_data(wmem_file_scope(), pinfo, auth_proto, SQLNET_KEY_AUTH_VALUES));
}

/* python-oracledb constants.pxi TNS_VERIFIER_TYPE_* (the flags of the
 * AUTH_VFR_DATA pair in an OSESSKEY reply). */
static const value_string verifier_types[] = {
    { 0xb152, "11g (1)" },
    { 0x1b25, "11g (2)" },
    { 0x4815, "12c" },
    { 0, NULL }
};

/* Whether the text at p (up to end) starts with the mark's letters after
 * its first. */
static inline gboolean
mark_at(const char *p, const char *end, const char *rest)
{
    for (p++; *rest; p++, rest++)
        if (p >= end || *p != *rest)
            return FALSE;
    return TRUE;
}

/* Keys whose values are secrets (session keys, verifiers and their salts,
 * the encrypted password, tokens): a key name holding one of the marks
 * PASSWORD, KEY, VFR, SALT, TOKEN, PROOF, RESPONSE, SECRET, NONCE,
 * SIGNATURE, HEADER or CHALLENGE.  One pass over the key: a mark is compared
 * only where its first letter is. */
static gboolean
key_is_secret_n(const char *key, gsize n)
{
    const char *p, *end = key + n;

    for (p = key; p < end; p++) {
        switch (*p) {
        case 'C': if (mark_at(p, end, "HALLENGE")) return TRUE; break;
        case 'H': if (mark_at(p, end, "EADER")) return TRUE; break;
        case 'K': if (mark_at(p, end, "EY")) return TRUE; break;
        case 'N': if (mark_at(p, end, "ONCE")) return TRUE; break;
        case 'P': if (mark_at(p, end, "ASSWORD") || mark_at(p, end, "ROOF")) return TRUE; break;
        case 'R': if (mark_at(p, end, "ESPONSE")) return TRUE; break;
        case 'S': if (mark_at(p, end, "ALT") || mark_at(p, end, "ECRET") || mark_at(p, end, "IGNATURE")) return TRUE; break;
        case 'T': if (mark_at(p, end, "OKEN")) return TRUE; break;
        case 'V': if (mark_at(p, end, "FR")) return TRUE; break;
        default: break;
        }
    }
    return FALSE;
}

static gboolean
key_is_secret(const char *key)
{
    return key_is_secret_n(key, strlen(key));
}

/* A key or value of a pair without a tree: its bytes in place when they are
 * a short DALC of printable ASCII in view (then the very text
 * ttc_rd_dalc_str() would make), else that text; *n its length.  NULL (and
 * the reader past it) when it is empty or NULL, as ttc_rd_dalc_str(). */
static const char *
pair_text(ttc_rd_t *r, wmem_allocator_t *scope, gsize *n)
{
    const guint8 *p;
    const char *text;

    if (ttc_rd_ascii_dalc_in_view(r, &p, n))
        return (const char *)p;
    text = ttc_rd_dalc_str(r, scope, NULL, NULL);
    *n = text ? strlen(text) : 0;
    return text;
}

/* One key/value pair without a tree, of a call or of its reply (the same
 * layout: key and value each a ub4 length then a DALC, then a ub4 of
 * flags): the reader moves as the shown decoding's, and on the first pass a
 * value that is not a secret's is published; no text is made for a secret's
 * value or a pass that keeps none. */
static void
pair_no_tree(ttc_rd_t *r, packet_info *pinfo, wmem_allocator_t *scope, guint32 *bits)
{
    const char *key = NULL, *value = NULL;
    gsize kn = 0, vn = 0;

    if (!publishing(pinfo)) {
        if (ttc_rd_ub4(r) > 0)
            ttc_rd_dalc(r, NULL);
        if (ttc_rd_ub4(r) > 0)
            ttc_rd_dalc(r, NULL);
        ttc_rd_ub4(r);                 /* flags */
        return;
    }
    if (ttc_rd_ub4(r) > 0)
        key = pair_text(r, scope, &kn);
    if (ttc_rd_ub4(r) > 0) {
        if (key && !key_is_secret_n(key, kn))
            value = pair_text(r, scope, &vn);
        else
            ttc_rd_dalc(r, NULL);      /* a secret's (or a value without a key): never published */
    }
    ttc_rd_ub4(r);                     /* flags */
    if (ttc_rd_ok(r) && key && value)
        publish_value(pinfo, value, vn, bits);
}

static int
key_field(const char *key)
{
    guint i;
    for (i = 0; i < array_length(named_keys); i++)
        if (strcmp(key, named_keys[i].key) == 0)
            return *named_keys[i].hf;
    return -1;
}

static void
decode_auth(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, wmem_allocator_t *scope)
{
    guint32 user_ptr, user_len, npairs, i, bits = 0;
    gint s, l;

    user_ptr = ttc_rd_ptr(r);
    user_len = ttc_rd_ub4(r);
    ttc_rd_ub4(r);                     /* auth mode */
    ttc_rd_ptr(r);
    npairs = ttc_rd_ub4(r);
    if (r->d->structs && r->d->ptr_width == 8)
        ttc_rd_ub4(r);                 /* 4 zero bytes (same-platform 64-bit OCI 19c:
                                        * jkstill19c frames 20 and 24; not in SQL*Plus 23's) */
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
        /* OCI always sends a DALC, whatever the length says: the name's
         * maximum in bytes, 3 per character (jkstill19c frame 20: 15000000
         * = 21 for "07 jkstill"; SQL*Plus 23, dbbat sqlplus_cursor_reexec
         * frame 11: 12000000 = 18 for "06 system"), or one too few (nmap's
         * logins in john/11gR2-Nmap-sys-good.pcap: 04000000 for "05 admin"). */
        if (first == user_len || first == 0xFE || r->d->native) {
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
        if (!tree) {
            pair_no_tree(r, pinfo, scope, &bits);
            continue;
        }
        if (ttc_rd_ub4(r) > 0)
            key = ttc_rd_dalc_str(r, scope, &ks, &kl);
        if (ttc_rd_ub4(r) > 0)
            value = ttc_rd_dalc_str(r, scope, &vs, &vl);
        ttc_rd_ub4(r);                 /* flags */
        if (!ttc_rd_ok(r) || !key)
            continue;
        if (value && !key_is_secret(key))
            publish_value(pinfo, value, strlen(value), &bits);
        proto_tree_add_string(tree, hf_auth_key, r->tvb, ks, kl, key);
        if (!value)
            continue;
        if (!key_is_secret(key)) {
            int hf = key_field(key);
            proto_tree_add_string(tree, hf_auth_value, r->tvb, vs, vl, value);
            if (hf != -1)
                proto_tree_add_string(tree, hf, r->tvb, vs, vl, value);
        } else {
            /* Session keys, verifiers, the encrypted password ...: the
             * bytes as they travel (the DALC), never interpreted. */
            proto_tree_add_item(tree, hf_auth_secret, r->tvb, vs, vl, ENC_NA);
        }
    }
    publish_bits(pinfo, bits);
}

/* Authentication call body (functions 118 and 115).  OCI's native layout is
 * the thin one with native integers (pointers of the dialect's width, ub4
 * lengths): 64-bit SQL*Plus 23 and OCI 19c (jkstill19c frames 20 and 24)
 * "fe ffffffffffffff | 15000000 | 01000000 | fe.. | 05000000 | fe.. | fe.. |
 * 07 jkstill | 27000000 0d AUTH_TERMINAL 0f000000 05 pts/1 00000000 ..."
 * (ptr, user length, mode, ptr, pairs, ptr, ptr, user; per pair key length,
 * key, value length, value, flags).
 * A native call that does not decode so within its packet (a layout not
 * seen, or a call that continues in the next packet) is shown as call data,
 * as before. */
void
ttc_call_auth_values(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, ttc_call_t *call _U_,
                     ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    if (r->d->native) {
        ttc_rd_t trial = *r;
        decode_auth(&trial, NULL, NULL, scope);
        if (!ttc_rd_ok(&trial)) {     /* not this layout, or cut: as call data */
            res->stop = TRUE;
            return;
        }
    }
    decode_auth(r, tree, pinfo, scope);
}

void
ttc_call_auth(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, ttc_msg_result_t *res,
              wmem_allocator_t *scope)
{
    ttc_call_auth_values(r, tree, NULL, call, res, scope);
}

/* Return parameters of authentication (OSESSKEY's and OAUTH's replies): key/
 * value pairs (python-oracledb messages/auth.pyx _process_return_parameters:
 * ub2 count; per pair key and value as str_with_length, then a ub4, the
 * verifier type after AUTH_VFR_DATA).  A value that is not a secret is shown
 * as the request's are (sqlnet.auth.value and a field of its own for the keys
 * that have one); a secret (AUTH_SESSKEY, AUTH_VFR_DATA, the salts ...) only
 * as its length in bytes. */
void
ttc_rpa_auth(ttc_rd_t *r, proto_tree *tree, const ttc_request_t *req, wmem_allocator_t *scope)
{
    ttc_rpa_auth_values(r, tree, NULL, req, scope);
}

void
ttc_rpa_auth_values(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, const ttc_request_t *req _U_,
                    wmem_allocator_t *scope)
{
    guint32 n, i, bits = 0;

    n = ttc_rd_ub2(r);
    if (n > TTC_MAX_KV_PAIRS) { r->bad = TRUE; return; }
    for (i = 0; i < n && ttc_rd_ok(r); i++) {
        gint s = r->off, vs = 0, vl = 0;
        const char *value = NULL;
        guint32 secret_len = 0, flags;
        gboolean secret;
        char *key;

        if (!tree) {
            pair_no_tree(r, pinfo, scope, &bits);
            continue;
        }
        key = ttc_rd_str_with_length(r, scope);
        if (tree && ttc_rd_ok(r) && key)
            proto_tree_add_string(tree, hf_rpa_key, r->tvb, SPAN(r, s), key);
        secret = !key || key_is_secret(key);
        if (ttc_rd_ub4(r) > 0 && ttc_rd_ok(r)) {
            vs = r->off;
            if (secret)
                secret_len = ttc_rd_dalc(r, NULL);
            else
                value = ttc_rd_dalc_str(r, scope, NULL, NULL);
            vl = r->off - vs;
        }
        s = r->off;
        flags = ttc_rd_ub4(r);
        if (!ttc_rd_ok(r) || !key)
            continue;
        if (value)
            publish_value(pinfo, value, strlen(value), &bits);
        if (secret && vl > 0) {
            proto_tree_add_uint(tree, hf_auth_secret_length, r->tvb, vs, vl, secret_len);
        } else if (value) {
            int hf = key_field(key);
            proto_tree_add_string(tree, hf_auth_value, r->tvb, vs, vl, value);
            if (hf != -1)
                proto_tree_add_string(tree, hf, r->tvb, vs, vl, value);
        }
        if (strcmp(key, "AUTH_VFR_DATA") == 0)
            proto_tree_add_uint(tree, hf_auth_verifier_type, r->tvb, SPAN(r, s), flags);
    }
    publish_bits(pinfo, bits);
}

/* OVERSION (function 59): a pointer to the buffer for the banner, the
 * buffer's length (ub4), pointers for the returned length and the version
 * number; from field version 11 (18.1 ext 1) a ub4 more (1 from go-ora,
 * v2/db_version.go, and from SQL*Plus 23; not in OCI 11's, john
 * Oracle-good frame 23, nor OCI 19c's at field version 7) - the field
 * version from which the reply's number has the 18c layout. */
void
ttc_call_version(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call _U_, ttc_msg_result_t *res _U_,
                 wmem_allocator_t *scope _U_)
{
    gint s;
    guint32 v;

    ttc_rd_ptr(r);
    s = r->off;
    v = ttc_rd_ub4(r);
    ttc_add_uint(tree, hf_version_buffer_len, r, s, v);
    ttc_rd_ptr(r);
    ttc_rd_ptr(r);
    if (r->d->fv >= TTC_FV_18_1_EXT_1) {
        s = r->off;
        v = ttc_rd_ub4(r);
        ttc_add_uint(tree, hf_version_format, r, s, v);
    }
}

/* Return parameters of OVERSION: the banner, then the version number, read
 * as python-oracledb reads AUTH_VERSION_NO (messages/auth.pyx
 * _get_version_tuple): from field version 11 (18.1 ext 1) major 8 bits,
 * release update 8, 4, 8, 4; before it 8, 4, 4, 4 and the low byte's 4. */
void
ttc_rpa_version(ttc_rd_t *r, proto_tree *tree, const ttc_request_t *req _U_, wmem_allocator_t *scope)
{
    gint s, l;
    const char *banner;
    proto_item *pi;
    guint32 number;
    guint32 len = ttc_rd_ub2(r);
    if (ttc_rd_have(r, 1) && tvb_get_uint8(r->tvb, r->off) != len && len > 0 && len < 4096 &&
        ttc_rd_have(r, (gint)len)) {
        /* Older servers send the banner without a DALC length byte. */
        s = r->off;
        l = (gint)len;
        banner = (const char *)tvb_get_string_enc(scope, r->tvb, s, l, ENC_UTF_8);
        r->off += l;
    } else {
        banner = ttc_rd_dalc_str(r, scope, &s, &l);
    }
    if (tree && ttc_rd_ok(r) && banner)
        proto_tree_add_string(tree, hf_rpa_banner, r->tvb, s, l, banner);
    s = r->off;
    number = ttc_rd_ub4(r);
    if (tree && ttc_rd_ok(r)) {
        char *release;
        proto_tree_add_uint(tree, hf_version_number, r->tvb, SPAN(r, s), number);
        if (r->d->fv >= TTC_FV_18_1_EXT_1)
            release = wmem_strdup_printf(scope, "%u.%u.%u.%u.%u", number >> 24, (number >> 16) & 0xFF,
                                         (number >> 12) & 0x0F, (number >> 4) & 0xFF, number & 0x0F);
        else
            release = wmem_strdup_printf(scope, "%u.%u.%u.%u.%u", number >> 24, (number >> 20) & 0x0F,
                                         (number >> 12) & 0x0F, (number >> 8) & 0x0F, number & 0x0F);
        pi = proto_tree_add_string(tree, hf_version_release, r->tvb, SPAN(r, s), release);
        proto_item_set_generated(pi);
    }
}

void
ttc_auth_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_user, { "User", "sqlnet.auth.user", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_auth_key, { "Key", "sqlnet.auth.key", FT_STRING, BASE_NONE, NULL, 0x0,
            "Authentication key name (a secret key's value only as its bytes: sqlnet.auth.secret)", HFILL } },
        { &hf_auth_value, { "Value", "sqlnet.auth.value", FT_STRING, BASE_NONE, NULL, 0x0,
            "Value of a key that is not a secret (program, machine, terminal...)", HFILL } },
        { &hf_rpa_key, { "Returned key", "sqlnet.auth.reply_key", FT_STRING, BASE_NONE, NULL, 0x0,
            "Authentication key name (values are never shown)", HFILL } },
        { &hf_rpa_banner, { "Server version banner", "sqlnet.banner", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_auth_secret, { "Secret value", "sqlnet.auth.secret", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Value of a secret key (session key, verifier, encrypted password ...) as it travels: "
            "its length byte and bytes, not interpreted", HFILL } },
        { &hf_auth_program, { "Program", "sqlnet.auth.program", FT_STRING, BASE_NONE, NULL, 0x0,
            "Client program (AUTH_PROGRAM_NM)", HFILL } },
        { &hf_auth_machine, { "Machine", "sqlnet.auth.machine", FT_STRING, BASE_NONE, NULL, 0x0,
            "Client host name (AUTH_MACHINE)", HFILL } },
        { &hf_auth_terminal, { "Terminal", "sqlnet.auth.terminal", FT_STRING, BASE_NONE, NULL, 0x0,
            "Client terminal (AUTH_TERMINAL)", HFILL } },
        { &hf_auth_os_user, { "OS user", "sqlnet.auth.os_user", FT_STRING, BASE_NONE, NULL, 0x0,
            "Client operating-system user (AUTH_SID)", HFILL } },
        { &hf_auth_pid, { "Client process", "sqlnet.auth.pid", FT_STRING, BASE_NONE, NULL, 0x0,
            "Client process id (AUTH_PID)", HFILL } },
        { &hf_auth_connect_string, { "Connect string", "sqlnet.auth.connect_string", FT_STRING, BASE_NONE, NULL, 0x0,
            "Connect descriptor the client used (AUTH_CONNECT_STRING)", HFILL } },
        { &hf_auth_secret_length, { "Secret value length", "sqlnet.auth.secret_length", FT_UINT32, BASE_DEC, NULL,
            0x0, "Length in bytes of a secret value the server returns (session key, verifier data, salt ...): "
            "the value itself is not shown", HFILL } },
        { &hf_auth_verifier_type, { "Verifier type", "sqlnet.auth.verifier_type", FT_UINT32, BASE_HEX,
            VALS(verifier_types), 0x0, "The ub4 after AUTH_VFR_DATA in an OSESSKEY reply", HFILL } },
        { &hf_auth_session_id, { "Session id", "sqlnet.auth.session_id", FT_STRING, BASE_NONE, NULL, 0x0,
            "Server session id (AUTH_SESSION_ID, the SID of V$SESSION)", HFILL } },
        { &hf_auth_serial_num, { "Session serial number", "sqlnet.auth.serial_num", FT_STRING, BASE_NONE, NULL, 0x0,
            "Server session serial number (AUTH_SERIAL_NUM)", HFILL } },
        { &hf_auth_version_no, { "Server version number", "sqlnet.auth.version_no", FT_STRING, BASE_NONE, NULL, 0x0,
            "AUTH_VERSION_NO: the server's version as a number (decimal)", HFILL } },
        { &hf_version_buffer_len, { "Banner buffer length", "sqlnet.version.buffer_length", FT_UINT32, BASE_DEC, NULL,
            0x0, "OVERSION: the length of the client's buffer for the banner", HFILL } },
        { &hf_version_format, { "Version number format", "sqlnet.version.format", FT_UINT32, BASE_DEC, NULL, 0x0,
            "OVERSION: the ub4 clients at field version 11 (18.1 ext 1) or later add (1)", HFILL } },
        { &hf_version_number, { "Version number", "sqlnet.version.number", FT_UINT32, BASE_HEX, NULL, 0x0,
            "OVERSION reply: the server's version as a number", HFILL } },
        { &hf_version_release, { "Version", "sqlnet.version.release", FT_STRING, BASE_NONE, NULL, 0x0,
            "OVERSION reply: the version number read as python-oracledb reads AUTH_VERSION_NO (the 18c layout "
            "from field version 11)", HFILL } },
        { &hf_auth_alter_session, { "ALTER SESSION", "sqlnet.auth.alter_session", FT_STRING, BASE_NONE, NULL, 0x0,
            "Statement the server runs at logon (AUTH_ALTER_SESSION)", HFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
    auth_proto = proto;
}
