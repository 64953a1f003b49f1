// Our own declarations of the few libpq functions tabstore uses. libpq is not linked:
// tabstore_pq_load() dlopen()s it the first time a postgresql:// URL is used, so a
// machine without libpq still builds and runs tabstore on files. Every name starts with
// tabstore_pq so that an app importing the real libpq-fe.h too sees no clash. The
// numeric values and the struct layouts are libpq's ABI (libpq.so.5, PostgreSQL 14+).
#ifndef TABSTORE_LIBPQ_H
#define TABSTORE_LIBPQ_H

#include <stddef.h>

// Only the function pointers are marked _Nonnull (so that Swift calls them directly);
// every other pointer keeps C's unspecified nullability.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

typedef struct tabstore_pq_conn tabstore_pq_conn;      // PGconn
typedef struct tabstore_pq_result tabstore_pq_result;  // PGresult
typedef unsigned int tabstore_pq_oid;                  // Oid

// PGnotify: the fields apps may read, in libpq's order.
typedef struct tabstore_pq_notify {
    char *relname;
    int be_pid;
    char *extra;
    struct tabstore_pq_notify *next;
} tabstore_pq_notify;

// PQconninfoOption.
typedef struct tabstore_pq_conninfo_option {
    char *keyword;
    char *envvar;
    char *compiled;
    char *val;
    char *label;
    char *dispchar;
    int dispsize;
} tabstore_pq_conninfo_option;

// ConnStatusType (only the two a blocking connection ends in).
typedef enum {
    TABSTORE_PQ_CONNECTION_OK = 0,
    TABSTORE_PQ_CONNECTION_BAD = 1,
} tabstore_pq_conn_status;

// ExecStatusType.
typedef enum {
    TABSTORE_PQ_EMPTY_QUERY = 0,
    TABSTORE_PQ_COMMAND_OK = 1,
    TABSTORE_PQ_TUPLES_OK = 2,
    TABSTORE_PQ_COPY_OUT = 3,
    TABSTORE_PQ_COPY_IN = 4,
    TABSTORE_PQ_BAD_RESPONSE = 5,
    TABSTORE_PQ_NONFATAL_ERROR = 6,
    TABSTORE_PQ_FATAL_ERROR = 7,
    TABSTORE_PQ_COPY_BOTH = 8,
    TABSTORE_PQ_SINGLE_TUPLE = 9,
    TABSTORE_PQ_PIPELINE_SYNC = 10,
    TABSTORE_PQ_PIPELINE_ABORTED = 11,
} tabstore_pq_exec_status;

// PGTransactionStatusType.
typedef enum {
    TABSTORE_PQ_TRANS_IDLE = 0,
    TABSTORE_PQ_TRANS_ACTIVE = 1,
    TABSTORE_PQ_TRANS_INTRANS = 2,
    TABSTORE_PQ_TRANS_INERROR = 3,
    TABSTORE_PQ_TRANS_UNKNOWN = 4,
} tabstore_pq_transaction_status;

// PGpipelineStatus.
typedef enum {
    TABSTORE_PQ_PIPELINE_OFF = 0,
    TABSTORE_PQ_PIPELINE_ON = 1,
    TABSTORE_PQ_PIPELINE_ABORTED_STATUS = 2,
} tabstore_pq_pipeline_status;

// PG_DIAG_* field codes for PQresultErrorField.
enum {
    TABSTORE_PQ_DIAG_SQLSTATE = 'C',
    TABSTORE_PQ_DIAG_MESSAGE_PRIMARY = 'M',
    TABSTORE_PQ_DIAG_CONSTRAINT_NAME = 'n',
};

// PQnoticeProcessor: what libpq calls with a notice or warning, and with an error that
// arrives outside any query (a FATAL as the server ends an idle connection).
typedef void (*tabstore_pq_notice_processor)(void *arg, const char *message);

// A notice processor that drops every message: the default one prints to standard error.
void tabstore_pq_ignore_notice(void *arg, const char *message);

