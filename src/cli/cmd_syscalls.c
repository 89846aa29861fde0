#include "cli.h"
int cmd_syscalls(int argc, char **argv) { (void)argc; (void)argv; return 1; }
void help_syscalls(FILE *f) { fputs("usage: tracekit syscalls [options] COMMAND [ARGS]\n", f); }
