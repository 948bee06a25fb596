/* Calibration from NVIDIA nvbandwidth's text output (github.com/NVIDIA/nvbandwidth),
 * read into the same gp_calib the other readers give (docs/calibration.md,
 * "nvbandwidth").  Pure text in, gp_calib out; every refusal names name:line
 * (and the column when it is one field).
 *
 * What nvbandwidth prints (output.cpp, inline_common.h of v0.2 .. v0.10): a
 * header (version, CUDA runtime/driver versions, driver, [hostname], one
 * 'Device N: NAME [(PCI)]' line per GPU -- v0.10 prints none), then per
 * testcase 'Running KEY.', one or more matrices
 *
 *     memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)
 *                0         1
 *      0     55.37     55.36
 *
 *     SUM KEY 110.73
 *
 * with 'N/A' where a pair was not measured (the diagonal), values and SUM
 * with two decimals, GB = 1e9 bytes, and SUM = the sum of the matrix (N/A as
 * 0).  Each bandwidth is bytes copied / time of one copy stream; nothing is
 * counted twice (a copy reads and writes each byte once, counted once). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_int.h"
#include "gpuplan/calib.h"

/* The bytes each point's times are expressed for: nvbandwidth does not print
 * its buffer size, so a point's work is a nominal 1 GB and each trial's time
 * is 1 GB / its rate (seconds per GB). */
#define NVBW_WORK 1e9
#define NVBW_MAX_COLS 1024
#define NVBW_MAX_TOK 1100

typedef struct nvbw {
    const char *name;
    gp_calib *c;
    gp_err *e;
    size_t cap;
    /* header */
    char version[40];
    int n_dev;                 /* Device lines seen in the current header      */
    int n_dev_first;           /* ... in the first header (-1: none yet)       */
    int prev_driver;           /* the previous line was 'Driver Version:'      */
    /* testcase and matrix */
    char key[64];              /* testcase being read ("" between testcases)   */
    unsigned key_line;
    int key_done;              /* the testcase has a complete matrix or waiver */
    char title[160];
    unsigned title_line;
    int latency;               /* the matrix is in ns, not GB/s               */
    int state;                 /* M_* below                                    */
    int ncols, nrows;
    double *v;                 /* nrows x ncols, NAN for N/A                   */
    size_t vcap;
    /* testcases already read (one of each per file) */
    char (*seen)[64];
    size_t n_seen, seen_cap;
} nvbw;

enum { M_NONE, M_TITLE, M_COLS, M_ROWS, M_SUM };

