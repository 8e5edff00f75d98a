#define _GNU_SOURCE
#include "CLinux.h"

#include <sys/timex.h>

int cuffd_clock_synchronized(void) {
    struct timex request = {0};
    int state = adjtimex(&request);
    return state != TIME_ERROR && (request.status & STA_UNSYNC) == 0;
}
