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

#include <wsutil/wsgcrypt.h>
#include <wsutil/pint.h>

#include "sql_id.h"

static const char sql_id_digits[] = "0123456789abcdfghjkmnpqrstuvwxyz";

void
sqlnet_sql_id(const char *sql, gsize len, char out[SQLNET_SQL_ID_LEN + 1])
{
    guint8 digest[16];
    guint64 n;
    gcry_md_hd_t md;
    int i;

    memset(digest, 0, sizeof(digest));
    if (gcry_md_open(&md, GCRY_MD_MD5, 0) == 0) {
        static const guint8 nul = 0;
        gcry_md_write(md, sql, len);
        gcry_md_write(md, &nul, 1);
        memcpy(digest, gcry_md_read(md, GCRY_MD_MD5), sizeof(digest));
        gcry_md_close(md);
    }
    n = ((guint64)pletoh32(digest + 8) << 32) | pletoh32(digest + 12);
    for (i = SQLNET_SQL_ID_LEN - 1; i >= 0; i--) {
        out[i] = sql_id_digits[n % 32u];
        n /= 32u;
    }
    out[SQLNET_SQL_ID_LEN] = '\0';
}
