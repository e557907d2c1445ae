/* ttc_protocol.h - TTC protocol constants: message types, function codes,
 * call options, capability indexes and bits, field-version gates, Oracle
 * type numbers.  Names follow python-oracledb's constants.pxi (TNS_MSG_TYPE_*,
 * TNS_FUNC_*, TNS_CCAP_*, TNS_CCAP_FIELD_VERSION_*, ORA_TYPE_NUM_*) where it
 * has one; every value here is theirs or JDBC's unless a comment says
 * otherwise.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_PROTOCOL_H
#define SQLNET_TTC_PROTOCOL_H

/* Message types (first byte of every TTC message). */
#define TTC_MSG_PROTOCOL        1
#define TTC_MSG_DATA_TYPES      2
#define TTC_MSG_FUNCTION        3
#define TTC_MSG_ERROR           4
#define TTC_MSG_ACCESS_USER_SPACE 5
#define TTC_MSG_ROW_HEADER      6
#define TTC_MSG_ROW_DATA        7
#define TTC_MSG_PARAMETER       8
#define TTC_MSG_STATUS          9
#define TTC_MSG_IO_VECTOR       11
#define TTC_MSG_LOB_DATA        14
#define TTC_MSG_WARNING         15
#define TTC_MSG_DESCRIBE_INFO   16
#define TTC_MSG_PIGGYBACK       17
#define TTC_MSG_FLUSH_OUT_BINDS 19
#define TTC_MSG_BIT_VECTOR      21
#define TTC_MSG_SERVER_PIGGYBACK 23
#define TTC_MSG_ONEWAY_FN       26
#define TTC_MSG_IMPLICIT_RESULTSET 27
#define TTC_MSG_RENEGOTIATE     28
#define TTC_MSG_END_OF_RESPONSE 29
#define TTC_MSG_COOKIE          30   /* JDBC T4CTTICookieMsg (ojdbc 23): connection cookie */
#define TTC_MSG_TOKEN           33
#define TTC_MSG_FAST_AUTH       34

/* Function codes (python-oracledb's TNS_FUNC_* where it has one; the
 * function table in decoders/ttc_dispatch.c names and decodes them). */
#define TTC_FN_OPEN             2
#define TTC_FN_PARSE            3
#define TTC_FN_REEXECUTE        4
#define TTC_FN_FETCH            5
#define TTC_FN_CLOSE            8
#define TTC_FN_LOGOFF           9
#define TTC_FN_AUTOCOMMIT_ON    12
#define TTC_FN_AUTOCOMMIT_OFF   13
#define TTC_FN_COMMIT           14
#define TTC_FN_ROLLBACK         15
#define TTC_FN_CANCEL           20
#define TTC_FN_VERSION          59
#define TTC_FN_OALL7            71
#define TTC_FN_REEXECUTE_FETCH  78
#define TTC_FN_O3LOGON          81
#define TTC_FN_O3LOGA           82
#define TTC_FN_OALL8            94
#define TTC_FN_LOB_OP           96
#define TTC_FN_DESCRIBE         98
#define TTC_FN_TXN_SWITCH       103
#define TTC_FN_TXN_CHANGE_STATE 104
#define TTC_FN_CLOSE_CURSORS    105
#define TTC_FN_SESSION_SWITCH   107
#define TTC_FN_AUTH_PHASE_TWO   115
#define TTC_FN_AUTH_PHASE_ONE   118
#define TTC_FN_CANCEL_ALL       120
#define TTC_FN_AQ_ENQ           121
#define TTC_FN_AQ_DEQ           122
#define TTC_FN_SUBSCRIBE        125
#define TTC_FN_DP_PREPARE       128
#define TTC_FN_DP_LOAD_STREAM   129
#define TTC_FN_DP_OP            130
#define TTC_FN_END_TO_END       135
#define TTC_FN_AQ_ARRAY         145
#define TTC_FN_PING             147
#define TTC_FN_SET_SCHEMA       152
#define TTC_FN_KEY_VALUE        154
#define TTC_FN_SESSION_GET      162
#define TTC_FN_SESSION_RELEASE  163
#define TTC_FN_SESSION_STATE    176
#define TTC_FN_NOTIFY           187
#define TTC_FN_CLIENT_FEATURES  191   /* JDBC T4CTTIoclfeatures, piggybacked */
#define TTC_FN_PIPELINE_BEGIN   199
#define TTC_FN_PIPELINE_END     200
#define TTC_FN_END_USER_SECURITY_CONTEXT 205

/* OALL8 options. */
#define TTC_OPT_PARSE     0x00000001u
#define TTC_OPT_BIND      0x00000008u
#define TTC_OPT_DEFINE    0x00000010u
#define TTC_OPT_EXECUTE   0x00000020u
#define TTC_OPT_FETCH     0x00000040u
#define TTC_OPT_COMMIT    0x00000100u
#define TTC_OPT_PLSQL_BIND 0x00000400u
#define TTC_OPT_NOT_PLSQL 0x00008000u
#define TTC_OPT_DESCRIBE  0x00020000u