static const char *nv_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static char *nv_wsm(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* A non-negative decimal integer filling the whole token (< 2^31). */
static int nv_int(const char *t, long *v)
{
    const char *p;
    if (*t == '\0' || strlen(t) > 9)
        return 0;
    for (p = t; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    *v = strtol(t, NULL, 10);
    return 1;
}

/* Split s in place at blanks into tok (at most cap); returns the count, or
 * cap + 1 when there are more. */
static size_t nv_split(char *s, char **tok, size_t cap)
{
    size_t n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            return n;
        if (n == cap)
            return cap + 1;
        tok[n++] = s;
        while (*s != '\0' && *s != ' ' && *s != '\t')
            s++;
        if (*s != '\0')
            *s++ = '\0';
    }
}

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* What a testcase measures and where its figure goes. */
typedef struct nv_case {
    const char *key;
    gp_calib_kind kind;
    const char *series;  /* the series the summary and overlay read            */
    double bytes_factor; /* DRAM bytes per byte copied (device_local_copy: 2)   */
} nv_case;

static const nv_case k_cases[] = {
    /* Pinned host memory, copy engine (cuMemcpyAsync): the host link. */
    {"host_to_device_memcpy_ce", GP_CALIB_TRANSFER, "h2d-pinned", 1.0},
    {"device_to_host_memcpy_ce", GP_CALIB_TRANSFER, "d2h-pinned", 1.0},
    /* Peer copy engine, one direction per pair: the scale-up link.  The read
     * test is the figure; a write test stands in when the log has no read
     * test (renamed after parsing). */
    {"device_to_device_memcpy_read_ce", GP_CALIB_PEER, "uni", 1.0},
    {"device_to_device_memcpy_write_ce", GP_CALIB_PEER, "d2d-write-ce", 1.0},
    /* Copy inside one GPU's memory: each byte read once and written once. */
    {"device_local_copy", GP_CALIB_MEMORY, "memcpy-d2d", 2.0},
};

static int seen_before(nvbw *x, const char *key)
{
    size_t i;
    for (i = 0; i < x->n_seen; i++)
        if (strcmp(x->seen[i], key) == 0)
            return 1;
    return 0;
}

static int remember(nvbw *x, const char *key)
{
    if (x->n_seen == x->seen_cap) {
        size_t nc = x->seen_cap ? 2 * x->seen_cap : 16;
        char(*ns)[64] = realloc(x->seen, nc * sizeof *ns);
        if (ns == NULL)
            return GP_RAISE(x->e, GP_ENOMEM, "out of memory");
        x->seen = ns;
        x->seen_cap = nc;
    }
    snprintf(x->seen[x->n_seen++], sizeof x->seen[0], "%s", key);
    return GP_OK;
}

/* A finished matrix (its SUM line at `line` checked): one point.  `sumkey`
 * is the SUM line's name (KEY, or KEY_read1 ... for bidirectional peer
 * tests, which print several matrices). */
static int emit_matrix(nvbw *x, const char *sumkey, unsigned line)
{
    gp_calib *c = x->c;
    const nv_case *nc = NULL;
    gp_calib_point *p;
    double *t, *work;
    size_t i, n = 0, cells = (size_t)x->nrows * (size_t)x->ncols;
    int rc, host = strstr(x->title, "CPU") != NULL;

    (void)line;
    if (x->latency) {
        gp__calib_warn(c, "%s:%u: '%s' is a latency matrix (ns); not imported", x->name,
                       x->title_line,
                sumkey);
        return GP_OK;
    }
    if (strcmp(sumkey, x->key) == 0)
        for (i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++)
            if (strcmp(k_cases[i].key, x->key) == 0)
                nc = &k_cases[i];
    for (i = 0; i < cells; i++)
        if (!isnan(x->v[i]))
            n++;
    if (n == 0) {
        gp__calib_warn(c, "%s:%u: '%s' has no measured pair (every cell N/A)", x->name,
                       x->title_line, sumkey);
        return GP_OK;
    }
    for (i = 0; i < cells; i++)
        if (!isnan(x->v[i]) && !(x->v[i] > 0.0))
            return GP__CALIB_FAIL(
                x, GP_EPARSE, x->title_line + 2 + (unsigned)(i / (size_t)x->ncols), 0,
                "'%s': a bandwidth of %.2f GB/s is not a measurement", sumkey, x->v[i]);
    if (c->n_pts == x->cap) {
        size_t ncap = x->cap ? 2 * x->cap : 16;
        gp_calib_point *np = realloc(c->pts, ncap * sizeof *np);
        if (np == NULL)
            return GP_RAISE(x->e, GP_ENOMEM, "out of memory");
        c->pts = np;
        x->cap = ncap;
    }
    t = malloc(2 * n * sizeof *t);
    if (t == NULL)
        return GP_RAISE(x->e, GP_ENOMEM, "out of memory");
    work = t + n;
    n = 0;
    for (i = 0; i < cells; i++)
        if (!isnan(x->v[i]))
            t[n++] = NVBW_WORK / (x->v[i] * 1e9); /* GB/s -> seconds for 1 GB */
    p = &c->pts[c->n_pts];
    memset(p, 0, sizeof *p);
    if (nc != NULL) {
        p->kind = nc->kind;
        snprintf(p->series, sizeof p->series, "%s", nc->series);
        p->work = NVBW_WORK * nc->bytes_factor;
    } else {
        /* Shown, not overlaid: series "nvbandwidth", the SUM name as label. */
        p->kind = host ? GP_CALIB_TRANSFER : GP_CALIB_PEER;
        snprintf(p->series, sizeof p->series, "nvbandwidth");
        p->work = NVBW_WORK;
    }
    snprintf(p->label, sizeof p->label, "%s", sumkey);
    p->gpus = (int)n;
    p->line = x->title_line;
    rc = gp_calib_stats_compute(t, n, work, &p->t, x->e);
    free(t);
    if (rc != GP_OK)
        return rc;
    p->rate_best = p->work / p->t.min;
    p->rate_median = p->work / p->t.median;
    c->n_pts++;
    return GP_OK;
}

/* A header line ('nvbandwidth Version:' .. 'Device N:'); 1 when it was one. */
static int header_line(nvbw *x, const char *s, const char *raw, unsigned ln, int *rc)
{
    gp_calib *c = x->c;
    *rc = GP_OK;
    if (starts(s, "nvbandwidth Version:")) {
        const char *v = nv_ws(s + 20);
        if (x->version[0] != '\0' && strcmp(x->version, v) != 0) {
            *rc = GP__CALIB_FAIL(x, GP_EUNSUP, ln, (unsigned)(v - raw) + 1,
                                 "nvbandwidth %s after %s: runs of two versions in one file", v,
                                 x->version);
            return 1;
        }
        snprintf(x->version, sizeof x->version, "%s", v);
        if (x->n_dev_first < 0 && x->n_dev > 0)
            x->n_dev_first = x->n_dev;
        x->n_dev = 0;
        return 1;
    }
    if (starts(s, "Built from Git version:"))
        return 1;
    if (starts(s, "CUDA Runtime Version:") || starts(s, "CUDA Driver Version")) {
        /* "12060", or "13.2 (13020)" (v0.10) */
        const char *v = strchr(s, ':'), *par;
        long n = 0;
        char num[16];
        size_t k = 0;
        if (v == NULL) {
            *rc = GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(s - raw) + 1,
                                 "expected 'CUDA ... Version: N' (no ':')");
            return 1;
        }
        v = nv_ws(v + 1);
        par = strchr(v, '(');
        if (par != NULL)
            v = par + 1;
        while (isdigit((unsigned char)v[k]) && k + 1 < sizeof num) {
            num[k] = v[k];
            k++;
        }
        num[k] = '\0';
        if (!nv_int(num, &n)) {
            *rc = GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(v - raw) + 1,
                                 "expected a CUDA version number ('12060' or '13.2 (13020)')");
            return 1;
        }
        if (starts(s, "CUDA Runtime"))
            c->dev.runtime_version = (int)n;
        else
            c->dev.driver_version = (int)n;
        return 1;
    }
    if (starts(s, "Driver Version:")) {
        snprintf(c->dev.nvml_driver, sizeof c->dev.nvml_driver, "%s", nv_ws(s + 15));
        x->prev_driver = 1;
        return 1;
    }
    if (starts(s, "Device ") && isdigit((unsigned char)s[7])) {
        /* "Device 3: NVIDIA H100 80GB HBM3 (00000000:5d:00)" */
        const char *colon = strchr(s, ':'), *nm;
        char name[128], bus[32] = "";
        size_t len;
        long idx;
        char ibuf[16];
        size_t il = (size_t)(colon ? colon - (s + 7) : 0);
        if (colon == NULL || il == 0 || il >= sizeof ibuf) {
            *rc = GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(s - raw) + 1,
                                 "expected 'Device N: NAME (PCI bus id)'");
            return 1;
        }
        memcpy(ibuf, s + 7, il);
        ibuf[il] = '\0';
        if (!nv_int(ibuf, &idx) || idx != x->n_dev) {
            *rc = GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(s - raw) + 8,
                                 "'Device %s': devices are listed 0, 1, ... in order; expected %d",
                                 ibuf, x->n_dev);
            return 1;
        }
        nm = nv_ws(colon + 1);
        snprintf(name, sizeof name, "%s", nm);
        len = strlen(name);
        if (len > 0 && name[len - 1] == ')') {
            char *open = strrchr(name, '(');
            if (open != NULL && open > name && open[-1] == ' ') {
                snprintf(bus, sizeof bus, "%.*s", (int)(name + len - 1 - open - 1), open + 1);
                open[-1] = '\0';
            }
        }
        if (name[0] == '\0') {
            *rc = GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(nm - raw) + 1,
                                 "'Device %ld' has no name", idx);
            return 1;
        }
        if (c->dev.name[0] == '\0') {
            snprintf(c->dev.name, sizeof c->dev.name, "%s", name);
            snprintf(c->dev.pci_bus_id, sizeof c->dev.pci_bus_id, "%s", bus);
        } else if (strcmp(c->dev.name, name) != 0) {
            *rc = GP__CALIB_FAIL(
                x, GP_EUNSUP, ln, (unsigned)(nm - raw) + 1,
                "device %ld is a '%s', device 0 a '%s': a run over mixed GPUs is not "
                "one GPU's figure",
                idx, name, c->dev.name);
            return 1;
        }
        x->n_dev++;
        return 1;
    }
    return 0;
}

