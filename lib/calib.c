/* Calibration: measurement-file reader (libyaml), trial statistics and
 * alpha-beta fits (GSL), efficiencies and overlay text.  Schema and formulas:
 * docs/calibration.md. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <yaml.h>

#include "calib_int.h"
#include "db_int.h"
#include "gpuplan/calib.h"
#include "units_int.h"

#define MAX_FILE_BYTES (64u * 1024u * 1024u)
#define MAX_NODES 4000000u
#define MAX_TRIALS 100000u

/* ---- statistics --------------------------------------------------------------------- */

int gp_calib_stats_compute(const double *x, size_t n, double *work,
                           gp_calib_stats *out, gp_err *e)
{
    size_t i;
    if (x == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_stats_compute: NULL x");
    if (work == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_stats_compute: NULL work");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_stats_compute: NULL out");
    if (n == 0)
        return GP_RAISE(e, GP_EINVAL, "statistics need at least one sample");
    for (i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            return GP_RAISE(e, GP_EINVAL, "sample %zu is not finite", i);
        work[i] = x[i];
    }
    gsl_sort(work, 1, n);
    out->n = n;
    out->min = work[0];
    out->max = work[n - 1];
    out->median = gsl_stats_median_from_sorted_data(work, 1, n);
    out->p95 = gsl_stats_quantile_from_sorted_data(work, 1, n, 0.95);
    out->mean = gsl_stats_mean(work, 1, n);
    out->cv = 0.0;
    if (n > 1 && out->mean != 0.0)
        out->cv = gsl_stats_sd_m(work, 1, n, out->mean) / fabs(out->mean);
    return GP_OK;
}

/* ---- alpha-beta fit ------------------------------------------------------------------ */

/* The points a fit reads: two arrays (gp_calib_fit_alpha_beta), or the
 * points of one series of a parsed file with sizes in [lo, hi] (0 = no
 * bound), read in place so that a fit needs no memory (gp_calib_summarize
 * cannot fail, so it must not allocate). */
typedef struct fit_src {
    const double *size, *t;
    size_t n;                 /* array length, or c->n_pts */
    const gp_calib *c;        /* NULL for arrays */
    gp_calib_kind kind;
    const char *series;
    double lo, hi;
} fit_src;

/* 1 when index i of src is a point of the fit: its size and time in *x, *y. */
static int src_point(const fit_src *src, size_t i, double *x, double *y)
{
    const gp_calib_point *p;
    if (src->c == NULL) {
        *x = src->size[i];
        *y = src->t[i];
        return 1;
    }
    p = &src->c->pts[i];
    if (p->kind != src->kind || strcmp(p->series, src->series) != 0)
        return 0;
    if ((src->lo > 0.0 && p->work < src->lo) || (src->hi > 0.0 && p->work > src->hi))
        return 0;
    *x = p->work;
    *y = p->t.median;
    return 1;
}

/* Weighted least squares of t = c0 + c1 x, x = c S, weights w = 1/t^2, over
 * n >= 3 points with at least two distinct sizes (callers check), in three
 * passes without storage: weighted means; centred sums Sxx = sum w dx^2 and
 * Sxy = sum w dx dy; residuals.  c1 = Sxy / Sxx, c0 = ybar - c1 xbar; the
 * covariance of (c0, c1) for weights that are inverse variances is
 * cov11 = 1/Sxx, cov01 = -xbar/Sxx, cov00 = 1/W + xbar^2/Sxx (the normal
 * equations' inverse; the same definitions as gsl_fit_wlinear's). */
static int hockney_fit(const fit_src *src, size_t n, double c, gp_calib_fit *out, gp_err *e)
{
    double W = 0.0, sx = 0.0, sy = 0.0, xbar, ybar, Sxx = 0.0, Sxy = 0.0, chisq = 0.0;
    double x, y, c0, c1, cov00, cov01, cov11, s2, var_inv_beta, nh, v;
    size_t i;

    for (i = 0; i < src->n; i++)
        if (src_point(src, i, &x, &y)) {
            double w = 1.0 / (y * y);
            W += w;
            sx += w * c * x;
            sy += w * y;
        }
    xbar = sx / W;
    ybar = sy / W;
    for (i = 0; i < src->n; i++)
        if (src_point(src, i, &x, &y)) {
            double w = 1.0 / (y * y), dx = c * x - xbar, dy = y - ybar;
            Sxx += w * dx * dx;
            Sxy += w * dx * dy;
        }
    if (!(Sxx > 0.0) || !isfinite(Sxx) || !isfinite(Sxy))
        return GP_RAISE(e, GP_ERANGE, "alpha-beta fit failed: the sizes give no usable spread");
    c1 = Sxy / Sxx;
    c0 = ybar - c1 * xbar;
    cov11 = 1.0 / Sxx;
    cov01 = -xbar / Sxx;
    cov00 = 1.0 / W + xbar * xbar / Sxx;
    out->max_rel_resid = 0.0;
    for (i = 0; i < src->n; i++)
        if (src_point(src, i, &x, &y)) {
            double d = y - (c0 + c1 * c * x), r = fabs(d) / y;
            chisq += d * d / (y * y);
            if (r > out->max_rel_resid)
                out->max_rel_resid = r;
        }
    if (!(c0 > 0.0) || !(c1 > 0.0))
        return GP_RAISE(e, GP_ERANGE,
                        "alpha-beta fit gives latency %g s and 1/bandwidth %g s/B; the data do "
                        "not follow t = alpha + S/beta", c0, c1);
    /* The weights are relative (1/t^2), not known variances: scale the
     * covariance by the reduced chi-square (n - 2 degrees of freedom). */
    s2 = n > 2 ? chisq / (double)(n - 2) : 0.0;
    cov00 *= s2;
    cov01 *= s2;
    cov11 *= s2;
    var_inv_beta = cov11;
    out->n = n;
    out->c = c;
    out->alpha = c0;
    out->alpha_se = sqrt(cov00 > 0.0 ? cov00 : 0.0);
    out->beta = 1.0 / c1;
    out->beta_se = sqrt(var_inv_beta > 0.0 ? var_inv_beta : 0.0) * out->beta * out->beta;
    /* n_half: c S / beta = alpha  =>  S = alpha beta / c = c0 / (c c1). */
    nh = c0 / (c * c1);
    out->n_half = nh;
    v = cov00 / (c0 * c0) + cov11 / (c1 * c1) - 2.0 * cov01 / (c0 * c1);
    out->n_half_se = fabs(nh) * sqrt(v > 0.0 ? v : 0.0);
    return GP_OK;
}

int gp_calib_fit_alpha_beta(const double *size, const double *t, size_t n,
                            double c, gp_calib_fit *out, gp_err *e)
{
    fit_src src;
    size_t i, distinct = 0;

    if (size == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_fit_alpha_beta: NULL size");
    if (t == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_fit_alpha_beta: NULL t");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_fit_alpha_beta: NULL out");
    if (!(c > 0.0) || !isfinite(c))
        return GP_RAISE(e, GP_EINVAL, "alpha-beta fit: size multiplier %g must be positive", c);
    memset(out, 0, sizeof *out);
    for (i = 0; i < n; i++) {
        if (!(size[i] > 0.0) || !isfinite(size[i]) || !(t[i] > 0.0) || !isfinite(t[i]))
            return GP_RAISE(e, GP_EINVAL, "alpha-beta fit: point %zu (size %g, time %g) is not positive",
                            i, size[i], t[i]);
        if (i == 0 || size[i] != size[i - 1])
            distinct++;
    }
    if (n < 3 || distinct < 3)
        return GP_RAISE(e, GP_EINVAL, "alpha-beta fit needs at least 3 sizes, got %zu", distinct);
    memset(&src, 0, sizeof src);
    src.size = size;
    src.t = t;
    src.n = n;
    return hockney_fit(&src, n, c, out, e);
}

/* ---- names ---------------------------------------------------------------------------- */

const char *gp_calib_kind_name(gp_calib_kind k)
{
    static const char *const names[GP_CALIB__COUNT] = {"gemm",     "memory", "latency",
                                                       "transfer", "peer",   "allreduce"};
    return (unsigned)k < GP_CALIB__COUNT ? names[k] : "unknown";
}

/* n decimal digits at s as a number, or -1. */
static int digits(const char *s, int n)
{
    int v = 0, i;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int gp_calib_date_ok(const char *d)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int year, mon, day;
    const char *p;
    /* Short enough for gp_calib.date (39 characters): a longer one would
     * be cut, losing its zone. */
    if (d == NULL || strlen(d) < 10 || strlen(d) >= sizeof ((gp_calib *)0)->date || d[4] != '-' ||
        d[7] != '-')
        return 0;
    year = digits(d, 4);
    mon = digits(d + 5, 2);
    day = digits(d + 8, 2);
    if (year < 0 || mon < 1 || mon > 12 || day < 1 || day > mdays[mon - 1])
        return 0;
    /* February 29 only in a leap year (Gregorian). */
    if (mon == 2 && day == 29 && !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
        return 0;
    if (d[10] == '\0')
        return 1;
    /* THH:MM[:SS[.fraction]][Z|+HH:MM|-HH:MM] */
    p = d + 10;
    if (*p++ != 'T' || digits(p, 2) < 0 || digits(p, 2) > 23 || p[2] != ':' ||
        digits(p + 3, 2) < 0 || digits(p + 3, 2) > 59)
        return 0;
    p += 5;
    if (*p == ':') {
        if (digits(p + 1, 2) < 0 || digits(p + 1, 2) > 60)
            return 0;
        p += 3;
        if (*p == '.') {
            if (p[1] < '0' || p[1] > '9')
                return 0;
            for (p++; *p >= '0' && *p <= '9'; p++)
                ;
        }
    }
    if (*p == 'Z')
        return p[1] == '\0';
    if (*p == '+' || *p == '-')
        return digits(p + 1, 2) >= 0 && digits(p + 1, 2) <= 23 && p[3] == ':' &&
               digits(p + 4, 2) >= 0 && digits(p + 4, 2) <= 59 && p[6] == '\0';
    return *p == '\0';
}

/* ---- reader --------------------------------------------------------------------------- */

typedef struct rctx {
    const char *name;
    yaml_document_t *doc;
    gp_calib *c;
    size_t cap;
    gp_err *e;
    double *tmp;      /* trial values of the point being read */
    size_t ntmp, captmp;
    double *tmp2;     /* latency: cycles */
    size_t ntmp2, captmp2;
} rctx;

static int fail_node(rctx *r, gp_status code, const yaml_node_t *n, const char *key,
                     const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int fail_node(rctx *r, gp_status code, const yaml_node_t *n, const char *key,
                     const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return GP_RAISE_AT(r->e, code, r->name, n ? (unsigned)n->start_mark.line + 1 : 0,
                       n ? (unsigned)n->start_mark.column + 1 : 0, "%s%s%s", key ? key : "",
                       key ? ": " : "", msg);
}

static const char *node_type_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE:
        return "a scalar";
    case YAML_SEQUENCE_NODE:
        return "a list";
    case YAML_MAPPING_NODE:
        return "a mapping";
    default:
        return "nothing";
    }
}

static int want(rctx *r, const yaml_node_t *n, yaml_node_type_t t, const char *key)
{
    static const char *const what[] = {"nothing", "a scalar", "a list", "a mapping"};
    if (n->type != t)
        return fail_node(r, GP_ESCHEMA, n, key, "expected %s, got %s", what[t], node_type_name(n));
    return GP_OK;
}

static const char *sval(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

static int get_str(rctx *r, const yaml_node_t *n, const char *key, char *buf, size_t cap)
{
    int rc = want(r, n, YAML_SCALAR_NODE, key);
    if (rc != GP_OK)
        return rc;
    if (n->data.scalar.length >= cap)
        return fail_node(r, GP_ESCHEMA, n, key, "string longer than %zu characters", cap - 1);
    memcpy(buf, sval(n), n->data.scalar.length);
    buf[n->data.scalar.length] = '\0';
    return GP_OK;
}

static int get_num(rctx *r, const yaml_node_t *n, const char *key, double *out)
{
    const char *s;
    double v;
    int rc = want(r, n, YAML_SCALAR_NODE, key);
    if (rc != GP_OK)
        return rc;
    s = sval(n);
    /* Decimal only, as the logs' numbers (gp__calib_num): strtod alone took
     * "0x10" and "0x1p3"; gpuplan-probe writes %.9g. */
    if (!gp__calib_num(s, &v))
        return fail_node(r, GP_ESCHEMA, n, key, "expected a number, got '%s'", s);
    *out = v;
    return GP_OK;
}

static int get_pos(rctx *r, const yaml_node_t *n, const char *key, double *out)
{
    int rc = get_num(r, n, key, out);
    if (rc == GP_OK && !(*out > 0.0))
        return fail_node(r, GP_ESCHEMA, n, key, "must be positive, got '%s'", sval(n));
    return rc;
}

static int get_int(rctx *r, const yaml_node_t *n, const char *key, long lo, long *out)
{
    double v;
    int rc = get_num(r, n, key, &v);
    if (rc != GP_OK)
        return rc;
    if (v != floor(v) || v < (double)lo || v > 9.0e15)
        return fail_node(r, GP_ESCHEMA, n, key, "expected an integer >= %ld, got '%s'", lo, sval(n));
    *out = (long)v;
    return GP_OK;
}

/* A whole count of bytes, loads or a stride, >= 1 (as get_int, into a
 * double): "bytes: 2.5" priced a memory copy at 3.5 kB/s. */
static int get_count(rctx *r, const yaml_node_t *n, const char *key, double *out)
{
    long v;
    int rc = get_pos(r, n, key, out);
    if (rc == GP_OK && (rc = get_int(r, n, key, 1, &v)) == GP_OK)
        *out = (double)v;
    return rc;
}

static int get_int_i(rctx *r, const yaml_node_t *n, const char *key, long lo, int *out)
{
    long v;
    int rc = get_int(r, n, key, lo, &v);
    if (rc == GP_OK) {
        if (v > 2147483647L)
            return fail_node(r, GP_ESCHEMA, n, key, "value '%s' is too large", sval(n));
        *out = (int)v;
    }
    return rc;
}

static int get_bool(rctx *r, const yaml_node_t *n, const char *key, int *out)
{
    int rc = want(r, n, YAML_SCALAR_NODE, key);
    if (rc != GP_OK)
        return rc;
    if (strcmp(sval(n), "true") == 0)
        *out = 1;
    else if (strcmp(sval(n), "false") == 0)
        *out = 0;
    else
        return fail_node(r, GP_ESCHEMA, n, key, "expected true or false, got '%s'", sval(n));
    return GP_OK;
}

/* A list of positive numbers into *buf (grown as needed). */
static int get_list(rctx *r, const yaml_node_t *n, const char *key, double **buf, size_t *cnt,
                    size_t *cap)
{
    yaml_node_item_t *it;
    size_t k = 0, len;
    int rc = want(r, n, YAML_SEQUENCE_NODE, key);
    if (rc != GP_OK)
        return rc;
    len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (len == 0)
        return fail_node(r, GP_ESCHEMA, n, key, "the list of trials is empty");
    if (len > MAX_TRIALS)
        return fail_node(r, GP_ESCHEMA, n, key, "more than %u trials", MAX_TRIALS);
    if (len > *cap) {
        double *nb = realloc(*buf, len * sizeof *nb);
        if (nb == NULL)
            return GP_RAISE(r->e, GP_ENOMEM, "out of memory");
        *buf = nb;
        *cap = len;
    }
    for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        const yaml_node_t *v = yaml_document_get_node(r->doc, *it);
        if ((rc = get_pos(r, v, key, &(*buf)[k])) != GP_OK)
            return rc;
        k++;
    }
    *cnt = k;
    return GP_OK;
}

static int unknown_key(rctx *r, const yaml_node_t *k, const char *where)
{
    return fail_node(r, GP_ESCHEMA, k, NULL, "unknown key '%s' in %s", sval(k), where);
}

/* The device block is read through a field table: key, type, where the
 * value goes in gp_calib_device (and a minimum for integers).  F_INFO keys
 * are informational (any scalar); F_PCIE is the nested pcie: mapping. */
typedef enum { F_STR, F_INT, F_LONG, F_NUM, F_POS, F_INFO, F_PCIE } ftype;
typedef struct dfield {
    const char *key;
    ftype type;
    size_t off;  /* offsetof in gp_calib_device                          */
    size_t size; /* F_STR: buffer size                                    */
    long min;    /* F_INT, F_LONG                                         */
} dfield;

#define DF(key, type, member, min)                                                          \
    {key, type, offsetof(gp_calib_device, member),                                        \
     sizeof(((gp_calib_device *)0)->member), min}
#define DINFO(key) {key, F_INFO, 0, 0, 0}

static const dfield pcie_fields[] = {
    DF("gen", F_INT, pcie_gen, 0),           DF("width", F_INT, pcie_width, 0),
    DF("max_gen", F_INT, pcie_max_gen, 0),   DF("max_width", F_INT, pcie_max_width, 0),
    DINFO("source"),                         DINFO("downtrained"),
};

static const dfield device_fields[] = {
    DF("name", F_STR, name, 0),
    DF("compute_capability", F_STR, cc, 0),
    DF("pci_bus_id", F_STR, pci_bus_id, 0),
    DF("nvml_driver_version", F_STR, nvml_driver, 0),
    DF("index", F_INT, index, 0),
    DF("sm_count", F_INT, sm_count, 1),
    DF("gpus", F_INT, gpus, 1),
    DF("driver_version", F_INT, driver_version, 0),
    DF("runtime_version", F_INT, runtime_version, 0),
    DF("cublaslt_version", F_LONG, cublaslt_version, 0),
    DF("memory_bus_bits", F_INT, memory_bus_bits, 0),
    DF("clock_sm_hz", F_NUM, clock_sm_hz, 0),
    DF("clock_mem_hz", F_NUM, clock_mem_hz, 0),
    DF("memory_bytes", F_POS, memory_bytes, 0),
    DF("l2_bytes", F_NUM, l2_bytes, 0),
    {"pcie", F_PCIE, 0, 0, 0},
    DINFO("uuid"), DINFO("ecc"), DINFO("cuda_toolkit"), DINFO("clock_sm_now_hz"),
    DINFO("nccl_version"), DINFO("power_limit_w"), DINFO("temperature_c"),
};

static int read_fields(rctx *r, const yaml_node_t *m, const char *where, const dfield *f,
                       size_t nf)
{
    yaml_node_pair_t *p;
    char *base = (char *)&r->c->dev;
    int rc = want(r, m, YAML_MAPPING_NODE, where);
    if (rc != GP_OK)
        return rc;
    for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
        const yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
        const dfield *d = NULL;
        char path[96];
        size_t i;
        if ((rc = want(r, k, YAML_SCALAR_NODE, where)) != GP_OK)
            return rc;
        for (i = 0; i < nf && d == NULL; i++)
            if (strcmp(sval(k), f[i].key) == 0)
                d = &f[i];
        if (d == NULL)
            return unknown_key(r, k, where);
        snprintf(path, sizeof path, "%s.%s", where, d->key);
        switch (d->type) {
        case F_STR:
            rc = get_str(r, v, path, base + d->off, d->size);
            break;
        case F_INT:
            rc = get_int_i(r, v, path, d->min, (int *)(void *)(base + d->off));
            break;
        case F_LONG:
            rc = get_int(r, v, path, d->min, (long *)(void *)(base + d->off));
            break;
        case F_NUM:
            rc = get_num(r, v, path, (double *)(void *)(base + d->off));
            break;
        case F_POS:
            rc = get_pos(r, v, path, (double *)(void *)(base + d->off));
            break;
        case F_INFO:
            rc = want(r, v, YAML_SCALAR_NODE, d->key); /* informational */
            break;
        case F_PCIE:
            rc = read_fields(r, v, "device.pcie", pcie_fields,
                             sizeof pcie_fields / sizeof pcie_fields[0]);
            break;
        }
        if (rc != GP_OK)
            return rc;
    }
    return GP_OK;
}

static int read_device(rctx *r, const yaml_node_t *m)
{
    int rc = read_fields(r, m, "device", device_fields,
                         sizeof device_fields / sizeof device_fields[0]);
    if (rc != GP_OK)
        return rc;
    if (r->c->dev.name[0] == '\0')
        return fail_node(r, GP_ESCHEMA, m, "device.name", "required field is missing");
    return GP_OK;
}

static int push_point(rctx *r, gp_calib_point **out)
{
    if (r->c->n_pts == r->cap) {
        size_t nc = r->cap ? 2 * r->cap : 64;
        gp_calib_point *np = realloc(r->c->pts, nc * sizeof *np);
        if (np == NULL)
            return GP_RAISE(r->e, GP_ENOMEM, "out of memory");
        r->c->pts = np;
        r->cap = nc;
    }
    *out = &r->c->pts[r->c->n_pts];
    memset(*out, 0, sizeof **out);
    return GP_OK;
}

static int parse_enum(rctx *r, const yaml_node_t *v, const char *key, const char *const *names,
                      int count, int *out)
{
    int i, rc = want(r, v, YAML_SCALAR_NODE, key);
    if (rc != GP_OK)
        return rc;
    for (i = 0; i < count; i++)
        if (strcmp(sval(v), names[i]) == 0) {
            *out = i;
            return GP_OK;
        }
    return fail_node(r, GP_ESCHEMA, v, key, "unknown value '%s'", sval(v));
}

/* The point's fastest trial gives a rate above GP_CALIB_RATE_MAX (a time of
 * 1e-300 s overflows it to inf): refused at that trial's own line:col. */
static int fail_trial(rctx *r, const yaml_node_t *list, const gp_calib_point *pt)
{
    const yaml_node_t *at = list;
    yaml_node_item_t *it;
    for (it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
        const yaml_node_t *v = yaml_document_get_node(r->doc, *it);
        if (gp__strtod(sval(v), NULL) == pt->t.min) {
            at = v;
            break;
        }
    }
    return fail_node(r, GP_ESCHEMA, at, "t_s",
                     "trial '%s' s for %g %s is %g %s per second, above %g: not a "
                     "measurement",
                     at != list ? sval(at) : "?", pt->work,
                     pt->kind == GP_CALIB_GEMM ? "FLOP" : "bytes", pt->rate_best,
                     pt->kind == GP_CALIB_GEMM ? "FLOP" : "bytes", GP_CALIB_RATE_MAX);
}

/* One point of section `kind`.  Keys common to all: t_s (trials, seconds
 * per op), verified, batch, stats (informational, recomputed here). */
static int read_point(rctx *r, gp_calib_kind kind, const yaml_node_t *m)
{
    static const char *const dirs[] = {"h2d", "d2h"};
    static const char *const mems[] = {"pinned", "pageable"};
    static const char *const modes[] = {"uni", "bidir", "latency"};
    static const char *const accs[] = {"fp32", "fp16"};
    static const char *const memk[] = {"copy", "read", "write", "triad", "memcpy-d2d", "l2-read"};
    const char *sec = gp_calib_kind_name(kind);
    yaml_node_pair_t *p;
    gp_calib_point *pt = NULL;
    const yaml_node_t *t_node = NULL;
    int rc, have_t = 0, have_work = 0, dir = -1, mem = -1, mode = -1, acc = 0, have_prec = 0;
    int have_pipe = 0, memkind = -1, pipe_i = 0;
    double *work;

    if ((rc = want(r, m, YAML_MAPPING_NODE, sec)) != GP_OK)
        return rc;
    if ((rc = push_point(r, &pt)) != GP_OK)
        return rc;
    pt->kind = kind;
    pt->line = (unsigned)m->start_mark.line + 1;
    pt->gpus = 1;
    r->ntmp = r->ntmp2 = 0;
    for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
        const yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
        const char *ks;
        double dv;
        if ((rc = want(r, k, YAML_SCALAR_NODE, sec)) != GP_OK)
            return rc;
        ks = sval(k);
        if (strcmp(ks, "stats") == 0 || strcmp(ks, "note") == 0 || strcmp(ks, "config") == 0) {
            rc = GP_OK; /* informational */
        } else if (strcmp(ks, "batch") == 0) {
            long b;
            rc = get_int(r, v, "batch", 1, &b);
        } else if (strcmp(ks, "verified") == 0) {
            rc = get_bool(r, v, "verified", &pt->verified);
        } else if (strcmp(ks, "label") == 0) {
            rc = get_str(r, v, "label", pt->label, sizeof pt->label);
        } else if (kind != GP_CALIB_LATENCY && strcmp(ks, "t_s") == 0) {
            rc = get_list(r, v, "t_s", &r->tmp, &r->ntmp, &r->captmp);
            t_node = v;
            have_t = 1;
        } else if (kind == GP_CALIB_LATENCY && strcmp(ks, "ns") == 0) {
            rc = get_list(r, v, "ns", &r->tmp, &r->ntmp, &r->captmp);
            t_node = v;
            have_t = 1;
        } else if (kind == GP_CALIB_LATENCY && strcmp(ks, "cycles") == 0) {
            rc = get_list(r, v, "cycles", &r->tmp2, &r->ntmp2, &r->captmp2);
        } else if (kind == GP_CALIB_LATENCY &&
                   (strcmp(ks, "stride") == 0 || strcmp(ks, "loads") == 0)) {
            rc = get_count(r, v, ks, &dv);
        } else if (kind == GP_CALIB_LATENCY && strcmp(ks, "working_set") == 0) {
            rc = get_count(r, v, "working_set", &pt->work);
            have_work = 1;
        } else if (kind == GP_CALIB_GEMM && strcmp(ks, "flop") == 0) {
            rc = get_pos(r, v, "flop", &pt->work);
            have_work = 1;
        } else if (kind != GP_CALIB_GEMM && kind != GP_CALIB_LATENCY && strcmp(ks, "bytes") == 0) {
            rc = get_count(r, v, "bytes", &pt->work);
            have_work = 1;
        } else if (kind == GP_CALIB_MEMORY && strcmp(ks, "working_set") == 0) {
            rc = get_count(r, v, "working_set", &dv);
        } else if (kind == GP_CALIB_GEMM && strcmp(ks, "precision") == 0) {
            gp_err sub;
            gp_precision pr;
            rc = want(r, v, YAML_SCALAR_NODE, "precision");
            if (rc == GP_OK) {
                gp_err_clear(&sub);
                if (gp_precision_parse(sval(v), &pr, &sub) != GP_OK)
                    rc = fail_node(r, GP_ESCHEMA, v, "precision", "%s", sub.msg);
                else
                    pt->prec = pr;
                have_prec = 1;
            }
        } else if (kind == GP_CALIB_GEMM && strcmp(ks, "pipeline") == 0) {
            gp_err sub;
            gp_pipeline pl;
            rc = want(r, v, YAML_SCALAR_NODE, "pipeline");
            if (rc == GP_OK) {
                gp_err_clear(&sub);
                if (gp_pipeline_parse(sval(v), &pl, &sub) != GP_OK)
                    rc = fail_node(r, GP_ESCHEMA, v, "pipeline", "%s", sub.msg);
                else
                    pipe_i = (int)pl;
                have_pipe = 1;
            }
        } else if (kind == GP_CALIB_GEMM && strcmp(ks, "accum") == 0) {
            rc = parse_enum(r, v, "accum", accs, 2, &acc);
        } else if (kind == GP_CALIB_GEMM && (strcmp(ks, "m") == 0 || strcmp(ks, "n") == 0 ||
                                              strcmp(ks, "k") == 0)) {
            rc = get_int(r, v, ks, 1, ks[0] == 'm' ? &pt->m : ks[0] == 'n' ? &pt->n : &pt->k);
        } else if (kind == GP_CALIB_MEMORY && strcmp(ks, "kernel") == 0) {
            rc = parse_enum(r, v, "kernel", memk, 6, &memkind);
        } else if (kind == GP_CALIB_TRANSFER && strcmp(ks, "direction") == 0) {
            rc = parse_enum(r, v, "direction", dirs, 2, &dir);
        } else if (kind == GP_CALIB_TRANSFER && strcmp(ks, "memory") == 0) {
            rc = parse_enum(r, v, "memory", mems, 2, &mem);
        } else if (kind == GP_CALIB_PEER && strcmp(ks, "mode") == 0) {
            rc = parse_enum(r, v, "mode", modes, 3, &mode);
        } else if (kind == GP_CALIB_PEER &&
                   (strcmp(ks, "src") == 0 || strcmp(ks, "dst") == 0)) {
            long dev;
            rc = get_int(r, v, ks, 0, &dev);
        } else if (kind == GP_CALIB_PEER && strcmp(ks, "p2p") == 0) {
            int b;
            rc = get_bool(r, v, "p2p", &b);
        } else if (kind == GP_CALIB_ALLREDUCE && strcmp(ks, "gpus") == 0) {
            rc = get_int_i(r, v, "gpus", 2, &pt->gpus);
        } else if (kind == GP_CALIB_ALLREDUCE &&
                   (strcmp(ks, "algo") == 0 || strcmp(ks, "dtype") == 0)) {
            rc = want(r, v, YAML_SCALAR_NODE, ks);
        } else {
            rc = unknown_key(r, k, sec);
        }
        if (rc != GP_OK)
            return rc;
    }
    if (!have_t)
        return fail_node(r, GP_ESCHEMA, m, kind == GP_CALIB_LATENCY ? "ns" : "t_s",
                         "required trial list is missing");
    if (!have_work)
        return fail_node(r, GP_ESCHEMA, m,
                         kind == GP_CALIB_GEMM      ? "flop"
                         : kind == GP_CALIB_LATENCY ? "working_set"
                                                    : "bytes",
                         "required field is missing");
    switch (kind) {
    case GP_CALIB_GEMM:
        if (!have_prec || !have_pipe)
            return fail_node(r, GP_ESCHEMA, m, have_prec ? "pipeline" : "precision",
                             "required field is missing");
        pt->pipe = (gp_pipeline)pipe_i;
        pt->acc = acc == 1 ? GP_ACC_FP16 : GP_ACC_FP32;
        snprintf(pt->series, sizeof pt->series, "%s-%s-%sacc", gp_precision_name(pt->prec),
                 gp_pipeline_name(pt->pipe), accs[acc]);
        if (pt->m > 0 && pt->n > 0 && pt->k > 0) {
            double f = 2.0 * (double)pt->m * (double)pt->n * (double)pt->k;
            if (fabs(f - pt->work) > 1e-9 * f)
                return fail_node(r, GP_ESCHEMA, m, "flop",
                                 "%.17g is not 2*m*n*k = %.17g", pt->work, f);
        }
        break;
    case GP_CALIB_MEMORY:
        if (memkind < 0)
            return fail_node(r, GP_ESCHEMA, m, "kernel", "required field is missing");
        snprintf(pt->series, sizeof pt->series, "%s", memk[memkind]);
        break;
    case GP_CALIB_LATENCY:
        snprintf(pt->series, sizeof pt->series, "chase");
        break;
    case GP_CALIB_TRANSFER:
        if (dir < 0 || mem < 0)
            return fail_node(r, GP_ESCHEMA, m, dir < 0 ? "direction" : "memory",
                             "required field is missing");
        snprintf(pt->series, sizeof pt->series, "%s-%s", dirs[dir], mems[mem]);
        break;
    case GP_CALIB_PEER:
        if (mode < 0)
            return fail_node(r, GP_ESCHEMA, m, "mode", "required field is missing");
        snprintf(pt->series, sizeof pt->series, "%s", modes[mode]);
        pt->gpus = 2;
        break;
    case GP_CALIB_ALLREDUCE:
        if (pt->gpus < 2)
            return fail_node(r, GP_ESCHEMA, m, "gpus", "required field is missing (>= 2)");
        snprintf(pt->series, sizeof pt->series, "allreduce");
        break;
    default:
        break;
    }
    work = malloc((r->ntmp > r->ntmp2 ? r->ntmp : r->ntmp2) * sizeof *work);
    if (work == NULL)
        return GP_RAISE(r->e, GP_ENOMEM, "out of memory");
    if (kind == GP_CALIB_LATENCY) {
        size_t i;
        for (i = 0; i < r->ntmp; i++)
            r->tmp[i] *= 1e-9; /* ns -> s */
    }
    rc = gp_calib_stats_compute(r->tmp, r->ntmp, work, &pt->t, r->e);
    if (rc == GP_OK && r->ntmp2 > 0) {
        if (r->ntmp2 != r->ntmp)
            rc = fail_node(r, GP_ESCHEMA, t_node, "cycles", "has %zu trials, ns has %zu",
                           r->ntmp2, r->ntmp);
        else
            rc = gp_calib_stats_compute(r->tmp2, r->ntmp2, work, &pt->cycles, r->e);
    }
    free(work);
    if (rc != GP_OK)
        return rc;
    if (kind != GP_CALIB_LATENCY) {
        pt->rate_best = pt->work / pt->t.min;
        pt->rate_median = pt->work / pt->t.median;
        if (!(pt->rate_best <= GP_CALIB_RATE_MAX))
            return fail_trial(r, t_node, pt);
    }
    r->c->n_pts++;
    return GP_OK;
}

