// The process's own argument vector, as the system passed it to the program.
//
// The Swift runtime of a statically linked Linux executable reads its arguments from
// /proc/self/cmdline, which needs a free file descriptor: with none left (ulimit -n 3) it
// sees no arguments at all, and `tabstore remove-set x` would run as a bare `tabstore`.
// The C library hands every initialiser the real argc and argv, which needs nothing.
#ifndef TABSTORE_PROCESS_ARGUMENTS_H
#define TABSTORE_PROCESS_ARGUMENTS_H

/// The number of arguments, the program's name included; 0 where the system passed none
/// to initialisers (then use the Swift runtime's).
int tabstore_process_argument_count(void);

/// The arguments, as the kernel laid them out (writing into them changes what `ps`
/// shows); NULL when `tabstore_process_argument_count()` is 0.
char **tabstore_process_arguments(void);

#endif