#define TTC_ERR_NO_DATA_FOUND 1403

/* Fetch orientations of a scrollable cursor (al8i4[10], python
 * TNS_FETCH_ORIENTATION_*). */
#define TTC_FETCH_CURRENT   0x01
#define TTC_FETCH_NEXT      0x02
#define TTC_FETCH_FIRST     0x04
#define TTC_FETCH_LAST      0x08
#define TTC_FETCH_PRIOR     0x10
#define TTC_FETCH_ABSOLUTE  0x20
#define TTC_FETCH_RELATIVE  0x40

/* Execute flags (al8i4[9], python TNS_EXEC_FLAGS_*). */
#define TTC_EXEC_FLAG_SCROLLABLE        0x0002
#define TTC_EXEC_FLAG_DML_ROWCOUNTS     0x4000
#define TTC_EXEC_FLAG_IMPLICIT_RESULTSET 0x8000

/* Bind directions (I/O vector, python-oracledb TNS_BIND_DIR_*). */
#define TTC_BIND_DIR_OUTPUT       0x10
#define TTC_BIND_DIR_INPUT        0x20
#define TTC_BIND_DIR_INPUT_OUTPUT 0x30

/* Continuation flag of a LOB define: the rows carry its size and chunk size
 * (python-oracledb TNS_LOB_PREFETCH_FLAG). */
#define TTC_LOB_PREFETCH_FLAG     0x2000000u

/* Bind metadata flags (oacflg). */
#define TTC_BIND_FLAG_ARRAY       0x40

/* TTC field versions (compile-time capability 7): the gates of fields added
 * release by release.  From 6 on these are python-oracledb's
 * TNS_CCAP_FIELD_VERSION_* (src/oracledb/impl/thin/constants.pxi: 11_2 = 6,
 * 19_1 = 12, 23_1_EXT_5 = 22, 23_4 = 24, ...); its list starts at 11.2, so
 * 3 to 5 are named after the releases whose OCI clients send them.  The
 * dialect's `fv` is the lower of the client's and the server's. */
#define TTC_FV_9_2        3
#define TTC_FV_10_1       4     /* go-ora: OER flags as ub2, row header ub4 iterations */
#define TTC_FV_10_2       5
#define TTC_FV_11_2       6
#define TTC_FV_12_1       7
#define TTC_FV_12_2       8
#define TTC_FV_12_2_EXT1  9
#define TTC_FV_18_1       10
#define TTC_FV_18_1_EXT_1 11    /* OVERSION's number in the 18c layout */
#define TTC_FV_19_1       12
#define TTC_FV_20_1       14
#define TTC_FV_21_1       16
#define TTC_FV_23_1       17
#define TTC_FV_23_1_EXT_1 18
#define TTC_FV_23_1_EXT_3 20
#define TTC_FV_23_1_EXT_5 22    /* python-oracledb TNS_CCAP_FIELD_VERSION_23_1_EXT_5: OCI 23 */
#define TTC_FV_23_4       24

/* Compile-time capability indexes (the client's DTY, the server's PRO reply)
 * and the bits this plugin reads. */
#define TTC_CCAP_FIELD_VERSION  7
#define TTC_CCAP_TTC1           15
#define TTC_CCAP_UB2_DTY        27
#define TTC_CCAP_TTC3           37
#define TTC_CCAP_TTC4           40
#define TTC_CCAP_END_OF_CALL_STATUS 0x01    /* TTC1: OER and status carry the call status */
#define TTC_CCAP_TZ_VERSION     0x02        /* TTC3: the time-zone file version follows the
                                             * client's time zone (seen on the wire, no
                                             * python name) */
#define TTC_CCAP_BIG_CHUNK_CLR  0x20        /* TTC3: long-form DALC chunks are ub4 */
#define TTC_CCAP_END_OF_RESPONSE 0x20       /* TTC4: message 29 ends every response */

/* Runtime capability index and bit: the client's time zone is in its DTY. */
#define TTC_RCAP_TTC            1
#define TTC_RCAP_TTC_TIME_ZONE  0x01

/* Oracle type numbers (python ORA_TYPE_NUM_*). */
#define ORA_VARCHAR     1
#define ORA_NUMBER      2
#define ORA_LONG        8
#define ORA_ROWID       11
#define ORA_LONG_RAW    24
#define ORA_LONG_VARCHAR 94
#define ORA_LONG_VARRAW 95
#define ORA_CURSOR      102
#define ORA_OBJECT      109
#define ORA_CLOB        112
#define ORA_BLOB        113
#define ORA_BFILE       114
#define ORA_JSON        119
#define ORA_VECTOR      127
#define ORA_UROWID      208

#endif