static int read_section(rctx *r, gp_calib_kind kind, const yaml_node_t *seq)
{
    yaml_node_item_t *it;
    int rc = want(r, seq, YAML_SEQUENCE_NODE, gp_calib_kind_name(kind));
    if (rc != GP_OK)
        return rc;
    for (it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++)
        if ((rc = read_point(r, kind, yaml_document_get_node(r->doc, *it))) != GP_OK)
            return rc;
    return GP_OK;
}

static unsigned count_lines(const char *text, size_t len)
{
    unsigned n = 1;
    size_t i;
    for (i = 0; i < len; i++)
        if (text[i] == '\n' && i + 1 < len)
            n++;
    return n;
}

static int read_root(rctx *r, const yaml_node_t *root, const char *text, size_t len)
{
    static const char *const sections[GP_CALIB__COUNT] = {"gemm",     "memory", "latency",
                                                          "transfer", "peer",   "allreduce"};
    yaml_node_pair_t *p;
    const yaml_node_t *date_node = NULL;
    int rc, have_format = 0, have_device = 0, complete = 0;
    char fmt[64];

    if (root->type != YAML_MAPPING_NODE)
        return fail_node(r, GP_ESCHEMA, root, NULL,
                         "a measurement file is a mapping (format:, device:, ...), got %s",
                         node_type_name(root));
    for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
        const yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
        const char *ks;
        int s, found = 0;
        if ((rc = want(r, k, YAML_SCALAR_NODE, NULL)) != GP_OK)
            return rc;
        ks = sval(k);
        if (complete)
            return fail_node(r, GP_ESCHEMA, k, ks, "'complete: true' must be the last key");
        for (s = 0; s < GP_CALIB__COUNT; s++)
            if (strcmp(ks, sections[s]) == 0) {
                if ((rc = read_section(r, (gp_calib_kind)s, v)) != GP_OK)
                    return rc;
                found = 1;
            }
        if (found)
            continue;
        if (strcmp(ks, "format") == 0) {
            if ((rc = get_str(r, v, "format", fmt, sizeof fmt)) != GP_OK)
                return rc;
            if (strcmp(fmt, GP_CALIB_FORMAT) != 0)
                return fail_node(r, GP_ESCHEMA, v, "format",
                                 "unsupported format '%s' (this gpuplan reads %s)", fmt,
                                 GP_CALIB_FORMAT);
            have_format = 1;
        } else if (strcmp(ks, "tool") == 0) {
            rc = get_str(r, v, "tool", r->c->tool, sizeof r->c->tool);
        } else if (strcmp(ks, "date") == 0) {
            rc = get_str(r, v, "date", r->c->date, sizeof r->c->date);
            date_node = v;
        } else if (strcmp(ks, "host") == 0) {
            rc = get_str(r, v, "host", r->c->host, sizeof r->c->host);
        } else if (strcmp(ks, "device") == 0) {
            rc = read_device(r, v);
            have_device = 1;
        } else if (strcmp(ks, "options") == 0 || strcmp(ks, "warnings") == 0 ||
                   strcmp(ks, "skipped") == 0 || strcmp(ks, "conventions") == 0 ||
                   strcmp(ks, "machine") == 0) {
            rc = GP_OK; /* informational */
        } else if (strcmp(ks, "complete") == 0) {
            int b = 0;
            if ((rc = get_bool(r, v, "complete", &b)) != GP_OK)
                return rc;
            if (!b)
                return fail_node(r, GP_EPARSE, v, "complete",
                                 "the probe marked this file incomplete");
            complete = 1;
        } else {
            rc = unknown_key(r, k, "a measurement file");
        }
        if (rc != GP_OK)
            return rc;
    }
    if (!complete)
        return GP_RAISE_AT(r->e, GP_EPARSE, r->name, count_lines(text, len), 0,
                           "truncated measurement file: it does not end with 'complete: true' "
                           "(the probe writes it last)");
    if (!have_format)
        return fail_node(r, GP_ESCHEMA, root, "format", "required field is missing (want '%s')",
                         GP_CALIB_FORMAT);
    if (!have_device)
        return fail_node(r, GP_ESCHEMA, root, "device", "required field is missing");
    if (r->c->date[0] == '\0')
        return fail_node(r, GP_ESCHEMA, root, "date", "required field is missing");
    /* The overlay cites it: a date the calendar lacks is no date (as --date). */
    if (!gp_calib_date_ok(r->c->date))
        return fail_node(r, GP_ESCHEMA, date_node, "date",
                         "'%s' is not a date (ISO 8601 UTC: YYYY-MM-DD or "
                         "YYYY-MM-DDTHH:MM:SSZ, as the probe writes it)",
                         r->c->date);
    r->c->format = GP_CALIB_FMT_PROBE;
    r->c->nodes = 1; /* one process on one machine */
    r->c->gpus_per_node = r->c->dev.gpus;
    return GP_OK;
}

