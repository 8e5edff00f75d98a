#include "unreachable.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void libpq_reached_unreachable(const char *function, const char *what) {
    fprintf(stderr, "%s called: libpq is using %s, which cuff-forward never makes\n", function, what);
    abort();
}
