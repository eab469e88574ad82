#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro over a cast function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// How many bytes a statement journal (the undo of one savepoint) keeps in memory before it
/// spills to a temporary file: 8 MiB, against SQLite's 64 KiB. A drain keeps each write's
/// bookkeeping in a savepoint of about 90 KB; a call touching more than 8 MiB still spills.
#define CSQLITE_STATEMENT_JOURNAL_SPILL (8 << 20)

/// Sets this process's SQLite configuration; true when it holds. sqlite3_config is variadic,
/// which Swift cannot call, and works only before SQLite initializes (at the first open), so
/// whatever opens a database calls this first.
static inline int csqlite_configure(void) {
  int rc = sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, CSQLITE_STATEMENT_JOURNAL_SPILL);
  return rc == SQLITE_OK;
}
#endif