/* A scalar holding a NUL character (a "\0" escape: "NVIDIA H100\0junk"
 * would be read as "NVIDIA H100"), refused at its line:col as the database
 * loader refuses it (lib/db_yaml.c), naming the key it belongs to. */
static int nul_scalar(const char *name, yaml_document_t *doc, gp_err *e)
{
    yaml_node_t *n, *bad = NULL;
    int idx = 0;
    for (n = doc->nodes.start; n < doc->nodes.top && bad == NULL; n++)
        if (n->type == YAML_SCALAR_NODE &&
            memchr(n->data.scalar.value, '\0', n->data.scalar.length) != NULL) {
            bad = n;
            idx = (int)(n - doc->nodes.start) + 1;
        }
    if (bad == NULL)
        return GP_OK;
    for (n = doc->nodes.start; n < doc->nodes.top; n++) {
        yaml_node_pair_t *p;
        if (n->type != YAML_MAPPING_NODE)
            continue;
        for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
            if (p->value == idx) {
                const yaml_node_t *k = yaml_document_get_node(doc, p->key);
                if (k != NULL && k->type == YAML_SCALAR_NODE)
                    return GP_RAISE_AT(e, GP_EPARSE, name, (unsigned)bad->start_mark.line + 1,
                                       (unsigned)bad->start_mark.column + 1,
                                       "scalar contains a NUL character (near field '%s')",
                                       (const char *)k->data.scalar.value);
            }
    }
    return GP_RAISE_AT(e, GP_EPARSE, name, (unsigned)bad->start_mark.line + 1,
                       (unsigned)bad->start_mark.column + 1, "scalar contains a NUL character");
}

