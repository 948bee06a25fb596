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
/* A reader's error at line:col of its input: x is the reader's context,
 * with the error sink `e` and the input's display `name`. */
#define GP__CALIB_FAIL(x, code, line, col, ...)                                 \
    GP_RAISE_AT((x)->e, (code), (x)->name, (line), (col), __VA_ARGS__)

/* Whether an NCCL_ALGO value leaves a single-node AllReduce sweep's large
 * sizes on the ring a link figure means: "Ring", or an exclusion list
 * ("^NVLS", "^NVLS,CollNet") that names NVLS and keeps Ring -- on one node
 * the tree is a chain moving 2S a GPU each way against the ring's
 * 2(n-1)/n S, so the ring carries the bandwidth regime (docs/calibration.md). */
int gp__calib_algo_ring(const char *algo);

void gp__calib_warn(gp_calib *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A text split into lines in place: an owned, NUL-terminated copy. */
typedef struct gp__calib_lines {
    char *buf;      /* owned copy of the text (free it when done)     */
    size_t len;
    size_t pos;
    unsigned no;    /* 1-based number of the line last returned */
} gp__calib_lines;

/* The next line, without its end-of-line and trailing blanks, or NULL at
 * the end (lib/calib_import.c). */
char *gp__calib_lines_next(gp__calib_lines *L);

/* The start every text reader shares: check the arguments (*name defaults
 * to "<text>"; NULL text, an empty text or a NUL byte are refused), copy the
 * text into *L and allocate the result *c named after the input, of format
 * fmt.  On failure nothing is left allocated and *out is NULL; on success
 * the caller frees L->buf. */
int gp__calib_reader_begin(const char *fn, const char **name, const char *text, size_t len,
                           gp_calib **out, gp_calib_format fmt, gp__calib_lines *L, gp_calib **c,
                           gp_err *e);

#endif
