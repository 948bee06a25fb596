/* gpuplan-probe's measurement-file writer (see writer.h).  Host-only C11. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "writer.h"

/* ---- growable text ------------------------------------------------------------------ */

typedef struct gpw_buf {
    char *p;
    size_t len, cap;
    int oom;
} gpw_buf;

static void gpw_buf_add(gpw_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        char *np;
        while (nc < b->len + n + 1)
            nc *= 2;
        np = realloc(b->p, nc);
        if (np == NULL) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->len, s, n + 1);
    b->len += n;
}

static void gpw_buf_addf(gpw_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void gpw_buf_addf(gpw_buf *b, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        gpw_buf_add(b, small);
        return;
    }
    {
        char *big = malloc((size_t)n + 1);
        if (big == NULL) {
            b->oom = 1;
            return;
        }
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        gpw_buf_add(b, big);
        free(big);
    }
}

/* A double-quoted YAML scalar of at most max bytes of s: quotes and
 * backslashes escaped, control characters dropped, bytes >= 0x80 as '?'
 * (a cut could otherwise split a UTF-8 sequence, which YAML refuses). */
static void gpw_buf_str(gpw_buf *b, const char *s, size_t max)
{
    char out[2 * 512 + 3];
    size_t i, o = 0;
    if (s == NULL)
        s = "";
    if (max > 512)
        max = 512;
    out[o++] = '"';
    for (i = 0; s[i] != '\0' && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c >= 0x80) {
            out[o++] = '?';
        } else if (c >= 0x20 && c != 0x7f) {
            out[o++] = (char)c;
        }
    }
    out[o++] = '"';
    out[o] = '\0';
    gpw_buf_add(b, out);
}

/* Numbers: integers (|v| < 2^53) exactly, everything else with 9 digits. */
static void gpw_buf_num(gpw_buf *b, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        gpw_buf_addf(b, "%.0f", v);
    else
        gpw_buf_addf(b, "%.9g", v);
}

static void gpw_buf_list(gpw_buf *b, const double *v, size_t n)
{
    size_t i;
    gpw_buf_add(b, "[");
    for (i = 0; i < n; i++) {
        if (i)
            gpw_buf_add(b, ", ");
        gpw_buf_num(b, v[i]);
    }
    gpw_buf_add(b, "]");
}

/* ---- statistics --------------------------------------------------------------------- */

