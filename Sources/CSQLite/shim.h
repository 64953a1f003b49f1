#include <sqlite3.h>

/// `sqlite3_db_config` for a setting that is on or off: the function is variadic, which
/// Swift cannot call.
static inline int tabstore_sqlite3_db_config_flag(sqlite3 *db, int option, int on) {
    return sqlite3_db_config(db, option, on, (int *)0);
}
