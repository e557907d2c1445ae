// go-ora (github.com/sijms/go-ora/v2) client driver for the capture generator.
// Usage: goora-client '<json plan>'  (same plan format as clients/python/client.py)
// Prints ONE JSON line with its settings and the rows it actually received.
//
// go-ora has no per-statement array size: PREFETCH_ROWS (connection option)
// is used for the first execute and every following fetch. Its requested SDU
// is fixed by the driver (2 MiB); the server's SDU limit decides.
package main

import (
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	go_ora "github.com/sijms/go-ora/v2"
)

type step struct {
	// go_ora.RegisterType of an object type (its ALL_TYPES / ALL_TYPE_ATTRS queries)
	RegisterType string `json:"register_type"`
	// collection types registered before it: [element type, collection type] pairs
	ArrayTypes [][2]string `json:"array_types"`
	PlsqlOut   string      `json:"plsql_out"`
	Types      []string    `json:"types"`
	SQL        string      `json:"sql"`
	Repeat     int         `json:"repeat"`
	// report every fetched value as text (valueText)
	ReportValues bool `json:"report_values"`
	Commit       bool `json:"commit"`
	// begin a transaction (database/sql Begin): the DML steps run in it (no commit on
	// execute) until a commit step commits it (go-ora's Commit: an OCOMMIT)
	Begin bool `json:"begin"`
	// DML: one execution with these binds ([type, value], NUMBER only) on a statement
	// prepared once per text and kept across the steps (row by row, issue 36)
	DML   bool       `json:"dml"`
	Binds [][]string `json:"binds"`
	// array DML: the rows as one execution of arrays (go-ora's array binds)
	Many [][]int64 `json:"many"`
	Ping bool      `json:"ping"`
	// the CLOBs come as locators (LOB FETCH=POST): go-ora reads each non-NULL one with
	// a call of its own before the row is scanned; counted as lob_reads, their
	// characters as lob_chars (the server's log has the reads: testgen verify compares)
	LobLocators bool `json:"lob_locators"`
	// CLOB columns that come as text with the row (LOB FETCH=PRE, go-ora's default:
	// defined as LONG VARCHAR): their characters counted as lob_text_chars
	LobColumns []string `json:"lob_columns"`
}

type plan struct {
	Host         string `json:"host"`
	Port         int    `json:"port"`
	Service      string `json:"service"`
	User         string `json:"user"`
	Password     string `json:"password"`
	SDU          int    `json:"sdu"`
	ArraySize    int    `json:"arraysize"`
	PrefetchRows int    `json:"prefetchrows"`
	Sessions     int    `json:"sessions"`
	Steps        []step `json:"steps"`
	// go-ora's LOB FETCH URL option: PRE/INLINE (the default: LOB columns defined as
	// LONG, the data with the row) or POST/STREAM (locators, each LOB read by a call)
	LobFetch string `json:"lob_fetch"`
	TLS      *struct {
		CA      string `json:"ca"`
		Version string `json:"version"`
	} `json:"tls"`
	// native network encryption: go-ora's service levels (ACCEPTED, REJECTED,
	// REQUESTED, REQUIRED) for the ANO encryption and data-integrity services
	NNE *struct {
		Encryption string `json:"encryption"`
		Integrity  string `json:"integrity"`
	} `json:"nne"`
}

type stmtResult struct {
	Plsql        string        `json:"plsql,omitempty"`
	Out          []interface{} `json:"out,omitempty"`
	SQL          string        `json:"sql,omitempty"`
	Action       string        `json:"action,omitempty"`
	PrefetchRows int           `json:"prefetchrows,omitempty"`
	ArraySize    int           `json:"arraysize,omitempty"`
	Rows         int           `json:"rows"`
	ValueChars   int           `json:"value_chars"`
	// per row, the attribute values of each object column (X, Y, LABEL)
	Objects [][]map[string]interface{} `json:"objects,omitempty"`
	// per row, each value as go-ora gave it, as text (report_values)
	Values       [][]string `json:"values,omitempty"`
	Error        *string    `json:"error"`
	ErrorMessage string     `json:"error_message,omitempty"`
	DML          bool       `json:"dml,omitempty"`
	Many         int        `json:"many,omitempty"`
	Rowcount     *int64     `json:"rowcount,omitempty"`
	LobReads     int        `json:"lob_reads,omitempty"`
	LobChars     int        `json:"lob_chars,omitempty"`
	LobTextChars int        `json:"lob_text_chars,omitempty"`
}

