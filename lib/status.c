/* Status codes, gp_strerror and the error-context helpers. */
#include "gpuplan/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *gp_strerror(int code)
{
    switch (code) {
#define GP__STATUS_CASE(name, val, text)                                        \
    case val:                                                                   \
        return text;
        GP_STATUS_MAP(GP__STATUS_CASE)
#undef GP__STATUS_CASE
    default:
        return "unknown status code";
    }
}

void gp_err_clear(gp_err *e)
{
    if (e == NULL)
        return;
    e->code = GP_OK;
    e->line = 0;
    e->col = 0;
    e->where[0] = '\0';
    e->msg[0] = '\0';
}

int gp__raise(gp_err *e, gp_status code, const char *where, unsigned line,
              unsigned col, const char *fmt, ...)
{
    if (e != NULL) {
        va_list ap;
        e->code = code;
        e->line = line;
        e->col = col;
        snprintf(e->where, sizeof e->where, "%s", where ? where : "");
        e->msg[0] = '\0';
        if (fmt != NULL) {
            va_start(ap, fmt);
            vsnprintf(e->msg, sizeof e->msg, fmt, ap);
            va_end(ap);
        }
    }
    return (int)code;
}

char *gp_err_format(const gp_err *e, char *buf, size_t n)
{
    if (buf == NULL || n == 0)
        return buf;
    buf[0] = '\0';
    if (e == NULL)
        return buf;
    if (e->where[0] != '\0' && e->line > 0 && e->col > 0)
        snprintf(buf, n, "%s:%u:%u: %s", e->where, e->line, e->col, e->msg);
    else if (e->where[0] != '\0' && e->line > 0)
        snprintf(buf, n, "%s:%u: %s", e->where, e->line, e->msg);
    else if (e->where[0] != '\0')
        snprintf(buf, n, "%s: %s", e->where, e->msg);
    else
        snprintf(buf, n, "%s", e->msg[0] ? e->msg : gp_strerror((int)e->code));
    return buf;
}
