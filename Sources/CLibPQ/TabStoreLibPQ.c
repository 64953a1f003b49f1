#include "TabStoreLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

const char *tabstore_pq_library_name(const char *override) {
    if (override != NULL && override[0] != '\0') return override;
#if defined(__APPLE__)
    return "libpq.5.dylib";
#else
    return "libpq.so.5";
#endif
}

// Every function of the table, in its order: its name and where its pointer goes.
#define TABSTORE_PQ_SYMBOLS(X) \
    X(PQconnectdb) X(PQconnectdbParams) X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQexec) X(PQexecParams) \
    X(PQprepare) X(PQexecPrepared) X(PQresultStatus) X(PQresultErrorMessage) X(PQresultErrorField) \
    X(PQntuples) X(PQnfields) X(PQgetvalue) X(PQgetisnull) X(PQgetlength) X(PQcmdTuples) X(PQclear) \
    X(PQsocket) X(PQconsumeInput) X(PQnotifies) X(PQfreemem) X(PQisBusy) X(PQenterPipelineMode) \
    X(PQexitPipelineMode) X(PQpipelineSync) X(PQpipelineStatus) X(PQsendQueryParams) X(PQsendPrepare) \
    X(PQsendQueryPrepared) X(PQgetResult) X(PQsetnonblocking) X(PQflush) X(PQconninfoParse) \
    X(PQconninfoFree) X(PQconndefaults) X(PQhost) X(PQport) X(PQdb) X(PQuser) X(PQbackendPID) \
    X(PQserverVersion) X(PQtransactionStatus) X(PQsetNoticeProcessor) X(PQsendQuery) X(PQparameterStatus) \
    X(PQconnectStartParams) X(PQreset)

void tabstore_pq_ignore_notice(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

int tabstore_pq_open(const char *name, tabstore_pq_functions *functions, char *message, size_t capacity) {
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(message, capacity, "%s", reason != NULL ? reason : "dlopen failed");
        return 0;
    }
    tabstore_pq_functions found;
#define TABSTORE_PQ_FIND(symbol) \
    *(void **)(&found.symbol) = dlsym(library, #symbol); \
    if (found.symbol == NULL) { \
        snprintf(message, capacity, "%s lacks %s", name, #symbol); \
        dlclose(library); \
        return 0; \
    }
    TABSTORE_PQ_SYMBOLS(TABSTORE_PQ_FIND)
#undef TABSTORE_PQ_FIND
    // Kept open for the life of the process: connections may live until exit.
    *functions = found;
    return 1;
}

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static tabstore_pq_functions loaded_functions;
static char load_message[1024];
static int load_succeeded;

static void load_library(void) {
    const char *name = tabstore_pq_library_name(getenv("TABSTORE_LIBPQ"));
    load_succeeded = tabstore_pq_open(name, &loaded_functions, load_message, sizeof load_message);
}

const char *tabstore_pq_load(void) {
    pthread_once(&load_once, load_library);
    return load_succeeded ? NULL : load_message;
}

const tabstore_pq_functions *tabstore_pq_loaded(void) {
    return &loaded_functions;
}