/* Check the SUM line against the matrix and emit it. */
static int sum_line(nvbw *x, char *s, const char *raw, unsigned ln)
{
    char *tok[4];
    size_t nt = nv_split(s, tok, 3), i, cells = (size_t)x->nrows * (size_t)x->ncols;
    double sum, acc = 0.0, tol;
    if (nt != 3 || !gp__calib_num(tok[2], &sum))
        return GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(s - raw) + 1,
                              "expected 'SUM %s VALUE' after the matrix", x->key);
    if (strncmp(tok[1], x->key, strlen(x->key)) != 0)
        return GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(tok[1] - raw) + 1,
                              "'SUM %s' in testcase '%s' (line %u): a line out of place?", tok[1],
                              x->key, x->key_line);
    for (i = 0; i < cells; i++)
        if (!isnan(x->v[i]))
            acc += x->v[i];
    /* Each cell and the SUM are printed with 2 decimals (+-0.005 each). */
    tol = 0.005 * (double)(cells + 1) + 1e-9 * fabs(acc);
    if (fabs(sum - acc) > tol)
        return GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(tok[2] - raw) + 1,
                              "SUM %s is %s but the matrix above (line %u) adds up to %.2f: a row "
                              "lost or changed?",
                              tok[1], tok[2], x->title_line, acc);
    x->state = M_NONE;
    x->key_done = 1;
    return emit_matrix(x, tok[1], ln);
}