// The functions, named as in libpq-fe.h; filled by tabstore_pq_load().
typedef struct tabstore_pq_functions {
    tabstore_pq_conn *(* _Nonnull PQconnectdb)(const char *conninfo);
    tabstore_pq_conn *(* _Nonnull PQconnectdbParams)(const char *const *keywords, const char *const *values, int expand_dbname);
    tabstore_pq_conn_status (* _Nonnull PQstatus)(const tabstore_pq_conn *conn);
    char *(* _Nonnull PQerrorMessage)(const tabstore_pq_conn *conn);
    void (* _Nonnull PQfinish)(tabstore_pq_conn *conn);
    tabstore_pq_result *(* _Nonnull PQexec)(tabstore_pq_conn *conn, const char *command);
    tabstore_pq_result *(* _Nonnull PQexecParams)(tabstore_pq_conn *conn, const char *command, int nParams,
        const tabstore_pq_oid *paramTypes, const char *const *paramValues, const int *paramLengths,
        const int *paramFormats, int resultFormat);
    tabstore_pq_result *(* _Nonnull PQprepare)(tabstore_pq_conn *conn, const char *stmtName, const char *query,
        int nParams, const tabstore_pq_oid *paramTypes);
    tabstore_pq_result *(* _Nonnull PQexecPrepared)(tabstore_pq_conn *conn, const char *stmtName, int nParams,
        const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
    tabstore_pq_exec_status (* _Nonnull PQresultStatus)(const tabstore_pq_result *res);
    char *(* _Nonnull PQresultErrorMessage)(const tabstore_pq_result *res);
    char *(* _Nonnull PQresultErrorField)(const tabstore_pq_result *res, int fieldcode);
    int (* _Nonnull PQntuples)(const tabstore_pq_result *res);
    int (* _Nonnull PQnfields)(const tabstore_pq_result *res);
    char *(* _Nonnull PQgetvalue)(const tabstore_pq_result *res, int tup_num, int field_num);
    int (* _Nonnull PQgetisnull)(const tabstore_pq_result *res, int tup_num, int field_num);
    int (* _Nonnull PQgetlength)(const tabstore_pq_result *res, int tup_num, int field_num);
    char *(* _Nonnull PQcmdTuples)(tabstore_pq_result *res);
    void (* _Nonnull PQclear)(tabstore_pq_result *res);
    int (* _Nonnull PQsocket)(const tabstore_pq_conn *conn);
    int (* _Nonnull PQconsumeInput)(tabstore_pq_conn *conn);
    tabstore_pq_notify *(* _Nonnull PQnotifies)(tabstore_pq_conn *conn);
    void (* _Nonnull PQfreemem)(void *ptr);
    int (* _Nonnull PQisBusy)(tabstore_pq_conn *conn);
    int (* _Nonnull PQenterPipelineMode)(tabstore_pq_conn *conn);
    int (* _Nonnull PQexitPipelineMode)(tabstore_pq_conn *conn);
    int (* _Nonnull PQpipelineSync)(tabstore_pq_conn *conn);
    tabstore_pq_pipeline_status (* _Nonnull PQpipelineStatus)(const tabstore_pq_conn *conn);
    int (* _Nonnull PQsendQueryParams)(tabstore_pq_conn *conn, const char *command, int nParams,
        const tabstore_pq_oid *paramTypes, const char *const *paramValues, const int *paramLengths,
        const int *paramFormats, int resultFormat);
    int (* _Nonnull PQsendPrepare)(tabstore_pq_conn *conn, const char *stmtName, const char *query, int nParams,
        const tabstore_pq_oid *paramTypes);
    int (* _Nonnull PQsendQueryPrepared)(tabstore_pq_conn *conn, const char *stmtName, int nParams,
        const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
    tabstore_pq_result *(* _Nonnull PQgetResult)(tabstore_pq_conn *conn);
    int (* _Nonnull PQsetnonblocking)(tabstore_pq_conn *conn, int arg);
    int (* _Nonnull PQflush)(tabstore_pq_conn *conn);
    tabstore_pq_conninfo_option *(* _Nonnull PQconninfoParse)(const char *conninfo, char **errmsg);
    void (* _Nonnull PQconninfoFree)(tabstore_pq_conninfo_option *connOptions);
    tabstore_pq_conninfo_option *(* _Nonnull PQconndefaults)(void);
    char *(* _Nonnull PQhost)(const tabstore_pq_conn *conn);
    char *(* _Nonnull PQport)(const tabstore_pq_conn *conn);
    char *(* _Nonnull PQdb)(const tabstore_pq_conn *conn);
    char *(* _Nonnull PQuser)(const tabstore_pq_conn *conn);
    int (* _Nonnull PQbackendPID)(const tabstore_pq_conn *conn);
    tabstore_pq_notice_processor (* _Nonnull PQsetNoticeProcessor)(tabstore_pq_conn *conn,
        tabstore_pq_notice_processor proc, void *arg);
    int (* _Nonnull PQserverVersion)(const tabstore_pq_conn *conn);
    tabstore_pq_transaction_status (* _Nonnull PQtransactionStatus)(const tabstore_pq_conn *conn);
    int (* _Nonnull PQsendQuery)(tabstore_pq_conn *conn, const char *query);
    const char *(* _Nonnull PQparameterStatus)(const tabstore_pq_conn *conn, const char *paramName);
    tabstore_pq_conn *(* _Nonnull PQconnectStartParams)(const char *const *keywords, const char *const *values, int expand_dbname);
    void (* _Nonnull PQreset)(tabstore_pq_conn *conn);
} tabstore_pq_functions;

// The library tabstore_pq_load() opens: `override` (the value of the environment
// variable TABSTORE_LIBPQ) when not NULL or empty, else libpq.so.5 (libpq.5.dylib on Darwin).
const char *tabstore_pq_library_name(const char *override);

// Opens the library at `name` and fills `functions`. Returns 1, or 0 with the reason
// (dlerror's, or "<name> lacks PQxxx") written to `message`.
int tabstore_pq_open(const char *name, tabstore_pq_functions *functions, char *message, size_t capacity);

// Loads libpq once per process (thread-safe): NULL on success, else why it could not be.
const char *tabstore_pq_load(void);

// The loaded functions; only valid after tabstore_pq_load() returned NULL.
const tabstore_pq_functions *tabstore_pq_loaded(void);

#pragma clang diagnostic pop

#endif