int gp_calib_read_text(const char *name, const char *text, size_t len, gp_calib **out,
                       gp_err *e)
{
    yaml_parser_t parser;
    yaml_document_t doc, doc2;
    yaml_node_t *root;
    rctx r;
    gp_calib *c;
    int rc;

    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_read_text: NULL out");
    *out = NULL;
    if (name == NULL)
        name = "<text>";
    if (text == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, name, 0, 0, "gp_calib_read_text: NULL text");
    if (len == 0)
        return GP_RAISE_AT(e, GP_EPARSE, name, 1, 0, "empty measurement file");
    if (memchr(text, '\0', len) != NULL)
        return GP_RAISE_AT(e, GP_EPARSE, name, 0, 0, "measurement file contains a NUL byte");
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return GP_RAISE(e, GP_ENOMEM, "out of memory");
    snprintf(c->path, sizeof c->path, "%s", name);
    if (!yaml_parser_initialize(&parser)) {
        free(c);
        return GP_RAISE(e, GP_ENOMEM, "out of memory (YAML parser)");
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        rc = GP_RAISE_AT(e, GP_EPARSE, name, (unsigned)parser.problem_mark.line + 1,
                         (unsigned)parser.problem_mark.column + 1, "not valid YAML: %s%s%s",
                         parser.problem ? parser.problem : "parse error",
                         parser.context ? " " : "", parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        free(c);
        return rc;
    }
    root = yaml_document_get_root_node(&doc);
    if (root == NULL) {
        yaml_document_delete(&doc);
        yaml_parser_delete(&parser);
        free(c);
        return GP_RAISE_AT(e, GP_EPARSE, name, 1, 0, "empty measurement file");
    }
    if ((size_t)(doc.nodes.top - doc.nodes.start) > MAX_NODES) {
        yaml_document_delete(&doc);
        yaml_parser_delete(&parser);
        free(c);
        return GP_RAISE_AT(e, GP_EPARSE, name, 0, 0, "more than %u YAML nodes", MAX_NODES);
    }
    /* A second document is not allowed (nor a parse error after the first). */
    if (!yaml_parser_load(&parser, &doc2)) {
        rc = GP_RAISE_AT(e, GP_EPARSE, name, (unsigned)parser.problem_mark.line + 1,
                         (unsigned)parser.problem_mark.column + 1, "not valid YAML: %s",
                         parser.problem ? parser.problem : "parse error");
        yaml_document_delete(&doc);
        yaml_parser_delete(&parser);
        free(c);
        return rc;
    }
    if (yaml_document_get_root_node(&doc2) != NULL) {
        rc = GP_RAISE_AT(e, GP_EPARSE, name, (unsigned)doc2.start_mark.line + 1, 0,
                         "more than one YAML document");
        yaml_document_delete(&doc2);
        yaml_document_delete(&doc);
        yaml_parser_delete(&parser);
        free(c);
        return rc;
    }
    yaml_document_delete(&doc2);
    if ((rc = nul_scalar(name, &doc, e)) != GP_OK) {
        yaml_document_delete(&doc);
        yaml_parser_delete(&parser);
        free(c);
        return rc;
    }
    memset(&r, 0, sizeof r);
    r.name = name;
    r.doc = &doc;
    r.c = c;
    r.e = e;
    rc = read_root(&r, root, text, len);
    free(r.tmp);
    free(r.tmp2);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    if (rc != GP_OK) {
        gp_calib_free(c);
        return rc;
    }
    *out = c;
    return GP_OK;
}

/* The whole of a regular file (at most MAX_FILE_BYTES) into *buf (malloc'd). */
static int slurp_file(const char *path, char **buf_out, size_t *len, gp_err *e)
{
    FILE *f;
    struct stat st;
    int fd;
    char *buf;
    size_t n = 0, cap = 65536;

    /* O_NONBLOCK: a FIFO must be refused, not waited on; only regular files
     * are read (a directory would otherwise give a bare "read error"). */
    fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot stat: %s", strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        int dir = S_ISDIR(st.st_mode);
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "%s",
                           dir ? "is a directory, expected a measurement file"
                               : "is not a regular file");
    }
    f = fdopen(fd, "rb");
    if (f == NULL) {
        int err = errno;
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot open: %s", strerror(err));
    }
    buf = malloc(cap);
    if (buf == NULL) {
        fclose(f);
        return GP_RAISE(e, GP_ENOMEM, "out of memory");
    }
    for (;;) {
        size_t got;
        if (n == cap) {
            char *nb;
            if (cap >= MAX_FILE_BYTES) {
                free(buf);
                fclose(f);
                return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "larger than %u bytes", MAX_FILE_BYTES);
            }
            cap *= 2;
            nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return GP_RAISE(e, GP_ENOMEM, "out of memory");
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "read error");
    }
    fclose(f);
    *buf_out = buf;
    *len = n;
    return GP_OK;
}