/* A line inside a testcase: title, column header, row or SUM. */
static int matrix_line(nvbw *x, char *s, const char *raw, unsigned ln)
{
    char *tok[NVBW_MAX_TOK], buf[16384];
    size_t nt, i;
    long idx;
    if (x->state == M_TITLE) {
        if (strstr(s, "bandwidth (GB/s)") != NULL)
            x->latency = 0;
        else if (strstr(s, "(ns)") != NULL)
            x->latency = 1;
        else
            return GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(s - raw) + 1,
                                  "testcase '%s': expected a matrix title ('memcpy CE CPU(row) -> "
                                  "GPU(column) bandwidth (GB/s)'), got '%.60s'",
                                  x->key, s);
        snprintf(x->title, sizeof x->title, "%s", s);
        x->title_line = ln;
        x->state = M_COLS;
        return GP_OK;
    }
    snprintf(buf, sizeof buf, "%s", s);
    nt = nv_split(buf, tok, NVBW_MAX_TOK);
    if (x->state == M_COLS) {
        if (nt == 0 || nt > NVBW_MAX_COLS)
            return GP__CALIB_FAIL(x, GP_EPARSE, ln, 0, "expected the matrix's column numbers");
        for (i = 0; i < nt; i++)
            if (!nv_int(tok[i], &idx) || idx != (long)i)
                return GP__CALIB_FAIL(
                    x, GP_EPARSE, ln, (unsigned)(s - raw) + (unsigned)(tok[i] - buf) + 1,
                    "expected the matrix's column numbers 0 .. n-1, got '%s'", tok[i]);
        x->ncols = (int)nt;
        x->nrows = 0;
        x->state = M_ROWS;
        return GP_OK;
    }
    /* M_ROWS: "R v0 v1 ... " or the SUM line */
    if (nt >= 1 && strcmp(tok[0], "SUM") == 0) {
        if (x->nrows == 0)
            return GP__CALIB_FAIL(x, GP_EPARSE, ln, 0, "matrix at line %u has no rows",
                                  x->title_line);
        return sum_line(x, s, raw, ln);
    }
    if (nt == 0 || !nv_int(tok[0], &idx) || idx != x->nrows)
        return GP__CALIB_FAIL(x, GP_EPARSE, ln, (unsigned)(s - raw) + 1,
                              "expected row %d of the matrix at line %u or its 'SUM %s' line, got "
                              "'%.60s'; truncated?",
                              x->nrows, x->title_line, x->key, s);
    if (nt != (size_t)x->ncols + 1)
        return GP__CALIB_FAIL(x, GP_EPARSE, ln, 0,
                              "row %ld has %zu values, expected %d (one per column); a log cut "
                              "mid-row?",
                              idx, nt > NVBW_MAX_TOK ? nt : nt - 1, x->ncols);
    if (x->nrows >= NVBW_MAX_COLS)
        return GP__CALIB_FAIL(x, GP_EPARSE, ln, 0, "more than %d rows", NVBW_MAX_COLS);
    {
        size_t need = (size_t)(x->nrows + 1) * (size_t)x->ncols;
        if (need > x->vcap) {
            size_t nc = x->vcap ? 2 * x->vcap : 256;
            double *nv;
            while (nc < need)
                nc *= 2;
            nv = realloc(x->v, nc * sizeof *nv);
            if (nv == NULL)
                return GP_RAISE(x->e, GP_ENOMEM, "out of memory");
            x->v = nv;
            x->vcap = nc;
        }
    }
    for (i = 1; i < nt; i++) {
        double v;
        double *dst = &x->v[(size_t)x->nrows * (size_t)x->ncols + i - 1];
        if (strcmp(tok[i], "N/A") == 0) {
            *dst = NAN;
            continue;
        }
        if (!gp__calib_num(tok[i], &v) || v < 0.0)
            return GP__CALIB_FAIL(x, GP_EPARSE, ln,
                                  (unsigned)(s - raw) + (unsigned)(tok[i] - buf) + 1,
                                  "'%s' is not a bandwidth in GB/s (or N/A)", tok[i]);
        if (!x->latency && !(v * 1e9 <= GP_CALIB_RATE_MAX))
            return GP__CALIB_FAIL(x, GP_EPARSE, ln,
                                  (unsigned)(s - raw) + (unsigned)(tok[i] - buf) + 1,
                                  "'%s' GB/s is above %g GB/s: not a measurement", tok[i],
                                  GP_CALIB_RATE_MAX / 1e9);
        *dst = v;
    }
    x->nrows++;
    return GP_OK;
}

