/* ttc_values.h - Oracle values as text (ttc_values.c), shared by the bind
 * values of a call (ttc_binds.c) and the column values of rows (ttc_rows.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_VALUES_H
#define SQLNET_TTC_VALUES_H

#include "ttc_msg.h"

/* The fixed encodings as text (FALSE: the bytes are not such a value). */
gboolean ttc_format_number(const guint8 *b, guint n, char *out, gsize outlen);
gboolean ttc_format_date(const guint8 *b, guint n, char *out, gsize outlen);
gboolean ttc_format_binary_float(const guint8 *b, guint n, char *out, gsize outlen);
gboolean ttc_format_interval(const guint8 *b, guint n, guint8 type, char *out, gsize outlen);

/* The bytes of the DALC value at r (chunks joined, at most `max`): *total
 * its full length, *isnull for the NULL forms (0 and 0xff length bytes).
 * NULL, and the reader not ok, when it does not fit. */
guint8 *ttc_read_value_bytes(ttc_rd_t *r, guint max, guint *got, guint32 *total, gboolean *isnull,
                             wmem_allocator_t *scope);

/* A scalar value of Oracle type `type` (csfrm 2: national character set)
 * from `got` of its `total` bytes: *value the field's text (NULL when the
 * bytes are not such a value), *shown the item's text when it differs
 * (quoted text, RAW with its length, a type not decoded), else NULL. */
void ttc_value_format(guint8 type, guint8 csfrm, const guint8 *b, guint got, guint32 total,
                      wmem_allocator_t *scope, const char **value, const char **shown);

#endif
