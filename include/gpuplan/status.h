/* gpuplan status codes and the caller-passed error context (public). */
#ifndef GP_STATUS_H
#define GP_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One table, two products: the enum below and gp_strerror().  Never renumber
 * an existing code; add new ones before GP__LAST.  0 means success. */
#define GP_STATUS_MAP(X)                                                        \
    X(OK, 0, "success")                                                         \
    X(EINVAL, 1, "invalid argument or value")                                   \
    X(ERANGE, 2, "value out of range")                                          \
    X(ENOMEM, 3, "out of memory")                                               \
    X(EIO, 4, "input/output error")                                             \
    X(EPARSE, 5, "malformed input file")                                        \
    X(ESCHEMA, 6, "invalid database entry")                                     \
    X(ENOTFOUND, 7, "unknown name")                                             \
    X(EDUP, 8, "duplicate id or alias")                                         \
    X(EUNSUP, 9, "not supported")                                               \
    X(ENOFIT, 10, "does not fit")                                               \
    X(EUSAGE, 11, "usage error")

typedef enum gp_status {
#define GP__STATUS_ENUM(name, val, text) GP_##name = val,
    GP_STATUS_MAP(GP__STATUS_ENUM)
#undef GP__STATUS_ENUM
    GP__LAST
} gp_status;

/* Error context, owned by the caller (usually on the stack).  A function that
 * fails fills it (when non-NULL) and returns the same code.  `where` is a file
 * path or an option name ("--gpus"); line/col are 1-based, 0 when unknown.
 *
 * NULL arguments (the rule for every public function): `gp_err *e` may
 * always be NULL.  Any other pointer a function needs -- an out-pointer, a
 * required input -- is GP_EINVAL when NULL, with a message naming the
 * function and the parameter ("gp_db_open: NULL out"), and never a crash;
 * where NULL means something else (an optional input, a no-op, a 0 result)
 * the function's comment says so.  tests/check_nullargs.c holds every
 * function to it. */
typedef struct gp_err {
    gp_status code;
    unsigned line;
    unsigned col;
    char where[256];
    char msg[512];
} gp_err;

/* Static English text for a status code; never NULL. */
const char *gp_strerror(int code);

/* Reset an error context to GP_OK with empty strings.  NULL is a no-op. */
void gp_err_clear(gp_err *e);

/* Fill e (when non-NULL) and return code.  `where` may be NULL, and so may
 * fmt (an empty message).  The message is printf-formatted and truncated to
 * fit.  Every library error goes through here (one breakpoint: gp__raise). */
int gp__raise(gp_err *e, gp_status code, const char *where, unsigned line,
              unsigned col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

#define GP_RAISE(e, code, ...) gp__raise((e), (code), NULL, 0, 0, __VA_ARGS__)
#define GP_RAISE_AT(e, code, where, line, col, ...)                             \
    gp__raise((e), (code), (where), (line), (col), __VA_ARGS__)

/* Write "where:line:col: msg" (parts that are unknown are left out) into buf
 * of size n; returns buf.  Never fails; truncates.  A NULL e writes ""; a
 * NULL buf (or n 0) writes nothing. */
char *gp_err_format(const gp_err *e, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GP_STATUS_H */
