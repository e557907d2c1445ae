/* textmap.c - a session's few statement texts to a value each (textmap.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "textmap.h"

void *
sqlnet_textmap_lookup(const sqlnet_textmap_t *m, const char *key)
{
    guint32 i;

    for (i = 0; i < m->n; i++)         /* the same text is most often the same pointer */
        if (m->key[i] == key)
            return m->val[i];
    for (i = 0; i < m->n; i++)
        if (strcmp(m->key[i], key) == 0)
            return m->val[i];
    return m->more ? wmem_map_lookup(m->more, key) : NULL;
}

void
sqlnet_textmap_insert(sqlnet_textmap_t *m, const char *key, void *val)
{
    if (m->n < SQLNET_TEXTMAP_SMALL) {
        m->key[m->n] = key;
        m->val[m->n++] = val;
        return;
    }
    if (!m->more)
        m->more = wmem_map_new(wmem_file_scope(), g_str_hash, g_str_equal);
    wmem_map_insert(m->more, key, val);
}