/* gp_calib_read_file and gp_calib_read_file_any (entry point `fn`). */
static int read_file_as(const char *fn, const char *path, gp_calib_format fmt, gp_calib **out,
                        gp_err *e)
{
    char *buf = NULL;
    size_t n = 0;
    int rc;

    if (out != NULL)
        *out = NULL;
    if (path == NULL)
        return GP_RAISE(e, GP_EINVAL, "%s: NULL path", fn);
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "%s: NULL out", fn);
    if ((rc = slurp_file(path, &buf, &n, e)) != GP_OK)
        return rc;
    rc = gp_calib_read_any(path, buf, n, fmt, out, e);
    free(buf);
    return rc;
}

int gp_calib_read_file(const char *path, gp_calib **out, gp_err *e)
{
    return read_file_as("gp_calib_read_file", path, GP_CALIB_FMT_PROBE, out, e);
}

int gp_calib_read_file_any(const char *path, gp_calib_format fmt, gp_calib **out, gp_err *e)
{
    return read_file_as("gp_calib_read_file_any", path, fmt, out, e);
}

void gp_calib_free(gp_calib *c)
{
    if (c == NULL)
        return;
    free(c->pts);
    free(c);
}

/* ---- fits over series ------------------------------------------------------------------ */

int gp_calib_fit_series(const gp_calib *c, gp_calib_kind kind, const char *series,
                        double min_bytes, double max_bytes, gp_calib_fit *out, gp_err *e)
{
    const gp_calib_point *first = NULL;
    fit_src src;
    double mult = 1.0, x, y;
    double dv[3];
    size_t n = 0, i, j, distinct = 0;

    if (c == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_fit_series: NULL c");
    if (series == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_fit_series: NULL series");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_fit_series: NULL out");
    memset(out, 0, sizeof *out);
    memset(&src, 0, sizeof src);
    src.n = c->n_pts;
    src.c = c;
    src.kind = kind;
    src.series = series;
    src.lo = min_bytes;
    src.hi = max_bytes;
    /* n points, `distinct` sizes, `first` the (first) smallest one. */
    for (i = 0; i < c->n_pts; i++) {
        if (!src_point(&src, i, &x, &y))
            continue;
        if (!(x > 0.0) || !isfinite(x) || !(y > 0.0) || !isfinite(y))
            return GP_RAISE(e, GP_EINVAL,
                            "alpha-beta fit: point %zu (size %g, time %g) is not positive", n, x, y);
        n++;
        if (first == NULL || x < first->work)
            first = &c->pts[i];
        /* Only "at least 3 sizes" matters: remember the first 3 (O(n)). */
        for (j = 0; j < distinct && dv[j] != x; j++)
            ;
        if (j == distinct && distinct < 3)
            dv[distinct++] = x;
    }
    if (distinct < 3)
        return GP_RAISE_AT(e, GP_ENOTFOUND, c->path, 0, 0,
                           "%s series '%s' has %zu sizes; an alpha-beta fit needs 3",
                           gp_calib_kind_name(kind), series, distinct);
    if (kind == GP_CALIB_ALLREDUCE) {
        double g = (double)first->gpus;
        mult = 2.0 * (g - 1.0) / g; /* MODEL: ring AllReduce busbw factor (nccl-tests) */
        if (!(mult > 0.0) || !isfinite(mult))
            return GP_RAISE(e, GP_EINVAL, "alpha-beta fit: %d GPUs give no AllReduce size multiplier",
                            first->gpus);
    }
    return hockney_fit(&src, n, mult, out, e);
}

/* ---- summary ---------------------------------------------------------------------------- */

static double median_of(double *v, size_t n)
{
    if (n == 0)
        return 0.0;
    gsl_sort(v, 1, n);
    return gsl_stats_median_from_sorted_data(v, 1, n);
}

/* Latency plateaus from the chase sweep: L1 = working sets <= 16 KiB;
 * L2 = 1 MiB .. L2/4; DRAM = max(8 L2, 64 MiB) .. 1 GiB.  Each is the median
 * of the per-point medians in its window (docs/calibration.md). */
static void latency_plateaus(const gp_calib *c, gp_calib_summary *s)
{
    double l2 = c->dev.l2_bytes;
    double lo[3], hi[3];
    double ns[3][64], cy[3][64];
    size_t cnt[3] = {0, 0, 0}, i;
    int w;

    lo[0] = 0.0;
    hi[0] = 16.0 * 1024.0;
    lo[1] = 1024.0 * 1024.0;
    hi[1] = l2 > 0.0 ? l2 / 4.0 : 0.0;
    lo[2] = l2 > 0.0 ? fmax(8.0 * l2, 64.0 * 1048576.0) : 256.0 * 1048576.0;
    hi[2] = 1024.0 * 1048576.0;
    for (i = 0; i < c->n_pts; i++) {
        const gp_calib_point *p = &c->pts[i];
        if (p->kind != GP_CALIB_LATENCY)
            continue;
        for (w = 0; w < 3; w++)
            if (p->work >= lo[w] && p->work <= hi[w] && cnt[w] < 64) {
                ns[w][cnt[w]] = p->t.median;
                cy[w][cnt[w]] = p->cycles.n > 0 ? p->cycles.median : 0.0;
                cnt[w]++;
            }
    }
    s->lat_l1 = median_of(ns[0], cnt[0]);
    s->lat_l2 = median_of(ns[1], cnt[1]);
    s->lat_dram = median_of(ns[2], cnt[2]);
    s->lat_l1_cyc = median_of(cy[0], cnt[0]);
    s->lat_l2_cyc = median_of(cy[1], cnt[1]);
    s->lat_dram_cyc = median_of(cy[2], cnt[2]);
}

/* A copy series: fitted beta/alpha when the model holds (max residual
 * <= 10 %), else the largest size's median rate and smallest's median time.
 * No bandwidth when no size reaches GP_CALIB_BW_MIN_BYTES: those times are
 * latency, and beta would be an extrapolation (the latency is kept). */
static void link_series(const gp_calib *c, gp_calib_kind kind, const char *series, double *bw,
                        double *lat, gp_calib_fit *fit)
{
    const gp_calib_point *lo = NULL, *hi = NULL;
    gp_calib_fit f;
    size_t i;
    for (i = 0; i < c->n_pts; i++) {
        const gp_calib_point *p = &c->pts[i];
        if (p->kind != kind || strcmp(p->series, series) != 0)
            continue;
        if (lo == NULL || p->work < lo->work)
            lo = p;
        if (hi == NULL || p->work > hi->work)
            hi = p;
    }
    if (fit != NULL)
        memset(fit, 0, sizeof *fit);
    if (hi == NULL)
        return;
    if (gp_calib_fit_series(c, kind, series, 0.0, 0.0, &f, NULL) == GP_OK &&
        f.max_rel_resid <= 0.10) {
        if (hi->work >= GP_CALIB_BW_MIN_BYTES)
            *bw = f.beta;
        if (lat != NULL)
            *lat = f.alpha;
        if (fit != NULL)
            *fit = f;
        return;
    }
    if (hi->work >= GP_CALIB_BW_MIN_BYTES)
        *bw = hi->rate_median;
    if (lat != NULL)
        *lat = lo->t.median;
}

void gp_calib_summarize(const gp_calib *c, gp_calib_summary *s)
{
    size_t i;
    if (s == NULL)
        return;
    memset(s, 0, sizeof *s);
    if (c == NULL)
        return;
    for (i = 0; i < c->n_pts; i++) {
        const gp_calib_point *p = &c->pts[i];
        double *dst = NULL;
        switch (p->kind) {
        case GP_CALIB_GEMM:
            if (p->acc == GP_ACC_FP16) {
                s->gemm_fp16acc = fmax(s->gemm_fp16acc, p->rate_median);
            } else {
                s->gemm[p->prec][p->pipe] = fmax(s->gemm[p->prec][p->pipe], p->rate_median);
                s->gemm_best[p->prec][p->pipe] = fmax(s->gemm_best[p->prec][p->pipe], p->rate_best);
            }
            break;
        case GP_CALIB_MEMORY:
            if (strcmp(p->series, "copy") == 0) {
                dst = &s->mem_bw;
                s->mem_bw_best = fmax(s->mem_bw_best, p->rate_best);
            } else if (strcmp(p->series, "read") == 0) {
                dst = &s->mem_read_bw;
            } else if (strcmp(p->series, "write") == 0) {
                dst = &s->mem_write_bw;
            } else if (strcmp(p->series, "triad") == 0) {
                dst = &s->mem_triad_bw;
            } else if (strcmp(p->series, "memcpy-d2d") == 0) {
                dst = &s->memcpy_d2d_bw;
            } else if (strcmp(p->series, "l2-read") == 0) {
                dst = &s->l2_bw;
            }
            if (dst != NULL)
                *dst = fmax(*dst, p->rate_median); /* best configuration, median trial */
            break;
        case GP_CALIB_PEER:
            if (strcmp(p->series, "bidir") == 0 && p->work >= GP_CALIB_BW_MIN_BYTES)
                s->peer_bidir_bw = fmax(s->peer_bidir_bw, p->rate_median);
            else if (strcmp(p->series, "latency") == 0 &&
                     (s->peer_lat == 0.0 || p->t.median < s->peer_lat))
                s->peer_lat = p->t.median;
            break;
        case GP_CALIB_TRANSFER:
        case GP_CALIB_ALLREDUCE:
        case GP_CALIB_LATENCY:
        default:
            break;
        }
    }
    latency_plateaus(c, s);
    link_series(c, GP_CALIB_TRANSFER, "h2d-pinned", &s->h2d_bw, &s->h2d_lat, &s->h2d_fit);
    link_series(c, GP_CALIB_TRANSFER, "d2h-pinned", &s->d2h_bw, &s->d2h_lat, &s->d2h_fit);
    link_series(c, GP_CALIB_TRANSFER, "h2d-pageable", &s->h2d_pageable_bw, NULL, NULL);
    link_series(c, GP_CALIB_TRANSFER, "d2h-pageable", &s->d2h_pageable_bw, NULL, NULL);
    {
        double lat = 0.0;
        link_series(c, GP_CALIB_PEER, "uni", &s->peer_bw, &lat, &s->peer_fit);
        if (s->peer_lat == 0.0)
            s->peer_lat = lat;
    }
    if (c->format == GP_CALIB_FMT_NVBANDWIDTH) {
        /* nvbandwidth times one buffer size per test (its points' times are
         * 1 GB / rate): the time of "the smallest copy" is not a latency. */
        s->h2d_lat = s->d2h_lat = s->peer_lat = 0.0;
    }
    {
        const gp_calib_point *lo = NULL;
        gp_calib_fit f;
        double top = 0.0; /* the largest size */
        for (i = 0; i < c->n_pts; i++)
            if (c->pts[i].kind == GP_CALIB_ALLREDUCE) {
                const gp_calib_point *p = &c->pts[i];
                double g = (double)p->gpus;
                double busbw = 2.0 * (g - 1.0) / g * p->work / p->t.median;
                s->allreduce_gpus = p->gpus;
                if (busbw > s->allreduce_busbw)
                    s->allreduce_busbw = busbw;
                if (lo == NULL || p->work < lo->work)
                    lo = p;
                top = fmax(top, p->work);
            }
        s->allreduce_nodes = c->nodes;
        if (lo != NULL)
            s->allreduce_lat = lo->t.median;
        /* All sizes when t = alpha + c S / beta holds over the sweep; else
         * the bandwidth regime (a real NCCL/RCCL sweep switches protocol and
         * algorithm below a few MiB, so one line does not fit 8 B .. 8 GiB);
         * else the best size (docs/calibration.md). */
        if (lo != NULL &&
            gp_calib_fit_series(c, GP_CALIB_ALLREDUCE, "allreduce", 0.0, 0.0, &f, NULL) == GP_OK &&
            f.max_rel_resid <= 0.10) {
            s->allreduce_fit = f;
            s->allreduce_busbw = f.beta;
            s->allreduce_lat = f.alpha;
        } else if (lo != NULL &&
                   gp_calib_fit_series(c, GP_CALIB_ALLREDUCE, "allreduce",
                                       GP_CALIB_AR_BW_MIN_BYTES, 0.0, &f, NULL) == GP_OK &&
                   f.max_rel_resid <= 0.10) {
            s->allreduce_fit = f;
            s->allreduce_fit_min_bytes = GP_CALIB_AR_BW_MIN_BYTES;
            s->allreduce_busbw = f.beta;
        }
        /* A latency sweep (no size in the bandwidth regime) measures no
         * busbw: neither its beta nor its best size is the link's. */
        if (lo != NULL && top < GP_CALIB_BW_MIN_BYTES)
            s->allreduce_busbw = 0.0;
    }
}

/* ---- efficiencies ----------------------------------------------------------------------- */

static void eff_row(gp_calib_eff *out, size_t cap, size_t *n, const char *what, double meas,
                    const gp_fig *ds)
{
    if (!(meas > 0.0) || ds == NULL || !(ds->v > 0.0))
        return;
    if (*n < cap) {
        gp_calib_eff *r = &out[*n];
        snprintf(r->what, sizeof r->what, "%s", what);
        r->measured = meas;
        r->datasheet = ds->v;
        r->eff = meas / ds->v;
        r->src = ds->src;
    }
    (*n)++;
}

size_t gp_calib_efficiencies(const gp_calib_summary *s, const gp_gpu *g, const gp_link *host,
                             const gp_link *peer, gp_calib_eff *out, size_t cap)
{
    size_t n = 0;
    int p, q;
    char what[40];
    if (s == NULL || g == NULL)
        return 0;
    if (out == NULL)
        cap = 0; /* count the rows only */
    eff_row(out, cap, &n, "memory copy", s->mem_bw, &g->mem_bw);
    eff_row(out, cap, &n, "memory triad", s->mem_triad_bw, &g->mem_bw);
    eff_row(out, cap, &n, "memory read", s->mem_read_bw, &g->mem_bw);
    eff_row(out, cap, &n, "memory write", s->mem_write_bw, &g->mem_bw);
    eff_row(out, cap, &n, "memcpy d2d", s->memcpy_d2d_bw, &g->mem_bw);
    eff_row(out, cap, &n, "l2 read", s->l2_bw, &g->l2_bw);
    for (p = 0; p < GP_PREC__COUNT; p++)
        for (q = 0; q < GP_PIPE__COUNT; q++) {
            snprintf(what, sizeof what, "%s %s GEMM", gp_precision_name((gp_precision)p),
                     gp_pipeline_name((gp_pipeline)q));
            eff_row(out, cap, &n, what, s->gemm[p][q], &g->peak[p][q]);
        }
    if (s->gemm_fp16acc > 0.0) {
        const gp_fig *f = g->peak_fp16acc[GP_FP16].v > 0.0 ? &g->peak_fp16acc[GP_FP16]
                                                            : &g->peak[GP_FP16][GP_PIPE_TENSOR];
        eff_row(out, cap, &n, "fp16 tensor GEMM fp16acc", s->gemm_fp16acc, f);
    }
    if (host != NULL) {
        eff_row(out, cap, &n, "h2d pinned", s->h2d_bw, &host->bw);
        eff_row(out, cap, &n, "d2h pinned", s->d2h_bw, &host->bw);
        eff_row(out, cap, &n, "h2d pageable", s->h2d_pageable_bw, &host->bw);
        eff_row(out, cap, &n, "d2h pageable", s->d2h_pageable_bw, &host->bw);
    }
    if (peer != NULL) {
        gp_fig two = peer->bw;
        eff_row(out, cap, &n, "peer uni", s->peer_bw, &peer->bw);
        two.v *= 2.0; /* bidirectional: both directions summed */
        eff_row(out, cap, &n, "peer bidir", s->peer_bidir_bw, &two);
        /* Only a sweep on one node measures the scale-up link. */
        if (s->allreduce_nodes == 1)
            eff_row(out, cap, &n, "allreduce busbw", s->allreduce_busbw, &peer->bw);
    }
    return n;
}

/* ---- matching a device name to a database GPU ------------------------------------------ */

/* Lower-case words of s without vendor words (gp__name_words), at most cap. */
static size_t words(const char *s, char w[][GP__WORD_MAX], size_t cap)
{
    size_t n = gp__name_words(s, w, cap);
    return n < cap ? n : cap;
}

/* Number of words of `cand` when all appear in dev's words, else 0. */
static size_t covers(char dw[][GP__WORD_MAX], size_t nd, const char *cand)
{
    char cw[16][GP__WORD_MAX];
    size_t nc = words(cand, cw, 16), i, j;
    if (nc == 0)
        return 0;
    for (i = 0; i < nc; i++) {
        for (j = 0; j < nd; j++)
            if (strcmp(cw[i], dw[j]) == 0)
                break;
        if (j == nd)
            return 0;
    }
    return nc;
}

int gp_calib_match_gpu(const gp_db *db, const char *device_name, const gp_gpu **out, gp_err *e)
{
    size_t i, j, n, nd, best = 0;
    const gp_gpu *hit = NULL, *tie = NULL;
    char dw[16][GP__WORD_MAX];

    if (out != NULL)
        *out = NULL;
    if (db == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_match_gpu: NULL db");
    if (device_name == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_match_gpu: NULL device_name");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_match_gpu: NULL out");
    n = gp_db_count(db, GP_KIND_GPU);
    for (i = 0; i < n; i++) {
        const gp_gpu *g = gp_db_gpu_at(db, i);
        if ((g->name && strcasecmp(g->name, device_name) == 0) ||
            strcasecmp(g->id, device_name) == 0) {
            *out = g;
            return GP_OK;
        }
        for (j = 0; j < g->n_aliases; j++)
            if (strcasecmp(g->aliases[j], device_name) == 0) {
                *out = g;
                return GP_OK;
            }
    }
    nd = words(device_name, dw, 16);
    for (i = 0; i < n; i++) {
        const gp_gpu *g = gp_db_gpu_at(db, i);
        size_t score = covers(dw, nd, g->id);
        for (j = 0; j < g->n_aliases; j++) {
            size_t sc = covers(dw, nd, g->aliases[j]);
            if (sc > score)
                score = sc;
        }
        if (score == 0)
            continue;
        if (score > best) {
            best = score;
            hit = g;
            tie = NULL;
        } else if (score == best && g != hit) {
            tie = g;
        }
    }
    if (hit == NULL)
        return GP_RAISE(e, GP_ENOTFOUND,
                        "device '%s' matches no GPU in the database; name one with --as ID "
                        "(see 'gpuplan hw list gpus')", device_name);
    if (tie != NULL)
        return GP_RAISE(e, GP_EINVAL,
                        "device '%s' matches both '%s' and '%s'; choose one with --as ID",
                        device_name, hit->id, tie->id);
    *out = hit;
    return GP_OK;
}

/* ---- overlay text ------------------------------------------------------------------------ */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (b->oom)
        return;
    for (;;) {
        size_t room = b->cap - b->n;
        va_start(ap, fmt);
        k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->p != NULL && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        {
            size_t nc = b->cap ? b->cap * 2 : 1024;
            char *np;
            while (nc < b->n + (size_t)k + 1)
                nc *= 2;
            np = realloc(b->p, nc);
            if (np == NULL) {
                b->oom = 1;
                return;
            }
            b->p = np;
            b->cap = nc;
        }
    }
}

/* A double-quoted YAML scalar: escapes quotes and backslashes, drops
 * control characters. */
static void sb_quoted(sbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            sb_printf(b, "\\%c", ch);
        else if (ch >= 0x20 && ch != 0x7f)
            sb_printf(b, "%c", ch);
    }
    sb_printf(b, "\"");
}

