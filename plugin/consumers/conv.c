/* conv.c - the SQL*Net conversations (see conv.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdio.h>
#include <string.h>
#include <glib.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>
#include <epan/conversation.h>
#include <epan/epan_dissect.h>
#include <epan/proto.h>
#include <epan/to_str.h>
#include <epan/ftypes/ftypes.h>

#include "compat.h"
#include "sqlnet.h"
#include "sqlnet_rt.h"
#include "account.h"
#include "report_arg.h"
#include "conv.h"

/* Fields the facts listener reads, most telling first per fact. */
#define CONV_FACTS_FILTER \
    "sqlnet.auth.user || sqlnet.auth.program || sqlnet.connect.program || " \
    "sqlnet.connect.service_name || sqlnet.connect.sid"

struct conv_acc {
    GHashTable *by_conv;          /* conversation index -> conv_row_t */
    GPtrArray *rows;              /* in order of first sight */
    gboolean listening;
    int facts_key;                /* the facts listener's identity: &facts_key */
    void (*changed)(conv_acc_t *a, conv_row_t *row, void *user);
    void *user;
};

static void
row_free(gpointer p)
{
    conv_row_t *r = (conv_row_t *)p;

    free_address(&r->client);
    free_address(&r->server);
    g_free(r->user);
    g_free(r->service);
    g_free(r->program);
    g_hash_table_destroy(r->sql_ids);
    g_free(r);
}

conv_acc_t *
conv_acc_new(void)
{
    conv_acc_t *a = g_new0(conv_acc_t, 1);

    a->by_conv = g_hash_table_new(g_direct_hash, g_direct_equal);
    a->rows = g_ptr_array_new_with_free_func(row_free);
    return a;
}

void
conv_acc_reset(conv_acc_t *a)
{
    /* the rows go, and with them the table rows they had */
    g_hash_table_remove_all(a->by_conv);
    g_ptr_array_set_size(a->rows, 0);
}

void
conv_acc_free(conv_acc_t *a)
{
    if (!a)
        return;
    conv_facts_stop(a);
    g_hash_table_destroy(a->by_conv);
    g_ptr_array_free(a->rows, TRUE);
    g_free(a);
}

const GPtrArray *
conv_rows(const conv_acc_t *a)
{
    return a->rows;
}

static conv_row_t *
row_of(conv_acc_t *a, guint32 conversation)
{
    conv_row_t *r = (conv_row_t *)g_hash_table_lookup(a->by_conv, GUINT_TO_POINTER(conversation));

    if (!r) {
        r = g_new0(conv_row_t, 1);
        r->conversation = conversation;
        r->sql_ids = g_hash_table_new(g_str_hash, g_str_equal);
        r->row = a->rows->len;
        g_ptr_array_add(a->rows, r);
        g_hash_table_insert(a->by_conv, GUINT_TO_POINTER(conversation), r);
    }
    return r;
}

conv_row_t *
conv_acc_add(conv_acc_t *a, packet_info *pinfo, const sqlnet_rt_t *rt)
{
    conv_row_t *r = row_of(a, rt->conversation);

    if (r->server.type == AT_NONE) {
        /* published on a packet of the response: the server sent it */
        copy_address(&r->server, &pinfo->src);
        r->server_port = pinfo->srcport;
        copy_address(&r->client, &pinfo->dst);
        r->client_port = pinfo->destport;
        r->tcp_stream = rt->tcp_stream;
    }
    if (rt->negotiated) {
        r->negotiated = TRUE;
        r->version = rt->negotiated_version;
        r->sdu = rt->negotiated_sdu;
    }
    if (rt->sql_id)      /* the session's string: lives as long as the capture */
        g_hash_table_add(r->sql_ids, (gpointer)rt->sql_id);
    if (sqlnet_rt_has_ora_error(rt))
        r->errors++;
    account_sums_add(&r->s, rt);
    return r;
}

/* ---- the session facts -------------------------------------------------- */

