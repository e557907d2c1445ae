/* textmap.h - a session's few statement texts to a value each: the first
 * ones side by side (found by pointer, else by comparison), a wmem_map only
 * for a fifth and beyond (a map allocates a 256-byte table at its first
 * insert; most sessions name a handful of texts).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TEXTMAP_H
#define SQLNET_TEXTMAP_H

#include <glib.h>
#include <wsutil/wmem/wmem.h>

#define SQLNET_TEXTMAP_SMALL 4u

/* Zeroed: empty.  Keys are not copied: they live as long as the map (file
 * scope), as the texts a session keeps do. */
typedef struct {
    guint32 n;
    const char *key[SQLNET_TEXTMAP_SMALL];
    void *val[SQLNET_TEXTMAP_SMALL];
    wmem_map_t *more;          /* file scope, NULL until needed */
} sqlnet_textmap_t;

/* The value of `key` (by its text), NULL when none. */
void *sqlnet_textmap_lookup(const sqlnet_textmap_t *m, const char *key);
/* `key` (not in the map yet) to `val`. */
void sqlnet_textmap_insert(sqlnet_textmap_t *m, const char *key, void *val);

#endif /* SQLNET_TEXTMAP_H */