/* The testcase being read is over (a new one, a new header or the end):
 * it must have given a complete matrix or a waiver. */
static int close_case(nvbw *x, unsigned ln, const char *why)
{
    if (x->key[0] == '\0')
        return GP_OK;
    if (x->state != M_NONE || !x->key_done)
        return GP__CALIB_FAIL(x, GP_EPARSE, ln, 0,
                              "testcase '%s' (line %u) ends %s without %s: truncated, or the run "
                              "failed",
                              x->key, x->key_line, why,
                              x->state == M_NONE || x->state == M_TITLE ? "a result matrix"
                                                                        : "its 'SUM' line");
    x->key[0] = '\0';
    return GP_OK;
}

int gp_calib_read_nvbandwidth(const char *name, const char *text, size_t len, gp_calib **out,
                              gp_err *e)
{
    nvbw x;
    gp_calib *c = NULL;
    gp__calib_lines L;
    char *line;
    unsigned ln = 0, last = 0;
    int rc, any_header = 0;
    size_t i;

    if ((rc = gp__calib_reader_begin("gp_calib_read_nvbandwidth", &name, text, len, out,
                                     GP_CALIB_FMT_NVBANDWIDTH, &L, &c, e)) != GP_OK)
        return rc;
    memset(&x, 0, sizeof x);
    x.name = name;
    x.e = e;
    x.n_dev_first = -1;
    x.c = c;
    c->nodes = 1;

    while (rc == GP_OK && (line = gp__calib_lines_next(&L)) != NULL) {
        char *s;
        int was_driver = x.prev_driver;
        ln = L.no;
        s = nv_wsm(line);
        if (*s == '\0') {
            /* A blank line ends a matrix's rows: its SUM line follows. */
            if (x.state == M_ROWS && x.nrows > 0)
                x.state = M_SUM;
            continue;
        }
        last = ln;
        x.prev_driver = 0;
        if (x.state == M_SUM) {
            if (starts(s, "SUM "))
                rc = sum_line(&x, s, line, ln);
            else
                rc = GP__CALIB_FAIL(
                    &x, GP_EPARSE, ln, (unsigned)(s - line) + 1,
                    "expected 'SUM %s VALUE' after the matrix at line %u, got '%.60s'", x.key,
                    x.title_line, s);
            continue;
        }
        if (x.state == M_COLS || x.state == M_ROWS ||
            (x.state == M_TITLE && !starts(s, "Waiv") && !starts(s, "WAIV"))) {
            rc = matrix_line(&x, s, line, ln);
            continue;
        }
        if (starts(s, "nvbandwidth Version:")) {
            if ((rc = close_case(&x, ln, "at a new run's header")) != GP_OK)
                break;
            any_header = 1;
        }
        {
            int hrc;
            if (header_line(&x, s, line, ln, &hrc)) {
                if (x.key[0] != '\0' && hrc == GP_OK && !starts(s, "nvbandwidth Version:"))
                    hrc = GP__CALIB_FAIL(&x, GP_EPARSE, ln, (unsigned)(s - line) + 1,
                                         "a header line inside testcase '%s' (line %u)", x.key,
                                         x.key_line);
                rc = hrc;
                continue;
            }
        }
        if (starts(s, "Running ")) {
            const char *k = nv_ws(s + 8);
            size_t kl = strlen(k);
            if ((rc = close_case(&x, ln, "at the next testcase")) != GP_OK)
                break;
            if (kl < 2 || k[kl - 1] != '.' || kl - 1 >= sizeof x.key || strchr(k, ' ') != NULL) {
                rc = GP__CALIB_FAIL(&x, GP_EPARSE, ln, (unsigned)(k - line) + 1,
                                    "expected 'Running TESTCASE.', got '%.60s'", s);
                break;
            }
            snprintf(x.key, sizeof x.key, "%.*s", (int)(kl - 1), k);
            if (starts(x.key, "multinode")) {
                rc = GP__CALIB_FAIL(&x, GP_EUNSUP, ln, (unsigned)(k - line) + 1,
                                    "multinode testcase '%s': gpuplan imports one node's figures",
                                    x.key);
                break;
            }
            if (seen_before(&x, x.key)) {
                rc =
                    GP__CALIB_FAIL(&x, GP_EUNSUP, ln, (unsigned)(k - line) + 1,
                                   "testcase '%s' appears twice: two runs of one test in one file; "
                                   "import them one at a time",
                                   x.key);
                break;
            }
            if ((rc = remember(&x, x.key)) != GP_OK)
                break;
            x.key_line = ln;
            x.key_done = 0;
            x.state = M_TITLE;
            continue;
        }
        if (starts(s, "Waiv") || starts(s, "WAIV")) {
            /* "Waiving KEY." (v0.2) or "WAIVED: why": the test did not run. */
            if (x.key[0] != '\0') {
                gp__calib_warn(c, "%s:%u: testcase '%s' was waived by nvbandwidth", name, ln, x.key);
                x.key_done = 1;
                x.state = M_NONE;
            } else {
                gp__calib_warn(c, "%s:%u: %.120s", name, ln, s);
            }
            continue;
        }
        if (x.key[0] != '\0' && x.state == M_NONE &&
            (starts(s, "memcpy ") || strstr(s, "bandwidth (GB/s)") != NULL ||
             strstr(s, "(ns)") != NULL)) {
            /* A second matrix of the same testcase (bidirectional: Read1, Read2, Total). */
            x.state = M_TITLE;
            rc = matrix_line(&x, s, line, ln);
            continue;
        }
        if (starts(s, "COEFFICIENT_OF_VARIATION ") || starts(s, "MIN ") || starts(s, "MAX ") ||
            starts(s, "AVG "))
            continue; /* v0.10 spread line; -v extras */
        if (starts(s, "NOTE:") || starts(s, "Additional system-specific tuning") ||
            starts(s, "Performance can vary with"))
            continue;
        if (starts(s, "Process ") || starts(s, "MPI version:")) {
            rc = GP__CALIB_FAIL(
                &x, GP_EUNSUP, ln, (unsigned)(s - line) + 1,
                "multinode nvbandwidth output (one process per GPU) is not supported");
            continue;
        }
        if (was_driver && x.key[0] == '\0' && strchr(s, ' ') == NULL && strchr(s, '\t') == NULL) {
            /* v0.8+: the host name, alone on the line after 'Driver Version:'. */
            snprintf(c->host, sizeof c->host, "%s", s);
            continue;
        }
        rc = GP__CALIB_FAIL(&x, GP_EPARSE, ln, (unsigned)(s - line) + 1,
                            "not a line of nvbandwidth output%s: '%.60s'",
                            x.key[0] ? " (an error message from the run?)" : "", s);
    }
    if (rc == GP_OK) {
        if (!any_header)
            rc = GP__CALIB_FAIL(
                &x, GP_EPARSE, 1, 0,
                "no 'nvbandwidth Version:' line: not nvbandwidth output (or its header "
                "was cut off)");
        else if (x.state == M_ROWS || x.state == M_COLS || x.state == M_TITLE || x.state == M_SUM)
            rc =
                GP__CALIB_FAIL(&x, GP_EPARSE, last ? last : 1, 0,
                               "truncated log: testcase '%s' (line %u) stops before its 'SUM' line",
                               x.key, x.key_line);
        else if (x.n_seen == 0)
            rc = GP__CALIB_FAIL(&x, GP_EPARSE, last ? last : 1, 0,
                                "no testcase ('Running TESTCASE.' and its matrix): truncated?");
        else
            rc = close_case(&x, last, "at the end of the file");
    }
    if (rc == GP_OK && c->n_pts == 0)
        rc = GP__CALIB_FAIL(
            &x, GP_EPARSE, last, 0,
            "no bandwidth measured: every testcase was waived or reports latency only");
    if (rc == GP_OK) {
        int ndev = x.n_dev_first >= 0 ? x.n_dev_first : x.n_dev;
        if (x.n_dev_first >= 0 && x.n_dev > 0 && x.n_dev != x.n_dev_first)
            rc = GP__CALIB_FAIL(&x, GP_EUNSUP, last, 0, "runs with %d and %d devices in one file",
                                x.n_dev_first, x.n_dev);
        /* No Device lines (v0.10): the widest matrix counts the GPUs. */
        if (ndev == 0)
            for (i = 0; i < c->n_pts; i++)
                if (c->pts[i].kind != GP_CALIB_PEER && c->pts[i].gpus > ndev)
                    ndev = c->pts[i].gpus;
        c->dev.gpus = ndev;
        c->gpus_per_node = ndev;
    }
    if (rc == GP_OK) {
        /* A write test stands for the peer figure when there is no read test. */
        int has_uni = 0;
        for (i = 0; i < c->n_pts; i++)
            has_uni |= c->pts[i].kind == GP_CALIB_PEER && strcmp(c->pts[i].series, "uni") == 0;
        for (i = 0; i < c->n_pts && !has_uni; i++)
            if (strcmp(c->pts[i].series, "d2d-write-ce") == 0) {
                snprintf(c->pts[i].series, sizeof c->pts[i].series, "uni");
                has_uni = 1;
            }
        snprintf(c->tool, sizeof c->tool, "nvbandwidth %s", x.version);
    }
    free(L.buf);
    free(x.v);
    free(x.seen);
    if (rc != GP_OK) {
        gp_calib_free(c);
        return rc;
    }
    *out = c;
    return GP_OK;
}

/* 1 when `text` looks like nvbandwidth output: an 'nvbandwidth Version:'
 * line, or a 'SUM KEY VALUE' line whose KEY is a memcpy testcase. */
int gp__calib_looks_nvbandwidth(const char *p)
{
    if (starts(p, "nvbandwidth Version:"))
        return 1;
    if (starts(p, "SUM ") &&
        (strstr(p, "_memcpy_") != NULL || starts(p, "SUM device_local_copy")))
        return 1;
    return starts(p, "memcpy CE ") || starts(p, "memcpy SM ");
}