/* A figure for the overlay: "%.*f" then its unit, with a '.' whatever the
 * host program's locale (the loader reads the "C" form only). */
static void sb_fixed(sbuf *b, int digits, double v, const char *unit)
{
    char t[400];
    snprintf(t, sizeof t, "%.*f", digits, v);
    sb_printf(b, "%s%s", gp__c_radix(t), unit);
}

static void sb_rate(sbuf *b, double v)
{
    if (v >= 1e9)
        sb_fixed(b, 3, v / 1e9, "GB/s");
    else if (v >= 1e6)
        sb_fixed(b, 3, v / 1e6, "MB/s");
    else
        sb_fixed(b, 0, v, "B/s");
}

static void sb_dur(sbuf *b, double v)
{
    if (v < 1e-6)
        sb_fixed(b, 2, v * 1e9, "ns");
    else if (v < 1e-3)
        sb_fixed(b, 3, v * 1e6, "us");
    else
        sb_fixed(b, 3, v * 1e3, "ms");
}

static void sb_flops(sbuf *b, double v, int integer)
{
    if (v >= 1e12)
        sb_fixed(b, 3, v / 1e12, integer ? "TOPS" : "TFLOPS");
    else
        sb_fixed(b, 3, v / 1e9, integer ? "GOPS" : "GFLOPS");
}