static char *
field_text(epan_dissect_t *edt, const char *name)
{
    int hf = proto_registrar_get_id_byname(name);
    GPtrArray *found;
    field_info *fi;
    char *w, *s;

    if (hf < 0 || !edt || !edt->tree)
        return NULL;
    found = proto_get_finfo_ptr_array(edt->tree, hf);
    if (!found || found->len == 0)
        return NULL;
    fi = (field_info *)g_ptr_array_index(found, 0);
    w = fvalue_to_string_repr(NULL, SQLNET_FI_VALUE(fi), FTREPR_DISPLAY, BASE_NONE);
    s = g_strdup(w);
    wmem_free(NULL, w);
    return s;
}

/* Set *slot from the first of the fields present (a stronger source, listed
 * first, replaces what a weaker one gave). */
static gboolean
fact_set(char **slot, epan_dissect_t *edt, const char *strong, const char *weak)
{
    char *v = field_text(edt, strong);

    if (!v && weak && !*slot)
        v = field_text(edt, weak);
    if (!v || !*v) {
        g_free(v);
        return FALSE;
    }
    g_free(*slot);
    *slot = v;
    return TRUE;
}

static tap_packet_status
facts_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt, const void *data _U_, tap_flags_t flags _U_)
{
    conv_acc_t *a = (conv_acc_t *)((char *)tapdata - G_STRUCT_OFFSET(conv_acc_t, facts_key));
    conversation_t *conv = find_conversation_pinfo(pinfo, 0);
    conv_row_t *r;
    gboolean changed = FALSE;

    if (!conv)
        return TAP_PACKET_DONT_REDRAW;
    r = row_of(a, conv->conv_index);
    changed |= fact_set(&r->user, edt, "sqlnet.auth.user", NULL);
    changed |= fact_set(&r->program, edt, "sqlnet.auth.program", "sqlnet.connect.program");
    changed |= fact_set(&r->service, edt, "sqlnet.connect.service_name", "sqlnet.connect.sid");
    if (changed && a->changed)
        a->changed(a, r, a->user);
    return changed ? TAP_PACKET_REDRAW : TAP_PACKET_DONT_REDRAW;
}

gboolean
conv_facts_listen(conv_acc_t *a, void (*changed)(conv_acc_t *a, conv_row_t *row, void *user), void *user)
{
    GString *err;

    a->changed = changed;
    a->user = user;
    if (a->listening)
        return TRUE;
    err = register_tap_listener("frame", &a->facts_key, CONV_FACTS_FILTER, TL_REQUIRES_NOTHING, NULL,
                                facts_packet, NULL, NULL);
    if (err) {
        g_string_free(err, TRUE);
        return FALSE;
    }
    a->listening = TRUE;
    return TRUE;
}

void
conv_acc_forget_listener(conv_acc_t *a)
{
    a->listening = FALSE;
}

void
conv_facts_stop(conv_acc_t *a)
{
    if (a && a->listening) {
        remove_tap_listener(&a->facts_key);
        a->listening = FALSE;
    }
}

/* ---- columns ------------------------------------------------------------ */

#define CONV_COLUMNS(X) \
    X("tcp_stream", FALSE, FALSE) \
    X("client", TRUE, FALSE) \
    X("server", TRUE, FALSE) \
    X("user", TRUE, FALSE) \
    X("service", TRUE, FALSE) \
    X("program", TRUE, FALSE) \
    X("tns_version", FALSE, FALSE) \
    X("sdu", FALSE, FALSE) \
    X("statements", FALSE, FALSE) \
    X("round_trips", FALSE, FALSE) \
    X("rows", FALSE, FALSE) \
    X("ora_errors", FALSE, FALSE) \
    X("time_ms", FALSE, TRUE) \
    X("wait_ms", FALSE, TRUE) \
    X("filter", TRUE, FALSE)

static const struct {
    const char *name;
    gboolean text, ms;
} conv_cols[] = {
#define CONV_COL(n, t, m) { n, t, m },
    CONV_COLUMNS(CONV_COL)
#undef CONV_COL
};