// pointT receives an object of type SQLNET_POINT (x NUMBER, y NUMBER, label VARCHAR2):
// go-ora sets each field from the attribute of the tag's name (NUMBER as its text)
type pointT struct {
	X     interface{} `udt:"X"`
	Y     interface{} `udt:"Y"`
	Label interface{} `udt:"LABEL"`
}

// shapeT receives an object of type SQLNET_SHAPE (name VARCHAR2, vertices SQLNET_NUMS, a
// VARRAY of NUMBER): the collection attribute becomes a slice of its elements' text
type shapeT struct {
	Name     interface{}   `udt:"NAME"`
	Vertices []interface{} `udt:"VERTICES"`
}

// valueText: a fetched value as go-ora gave it, as text: NULL, a float's shortest text, a
// time in its own zone with the offset, hex of bytes, TRUE/FALSE, a CLOB's length in
// characters; other types as Go prints them, prefixed by their Go type.
func valueText(v interface{}, dbType string) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		if dbType == "CLOB" || dbType == "NCLOB" {
			return "LOB DB_TYPE_CLOB " + strconv.Itoa(utf8.RuneCountInString(x))
		}
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	case []byte:
		return hex.EncodeToString(x)
	case time.Time:
		return x.Format("2006-01-02 15:04:05.000000000 -07:00")
	}
	return fmt.Sprintf("%T %v", v, v)
}

type sessionResult struct {
	Session      int          `json:"session"`
	Statements   []stmtResult `json:"statements"`
	RowsReceived int          `json:"rows_received"`
	Errors       []string     `json:"errors"`
}

