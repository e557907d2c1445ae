/* ora_errors.h - the common ORA errors Expert Info names one by one.
 *
 * Wireshark's Expert Information dialog groups its items by the summary an
 * expert field was registered with ("Group by summary", on by default): one
 * expert field per error number puts "ORA-01722: invalid number" on the
 * group's line, without ungrouping.  This is that table: the number (as a
 * number and as the five digits of its name) and the first words of Oracle's
 * message, without the placeholders the server fills in.  An error not in the
 * table goes to the generic expert field (sqlnet.ora_error.expert), whose
 * items name the error and the server's text.  ORA-01403 (no data found, the
 * end of every fetch) is no expert item at all.
 *
 * Sorted by number (metrics.c looks a number up by bisection; a test checks
 * the order).  One row: X(number, "NNNNN", "message").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_ORA_ERRORS_H
#define SQLNET_ORA_ERRORS_H

#define SQLNET_ORA_ERRORS(X) \
    X(1, "00001", "unique constraint violated") \
    X(18, "00018", "maximum number of sessions exceeded") \
    X(20, "00020", "maximum number of processes exceeded") \
    X(28, "00028", "your session has been killed") \
    X(54, "00054", "resource busy and acquire with NOWAIT specified or timeout expired") \
    X(60, "00060", "deadlock detected while waiting for resource") \
    X(257, "00257", "archiver error") \
    X(600, "00600", "internal error code") \
    X(604, "00604", "error occurred at recursive SQL level") \
    X(900, "00900", "invalid SQL statement") \
    X(904, "00904", "invalid identifier") \
    X(907, "00907", "missing right parenthesis") \
    X(911, "00911", "invalid character") \
    X(913, "00913", "too many values") \
    X(917, "00917", "missing comma") \
    X(918, "00918", "column ambiguously defined") \
    X(920, "00920", "invalid relational operator") \
    X(921, "00921", "unexpected end of SQL command") \
    X(923, "00923", "FROM keyword not found where expected") \
    X(925, "00925", "missing INTO keyword") \
    X(932, "00932", "inconsistent datatypes") \
    X(933, "00933", "SQL command not properly ended") \
    X(936, "00936", "missing expression") \
    X(937, "00937", "not a single-group group function") \
    X(942, "00942", "table or view does not exist") \
    X(947, "00947", "not enough values") \
    X(955, "00955", "name is already used by an existing object") \
    X(979, "00979", "not a GROUP BY expression") \
    X(1000, "01000", "maximum open cursors exceeded") \
    X(1001, "01001", "invalid cursor") \
    X(1002, "01002", "fetch out of sequence") \
    X(1007, "01007", "variable not in select list") \
    X(1008, "01008", "not all variables bound") \
    X(1012, "01012", "not logged on") \
    X(1013, "01013", "user requested cancel of current operation") \
    X(1017, "01017", "invalid username/password; logon denied") \
    X(1031, "01031", "insufficient privileges") \
    X(1033, "01033", "ORACLE initialization or shutdown in progress") \
    X(1034, "01034", "ORACLE not available") \
    X(1036, "01036", "illegal variable name/number") \
    X(1045, "01045", "user lacks CREATE SESSION privilege; logon denied") \
    X(1089, "01089", "immediate shutdown or close in progress") \
    X(1400, "01400", "cannot insert NULL") \
    X(1401, "01401", "inserted value too large for column") \
    X(1405, "01405", "fetched column value is NULL") \
    X(1407, "01407", "cannot update to NULL") \
    X(1410, "01410", "invalid ROWID") \
    X(1422, "01422", "exact fetch returns more than requested number of rows") \
    X(1427, "01427", "single-row subquery returns more than one row") \
    X(1438, "01438", "value larger than specified precision allowed for this column") \
    X(1461, "01461", "can bind a LONG value only for insert into a LONG column") \
    X(1476, "01476", "divisor is equal to zero") \
    X(1555, "01555", "snapshot too old") \
    X(1652, "01652", "unable to extend temp segment") \
    X(1722, "01722", "invalid number") \
    X(1756, "01756", "quoted string not properly terminated") \
    X(1830, "01830", "date format picture ends before converting entire input string") \
    X(1843, "01843", "not a valid month") \
    X(1847, "01847", "day of month must be between 1 and last day of month") \
    X(1858, "01858", "a non-numeric character was found where a numeric was expected") \
    X(1861, "01861", "literal does not match format string") \
    X(2049, "02049", "timeout: distributed transaction waiting for lock") \
    X(2290, "02290", "check constraint violated") \
    X(2291, "02291", "integrity constraint violated - parent key not found") \
    X(2292, "02292", "integrity constraint violated - child record found") \
    X(2396, "02396", "exceeded maximum idle time") \
    X(3106, "03106", "fatal two-task communication protocol error") \
    X(3113, "03113", "end-of-file on communication channel") \
    X(3114, "03114", "not connected to ORACLE") \
    X(3135, "03135", "connection lost contact") \
    X(4031, "04031", "unable to allocate shared memory") \
    X(4043, "04043", "object does not exist") \
    X(4068, "04068", "existing state of packages has been discarded") \
    X(4088, "04088", "error during execution of trigger") \
    X(4091, "04091", "table is mutating, trigger/function may not see it") \
    X(6502, "06502", "PL/SQL: numeric or value error") \
    X(6503, "06503", "PL/SQL: Function returned without value") \
    X(6508, "06508", "PL/SQL: could not find program unit being called") \
    X(6511, "06511", "PL/SQL: cursor already open") \
    X(6530, "06530", "Reference to uninitialized composite") \
    X(6531, "06531", "Reference to uninitialized collection") \
    X(6532, "06532", "Subscript outside of limit") \
    X(6533, "06533", "Subscript beyond count") \
    X(6550, "06550", "PL/SQL compilation error") \
    X(8177, "08177", "can't serialize access for this transaction") \
    X(12899, "12899", "value too large for column") \
    X(24381, "24381", "error(s) in array DML") \
    X(25408, "25408", "can not safely replay call") \
    X(28000, "28000", "the account is locked") \
    X(28001, "28001", "the password has expired")

#endif /* SQLNET_ORA_ERRORS_H */