static int gpw_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int gpw_stats_of(const double *x, size_t n, gpw_stats *out)
{
    double *v, sum = 0.0, h;
    size_t i, lo, hi;
    if (x == NULL || out == NULL || n == 0 || n > 65536)
        return -1;
    for (i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return -1;
    v = malloc(n * sizeof *v);
    if (v == NULL)
        return -1;
    for (i = 0; i < n; i++) {
        v[i] = x[i];
        sum += x[i];
    }
    qsort(v, n, sizeof v[0], gpw_cmp_double);
    memset(out, 0, sizeof *out);
    out->n = n;
    out->min = v[0];
    out->max = v[n - 1];
    out->mean = sum / (double)n;
    h = (double)(n - 1) * 0.5;
    lo = (size_t)h;
    hi = lo + 1 < n ? lo + 1 : lo;
    out->median = v[lo] + (h - (double)lo) * (v[hi] - v[lo]);
    h = (double)(n - 1) * 0.95;
    lo = (size_t)h;
    hi = lo + 1 < n ? lo + 1 : lo;
    out->p95 = v[lo] + (h - (double)lo) * (v[hi] - v[lo]);
    if (n > 1 && out->mean != 0.0) {
        double ss = 0.0;
        for (i = 0; i < n; i++)
            ss += (x[i] - out->mean) * (x[i] - out->mean);
        out->cv = sqrt(ss / (double)(n - 1)) / fabs(out->mean);
    }
    free(v);
    return 0;
}

/* ---- the document ------------------------------------------------------------------- */

struct gpw_doc {
    gpw_buf sec[GPW__SECTIONS];    /* "  - {...}\n" items               */
    size_t count[GPW__SECTIONS];
    gpw_buf warnings, skipped;     /* "  - \"...\"\n" items            */
    char tool[GPW_MAX_TOOL + 1], date[GPW_MAX_DATE + 1], host[GPW_MAX_HOST + 1];
    char only[256];
    int quick, trials, have_header;
    gpw_buf device;                /* the device: block                 */
};

static const char *const gpw_section_names[GPW__SECTIONS] = {
    "gemm", "memory", "latency", "transfer", "peer", "allreduce"};

gpw_doc *gpw_new(void)
{
    return calloc(1, sizeof(gpw_doc));
}

void gpw_free(gpw_doc *d)
{
    int s;
    if (d == NULL)
        return;
    free(d->device.p);
    for (s = 0; s < GPW__SECTIONS; s++)
        free(d->sec[s].p);
    free(d->warnings.p);
    free(d->skipped.p);
    free(d);
}

static void gpw_copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

void gpw_set_header(gpw_doc *d, const char *tool, const char *date, const char *host, int quick,
                    int trials, const char *only)
{
    if (d == NULL)
        return;
    gpw_copy(d->tool, sizeof d->tool, tool);
    gpw_copy(d->date, sizeof d->date, date);
    gpw_copy(d->host, sizeof d->host, host);
    gpw_copy(d->only, sizeof d->only, only && only[0] ? only : "all");
    d->quick = quick;
    d->trials = trials;
    d->have_header = 1;
}

void gpw_set_device(gpw_doc *d, const gpw_device *v)
{
    gpw_buf *b;
    char cc[32];
    if (d == NULL || v == NULL)
        return;
    b = &d->device;
    b->len = 0;
    if (b->p)
        b->p[0] = '\0';
    gpw_buf_add(b, "device:\n");
    gpw_buf_addf(b, "  index: %d\n", v->index);
    gpw_buf_add(b, "  name: ");
    gpw_buf_str(b, v->name && v->name[0] ? v->name : "unknown GPU", GPW_MAX_NAME);
    snprintf(cc, sizeof cc, "%d.%d", v->cc_major, v->cc_minor);
    gpw_buf_add(b, "\n  compute_capability: ");
    gpw_buf_str(b, cc, GPW_MAX_CC);
    gpw_buf_addf(b, "\n  sm_count: %d\n", v->sm_count > 0 ? v->sm_count : 1);
    gpw_buf_addf(b, "  gpus: %d\n", v->gpus > 0 ? v->gpus : 1);
    gpw_buf_add(b, "  clock_sm_hz: ");
    gpw_buf_num(b, isfinite(v->clock_sm_hz) ? v->clock_sm_hz : 0.0);
    gpw_buf_add(b, "\n  clock_mem_hz: ");
    gpw_buf_num(b, isfinite(v->clock_mem_hz) ? v->clock_mem_hz : 0.0);
    gpw_buf_add(b, "\n");
    if (v->memory_bus_bits > 0)
        gpw_buf_addf(b, "  memory_bus_bits: %d\n", v->memory_bus_bits);
    if (v->ecc >= 0)
        gpw_buf_addf(b, "  ecc: %s\n", v->ecc ? "true" : "false");
    if (v->memory_bytes > 0 && isfinite(v->memory_bytes)) {
        gpw_buf_add(b, "  memory_bytes: ");
        gpw_buf_num(b, v->memory_bytes);
        gpw_buf_add(b, "\n");
    }
    gpw_buf_add(b, "  l2_bytes: ");
    gpw_buf_num(b, v->l2_bytes > 0 && isfinite(v->l2_bytes) ? v->l2_bytes : 0.0);
    gpw_buf_addf(b, "\n  driver_version: %d\n", v->driver_version > 0 ? v->driver_version : 0);
    gpw_buf_addf(b, "  runtime_version: %d\n", v->runtime_version > 0 ? v->runtime_version : 0);
    gpw_buf_add(b, "  cuda_toolkit: ");
    gpw_buf_str(b, v->cuda_toolkit ? v->cuda_toolkit : "", 64);
    gpw_buf_addf(b, "\n  cublaslt_version: %ld\n", v->cublaslt_version > 0 ? v->cublaslt_version : 0L);
    if (v->nvml_driver && v->nvml_driver[0]) {
        gpw_buf_add(b, "  nvml_driver_version: ");
        gpw_buf_str(b, v->nvml_driver, GPW_MAX_NVML);
        gpw_buf_add(b, "\n");
    }
    gpw_buf_add(b, "  pci_bus_id: ");
    gpw_buf_str(b, v->pci_bus_id, GPW_MAX_BUS);
    gpw_buf_addf(b, "\n  pcie: {gen: %d, width: %d, max_gen: %d, max_width: %d, source: ",
                 v->pcie_gen > 0 ? v->pcie_gen : 0, v->pcie_width > 0 ? v->pcie_width : 0,
                 v->pcie_max_gen > 0 ? v->pcie_max_gen : 0,
                 v->pcie_max_width > 0 ? v->pcie_max_width : 0);
    gpw_buf_str(b, v->pcie_source && v->pcie_source[0] ? v->pcie_source : "unknown", 32);
    gpw_buf_add(b, "}\n");
}

void gpw_warning(gpw_doc *d, const char *msg)
{
    if (d == NULL)
        return;
    gpw_buf_add(&d->warnings, "  - ");
    gpw_buf_str(&d->warnings, msg, 500);
    gpw_buf_add(&d->warnings, "\n");
}

void gpw_skip(gpw_doc *d, const char *msg)
{
    if (d == NULL)
        return;
    gpw_buf_add(&d->skipped, "  - ");
    gpw_buf_str(&d->skipped, msg, 500);
    gpw_buf_add(&d->skipped, "\n");
}

size_t gpw_count(const gpw_doc *d, int section)
{
    if (d == NULL || section < 0 || section >= GPW__SECTIONS)
        return 0;
    return d->count[section];
}

static int gpw_one_of(const char *s, const char *const *names)
{
    size_t i;
    if (s == NULL)
        return 0;
    for (i = 0; names[i] != NULL; i++)
        if (strcmp(s, names[i]) == 0)
            return 1;
    return 0;
}

/* Checks the trials; on failure records `what: reason` under skipped. */
static int gpw_check(gpw_doc *d, const char *what, const double *t, size_t nt, gpw_stats *st)
{
    char msg[400];
    size_t i;
    if (t == NULL || nt == 0) {
        snprintf(msg, sizeof msg, "%s: no trials; point dropped", what);
        gpw_skip(d, msg);
        return -1;
    }
    for (i = 0; i < nt; i++)
        if (!isfinite(t[i]) || !(t[i] > 0.0)) {
            snprintf(msg, sizeof msg, "%s: trial %zu is %g (not a positive time); point dropped",
                     what, i, t[i]);
            gpw_skip(d, msg);
            return -1;
        }
    if (gpw_stats_of(t, nt, st) != 0) {
        snprintf(msg, sizeof msg, "%s: %zu trials cannot be summarised; point dropped", what, nt);
        gpw_skip(d, msg);
        return -1;
    }
    return 0;
}

static int gpw_bad_name(gpw_doc *d, const char *section, const char *key, const char *v)
{
    char msg[300];
    snprintf(msg, sizeof msg, "%s: %s '%s' is not one the reader knows; point dropped", section,
             key, v ? v : "(null)");
    gpw_skip(d, msg);
    return -1;
}

/* ", t_s: [...], stats: {min_s, median_s, p95_s, cv[, rate_key: work/median]}}\n" */
static void gpw_tail(gpw_buf *b, const double *t, size_t nt, const gpw_stats *st,
                     const char *rate_key, double work)
{
    gpw_buf_add(b, ", verified: true, t_s: ");
    gpw_buf_list(b, t, nt);
    gpw_buf_add(b, ", stats: {min_s: ");
    gpw_buf_num(b, st->min);
    gpw_buf_add(b, ", median_s: ");
    gpw_buf_num(b, st->median);
    gpw_buf_add(b, ", p95_s: ");
    gpw_buf_num(b, st->p95);
    gpw_buf_add(b, ", cv: ");
    gpw_buf_num(b, st->cv);
    if (rate_key != NULL) {
        gpw_buf_addf(b, ", %s: ", rate_key);
        gpw_buf_num(b, work / st->median);
    }
    gpw_buf_add(b, "}}\n");
}

static int gpw_positive(double v)
{
    return isfinite(v) && v > 0.0;
}

int gpw_gemm(gpw_doc *d, const char *prec, const char *pipe, const char *acc, const char *label,
             long m, long n, long k, int batch, const double *t, size_t nt)
{
    static const char *const precs[] = {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", NULL};
    static const char *const pipes[] = {"cuda", "tensor", NULL};
    static const char *const accs[] = {"fp32", "fp16", NULL};
    gpw_stats st;
    gpw_buf *b;
    char what[160];
    double flop;
    if (d == NULL)
        return -1;
    if (!gpw_one_of(prec, precs))
        return gpw_bad_name(d, "gemm", "precision", prec);
    if (!gpw_one_of(pipe, pipes))
        return gpw_bad_name(d, "gemm", "pipeline", pipe);
    if (!gpw_one_of(acc, accs))
        return gpw_bad_name(d, "gemm", "accum", acc);
    snprintf(what, sizeof what, "gemm %s acc %s %s", prec, acc, label ? label : "");
    if (m < 1 || n < 1 || k < 1) {
        char msg[240];
        snprintf(msg, sizeof msg, "%s: shape %ldx%ldx%ld is not positive; point dropped", what, m,
                 n, k);
        gpw_skip(d, msg);
        return -1;
    }
    if (gpw_check(d, what, t, nt, &st) != 0)
        return -1;
    flop = 2.0 * (double)m * (double)n * (double)k;
    b = &d->sec[GPW_GEMM];
    gpw_buf_addf(b, "  - {precision: %s, pipeline: %s, accum: %s", prec, pipe, acc);
    if (label && label[0]) {
        gpw_buf_add(b, ", label: ");
        gpw_buf_str(b, label, GPW_MAX_LABEL);
    }
    gpw_buf_addf(b, ", m: %ld, n: %ld, k: %ld, flop: ", m, n, k);
    gpw_buf_num(b, flop);
    gpw_buf_addf(b, ", batch: %d", batch > 0 ? batch : 1);
    gpw_tail(b, t, nt, &st, "median_flop_per_s", flop);
    d->count[GPW_GEMM]++;
    return 0;
}

int gpw_memory(gpw_doc *d, const char *kernel, double bytes, double working_set,
               const char *config, int batch, const double *t, size_t nt)
{
    static const char *const kernels[] = {"read",       "write",   "copy", "triad",
                                          "memcpy-d2d", "l2-read", NULL};
    gpw_stats st;
    gpw_buf *b;
    char what[160];
    if (d == NULL)
        return -1;
    if (!gpw_one_of(kernel, kernels))
        return gpw_bad_name(d, "memory", "kernel", kernel);
    snprintf(what, sizeof what, "memory %s %s", kernel, config ? config : "");
    if (!gpw_positive(bytes) || !gpw_positive(working_set)) {
        char msg[240];
        snprintf(msg, sizeof msg, "%s: bytes %g / working set %g not positive; point dropped",
                 what, bytes, working_set);
        gpw_skip(d, msg);
        return -1;
    }
    if (gpw_check(d, what, t, nt, &st) != 0)
        return -1;
    b = &d->sec[GPW_MEMORY];
    gpw_buf_addf(b, "  - {kernel: %s, bytes: ", kernel);
    gpw_buf_num(b, bytes);
    gpw_buf_add(b, ", working_set: ");
    gpw_buf_num(b, working_set);
    if (config && config[0]) {
        gpw_buf_add(b, ", config: ");
        gpw_buf_str(b, config, 64);
    }
    gpw_buf_addf(b, ", batch: %d", batch > 0 ? batch : 1);
    gpw_tail(b, t, nt, &st, "median_bytes_per_s", bytes);
    d->count[GPW_MEMORY]++;
    return 0;
}

int gpw_latency(gpw_doc *d, double working_set, double stride, long loads, const double *ns,
                const double *cycles, size_t nt)
{
    gpw_stats sn, sc;
    gpw_buf *b;
    char what[120];
    if (d == NULL)
        return -1;
    snprintf(what, sizeof what, "latency %.0f B", isfinite(working_set) ? working_set : 0.0);
    if (!gpw_positive(working_set) || !gpw_positive(stride) || loads < 1) {
        char msg[240];
        snprintf(msg, sizeof msg, "%s: working set, stride or loads not positive; point dropped",
                 what);
        gpw_skip(d, msg);
        return -1;
    }
    if (gpw_check(d, what, ns, nt, &sn) != 0 || gpw_check(d, what, cycles, nt, &sc) != 0)
        return -1;
    b = &d->sec[GPW_LATENCY];
    gpw_buf_add(b, "  - {working_set: ");
    gpw_buf_num(b, working_set);
    gpw_buf_add(b, ", stride: ");
    gpw_buf_num(b, stride);
    gpw_buf_addf(b, ", loads: %ld, verified: true, ns: ", loads);
    gpw_buf_list(b, ns, nt);
    gpw_buf_add(b, ", cycles: ");
    gpw_buf_list(b, cycles, nt);
    gpw_buf_add(b, ", stats: {median_ns: ");
    gpw_buf_num(b, sn.median);
    gpw_buf_add(b, ", median_cycles: ");
    gpw_buf_num(b, sc.median);
    gpw_buf_add(b, ", cv: ");
    gpw_buf_num(b, sn.cv);
    gpw_buf_add(b, "}}\n");
    d->count[GPW_LATENCY]++;
    return 0;
}

int gpw_transfer(gpw_doc *d, const char *dir, const char *mem, double bytes, int batch,
                 const double *t, size_t nt)
{
    static const char *const dirs[] = {"h2d", "d2h", NULL};
    static const char *const mems[] = {"pinned", "pageable", NULL};
    gpw_stats st;
    gpw_buf *b;
    char what[120];
    if (d == NULL)
        return -1;
    if (!gpw_one_of(dir, dirs))
        return gpw_bad_name(d, "transfer", "direction", dir);
    if (!gpw_one_of(mem, mems))
        return gpw_bad_name(d, "transfer", "memory", mem);
    snprintf(what, sizeof what, "transfer %s %s %.0f B", dir, mem, isfinite(bytes) ? bytes : 0.0);
    if (!gpw_positive(bytes)) {
        gpw_skip(d, "transfer: bytes not positive; point dropped");
        return -1;
    }
    if (gpw_check(d, what, t, nt, &st) != 0)
        return -1;
    b = &d->sec[GPW_TRANSFER];
    gpw_buf_addf(b, "  - {direction: %s, memory: %s, bytes: ", dir, mem);
    gpw_buf_num(b, bytes);
    gpw_buf_addf(b, ", batch: %d", batch > 0 ? batch : 1);
    gpw_tail(b, t, nt, &st, "median_bytes_per_s", bytes);
    d->count[GPW_TRANSFER]++;
    return 0;
}

int gpw_peer(gpw_doc *d, const char *mode, int src, int dst, int p2p, double bytes, int batch,
             const char *note, const double *t, size_t nt)
{
    static const char *const modes[] = {"uni", "bidir", "latency", NULL};
    gpw_stats st;
    gpw_buf *b;
    char what[120];
    if (d == NULL)
        return -1;
    if (!gpw_one_of(mode, modes))
        return gpw_bad_name(d, "peer", "mode", mode);
    snprintf(what, sizeof what, "peer %s %.0f B", mode, isfinite(bytes) ? bytes : 0.0);
    if (!gpw_positive(bytes) || src < 0 || dst < 0) {
        gpw_skip(d, "peer: bytes or device index out of range; point dropped");
        return -1;
    }
    if (gpw_check(d, what, t, nt, &st) != 0)
        return -1;
    b = &d->sec[GPW_PEER];
    gpw_buf_addf(b, "  - {mode: %s, src: %d, dst: %d, p2p: %s, bytes: ", mode, src, dst,
                 p2p ? "true" : "false");
    gpw_buf_num(b, bytes);
    gpw_buf_addf(b, ", batch: %d", batch > 0 ? batch : 1);
    if (note && note[0]) {
        gpw_buf_add(b, ", note: ");
        gpw_buf_str(b, note, 200);
    }
    gpw_tail(b, t, nt, &st, strcmp(mode, "latency") == 0 ? NULL : "median_bytes_per_s", bytes);
    d->count[GPW_PEER]++;
    return 0;
}

int gpw_allreduce(gpw_doc *d, int gpus, double bytes, const char *dtype, int batch,
                  int nccl_version, const double *t, size_t nt)
{
    gpw_stats st;
    gpw_buf *b;
    char what[120];
    double algbw, busbw;
    if (d == NULL)
        return -1;
    snprintf(what, sizeof what, "allreduce %d GPUs %.0f B", gpus, isfinite(bytes) ? bytes : 0.0);
    if (gpus < 2 || !gpw_positive(bytes)) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s: needs >= 2 GPUs and positive bytes; point dropped", what);
        gpw_skip(d, msg);
        return -1;
    }
    if (gpw_check(d, what, t, nt, &st) != 0)
        return -1;
    algbw = bytes / st.median;
    busbw = algbw * 2.0 * (double)(gpus - 1) / (double)gpus;
    b = &d->sec[GPW_ALLREDUCE];
    gpw_buf_addf(b, "  - {gpus: %d, bytes: ", gpus);
    gpw_buf_num(b, bytes);
    gpw_buf_add(b, ", dtype: ");
    gpw_buf_str(b, dtype && dtype[0] ? dtype : "float32", 32);
    gpw_buf_addf(b, ", batch: %d, verified: true, t_s: ", batch > 0 ? batch : 1);
    gpw_buf_list(b, t, nt);
    gpw_buf_add(b, ", stats: {median_s: ");
    gpw_buf_num(b, st.median);
    gpw_buf_add(b, ", cv: ");
    gpw_buf_num(b, st.cv);
    gpw_buf_add(b, ", algbw_bytes_per_s: ");
    gpw_buf_num(b, algbw);
    gpw_buf_add(b, ", busbw_bytes_per_s: ");
    gpw_buf_num(b, busbw);
    gpw_buf_addf(b, ", nccl_version: %d}}\n", nccl_version);
    d->count[GPW_ALLREDUCE]++;
    return 0;
}

char *gpw_render(const gpw_doc *d, const char *const *pending, size_t npending)
{
    gpw_buf b = {NULL, 0, 0, 0};
    size_t i;
    int s;
    if (d == NULL)
        return NULL;
    gpw_buf_add(&b, "# gpuplan-probe measurement file (docs/calibration.md).  Times are seconds "
                    "per\n# operation, one entry per trial (a trial = a batch of operations "
                    "between CUDA events).\n");
    gpw_buf_add(&b, "format: " GPW_FORMAT "\ntool: ");
    gpw_buf_str(&b, d->have_header ? d->tool : "gpuplan-probe", GPW_MAX_TOOL);
    gpw_buf_add(&b, "\ndate: ");
    gpw_buf_str(&b, d->have_header && d->date[0] ? d->date : "1970-01-01T00:00:00Z",
                GPW_MAX_DATE);
    gpw_buf_add(&b, "\nhost: ");
    gpw_buf_str(&b, d->host, GPW_MAX_HOST);
    gpw_buf_addf(&b, "\noptions: {quick: %s, trials: %d, only: ", d->quick ? "true" : "false",
                 d->trials);
    gpw_buf_str(&b, d->have_header ? d->only : "all", 200);
    gpw_buf_addf(&b, ", finished: %s}\n", npending ? "false" : "true");
    gpw_buf_add(&b, "conventions: {memory_bytes: \"DRAM traffic: bytes read + bytes written per "
                    "pass\", memcpy_d2d_bytes: \"2 x bytes copied (read + write)\", "
                    "transfer_bytes: \"bytes copied, one direction\", peer_bidir_bytes: \"bytes "
                    "copied in both directions summed\", allreduce_bytes: \"message size S per "
                    "rank; busbw = 2(n-1)/n * S / t\"}\n");
    if (d->device.p != NULL)
        gpw_buf_add(&b, d->device.p);
    else
        gpw_buf_add(&b, "device:\n  name: \"unknown GPU\"\n");
    for (s = 0; s < GPW__SECTIONS; s++)
        if (d->count[s] > 0 && d->sec[s].p != NULL) {
            gpw_buf_addf(&b, "%s:\n", gpw_section_names[s]);
            gpw_buf_add(&b, d->sec[s].p);
        }
    if (d->warnings.p != NULL) {
        gpw_buf_add(&b, "warnings:\n");
        gpw_buf_add(&b, d->warnings.p);
    }
    if (d->skipped.p != NULL || npending > 0) {
        gpw_buf_add(&b, "skipped:\n");
        if (d->skipped.p != NULL)
            gpw_buf_add(&b, d->skipped.p);
        for (i = 0; i < npending; i++) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "%s: did not finish (the probe was killed, crashed or timed out before "
                     "this file was rewritten)",
                     pending && pending[i] ? pending[i] : "?");
            gpw_buf_add(&b, "  - ");
            gpw_buf_str(&b, msg, 300);
            gpw_buf_add(&b, "\n");
        }
    }
    gpw_buf_add(&b, "complete: true\n");
    for (s = 0; s < GPW__SECTIONS; s++)
        if (d->sec[s].oom)
            b.oom = 1;
    if (d->device.oom || d->warnings.oom || d->skipped.oom)
        b.oom = 1;
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ---- atomic file write -------------------------------------------------------------- */

int gpw_write_atomic(const char *path, const char *text, char *err, size_t errcap)
{
    char tmp[4096], dir[4096];
    const char *slash;
    size_t off = 0, len;
    int fd, dfd;
    if (err && errcap)
        err[0] = '\0';
    if (path == NULL || text == NULL || strlen(path) + 16 > sizeof tmp) {
        if (err)
            snprintf(err, errcap, "bad output path");
        return -1;
    }
    slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        if (err)
            snprintf(err, errcap, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    len = strlen(text);
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (err)
                snprintf(err, errcap, "write %s: %s", tmp, strerror(errno));
            close(fd);
            unlink(tmp);
            return -1;
        }
        off += (size_t)w;
    }
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0) {
        if (err)
            snprintf(err, errcap, "finishing %s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        return -1;
    }
    if (close(fd) != 0) {
        if (err)
            snprintf(err, errcap, "closing %s: %s", tmp, strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        if (err)
            snprintf(err, errcap, "rename to %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
}