func runSession(p plan, idx int) (*sessionResult, error) {
	service := p.Service
	if service == "" {
		service = "freepdb1"
	}
	opts := map[string]string{"PREFETCH_ROWS": strconv.Itoa(p.PrefetchRows)}
	if p.TLS != nil {
		// TCPS: the server certificate is verified against the generator's
		// throwaway CA, which Go's system pool reads from SSL_CERT_FILE
		opts["SSL"] = "true"
		opts["SSL VERIFY"] = "true"
	}
	if p.NNE != nil {
		if p.NNE.Encryption != "" {
			opts["ENCRYPTION"] = p.NNE.Encryption
		}
		if p.NNE.Integrity != "" {
			opts["DATA INTEGRITY"] = p.NNE.Integrity
		}
	}
	if p.LobFetch != "" {
		opts["LOB FETCH"] = p.LobFetch
	}
	url := go_ora.BuildUrl(p.Host, p.Port, service, p.User, p.Password, opts)
	db, err := sql.Open("oracle", url)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	conn := db
	res := &sessionResult{Session: idx, Statements: []stmtResult{}, Errors: []string{}}
	prepared := map[string]*sql.Stmt{}
	defer func() {
		for _, st := range prepared {
			st.Close()
		}
	}()
	var tx *sql.Tx
	defer func() {
		if tx != nil {
			tx.Rollback()
		}
	}()
	for _, s := range p.Steps {
		if s.Begin {
			var err error
			if tx, err = conn.Begin(); err != nil {
				return res, err
			}
			res.Statements = append(res.Statements, stmtResult{Action: "begin"})
			continue
		}
		if s.Commit {
			var err error
			if tx != nil {
				err = tx.Commit()
				tx = nil
			} else {
				var t *sql.Tx
				t, err = conn.Begin()
				if err == nil {
					err = t.Commit()
				}
			}
			if err != nil {
				return res, err
			}
			res.Statements = append(res.Statements, stmtResult{Action: "commit"})
			continue
		}
		if s.RegisterType != "" {
			// go-ora reads the type's OID and attributes with two queries and keeps them
			// in the driver; an object column of that type is then decoded into pointT
			var err error
			for _, a := range s.ArrayTypes {
				if err == nil {
					err = go_ora.RegisterType(db, a[0], a[1], nil)
				}
			}
			if err == nil {
				if s.RegisterType == "SQLNET_SHAPE" {
					err = go_ora.RegisterType(db, s.RegisterType, "", shapeT{})
				} else {
					err = go_ora.RegisterType(db, s.RegisterType, "", pointT{})
				}
			}
			r := stmtResult{Action: "register_type " + s.RegisterType}
			if err != nil {
				msg := err.Error()
				r.Error = &msg
				res.Errors = append(res.Errors, msg)
			}
			res.Statements = append(res.Statements, r)
			continue
		}
		if s.Ping {
			if err := conn.Ping(); err != nil {
				return res, err
			}
			res.Statements = append(res.Statements, stmtResult{Action: "ping"})
			continue
		}
		if s.DML || s.Many != nil {
			r := stmtResult{SQL: s.SQL, DML: true}
			var result sql.Result
			var err error
			if s.Many != nil {
				// one array per bind position: go-ora sends the rows as one call's iterations
				r.Many = len(s.Many)
				cols := []interface{}{}
				if len(s.Many) > 0 {
					for c := range s.Many[0] {
						col := make([]int64, len(s.Many))
						for i, row := range s.Many {
							col[i] = row[c]
						}
						cols = append(cols, col)
					}
				}
				result, err = conn.Exec(s.SQL, cols...)
			} else if tx != nil {
				// in the transaction: the statement on the transaction's connection
				var args []interface{}
				if args, err = intArgs(s.Binds); err == nil {
					result, err = tx.Exec(s.SQL, args...)
				}
			} else {
				st, ok := prepared[s.SQL]
				if !ok {
					st, err = conn.Prepare(s.SQL)
					if err == nil {
						prepared[s.SQL] = st
					}
				}
				if err == nil {
					var args []interface{}
					if args, err = intArgs(s.Binds); err == nil {
						result, err = st.Exec(args...)
					}
				}
			}
			if err == nil {
				var n int64
				n, err = result.RowsAffected()
				r.Rowcount = &n
			}
			if err != nil {
				msg := err.Error()
				code := strings.SplitN(msg, ":", 2)[0]
				r.Error = &code
				r.ErrorMessage = msg
				res.Errors = append(res.Errors, code)
			}
			res.Statements = append(res.Statements, r)
			continue
		}
		if s.PlsqlOut != "" {
			// PL/SQL with OUT binds: NUMBER, VARCHAR2, REF CURSOR (its rows fetched to the end)
			r := stmtResult{Plsql: s.PlsqlOut, Out: []interface{}{}}
			args := []interface{}{}
			nums := make([]int64, len(s.Types))
			strs := make([]string, len(s.Types))
			curs := make([]go_ora.RefCursor, len(s.Types))
			for i, t := range s.Types {
				switch t {
				case "number":
					args = append(args, go_ora.Out{Dest: &nums[i]})
				case "varchar":
					args = append(args, go_ora.Out{Dest: &strs[i], Size: 100})
				default:
					args = append(args, go_ora.Out{Dest: &curs[i]})
				}
			}
			_, err := conn.Exec(s.PlsqlOut, args...)
			if err == nil {
				for i, t := range s.Types {
					switch t {
					case "number":
						r.Out = append(r.Out, nums[i])
					case "varchar":
						r.Out = append(r.Out, strs[i])
					default:
						n := 0
						ds, qerr := curs[i].Query()
						if qerr == nil {
							vals := make([]driver.Value, len(ds.Columns()))
							for ds.Next(vals) == nil {
								n++
							}
							ds.Close()
						} else {
							err = qerr
						}
						r.Out = append(r.Out, map[string]int{"cursor_rows": n})
					}
				}
			}
			if err != nil {
				msg := err.Error()
				code := strings.SplitN(msg, ":", 2)[0]
				r.Error = &code
				r.ErrorMessage = msg
				res.Errors = append(res.Errors, code)
			}
			res.Statements = append(res.Statements, r)
			continue
		}
		rep := s.Repeat
		if rep < 1 {
			rep = 1
		}
		for k := 0; k < rep; k++ {
			r := stmtResult{SQL: s.SQL, PrefetchRows: p.PrefetchRows, ArraySize: p.PrefetchRows}
			rows, err := conn.Query(s.SQL)
			if err == nil {
				cols, _ := rows.Columns()
				ctypes, _ := rows.ColumnTypes()
				vals := make([]interface{}, len(cols))
				ptrs := make([]interface{}, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				for rows.Next() {
					if err = rows.Scan(ptrs...); err != nil {
						break
					}
					r.Rows++
					if s.ReportValues {
						texts := make([]string, len(vals))
						for i, v := range vals {
							dbType := ""
							if i < len(ctypes) {
								dbType = ctypes[i].DatabaseTypeName()
							}
							texts[i] = valueText(v, dbType)
						}
						r.Values = append(r.Values, texts)
					}
					for i, v := range vals {
						if str, ok := v.(string); ok {
							for _, c := range s.LobColumns {
								if strings.EqualFold(c, cols[i]) {
									r.LobTextChars += utf8.RuneCountInString(str)
								}
							}
						}
					}
					if s.LobLocators {
						for i, v := range vals {
							if str, ok := v.(string); ok && i < len(ctypes) && ctypes[i].DatabaseTypeName() == "OCIClobLocator" {
								r.LobReads++
								r.LobChars += utf8.RuneCountInString(str)
							}
						}
					}
					var objs []map[string]interface{}
					for _, v := range vals {
						r.ValueChars += len(fmt.Sprint(v))
						if pt, ok := v.(pointT); ok {
							objs = append(objs, map[string]interface{}{"X": pt.X, "Y": pt.Y, "LABEL": pt.Label})
						}
						if sh, ok := v.(shapeT); ok {
							verts := sh.Vertices
							if verts == nil {
								verts = []interface{}{}
							}
							objs = append(objs, map[string]interface{}{"NAME": sh.Name, "VERTICES": verts})
						}
					}
					if objs != nil {
						r.Objects = append(r.Objects, objs)
					}
				}
				if err == nil {
					err = rows.Err()
				}
				rows.Close()
			}
			if err != nil {
				msg := err.Error()
				code := strings.SplitN(msg, ":", 2)[0]
				r.Error = &code
				r.ErrorMessage = msg
				res.Errors = append(res.Errors, code)
			}
			res.RowsReceived += r.Rows
			res.Statements = append(res.Statements, r)
		}
	}
	return res, nil
}

func main() {
	var p plan
	if err := json.Unmarshal([]byte(os.Args[1]), &p); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if p.Sessions < 1 {
		p.Sessions = 1
	}
	results := make([]*sessionResult, p.Sessions)
	fatal := []string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < p.Sessions; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r, err := runSession(p, i)
			mu.Lock()
			defer mu.Unlock()
			results[i] = r
			if err != nil {
				fatal = append(fatal, fmt.Sprintf("session %d: %v", i, err))
			}
		}(i)
	}
	wg.Wait()
	total := 0
	stmts := []string{}
	sessions := []*sessionResult{}
	for _, r := range results {
		if r == nil {
			continue
		}
		sessions = append(sessions, r)
		total += r.RowsReceived
		for _, s := range r.Statements {
			if s.SQL != "" {
				stmts = append(stmts, s.SQL)
			}
		}
	}
	out := map[string]interface{}{
		"driver": "go-ora", "driver_version": goOraVersion, "arraysize": p.PrefetchRows,
		"prefetchrows": p.PrefetchRows, "sdu_requested": p.SDU, "sessions": sessions,
		"rows_received": total, "statements": stmts, "fatal_errors": fatal,
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	if len(fatal) > 0 {
		os.Exit(1)
	}
}

// intArgs: a statement's binds (name, value) as the integers the scripts bind.
func intArgs(binds [][]string) ([]interface{}, error) {
	args := []interface{}{}
	for _, b := range binds {
		v, err := strconv.ParseInt(b[1], 10, 64)
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	return args, nil
}
