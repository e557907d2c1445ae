/* ttc_auth.c - session setup: the authentication calls (OSESSKEY 118,
 * OAUTH 115) and their return parameters, the server version call (OVERSION
 * 59) and its banner.
 *
 * python-oracledb messages/auth.pyx, go-ora v2/auth_object.go, JDBC
 * T4CTTIoauthenticate.  Key names are shown, values only for keys that are
 * not secrets (program, machine, terminal ...).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

#define MAX_PAIRS     256

static int hf_user = -1;
static int hf_auth_key = -1;
static int hf_auth_value = -1;
static int hf_rpa_key = -1;
static int hf_rpa_banner = -1;

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

/* Authentication call body (functions 118 and 115): thin clients' layout;
 * OCI's native one is shown as call data. */
void
ttc_call_auth(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call _U_, ttc_msg_result_t *res,
              wmem_allocator_t *scope)
{
    if (r->d->native)
        res->stop = TRUE;
    else
        decode_auth(r, tree, scope);
}

/* Return parameters of authentication: key/value pairs (values never shown). */
void
ttc_rpa_auth(ttc_rd_t *r, proto_tree *tree, const ttc_request_t *req _U_, wmem_allocator_t *scope)
{
    guint32 n, i;

    n = ttc_rd_ub2(r);
    if (n > TTC_MAX_KV_PAIRS) { r->bad = TRUE; return; }
    for (i = 0; i < n && ttc_rd_ok(r); i++) {
        gint s = r->off;
        char *key = ttc_rd_str_with_length(r, scope);
        if (tree && ttc_rd_ok(r) && key)
            proto_tree_add_string(tree, hf_rpa_key, r->tvb, SPAN(r, s), key);
        ttc_rd_skip_bytes_with_length(r);  /* value: never shown (session keys, verifiers) */
        ttc_rd_ub4(r);
    }
}

/* Return parameters of OVERSION: the banner, then the version number. */
void
ttc_rpa_version(ttc_rd_t *r, proto_tree *tree, const ttc_request_t *req _U_, wmem_allocator_t *scope)
{
    gint s, l;
    const char *banner;
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
    ttc_rd_ub4(r);
}

void
ttc_auth_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_user, { "User", "sqlnet.auth.user", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_auth_key, { "Key", "sqlnet.auth.key", FT_STRING, BASE_NONE, NULL, 0x0,
            "Authentication key name (values of secret keys are never shown)", HFILL } },
        { &hf_auth_value, { "Value", "sqlnet.auth.value", FT_STRING, BASE_NONE, NULL, 0x0,
            "Value of a non-secret key (program, machine, terminal...)", HFILL } },
        { &hf_rpa_key, { "Returned key", "sqlnet.auth.reply_key", FT_STRING, BASE_NONE, NULL, 0x0,
            "Authentication key name (values are never shown)", HFILL } },
        { &hf_rpa_banner, { "Server version banner", "sqlnet.banner", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
}
