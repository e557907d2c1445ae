/* sql_id.c - Oracle's SQL_ID of a statement text.
 *
 * The database names a cursor in the shared pool by the MD5 digest of its
 * text with a terminating NUL byte: the last 64 bits of the digest, read as
 * two little-endian 32-bit words (high word first), written in base 32 with
 * the digits 0-9 and the letters a-z less e, i, l and o, 13 digits with
 * leading zeros.  The low word is V$SQL.HASH_VALUE.  Known value: the text
 * "select * from dual" has the SQL_ID a5ks9fhw2v9s1.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>


#include "sql_id.h"

static const char sql_id_digits[] = "0123456789abcdfghjkmnpqrstuvwxyz";

void
sqlnet_sql_id(const char *sql, gsize len, char out[SQLNET_SQL_ID_LEN + 1])
{
    static const guchar nul = 0;
    guint8 digest[16];
    gsize digest_len = sizeof(digest);
    GChecksum *md5;
    guint64 n;
    int i;

    /* GLib's MD5: no dependency beyond what every Wireshark SDK brings. */
    memset(digest, 0, sizeof(digest));
    md5 = g_checksum_new(G_CHECKSUM_MD5);
    g_checksum_update(md5, (const guchar *)sql, (gssize)len);
    g_checksum_update(md5, &nul, 1);
    g_checksum_get_digest(md5, digest, &digest_len);
    g_checksum_free(md5);
    /* Bytes 8-11 (little-endian) are the high word, 12-15 the low word. */
    n = 0;
    for (i = 11; i >= 8; i--)
        n = (n << 8) | digest[i];
    for (i = 15; i >= 12; i--)
        n = (n << 8) | digest[i];
    for (i = SQLNET_SQL_ID_LEN - 1; i >= 0; i--) {
        out[i] = sql_id_digits[n % 32u];
        n /= 32u;
    }
    out[SQLNET_SQL_ID_LEN] = '\0';
}