guint conv_ncolumns(void) { return G_N_ELEMENTS(conv_cols); }
const char *conv_column(guint col) { return col < G_N_ELEMENTS(conv_cols) ? conv_cols[col].name : ""; }
gboolean conv_column_is_text(guint col) { return col < G_N_ELEMENTS(conv_cols) && conv_cols[col].text; }
gboolean conv_column_is_ms(guint col) { return col < G_N_ELEMENTS(conv_cols) && conv_cols[col].ms; }

static char *
endpoint(const address *addr, guint32 port)
{
    char *a, *s;

    if (addr->type == AT_NONE)
        return NULL;
    a = address_to_str(NULL, addr);
    s = g_strdup_printf(addr->type == AT_IPv6 ? "[%s]:%u" : "%s:%u", a, port);
    wmem_free(NULL, a);
    return s;
}

static char *
ms_text(guint64 ns)
{
    char buf[32];
    account_ms(buf, sizeof(buf), ns);
    return g_strdup(buf);
}

char *
conv_value(const conv_row_t *r, guint col)
{
    const char *name = conv_column(col);

    if (!strcmp(name, "tcp_stream"))
        return r->server.type == AT_NONE ? NULL : g_strdup_printf("%u", r->tcp_stream);
    if (!strcmp(name, "client"))
        return endpoint(&r->client, r->client_port);
    if (!strcmp(name, "server"))
        return endpoint(&r->server, r->server_port);
    if (!strcmp(name, "user"))
        return g_strdup(r->user);
    if (!strcmp(name, "service"))
        return g_strdup(r->service);
    if (!strcmp(name, "program"))
        return g_strdup(r->program);
    if (!strcmp(name, "tns_version"))
        return r->negotiated ? g_strdup_printf("%u", r->version) : NULL;
    if (!strcmp(name, "sdu"))
        return r->negotiated ? g_strdup_printf("%u", r->sdu) : NULL;
    if (!strcmp(name, "statements"))
        return g_strdup_printf("%u", g_hash_table_size(r->sql_ids));
    if (!strcmp(name, "round_trips"))
        return g_strdup_printf("%u", r->s.round_trips);
    if (!strcmp(name, "rows"))
        return g_strdup_printf("%" G_GUINT64_FORMAT, r->s.rows);
    if (!strcmp(name, "ora_errors"))
        return g_strdup_printf("%u", r->errors);
    if (!strcmp(name, "time_ms"))
        return ms_text(r->s.response_time_ns);
    if (!strcmp(name, "wait_ms"))
        return ms_text(r->s.wait_ns);
    if (!strcmp(name, "filter"))
        return r->server.type == AT_NONE ? NULL : g_strdup_printf("tcp.stream eq %u", r->tcp_stream);
    return NULL;
}

/* ---- tshark -z sqlnet,conv ---------------------------------------------- */

typedef struct {
    conv_acc_t *acc;
    gboolean csv;
    char *filter;
} conv_report_t;

static void
report_reset(void *tapdata)
{
    conv_acc_reset(((conv_report_t *)tapdata)->acc);
}

static tap_packet_status
report_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *data, tap_flags_t flags _U_)
{
    conv_report_t *r = (conv_report_t *)tapdata;

    if (!data)
        return TAP_PACKET_DONT_REDRAW;
    conv_acc_add(r->acc, pinfo, (const sqlnet_rt_t *)data);
    return TAP_PACKET_REDRAW;
}

/* A CSV cell: quoted when it holds a comma, a quote or a line break. */
static void
csv_cell(GString *s, const char *v)
{
    if (!v)
        return;
    if (strpbrk(v, ",\"\r\n")) {
        g_string_append_c(s, '"');
        for (; *v; v++) {
            if (*v == '"')
                g_string_append_c(s, '"');
            g_string_append_c(s, *v);
        }
        g_string_append_c(s, '"');
    } else {
        g_string_append(s, v);
    }
}

