/* Internal to the calibration readers (lib/calib_*.c); not installed. */
#ifndef GP_CALIB_INT_H
#define GP_CALIB_INT_H

#include "gpuplan/calib.h"

/* 1 when one line (blanks and MPI prefix stripped) marks nvbandwidth output:
 * 'nvbandwidth Version: ...', a 'memcpy CE|SM ...' matrix title, or
 * 'SUM KEY VALUE' with a memcpy testcase KEY (lib/calib_nvbw.c). */
int gp__calib_looks_nvbandwidth(const char *line);

/* 1 when t is a finite decimal number filling the whole token (no hex,
 * nan or inf; not empty), stored in *v (lib/calib_import.c). */
int gp__calib_num(const char *t, double *v);

/* Append a printf-style warning to c->warn (lib/calib_import.c); past
 * GP_CALIB_MAX_WARN only c->n_warn grows. */
void gp__calib_warn(gp_calib *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
