#include "TabStoreProcessArguments.h"

static int argumentCount;
static char **arguments;

// glibc and Darwin's dyld call initialisers with (argc, argv, envp); a C library that
// passes nothing leaves the count at 0.
__attribute__((constructor))
static void tabstore_capture_process_arguments(int count, char **vector, char **environment) {
    (void)environment;
    if (count > 0 && vector != 0) {
        argumentCount = count;
        arguments = vector;
    }
}

int tabstore_process_argument_count(void) { return argumentCount; }

char **tabstore_process_arguments(void) { return arguments; }
