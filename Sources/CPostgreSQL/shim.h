// libpq, PostgreSQL's C client library (PostgreSQL 15 documentation, chapter 34), from Debian's libpq-dev.
#include <libpq-fe.h>
