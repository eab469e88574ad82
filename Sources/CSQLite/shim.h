#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro over a cast function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// How many bytes a statement journal (the undo of one savepoint) keeps in memory before it
/// spills to a temporary file: 124 KiB, against SQLite's 64 KiB. A drain keeps each write's
/// bookkeeping in a savepoint of about 90 KB; a statement touching more spills.
///
/// It must stay below 128 KiB. SQLite's in-memory journal keeps chunks of this size, and at the
/// spill writes each chunk to the file in one call, which the unix VFS cuts to its low 17 bits
/// (`nBuf &= 0x1ffff` in os_unix.c): at 8 MiB the first chunk was written as 0 bytes, read as a
/// short write, and every statement whose undo passed 8 MiB failed SQLITE_FULL ("database or disk
/// is full") on a disk with room to spare, such as putting 15,000 parked writes back at once.
#define CSQLITE_STATEMENT_JOURNAL_SPILL (124 << 10)
_Static_assert(CSQLITE_STATEMENT_JOURNAL_SPILL <= 0x1ffff, "SQLite's unix VFS writes at most 0x1ffff bytes a call");

/// Sets this process's SQLite configuration; true when it holds. sqlite3_config is variadic,
/// which Swift cannot call, and works only before SQLite initializes (at the first open), so
/// whatever opens a database calls this first.
static inline int csqlite_configure(void) {
  int rc = sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, CSQLITE_STATEMENT_JOURNAL_SPILL);
  return rc == SQLITE_OK;
}
#endif