static void
report_draw(void *tapdata)
{
    conv_report_t *r = (conv_report_t *)tapdata;
    const GPtrArray *rows = conv_rows(r->acc);
    guint i, c, n = conv_ncolumns(), shown = 0;
    GString *out = g_string_new(NULL);

    for (c = 0; c < n; c++) {
        if (c)
            g_string_append_c(out, r->csv ? ',' : '\t');
        g_string_append(out, conv_column(c));
    }
    g_string_append_c(out, '\n');
    for (i = 0; i < rows->len; i++) {
        const conv_row_t *row = (const conv_row_t *)g_ptr_array_index(rows, i);
        if (row->server.type == AT_NONE)
            continue;          /* facts of a conversation without a round trip the filter kept */
        shown++;
        for (c = 0; c < n; c++) {
            char *v = conv_value(row, c);
            if (c)
                g_string_append_c(out, r->csv ? ',' : '\t');
            if (r->csv)
                csv_cell(out, v);
            else
                g_string_append(out, v ? v : "-");
            g_free(v);
        }
        g_string_append_c(out, '\n');
    }
    if (!r->csv) {
        GString *head = g_string_new(NULL);
        g_string_append(head, "\n================================================================================\n");
        g_string_append_printf(head, "SQL*Net conversations: %u\n", shown);
        if (r->filter)
            g_string_append_printf(head, "Filter: %s\n", r->filter);
        g_string_append(head, "================================================================================\n");
        g_string_prepend(out, head->str);
        g_string_append(out, "================================================================================\n");
        g_string_free(head, TRUE);
    }
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
}

static void
report_finish(void *tapdata)
{
    conv_report_t *r = (conv_report_t *)tapdata;

    /* tshark's end: Wireshark removes every listener, the facts one too
     * (removing it here would change the list it walks) */
    conv_acc_forget_listener(r->acc);
    conv_acc_free(r->acc);
    g_free(r->filter);
    g_free(r);
}

/* "sqlnet,conv[,format=text|csv][,filter]" */
static sqlnet_tap_init_result_t
report_init(const char *opt_arg, void *userdata _U_)
{
    const char *filter, *name;
    gsize len;
    conv_report_t *r;
    GString *err;

    report_arg(opt_arg, "sqlnet,conv", &filter, &name, &len);
    r = g_new0(conv_report_t, 1);
    if (name) {
        if (len == 3 && strncmp(name, "csv", 3) == 0) {
            r->csv = TRUE;
        } else if (!(len == 4 && strncmp(name, "text", 4) == 0)) {
            fprintf(stderr, "tshark: -z sqlnet,conv: unknown format \"%.*s\" (text or csv)\n", (int)len, name);
            g_free(r);
            SQLNET_TAP_INIT_RETURN(false);
        }
    }
    r->acc = conv_acc_new();
    r->filter = g_strdup(filter);
    err = register_tap_listener(SQLNET_TAP_NAME, r, filter, TL_REQUIRES_NOTHING, report_reset, report_packet,
                                report_draw, report_finish);
    if (err) {
        fprintf(stderr, "tshark: couldn't register sqlnet,conv tap: %s\n", err->str);
        g_string_free(err, TRUE);
        report_finish(r);
        SQLNET_TAP_INIT_RETURN(false);
    }
    if (!conv_facts_listen(r->acc, NULL, NULL))
        fprintf(stderr, "tshark: -z sqlnet,conv: user, service and program not available\n");
    SQLNET_TAP_INIT_RETURN(true);
}

static tap_param conv_params[] = {
    { PARAM_FILTER, "filter", "Filter", NULL, TRUE }
};

static stat_tap_ui conv_ui = {
    REGISTER_STAT_GROUP_GENERIC,
    "SQL*Net conversations (text)",
    "sqlnet,conv",
    report_init,
    G_N_ELEMENTS(conv_params),
    conv_params
};

void
conv_register_taps(void)
{
    register_stat_tap_ui(&conv_ui, NULL);
}