/* "2026-12-01" from an ISO 8601 date-time. */
static void date_only(const char *iso, char *out, size_t cap)
{
    size_t i;
    for (i = 0; iso[i] != '\0' && iso[i] != 'T' && iso[i] != ' ' && i + 1 < cap; i++)
        out[i] = iso[i];
    out[i] = '\0';
}

static void overlay_header(sbuf *b, const gp_calib *c, const char *id, const char *label)
{
    char src[1024], date[40];
    const char *lab = label ? label : c->path;
    sb_printf(b, "# gpuplan calibration overlay, written by 'gpuplan calib import'.\n"
                 "# Do not edit: re-import a measurement file instead (docs/calibration.md).\n");
    sb_printf(b, "id: ");
    sb_quoted(b, id);
    sb_printf(b, "\nmeasured:\n  source: ");
    if (c->format == GP_CALIB_FMT_NCCL_TESTS)
        snprintf(src, sizeof src, "%s all_reduce_perf on %d x %s (%d node%s, host %s), %s",
                 c->tool, c->pts != NULL ? c->pts[0].gpus : 0, c->dev.name, c->nodes,
                 c->nodes == 1 ? "" : "s", c->host[0] ? c->host : "?", lab);
    else if (c->format == GP_CALIB_FMT_BABELSTREAM)
        snprintf(src, sizeof src, "%s on %s (%d device%s, driver %d), %s", c->tool, c->dev.name,
                 c->dev.gpus, c->dev.gpus == 1 ? "" : "s", c->dev.driver_version, lab);
    else if (c->format == GP_CALIB_FMT_NVBANDWIDTH)
        snprintf(src, sizeof src, "%s on %d x %s (driver %s%s%s), %s", c->tool, c->dev.gpus,
                 c->dev.name[0] ? c->dev.name : "GPUs the log does not name",
                 c->dev.nvml_driver[0] ? c->dev.nvml_driver : "?", c->host[0] ? ", host " : "",
                 c->host, lab);
    else
        snprintf(src, sizeof src, "%s on %s (cc %s, CUDA driver %d, host %s), %s",
                 c->tool[0] ? c->tool : "gpuplan-probe", c->dev.name,
                 c->dev.cc[0] ? c->dev.cc : "?", c->dev.driver_version,
                 c->host[0] ? c->host : "?", lab);
    sb_quoted(b, src);
    /* A log without a date (nccl-tests, BabelStream: none unless --date)
     * gets no date line: the loader cites the source alone then. */
    date_only(c->date, date, sizeof date);
    if (date[0] != '\0') {
        sb_printf(b, "\n  date: ");
        sb_quoted(b, date);
    }
    sb_printf(b, "\n");
}

static int finish(sbuf *b, char **text, gp_err *e)
{
    if (b->oom) {
        free(b->p);
        return GP_RAISE(e, GP_ENOMEM, "out of memory");
    }
    *text = b->p;
    return GP_OK;
}

int gp_calib_overlay_gpu(const gp_calib *c, const gp_calib_summary *s, const char *gpu_id,
                         const char *label, char **text, gp_err *e)
{
    sbuf b = {NULL, 0, 0, 0};
    int p, q, any_compute = 0, any = 0;

    if (text != NULL)
        *text = NULL;
    if (c == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_overlay_gpu: NULL c");
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_overlay_gpu: NULL s");
    if (gpu_id == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_overlay_gpu: NULL gpu_id");
    if (text == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_overlay_gpu: NULL text");
    overlay_header(&b, c, gpu_id, label);
    if (s->mem_bw > 0.0) {
        sb_printf(&b, "  memory_bandwidth: ");
        sb_rate(&b, s->mem_bw);
        if (c->format == GP_CALIB_FMT_BABELSTREAM)
            sb_printf(&b, "   # BabelStream Copy, read + write bytes counted, median over %d "
                          "device%s of each one's best pass\n",
                      c->dev.gpus, c->dev.gpus == 1 ? "" : "s");
        else
            sb_printf(&b, "   # SM copy kernel, read + write bytes counted, median\n");
        any = 1;
    }
    if (s->l2_bw > 0.0) {
        sb_printf(&b, "  l2_bandwidth: ");
        sb_rate(&b, s->l2_bw);
        sb_printf(&b, "\n");
        any = 1;
    }
    if (s->lat_l1 > 0.0 || s->lat_l2 > 0.0 || s->lat_dram > 0.0) {
        const char *sep = "";
        sb_printf(&b, "  latency: {");
        if (s->lat_l1 > 0.0) {
            sb_printf(&b, "l1: ");
            sb_dur(&b, s->lat_l1);
            sep = ", ";
        }
        if (s->lat_l2 > 0.0) {
            sb_printf(&b, "%sl2: ", sep);
            sb_dur(&b, s->lat_l2);
            sep = ", ";
        }
        if (s->lat_dram > 0.0) {
            sb_printf(&b, "%sdram: ", sep);
            sb_dur(&b, s->lat_dram);
        }
        sb_printf(&b, "}\n");
        any = 1;
    }
    if (s->h2d_bw > 0.0) {
        sb_printf(&b, "  h2d_bandwidth: ");
        sb_rate(&b, s->h2d_bw);
        if (c->format == GP_CALIB_FMT_NVBANDWIDTH)
            sb_printf(&b, "   # nvbandwidth host_to_device_memcpy_ce (pinned, copy engine), per "
                          "direction, median over %d GPU%s\n", c->dev.gpus,
                      c->dev.gpus == 1 ? "" : "s");
        else
            sb_printf(&b, "   # pinned, per direction\n");
        any = 1;
    }
    if (s->d2h_bw > 0.0) {
        sb_printf(&b, "  d2h_bandwidth: ");
        sb_rate(&b, s->d2h_bw);
        sb_printf(&b, "\n");
        any = 1;
    }
    if (s->h2d_lat > 0.0) {
        sb_printf(&b, "  h2d_latency: ");
        sb_dur(&b, s->h2d_lat);
        sb_printf(&b, "\n");
        any = 1;
    }
    for (p = 0; p < GP_PREC__COUNT; p++)
        for (q = 0; q < GP_PIPE__COUNT; q++) {
            if (!(s->gemm[p][q] > 0.0))
                continue;
            if (!any_compute) {
                sb_printf(&b, "  compute:   # best dense GEMM per precision, median trial\n");
                any_compute = 1;
            }
            sb_printf(&b, "    %s: {%s: ", gp_precision_name((gp_precision)p),
                      gp_pipeline_name((gp_pipeline)q));
            sb_flops(&b, s->gemm[p][q], p == GP_INT8 || p == GP_INT4);
            sb_printf(&b, "}\n");
            any = 1;
        }
    if (!any) {
        free(b.p);
        return GP_RAISE_AT(e, GP_EINVAL, c->path, 0, 0,
                           "the measurement file holds no figure an overlay can carry "
                           "(memory, GEMM, latency or host transfers)");
    }
    return finish(&b, text, e);
}

int gp_calib_overlay_link(const gp_calib *c, const gp_calib_summary *s, const char *link_id,
                          const char *label, char **text, gp_err *e)
{
    sbuf b = {NULL, 0, 0, 0};
    if (text != NULL)
        *text = NULL;
    if (c == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_overlay_link: NULL c");
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_overlay_link: NULL s");
    if (link_id == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_overlay_link: NULL link_id");
    if (text == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_overlay_link: NULL text");
    if (!(s->peer_bw > 0.0) && !(s->peer_lat > 0.0) && !(s->allreduce_busbw > 0.0))
        return GP_RAISE_AT(e, GP_ENOTFOUND, c->path, 0, 0,
                           "no peer-to-peer or AllReduce measurements");
    if (s->allreduce_busbw > 0.0) {
        /* A link's figure is the ring AllReduce busbw inside one node
         * (hwdb/links); a sweep across nodes is bounded by the network
         * between them, NVLS/Tree/CollNet by another algorithm. */
        if (c->nodes > 1)
            return GP_RAISE_AT(e, GP_EUNSUP, c->path, 0, 0,
                               "the AllReduce sweep ran on %d nodes (hosts '%s', '%s'%s): "
                               "its busbw is bounded by the network between them, not by "
                               "link '%s'; import a sweep on one node (mpirun on one host, "
                               "or all_reduce_perf -g N)", c->nodes, c->host, c->host2,
                               c->nodes > 2 ? ", ..." : "", link_id);
        if (c->nodes < 1)
            return GP_RAISE_AT(e, GP_EUNSUP, c->path, 0, 0,
                               "the log does not list every rank's host ('# Rank N ... on "
                               "HOST' lines), so it does not show the sweep ran on one node; "
                               "link '%s' takes only a single-node figure", link_id);
        if (c->algo[0] != '\0' && !gp__calib_algo_ring(c->algo))
            return GP_RAISE_AT(e, GP_EUNSUP, c->path, 0, 0,
                               "the sweep ran NCCL_ALGO=%s, not the ring a link figure means "
                               "(NVLS reduces in the switch, Tree/CollNet move other "
                               "traffic; docs/models/collectives.md); rerun with "
                               "NCCL_ALGO=Ring", c->algo);
    }
    overlay_header(&b, c, link_id, label);
    /* A link's achievable figure means NCCL ring busbw (hwdb/links: ~230 of
     * 300 GB/s on A100), below a raw copy, so a measured AllReduce wins. */
    if (s->allreduce_busbw > 0.0) {
        sb_printf(&b, "  bandwidth: ");
        sb_rate(&b, s->allreduce_busbw);
        sb_printf(&b, "   # AllReduce busbw (nccl-tests convention), per direction, %d GPUs: ",
                  s->allreduce_gpus);
        if (s->allreduce_fit.n > 0 && s->allreduce_fit_min_bytes > 0.0)
            sb_printf(&b, "fit beta over S >= %.0f MiB\n", s->allreduce_fit_min_bytes / 1048576.0);
        else if (s->allreduce_fit.n > 0)
            sb_printf(&b, "fit beta over every size\n");
        else
            sb_printf(&b, "best size, median trial\n");
    } else if (s->peer_bw > 0.0) {
        sb_printf(&b, "  bandwidth: ");
        sb_rate(&b, s->peer_bw);
        if (c->format == GP_CALIB_FMT_NVBANDWIDTH)
            sb_printf(&b, "   # nvbandwidth device_to_device_memcpy CE, per direction, median "
                          "over GPU pairs\n");
        else
            sb_printf(&b, "   # GPU-to-GPU copy, per direction\n");
    }
    if (s->peer_lat > 0.0) {
        sb_printf(&b, "  latency: ");
        sb_dur(&b, s->peer_lat);
        sb_printf(&b, "\n");
    }
    return finish(&b, text, e);
}
