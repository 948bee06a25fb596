/* Calibration from the standard tools' output: nccl-tests / rccl-tests
 * `all_reduce_perf` and BabelStream, read into the same gp_calib a
 * gpuplan-probe file gives (docs/calibration.md, "Importing nccl-tests,
 * rccl-tests and BabelStream output").  Pure text in, gp_calib out; every
 * refusal names name:line (and the column when it is one field). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "calib_int.h"
#include "gpuplan/calib.h"
#include "units_int.h"

#define MAX_TOKENS 32
#define MAX_RANKS 1048576L

/* ---- lines and tokens ---------------------------------------------------------------- */


static int lines_init(gp__calib_lines *L, const char *name, const char *text, size_t len, gp_err *e)
{
    memset(L, 0, sizeof *L);
    if (len > 0 && memchr(text, '\0', len) != NULL)
        return GP_RAISE_AT(e, GP_EPARSE, name, 0, 0, "the file contains a NUL byte; not a text log");
    L->buf = malloc(len + 1);
    if (L->buf == NULL)
        return GP_RAISE(e, GP_ENOMEM, "out of memory");
    memcpy(L->buf, text, len);
    L->buf[len] = '\0';
    L->len = len;
    return GP_OK;
}

/* The next line (without its end-of-line and trailing blanks), or NULL;
 * shared with the nvbandwidth reader (calib_int.h). */
char *gp__calib_lines_next(gp__calib_lines *L)
{
    char *s, *nl, *end;
    if (L->pos >= L->len)
        return NULL;
    s = L->buf + L->pos;
    nl = memchr(s, '\n', L->len - L->pos);
    if (nl != NULL) {
        *nl = '\0';
        L->pos = (size_t)(nl - L->buf) + 1;
    } else {
        L->pos = L->len;
    }
    L->no++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

static const char *cskip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static char *skip_ws(char *s)
{
    return s + (cskip_ws(s) - s);
}

/* Strip the line prefix an MPI launcher adds: "[0] ", "[1,0]<stdout>:",
 * "[1,0]<stderr>:" (Open MPI --tag-output), "0: " (srun --label). */
static char *strip_prefix(char *s)
{
    char *p = skip_ws(s);
    if (*p == '[') {
        char *q = p + 1;
        while (isdigit((unsigned char)*q) || *q == ',')
            q++;
        if (q > p + 1 && *q == ']') {
            q++;
            if (strncmp(q, "<stdout>:", 9) == 0 || strncmp(q, "<stderr>:", 9) == 0)
                q += 9;
            return q;
        }
        return s;
    }
    if (isdigit((unsigned char)*p)) {
        char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (*q == ':' && (q[1] == ' ' || q[1] == '\t' || q[1] == '\0'))
            return q + 1;
    }
    return s;
}

/* Split s in place at blanks; returns the count (at most MAX_TOKENS; *more
 * set when the line holds more). */
static size_t tokenize(char *s, char **tok, int *more)
{
    size_t n = 0;
    *more = 0;
    for (;;) {
        s = skip_ws(s);
        if (*s == '\0')
            break;
        if (n == MAX_TOKENS) {
            *more = 1;
            break;
        }
        tok[n++] = s;
        while (*s != '\0' && *s != ' ' && *s != '\t')
            s++;
        if (*s != '\0')
            *s++ = '\0';
    }
    return n;
}

/* A finite decimal number (no hex, no nan/inf) filling the whole token;
 * shared with the nvbandwidth reader (calib_int.h). */
int gp__calib_num(const char *t, double *v)
{
    char *end;
    const char *p;
    if (*t == '\0')
        return 0;
    for (p = t; *p; p++)
        if (!(isdigit((unsigned char)*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' ||
              *p == 'E'))
            return 0;
    errno = 0;
    *v = gp__strtod(t, &end);
    return end != t && *end == '\0' && errno != ERANGE && isfinite(*v);
}

/* An unsigned decimal integer filling the whole token (<= 2^63). */
static int parse_uint(const char *t, double *v)
{
    const char *p;
    if (*t == '\0' || strlen(t) > 19)
        return 0;
    for (p = t; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    *v = gp__strtod(t, NULL);
    return 1;
}

static int parse_int(const char *t, long *v)
{
    double d;
    const char *p = t;
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    if (!parse_uint(p, &d) || d > 2147483647.0)
        return 0;
    *v = neg ? -(long)d : (long)d;
    return 1;
}

int gp__calib_algo_ring(const char *algo)
{
    char buf[64], *tok, *save = NULL;
    int nvls = 0, ring = 1;
    if (algo == NULL || strcasecmp(algo, "ring") == 0)
        return 1;
    if (algo[0] != '^' || strlen(algo) >= sizeof buf)
        return 0;
    snprintf(buf, sizeof buf, "%s", algo + 1);
    for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        if (strcasecmp(tok, "nvls") == 0)
            nvls = 1;
        else if (strcasecmp(tok, "ring") == 0)
            ring = 0;
    }
    return nvls && ring;
}

/* Append a warning to c (counted beyond GP_CALIB_MAX_WARN, not stored);
 * shared with the nvbandwidth reader (calib_int.h). */
void gp__calib_warn(gp_calib *c, const char *fmt, ...)
{
    va_list ap;
    if (c->n_warn < GP_CALIB_MAX_WARN) {
        va_start(ap, fmt);
        vsnprintf(c->warn[c->n_warn], sizeof c->warn[0], fmt, ap);
        va_end(ap);
    }
    c->n_warn++;
}

static int push_point(gp_calib *c, size_t *cap, gp_calib_point **out, gp_err *e)
{
    if (c->n_pts == *cap) {
        size_t nc = *cap ? 2 * *cap : 32;
        gp_calib_point *np = realloc(c->pts, nc * sizeof *np);
        if (np == NULL)
            return GP_RAISE(e, GP_ENOMEM, "out of memory");
        c->pts = np;
        *cap = nc;
    }
    *out = &c->pts[c->n_pts];
    memset(*out, 0, sizeof **out);
    return GP_OK;
}

/* Column (1-based) of p within the original line starting at base. */
static unsigned col_of(const char *base, const char *p)
{
    return (unsigned)(p - base) + 1;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src);
}

/* ---- nccl-tests / rccl-tests -------------------------------------------------------------- */

/* Bytes per element of an nccl-tests data type name; 0 when unknown. */
/* The start the text readers share (calib_int.h). */
int gp__calib_reader_begin(const char *fn, const char **name, const char *text, size_t len,
                           gp_calib **out, gp_calib_format fmt, gp__calib_lines *L, gp_calib **c,
                           gp_err *e)
{
    int rc;
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "%s: NULL out", fn);
    *out = NULL;
    if (*name == NULL)
        *name = "<text>";
    if (text == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, *name, 0, 0, "%s: NULL text", fn);
    if (len == 0)
        return GP_RAISE_AT(e, GP_EPARSE, *name, 1, 0, "empty file");
    if ((rc = lines_init(L, *name, text, len, e)) != GP_OK)
        return rc;
    *c = calloc(1, sizeof **c);
    if (*c == NULL) {
        free(L->buf);
        return GP_RAISE(e, GP_ENOMEM, "out of memory");
    }
    copy_str((*c)->path, sizeof (*c)->path, *name);
    (*c)->format = fmt;
    return GP_OK;
}

static double type_bytes(const char *t)
{
    static const struct {
        const char *name;
        double bytes;
    } types[] = {
        {"int8", 1},     {"uint8", 1},    {"char", 1},     {"f8e4m3", 1},   {"f8e5m2", 1},
        {"fp8_e4m3", 1}, {"fp8_e5m2", 1}, {"half", 2},     {"float16", 2},  {"bfloat16", 2},
        {"bf16", 2},     {"int32", 4},    {"uint32", 4},   {"int", 4},      {"float", 4},
        {"float32", 4},  {"int64", 8},    {"uint64", 8},   {"double", 8},   {"float64", 8},
    };
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(t, types[i].name) == 0)
            return types[i].bytes;
    return 0.0;
}

typedef struct nctx {
    const char *name;
    gp_calib *c;
    gp_err *e;
    size_t cap;
    /* ranks */
    unsigned char *seen;   /* rank bitmap (1 byte per rank) */
    long seen_cap;
    long n_rank_lines, max_rank;
    char (*hosts)[64];
    long *host_ranks;
    long n_hosts, hosts_cap;
    int rank_names_differ;
    /* columns (col_header): `head` leading fields (size count type redop
     * [root]), `halves` blocks of `width` fields (time algbw busbw
     * #wrong|error, then i_min i_max i_p99 i_cv% with per-iteration
     * timing), then the two fields of a timestamp when `has_ts` */
    int have_cols, has_root, wrong_is_count, ncols;
    int head, halves, width, per_iter, has_ts;
    /* from '# nThread ...': graph launches (-G) and aggregated operations (-m) */
    long graph, agg;
    char op[48];           /* from '# Collective test starting' */
    char type[24], redop[24];
    char version[48];      /* the tests' version: "2.18.3", "develop:ae3e635" */
    char libver[48];       /* the library's: "NCCL 2.21.5+cuda12.4", "RCCL 2.22.3-..." */
    int rccl;
} nctx;

/* Copy the first blank-free word of s (at most cap - 1 bytes). */
static void first_word(char *dst, size_t cap, const char *s)
{
    size_t n = 0;
    while (s[n] != '\0' && !isspace((unsigned char)s[n]))
        n++;
    snprintf(dst, cap, "%.*s", (int)n, s);
}

/* A version line (with or without the leading '#', blanks skipped): 1 when
 * it was one.  The tests' own version and the library's are kept apart, so
 * the overlay's source reads "nccl-tests 2.18.3 (NCCL 2.30.4)", not the line
 * as printed:
 *   "nccl-tests version 2.18.3 nccl-headers=23004 nccl-library=23004"
 *   "rccl-tests: Version develop:ae3e635", "nccl-tests: ..."
 *   "NCCL version 2.21.5+cuda12.4", "RCCL version 2.18.3+hip6.0 ..."
 *   "RCCL version : 2.22.3-develop:f5b15f2" (RCCL's NCCL_DEBUG=VERSION
 *   banner, followed by "HIP version  : ...", "ROCm version : ...",
 *   "Hostname     : ...", "Librccl path : ..." lines, taken here too). */
static int version_line(nctx *x, const char *s)
{
    /* The banner's lines; all but "Hostname" are ROCm's alone (a launcher
     * may print "Hostname: node1" before an NCCL log: that names no tool). */
    static const struct {
        const char *key;
        int rocm;
    } banner[] = {{"HIP version", 1}, {"ROCm version", 1}, {"Hostname", 0}, {"Librccl path", 1}};
    size_t i;
    if (strncmp(s, "nccl-tests version ", 19) == 0) {
        const char *lib = strstr(s, "nccl-library=");
        first_word(x->version, sizeof x->version, s + 19);
        if (lib != NULL && x->libver[0] == '\0') {
            /* NCCL_VERSION_CODE: major * 10000 + minor * 100 + patch (>= 2.9) */
            long code = strtol(lib + 13, NULL, 10);
            if (code >= 20900 && code < 1000000)
                snprintf(x->libver, sizeof x->libver, "NCCL %ld.%ld.%ld", code / 10000,
                         code / 100 % 100, code % 100);
        }
        return 1;
    }
    if (strncmp(s, "rccl-tests:", 11) == 0 || strncmp(s, "nccl-tests:", 11) == 0) {
        const char *v = cskip_ws(s + 11);
        x->rccl |= s[0] == 'r';
        if (strncmp(v, "Version ", 8) == 0) /* "rccl-tests: Version develop:ae3e635" */
            v = cskip_ws(v + 8);
        first_word(x->version, sizeof x->version, v);
        return 1;
    }
    if (strncmp(s, "NCCL version", 12) == 0 || strncmp(s, "RCCL version", 12) == 0) {
        const char *v = cskip_ws(s + 12);
        char w[40];
        x->rccl |= s[0] == 'R';
        if (*v == ':')
            v = cskip_ws(v + 1);
        first_word(w, sizeof w, v);
        snprintf(x->libver, sizeof x->libver, "%.4s %s", s, w);
        return 1;
    }
    for (i = 0; i < sizeof banner / sizeof banner[0]; i++) {
        size_t n = strlen(banner[i].key);
        if (strncmp(s, banner[i].key, n) == 0 && *cskip_ws(s + n) == ':') {
            x->rccl |= banner[i].rocm;
            return 1;
        }
    }
    return 0;
}

/* "# Rank 3 [Group 0] Pid 806883 on HOST device 3 [0000:65:00.0] NAME" */
static int rank_line(nctx *x, char *s, const char *base, unsigned line)
{
    char *tok[MAX_TOKENS], *name_start;
    char buf[512];
    size_t n, i;
    int more;
    long rank, dev;
    const char *host = NULL, *bus = NULL;

    snprintf(buf, sizeof buf, "%s", s);
    n = tokenize(buf, tok, &more);
    /* tok[0] = "Rank" */
    if (n < 2 || !parse_int(tok[1], &rank) || rank < 0 || rank >= MAX_RANKS)
        return GP__CALIB_FAIL(
            x, GP_EPARSE, line, col_of(base, s),
            "'# Rank' line without a rank number (want '# Rank N Pid P on HOST device D "
            "[BUS] NAME')");
    /* "Group G": the color NCCL_TESTS_SPLIT_MASK or NCCL_TESTS_SPLIT gives
     * an MPI rank (nccl-tests common.cu run(): color = proc & mask, then
     * MPI_Comm_split); each color runs its own communicator, at the same
     * time as the others, and busbw counts one color's ranks. */
    if (n > 3 && strcmp(tok[2], "Group") == 0) {
        long group;
        if (parse_int(tok[3], &group) && group != 0)
            return GP__CALIB_FAIL(
                x, GP_EUNSUP, line, col_of(base, s + (tok[3] - buf)),
                "rank %ld is in group %ld: NCCL_TESTS_SPLIT_MASK (or NCCL_TESTS_SPLIT) split "
                "the ranks into groups that each ran their own AllReduce at the same time, "
                "and busbw counts one group's ranks; rerun without it",
                rank, group);
    }
    for (i = 2; i + 1 < n; i++)
        if (strcmp(tok[i], "on") == 0) {
            host = tok[i + 1];
            break;
        }
    if (host == NULL || i + 3 >= n || strcmp(tok[i + 2], "device") != 0 ||
        !parse_int(tok[i + 3], &dev))
        return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, s),
                              "'# Rank %ld' line: expected '... on HOST device D [BUS] NAME'",
                              rank);
    i += 4;
    if (i < n && tok[i][0] == '[') {
        bus = tok[i];
        i++;
    }
    if (i >= n)
        return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, s),
                              "'# Rank %ld' line names no device after 'device %ld'", rank, dev);
    /* The device name is the rest of the original line from tok[i]. */
    name_start = s + (tok[i] - buf);
    if (x->c->dev.name[0] == '\0') {
        copy_str(x->c->dev.name, sizeof x->c->dev.name, name_start);
        if (bus != NULL) {
            size_t bl = strlen(bus);
            snprintf(x->c->dev.pci_bus_id, sizeof x->c->dev.pci_bus_id, "%.*s",
                     (int)(bl >= 2 ? bl - 2 : 0), bus + 1);
        }
    } else if (strcmp(x->c->dev.name, name_start) != 0) {
        return GP__CALIB_FAIL(
            x, GP_EUNSUP, line, col_of(base, name_start),
            "rank %ld is a '%s', rank 0 a '%s': a sweep over mixed GPUs is not one "
            "GPU's figure",
            rank, name_start, x->c->dev.name);
    }
    /* rank bookkeeping */
    if (rank >= x->seen_cap) {
        long nc = x->seen_cap ? x->seen_cap : 64;
        unsigned char *ns;
        while (nc <= rank)
            nc *= 2;
        ns = realloc(x->seen, (size_t)nc);
        if (ns == NULL)
            return GP_RAISE(x->e, GP_ENOMEM, "out of memory");
        memset(ns + x->seen_cap, 0, (size_t)(nc - x->seen_cap));
        x->seen = ns;
        x->seen_cap = nc;
    }
    if (x->seen[rank])
        return GP__CALIB_FAIL(
            x, GP_EPARSE, line, col_of(base, s),
            "rank %ld is listed twice (two sweeps in one file?%s)", rank,
            rank == 0 ? " or several all_reduce_perf processes that each ran alone: nccl-tests "
                        "built without MPI=1 but started by mpirun or srun prints one 'Rank 0' "
                        "per process; rebuild it with 'make MPI=1'"
                      : "");
    x->seen[rank] = 1;
    x->n_rank_lines++;
    if (rank > x->max_rank)
        x->max_rank = rank;
    for (i = 0; i < (size_t)x->n_hosts; i++)
        if (strcmp(x->hosts[i], host) == 0)
            break;
    if (i == (size_t)x->n_hosts) {
        if (x->n_hosts == x->hosts_cap) {
            long nc = x->hosts_cap ? 2 * x->hosts_cap : 8;
            char(*nh)[64] = realloc(x->hosts, (size_t)nc * sizeof *nh);
            long *nr;
            if (nh == NULL)
                return GP_RAISE(x->e, GP_ENOMEM, "out of memory");
            x->hosts = nh;
            nr = realloc(x->host_ranks, (size_t)nc * sizeof *nr);
            if (nr == NULL)
                return GP_RAISE(x->e, GP_ENOMEM, "out of memory");
            x->host_ranks = nr;
            x->hosts_cap = nc;
        }
        copy_str(x->hosts[i], sizeof x->hosts[0], host);
        x->host_ranks[i] = 0;
        x->n_hosts++;
    }
    x->host_ranks[i]++;
    if (rank == 0)
        copy_str(x->c->host, sizeof x->c->host, host);
    return GP_OK;
}

/* The column header: '# size count type redop [root] time algbw busbw
 * #wrong|error time algbw busbw #wrong|error'. */
static int is_col_header(char *const *tok, size_t n)
{
    size_t i;
    int size = 0, busbw = 0, algbw = 0;
    for (i = 0; i < n; i++) {
        size |= strcmp(tok[i], "size") == 0;
        busbw |= strcmp(tok[i], "busbw") == 0;
        algbw |= strcmp(tok[i], "algbw") == 0;
    }
    return size && busbw && algbw;
}

/* The column header of every layout all_reduce_perf prints (nccl-tests
 * src/util.cu writeResultHeader; older versions print it in common.cu
 * run()): 'size count type redop [root]', then for out-of-place and for
 * in-place (rccl-tests -O: one of them) 'time algbw busbw #wrong|error'
 * ('cputime' for 'time' under -C 1), each followed by 'i_min i_max i_p99
 * i_cv%' under per-iteration timing (-I 1), then 'timestamp' under -S 1. */
static int col_header(nctx *x, char *const *tok, size_t n, unsigned line)
{
    static const char *const head[] = {"size", "count", "type", "redop"};
    static const char *const half[] = {"algbw", "busbw"};
    static const char *const iter[] = {"i_min", "i_max", "i_p99", "i_cv%"};
    size_t i = 0, k;
    int h, per_iter = -1;
    const char *want = "";
    for (k = 0; k < 4; k++, i++)
        if (i >= n || strcmp(tok[i], head[k]) != 0) {
            want = head[k];
            goto bad;
        }
    x->has_root = i < n && strcmp(tok[i], "root") == 0;
    if (x->has_root)
        i++;
    x->head = (int)i;
    for (h = 0; h < 2 && i < n && strcmp(tok[i], "timestamp") != 0; h++) {
        int it;
        if (strcmp(tok[i], "cputime") == 0)
            /* common.cu BenchTime: cputimeSec = tim.elapsed() / (iters *
             * agg_iters) is read before completeColl(), so it is the time
             * to enqueue the operations; algBw and busBw come from
             * deltaSec, read after completion.  The time column is no
             * AllReduce's time and does not give the printed algbw. */
            return GP__CALIB_FAIL(
                x, GP_EUNSUP, line, 0,
                "the time columns are 'cputime' (all_reduce_perf -C 1, --report_cputime 1): "
                "nccl-tests reads that clock before the operations complete, so it is the "
                "host's time to launch one, not the AllReduce's (algbw and busbw still come "
                "from the completion time); rerun without -C (or with -C 0)");
        if (strcmp(tok[i], "time") != 0) {
            want = "time";
            goto bad;
        }
        i++;
        for (k = 0; k < 2; k++, i++)
            if (i >= n || strcmp(tok[i], half[k]) != 0) {
                want = half[k];
                goto bad;
            }
        if (i >= n || (strcmp(tok[i], "#wrong") != 0 && strcmp(tok[i], "error") != 0)) {
            want = "#wrong";
            goto bad;
        }
        x->wrong_is_count = strcmp(tok[i], "#wrong") == 0;
        i++;
        it = i < n && strcmp(tok[i], iter[0]) == 0;
        if (per_iter >= 0 && it != per_iter) {
            want = per_iter ? "i_min" : "timestamp' or the end of the line";
            goto bad;
        }
        per_iter = it;
        if (it)
            for (k = 0; k < 4; k++, i++)
                if (i >= n || strcmp(tok[i], iter[k]) != 0) {
                    want = iter[k];
                    goto bad;
                }
    }
    if (h == 0) {
        want = "time";
        goto bad;
    }
    x->halves = h;
    x->per_iter = per_iter > 0;
    x->width = x->per_iter ? 8 : 4;
    x->has_ts = i < n && strcmp(tok[i], "timestamp") == 0;
    if (x->has_ts)
        i++;
    if (i != n) {
        want = "the end of the line";
        goto bad;
    }
    x->have_cols = 1;
    /* a timestamp ("%Y-%m-%d %H:%M:%S") is two fields of a row */
    x->ncols = x->head + x->halves * x->width + (x->has_ts ? 2 : 0);
    return GP_OK;
bad:
    return GP__CALIB_FAIL(
        x, GP_EUNSUP, line, 0,
        "unsupported column layout: '%s' where '%s' belongs; gpuplan reads 'size count type "
        "redop [root]', then 'time algbw busbw #wrong|error' for out-of-place and in-place "
        "(each with 'i_min i_max i_p99 i_cv%%' under -I 1), then an optional 'timestamp', as "
        "nccl-tests and rccl-tests print them; rerun without the option that added the column",
        i < n ? tok[i] : "(end of line)", want);
}

/* What an AllReduce-shaped ratio check says about a row. */
static const char *ratio_name(double r, double n, double tol)
{
    if (fabs(r - (n - 1.0) / n) <= tol)
        return "= (n-1)/n, a ReduceScatter, AllGather or AlltoAll sweep";
    if (fabs(r - 1.0) <= tol)
        return "= 1, a Broadcast, Reduce or SendRecv sweep";
    return "matches no collective on these ranks";
}

typedef struct nrow {
    double size, count, t[2], algbw[2], busbw[2];
    long wrong[2];
    int wrong_na[2];
    double err[2];
} nrow;

/* Half the place value of a printed number's last digit ("1329.89" 0.005,
 * "1.2e+07" 5e5): how far the printed value may lie from the true one. */
static double half_ulp(const char *t)
{
    const char *dot = strchr(t, '.'), *ex = strpbrk(t, "eE");
    int dec = 0;
    long e10 = 0;
    if (dot != NULL && (ex == NULL || dot < ex))
        for (dot++; isdigit((unsigned char)*dot); dot++)
            dec++;
    if (ex != NULL) {
        e10 = strtol(ex + 1, NULL, 10);
        if (e10 > 300 || e10 < -300)
            e10 = e10 > 0 ? 300 : -300;
    }
    return 0.5 * pow(10.0, (double)(e10 - dec));
}

/* "YYYY-MM-DD" (dash) or "HH:MM:SS" (colon): a field of -S 1's timestamp. */
static int stamp_field(const char *t, char sep)
{
    static const char *const dash = "dddd-dd-dd", *const colon = "dd:dd:dd";
    const char *f = sep == '-' ? dash : colon;
    for (; *f != '\0'; f++, t++)
        if (*f == 'd' ? !isdigit((unsigned char)*t) : *t != *f)
            return 0;
    return *t == '\0';
}

/* One data row, in the layout col_header read. */
static int data_row(nctx *x, char *s, const char *base, unsigned line, nrow *r)
{
    char *tok[MAX_TOKENS];
    int more, h;
    size_t n = tokenize(s, tok, &more), i;
    const size_t want = (size_t)x->ncols;
    long root;

    memset(r, 0, sizeof *r);
    if (more || n != want)
        return GP__CALIB_FAIL(
            x, GP_EPARSE, line, 0,
            "row has %s%zu columns, expected %zu (size count type redop%s, then time algbw "
            "busbw %s%s%s%s); %s",
            more ? "more than " : "", n, want, x->has_root ? " root" : "",
            x->wrong_is_count ? "#wrong" : "error", x->per_iter ? " i_min i_max i_p99 i_cv%" : "",
            x->halves == 2 ? ", twice" : "", x->has_ts ? ", then a timestamp" : "",
            more || n > want ? "fields the column header does not name" : "a log cut mid-row?");
    if (!parse_uint(tok[0], &r->size))
        return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[0]),
                              "size '%s' is not a byte count", tok[0]);
    if (!parse_uint(tok[1], &r->count))
        return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[1]),
                              "count '%s' is not an element count", tok[1]);
    if (x->type[0] == '\0') {
        copy_str(x->type, sizeof x->type, tok[2]);
        copy_str(x->redop, sizeof x->redop, tok[3]);
    } else if (strcmp(x->type, tok[2]) != 0 || strcmp(x->redop, tok[3]) != 0) {
        return GP__CALIB_FAIL(
            x, GP_EUNSUP, line, col_of(base, tok[2]),
            "rows of more than one type/redop ('%s %s' after '%s %s'; -d all or -o "
            "all): import one sweep of one type and operation",
            tok[2], tok[3], x->type, x->redop);
    }
    if (strcmp(tok[3], "none") == 0)
        return GP__CALIB_FAIL(
            x, GP_EUNSUP, line, col_of(base, tok[3]),
            "redop 'none': a sweep without a reduction (AllGather, Broadcast, AlltoAll, "
            "...); gpuplan imports AllReduce only");
    i = 4;
    if (x->has_root) {
        if (!parse_int(tok[4], &root))
            return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[4]),
                                  "root '%s' is not an integer", tok[4]);
        if (root >= 0)
            return GP__CALIB_FAIL(
                x, GP_EUNSUP, line, col_of(base, tok[4]),
                "root %ld: a rooted collective (Reduce or Broadcast); gpuplan imports "
                "AllReduce only",
                root);
        i = 5;
    }
    for (h = 0; h < x->halves; h++, i += (size_t)x->width) {
        const char *what = x->halves == 1 ? "the" : h == 0 ? "out-of-place" : "in-place";
        size_t k;
        if (!gp__calib_num(tok[i], &r->t[h]) || !(r->t[h] > 0.0))
            return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[i]),
                                  "%s time '%s' is not a positive number of microseconds", what,
                                  tok[i]);
        if (!(r->size / (r->t[h] * 1e-6) <= GP_CALIB_RATE_MAX))
            return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[i]),
                                  "%s time '%s' us for %.15g bytes is %g B/s, above %g B/s: "
                                  "not a measurement",
                                  what, tok[i], r->size, r->size / (r->t[h] * 1e-6),
                                  GP_CALIB_RATE_MAX);
        if (!gp__calib_num(tok[i + 1], &r->algbw[h]) || r->algbw[h] < 0.0)
            return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[i + 1]),
                                  "%s algbw '%s' is not a rate in GB/s", what, tok[i + 1]);
        if (!gp__calib_num(tok[i + 2], &r->busbw[h]) || r->busbw[h] < 0.0)
            return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[i + 2]),
                                  "%s busbw '%s' is not a rate in GB/s", what, tok[i + 2]);
        r->wrong[h] = 0;
        r->err[h] = 0.0;
        r->wrong_na[h] = strcmp(tok[i + 3], "N/A") == 0;
        if (!r->wrong_na[h]) {
            if (x->wrong_is_count) {
                double wv;
                int ok = parse_int(tok[i + 3], &r->wrong[h]);
                /* nccl-tests prints the count with %g: 1048576 wrong
                 * elements read "1.04858e+06". */
                if (!ok && gp__calib_num(tok[i + 3], &wv) && wv >= 0.0 && wv == floor(wv)) {
                    r->wrong[h] = wv < 2147483647.0 ? (long)wv : 2147483647L;
                    ok = 1;
                }
                if (!ok || r->wrong[h] < 0)
                    return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[i + 3]),
                                          "%s #wrong '%s' is not a count (or N/A)", what,
                                          tok[i + 3]);
            } else if (!gp__calib_num(tok[i + 3], &r->err[h])) {
                return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[i + 3]),
                                      "%s error '%s' is not a number (or N/A)", what, tok[i + 3]);
            }
        }
        /* i_min i_max i_p99 (us) and i_cv% (util.cu writePerIterReport):
         * CUDA-event times of single iterations, kept out of the point
         * (its trials are the table's mean times, as without -I). */
        for (k = 4; k < (size_t)x->width; k++) {
            double v;
            if (!gp__calib_num(tok[i + k], &v) || v < 0.0)
                return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[i + k]),
                                      "%s per-iteration field '%s' is not a number", what,
                                      tok[i + k]);
        }
        /* algbw = S / t (GB/s with t in us: S / (t 1e3)); printed with 2
         * decimals, t with 3-5 significant digits (newer versions: 2
         * decimals below 10^4 us, 2 significant digits from 10^7 us, util.cu
         * getFloatStr): 1 % + 0.01 GB/s + the time's own rounding. */
        {
            double want_bw = r->size / (r->t[h] * 1e3);
            double tol = 0.01 + 0.01 * want_bw + want_bw * half_ulp(tok[i]) / r->t[h];
            if (fabs(r->algbw[h] - want_bw) > tol)
                return GP__CALIB_FAIL(
                    x, GP_EPARSE, line, col_of(base, tok[i + 1]),
                    "%s algbw %s GB/s is not size/time = %.5g GB/s: a column out of "
                    "place?",
                    what, tok[i + 1], want_bw);
        }
    }
    if (x->has_ts && (!stamp_field(tok[i], '-') || !stamp_field(tok[i + 1], ':')))
        return GP__CALIB_FAIL(x, GP_EPARSE, line, col_of(base, tok[i]),
                              "timestamp '%s %s' is not 'YYYY-MM-DD HH:MM:SS' (-S 1)", tok[i],
                              tok[i + 1]);
    return GP_OK;
}

static void nctx_free(nctx *x)
{
    free(x->seen);
    free(x->hosts);
    free(x->host_ranks);
}

/* Scan a line for "NCCL_ALGO=X" or "NCCL_ALGO set by environment to X". */
static void find_algo(gp_calib *c, const char *s)
{
    const char *p = strstr(s, "NCCL_ALGO");
    const char *v = NULL;
    size_t n = 0;
    if (p == NULL)
        return;
    if (p[9] == '=')
        v = p + 10;
    else if ((v = strstr(p, "set by environment to ")) != NULL)
        v += 22;
    else
        return;
    if (*v == '"' || *v == '\'')
        v++;
    while (v[n] != '\0' && !isspace((unsigned char)v[n]) && v[n] != '"' && v[n] != '\'' &&
           n + 1 < sizeof c->algo)
        n++;
    if (n > 0)
        snprintf(c->algo, sizeof c->algo, "%.*s", (int)n, v);
}

enum { PH_PRE, PH_HEAD, PH_DATA, PH_DONE };

/* The test name of "all_reduce_perf", "all_reduce_perf_mpi" -> "all_reduce". */
static void test_name(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    while (s[n] != '\0' && !isspace((unsigned char)s[n]))
        n++;
    snprintf(out, cap, "%.*s", (int)n, s);
    {
        char *p = strstr(out, "_perf");
        if (p != NULL)
            *p = '\0';
    }
}

/* rccl-tests run() prints this on gfx942 (MI300X, MI325X) without a newline
 * (src/common.cu: PRINT("On gfx942 architecture, using FNUZ FP8 types")),
 * so the next line of the log starts glued to it. */
#define FNUZ_NOTE "On gfx942 architecture, using FNUZ FP8 types"

static char *skip_fnuz(char *s)
{
    if (strncmp(s, FNUZ_NOTE, sizeof FNUZ_NOTE - 1) == 0)
        return skip_ws(s + sizeof FNUZ_NOTE - 1);
    return s;
}

/* A results file the tools write beside the log, named by its first line:
 * nccl-tests -J FILE.json (util.cu jsonOutputInit: one JSON object on one
 * line, '{"version":2,...'), rccl-tests -Z json (an array, '[' then
 * '{"numCycle":...' objects; older versions one '{"name":...' object a
 * line) and -Z csv ('numCycle,collective,...'; older 'collective, ...').
 * Returns what it is, or NULL. */
static const char *sidecar_kind(const char *s)
{
    if (strncmp(s, "{\"version\":", 11) == 0)
        return "nccl-tests' JSON results file (all_reduce_perf -J FILE.json)";
    if (strcmp(s, "[") == 0 || strncmp(s, "{\"numCycle\":", 12) == 0 ||
        strncmp(s, "{\"name\":", 8) == 0)
        return "rccl-tests' JSON results file (-Z json)";
    if (strncmp(s, "numCycle,collective,", 20) == 0 || strncmp(s, "collective, ", 12) == 0)
        return "rccl-tests' CSV results file (-Z csv)";
    return NULL;
}

/* Where a line says all_reduce_perf stopped, or NULL: the messages of
 * common.h CUDACHECK, NCCLCHECK and TESTCHECK and of common.cu
 * testStreamSynchronize when the -T timeout passes:
 *   "HOST: Test timeout (5s) common.cu:372"
 *   "HOST: Test NCCL failure common.cu:400 'unhandled system error / ...'"
 *   "HOST: Test CUDA failure common.cu:88 'out of memory'"
 *   " .. HOST pid 1234: Test failure common.cu:613"
 * The first may follow a row's first fields on the same line (the row's
 * preamble is printed before the timing).  *secs: the timeout, or -1. */
static const char *failure_at(const char *s, long *secs)
{
    const char *p;
    *secs = -1;
    for (p = strstr(s, ": Test "); p != NULL; p = strstr(p + 1, ": Test ")) {
        const char *q = p + 7;
        if (strncmp(q, "timeout (", 9) == 0) {
            char *end;
            long v = strtol(q + 9, &end, 10);
            *secs = end > q + 9 && v >= 0 ? v : 0;
            return p + 2;
        }
        if (strncmp(q, "failure ", 8) == 0 || strncmp(q, "NCCL failure ", 13) == 0 ||
            strncmp(q, "CUDA failure ", 13) == 0 || strncmp(q, "HIP failure ", 12) == 0)
            return p + 2;
    }
    return NULL;
}

/* '# nThread 1 nGpus 8 ... agg iters: 1 validation: 1 graph: 0': the
 * operations aggregated into one launch (-m) and the CUDA graph launches
 * (-G); older versions print neither. */
static void nthread_line(nctx *x, const char *h)
{
    const char *p;
    if ((p = strstr(h, "agg iters:")) != NULL)
        x->agg = strtol(p + 10, NULL, 10);
    if ((p = strstr(h, "graph:")) != NULL)
        x->graph = strtol(p + 6, NULL, 10);
}

/* A size and its row, to group the rows of one size (run cycles). */
typedef struct sized {
    double size;
    size_t row;
} sized;

static int sized_cmp(const void *a, const void *b)
{
    const sized *p = a, *q = b;
    if (p->size != q->size)
        return p->size < q->size ? -1 : 1;
    return (p->row > q->row) - (p->row < q->row);
}

int gp_calib_read_nccl_tests(const char *name, const char *text, size_t len, gp_calib **out,
                             gp_err *e)
{
    gp__calib_lines L;
    nctx x;
    gp_calib *c;
    char *raw;
    nrow *rows = NULL;
    unsigned *row_line = NULL;
    size_t n_rows = 0, cap_rows = 0, i;
    int phase = PH_PRE, rc = GP_OK, saw_footer = 0;
    unsigned last_line = 0, first_row_line = 0;
    double n;

    if ((rc = gp__calib_reader_begin("gp_calib_read_nccl_tests", &name, text, len, out,
                           GP_CALIB_FMT_NCCL_TESTS, &L, &c, e)) != GP_OK)
        return rc;
    memset(&x, 0, sizeof x);
    x.name = name;
    x.c = c;
    x.e = e;
    x.max_rank = -1;

    while (rc == GP_OK && (raw = gp__calib_lines_next(&L)) != NULL) {
        char *s = skip_fnuz(skip_ws(strip_prefix(raw)));
        unsigned ln = L.no;
        const char *stop, *kind;
        long secs;
        if (*s == '\0')
            continue;
        if (last_line == 0 && (kind = sidecar_kind(s)) != NULL) {
            rc = GP__CALIB_FAIL(&x, GP_EUNSUP, ln, 0,
                                "%s, not the log all_reduce_perf prints: import the run's "
                                "standard output (the table under '#  size  count  type  redop "
                                "...'), or rerun and keep it",
                                kind);
            break;
        }
        last_line = ln;
        if (phase != PH_DONE && (stop = failure_at(s, &secs)) != NULL) {
            if (secs >= 0)
                rc = GP__CALIB_FAIL(&x, GP_EPARSE, ln, col_of(raw, stop),
                                    "all_reduce_perf stopped here on its -T %ld timeout ('%.80s'): "
                                    "the sweep is incomplete; rerun with a larger -T, or without "
                                    "-T",
                                    secs, stop);
            else
                rc = GP__CALIB_FAIL(&x, GP_EPARSE, ln, col_of(raw, stop),
                                    "all_reduce_perf failed here ('%.80s'): the sweep is "
                                    "incomplete; mend the failure and rerun",
                                    stop);
            break;
        }
        /* NCCL/RCCL debug output (NCCL_DEBUG=INFO) may interleave anywhere. */
        if (strstr(s, "NCCL INFO") != NULL || strstr(s, "NCCL WARN") != NULL ||
            strstr(s, "RCCL INFO") != NULL) {
            find_algo(c, s);
            continue;
        }
        if (*s == '#') {
            char *h = skip_ws(s + 1), *tok[MAX_TOKENS], buf[1024];
            size_t nt;
            int more;
            snprintf(buf, sizeof buf, "%s", h);
            nt = tokenize(buf, tok, &more);
            if (strncmp(h, "Collective test starting:", 25) == 0 || strncmp(h, "nThread", 7) == 0 ||
                (nt > 0 && is_col_header(tok, nt))) {
                if (phase == PH_DONE || (phase == PH_DATA && n_rows > 0) ||
                    (strncmp(h, "nThread", 7) == 0 && phase == PH_HEAD && x.n_rank_lines > 0)) {
                    rc = GP__CALIB_FAIL(
                        &x, GP_EUNSUP, ln, 0,
                        "a second sweep starts here; give one sweep (one test, one run) per "
                        "file%s",
                        phase == PH_HEAD ? " (several all_reduce_perf processes that each ran "
                                           "alone, nccl-tests built without MPI=1 but started by "
                                           "mpirun or srun, print one header each: rebuild it "
                                           "with 'make MPI=1')"
                                         : "");
                    break;
                }
            }
            if (strncmp(h, "Collective test starting:", 25) == 0) {
                test_name(skip_ws(h + 25), x.op, sizeof x.op);
                if (strcmp(x.op, "all_reduce") != 0) {
                    rc = GP__CALIB_FAIL(&x, GP_EUNSUP, ln, col_of(raw, skip_ws(h + 25)),
                                        "a '%s' sweep: gpuplan imports AllReduce (all_reduce_perf) "
                                        "only -- a link's figure is the ring AllReduce busbw",
                                        x.op);
                    break;
                }
                if (phase == PH_PRE)
                    phase = PH_HEAD;
            } else if (strncmp(h, "Collective test concluded:", 26) == 0) {
                /* the footer of newer versions; nothing to read */
            } else if (strncmp(h, "nThread", 7) == 0) {
                nthread_line(&x, h);
                phase = PH_HEAD;
            } else if (strncmp(h, "Rank ", 5) == 0 || strncmp(h, "Rank\t", 5) == 0) {
                if (phase == PH_PRE)
                    phase = PH_HEAD;
                if (phase != PH_HEAD) {
                    rc = GP__CALIB_FAIL(&x, GP_EPARSE, ln, 0, "'# Rank' line after the data rows");
                    break;
                }
                rc = rank_line(&x, h, raw, ln);
            } else if (nt > 0 && is_col_header(tok, nt)) {
                if ((rc = col_header(&x, tok, nt, ln)) != GP_OK)
                    break;
                phase = PH_DATA;
            } else if (strncmp(h, "Out of bounds values", 20) == 0) {
                if (strstr(h, "FAILED") != NULL)
                    gp__calib_warn(c, "%s:%u: nccl-tests reports '%s'", name, ln, h);
            } else if (strncmp(h, "Avg bus bandwidth", 17) == 0) {
                if (phase == PH_DATA) {
                    phase = PH_DONE;
                    saw_footer = 1;
                }
            } else if (version_line(&x, h)) {
                /* the tests' or the library's version */
            } else {
                /* comments: '#', '# Using devices', '#  out-of-place in-place',
                 * the units line, '# Errors with asterisks ...' */
            }
            if (rc != GP_OK)
                break;
            continue;
        }
        /* Version lines the tools print without '#', RCCL's version banner. */
        if (version_line(&x, s))
            continue;
        if (phase == PH_PRE) { /* a preamble: the command line, launcher chatter */
            find_algo(c, s);
            continue;
        }
        if (phase == PH_DONE) /* after the footer: a shell prompt, a fence */
            continue;
        if (phase == PH_DATA && isdigit((unsigned char)*s)) {
            nrow r;
            if (n_rows == cap_rows) {
                size_t nc = cap_rows ? 2 * cap_rows : 64;
                nrow *nr = realloc(rows, nc * sizeof *nr);
                unsigned *nl;
                if (nr == NULL) {
                    rc = GP_RAISE(e, GP_ENOMEM, "out of memory");
                    break;
                }
                rows = nr;
                nl = realloc(row_line, nc * sizeof *nl);
                if (nl == NULL) {
                    rc = GP_RAISE(e, GP_ENOMEM, "out of memory");
                    break;
                }
                row_line = nl;
                cap_rows = nc;
            }
            if ((rc = data_row(&x, s, raw, ln, &r)) != GP_OK)
                break;
            if (first_row_line == 0)
                first_row_line = ln;
            rows[n_rows] = r;
            row_line[n_rows] = ln;
            n_rows++;
            continue;
        }
        rc = GP__CALIB_FAIL(&x, GP_EPARSE, ln, col_of(raw, s),
                            "not a line of nccl-tests output: '%.60s'%s", s,
                            phase == PH_HEAD && isdigit((unsigned char)*s)
                                ? " (a data row before the column header)"
                                : "");
    }
    if (rc == GP_OK && !x.have_cols)
        rc = GP__CALIB_FAIL(
            &x, GP_EPARSE, last_line ? last_line : 1, 0,
            "no column header ('#  size  count  type  redop  root  time  algbw  busbw "
            "#wrong ...'): truncated, or not nccl-tests output");
    else if (rc == GP_OK && n_rows == 0)
        rc = GP__CALIB_FAIL(&x, GP_EPARSE, last_line, 0, "no data rows after the column header");
    else if (rc == GP_OK && !saw_footer)
        rc = GP__CALIB_FAIL(
            &x, GP_EPARSE, last_line, 0,
            "truncated log: it ends without nccl-tests' '# Avg bus bandwidth' footer "
            "(printed after the last size)");
    if (rc != GP_OK)
        goto fail;

    /* Ranks: from the '# Rank' lines, else inferred from busbw/algbw. */
    n = 0.0;
    if (x.n_rank_lines > 0) {
        n = (double)(x.max_rank + 1);
        if (x.n_rank_lines != x.max_rank + 1)
            gp__calib_warn(c, "%s: %ld of ranks 0..%ld listed; %ld ranks assumed, the nodes unknown",
                     name, x.n_rank_lines, x.max_rank, x.max_rank + 1);
    } else {
        for (i = 0; i < n_rows && n == 0.0; i++)
            if (rows[i].algbw[0] >= 1.0) {
                double r = rows[i].busbw[0] / rows[i].algbw[0];
                if (r < 1.999)
                    n = floor(2.0 / (2.0 - r) + 0.5);
            }
        if (!(n >= 2.0)) {
            rc = GP__CALIB_FAIL(
                &x, GP_EUNSUP, first_row_line, 0,
                "the log lists no ranks ('# Rank N ... on HOST device D NAME' lines) and "
                "busbw/algbw gives no AllReduce rank count; not an AllReduce sweep, or "
                "the header was cut");
            goto fail;
        }
        gp__calib_warn(c, "%s: no '# Rank' lines: %.0f ranks inferred from busbw/algbw, the nodes "
                    "and the device unknown", name, n);
    }
    if (n < 2.0) {
        rc =
            GP__CALIB_FAIL(&x, GP_EUNSUP, first_row_line, 0,
                           "an AllReduce over 1 rank moves nothing; import a sweep over >= 2 GPUs");
        goto fail;
    }
    if (x.op[0] == '\0' && n == 2.0) {
        /* 2(n-1)/n = 1 = the SendRecv/Broadcast ratio: nothing tells them apart. */
        rc = GP__CALIB_FAIL(
            &x, GP_EUNSUP, first_row_line, 0,
            "on 2 ranks AllReduce and SendRecv print the same busbw/algbw (1) and this "
            "log does not name its test ('# Collective test starting: all_reduce_perf', "
            "nccl-tests >= 2.14); rerun with a current nccl-tests or over >= 3 GPUs");
        goto fail;
    }
    {
        double want = 2.0 * (n - 1.0) / n, tb = type_bytes(x.type);
        for (i = 0; i < n_rows; i++) {
            const nrow *r = &rows[i];
            int h;
            if (tb > 0.0 && fabs(r->count * tb - r->size) > 0.5) {
                rc = GP__CALIB_FAIL(&x, GP_EUNSUP, row_line[i], 0,
                                    "count %.15g x %g-byte %s is not the size %.15g%s; not an "
                                    "AllReduce sweep",
                                    r->count, tb, x.type, r->size,
                                    fabs(r->count * tb * n - r->size) < 0.5
                                        ? " but size/ranks (a ReduceScatter or AllGather layout)"
                                        : "");
                goto fail;
            }
            for (h = 0; h < x.halves; h++) {
                double a = r->algbw[h], b = r->busbw[h], ratio, tol;
                if (a < 1.0)
                    continue; /* 2-decimal rounding makes small rates uninformative */
                ratio = b / a;
                tol = 0.005 * (1.0 + ratio) / a + 0.002;
                if (fabs(ratio - want) > tol) {
                    char rb[32]; /* 3 decimals, not hundreds of digits */
                    if (ratio < 1e6)
                        snprintf(rb, sizeof rb, "%.3f", ratio);
                    else
                        snprintf(rb, sizeof rb, "%g", ratio);
                    /* nccl-tests all_reduce.cu AllReduceGetBw (NVIDIA/nccl-tests
                     * 03a204a) prints busbw = algbw (n-1)/(n+1) when the
                     * environment holds NCCL_ALGO=NVLS or NVLSTREE. */
                    if (fabs(ratio - (n - 1.0) / (n + 1.0)) <= tol)
                        rc = GP__CALIB_FAIL(
                            &x, GP_EUNSUP, row_line[i], 0,
                            "busbw/algbw = %s = (n-1)/(n+1) on %.0f ranks: nccl-tests' NVLS bus "
                            "bandwidth, printed when NCCL_ALGO=NVLS or NVLSTree is set; NVLS "
                            "reduces in the NVSwitch and is not the ring a link figure means: "
                            "rerun with NCCL_ALGO=Ring",
                            rb, n);
                    else
                        rc = GP__CALIB_FAIL(
                        &x, GP_EUNSUP, row_line[i], 0,
                        "busbw/algbw = %s %s, not AllReduce's 2(n-1)/n = %.3f on %.0f "
                        "ranks; gpuplan imports AllReduce only",
                            rb, ratio_name(ratio, n, tol), want, n);
                    goto fail;
                }
            }
        }
    }
    /* Points: one a size, the trials its rows' times (out-of-place and
     * in-place).  A size on several rows -- the sweep printed again under
     * the same header by run cycles (nccl-tests -N, rccl-tests -N or -s) --
     * is one point whose trials are all of them. */
    {
        size_t pcap = 0, j = 0, k;
        sized *ord = malloc(n_rows * sizeof *ord);
        double *w = malloc(2 * n_rows * sizeof *w), *work2 = malloc(2 * n_rows * sizeof *work2);
        if (ord == NULL || w == NULL || work2 == NULL) {
            free(ord);
            free(w);
            free(work2);
            rc = GP_RAISE(e, GP_ENOMEM, "out of memory");
            goto fail;
        }
        for (i = 0; i < n_rows; i++) {
            ord[i].size = rows[i].size;
            ord[i].row = i;
        }
        qsort(ord, n_rows, sizeof *ord, sized_cmp);
        for (j = 0; j < n_rows && rc == GP_OK; j = k) {
            size_t nt = 0;
            unsigned first = 0;
            int verified = x.wrong_is_count;
            gp_calib_point *p;
            for (k = j; k < n_rows && ord[k].size == ord[j].size; k++) {
                const nrow *r = &rows[ord[k].row];
                unsigned ln = row_line[ord[k].row];
                int h;
                if (r->size <= 0.0) {
                    gp__calib_warn(c, "%s:%u: size 0 dropped (nothing moved)", name, ln);
                    continue;
                }
                if (r->wrong[0] > 0 || (x.halves == 2 && r->wrong[1] > 0)) {
                    if (x.halves == 2)
                        gp__calib_warn(c, "%s:%u: size %.15g dropped: #wrong = %ld out-of-place, "
                                          "%ld in-place",
                                       name, ln, r->size, r->wrong[0], r->wrong[1]);
                    else
                        gp__calib_warn(c, "%s:%u: size %.15g dropped: #wrong = %ld", name, ln,
                                       r->size, r->wrong[0]);
                    continue;
                }
                for (h = 0; h < x.halves; h++) {
                    w[nt++] = r->t[h] * 1e-6;
                    verified &= !r->wrong_na[h];
                }
                if (first == 0)
                    first = ln;
            }
            if (nt == 0)
                continue;
            if ((rc = push_point(c, &pcap, &p, e)) != GP_OK)
                break;
            p->kind = GP_CALIB_ALLREDUCE;
            copy_str(p->series, sizeof p->series, "allreduce");
            p->gpus = (int)n;
            p->work = ord[j].size;
            p->line = first;
            p->verified = verified;
            if ((rc = gp_calib_stats_compute(w, nt, work2, &p->t, e)) != GP_OK)
                break;
            p->rate_best = p->work / p->t.min;
            p->rate_median = p->work / p->t.median;
            c->n_pts++;
        }
        free(ord);
        free(w);
        free(work2);
        if (rc != GP_OK)
            goto fail;
        if (c->n_pts == 0) {
            rc = GP__CALIB_FAIL(&x, GP_EPARSE, first_row_line, 0,
                                "every row was dropped (#wrong != 0): nothing to import");
            goto fail;
        }
    }
    /* Identity. */
    if (x.n_rank_lines > 0 && x.n_rank_lines == x.max_rank + 1) {
        long k, per = x.host_ranks[0];
        c->nodes = (int)x.n_hosts;
        for (k = 1; k < x.n_hosts; k++)
            if (x.host_ranks[k] != per)
                per = 0;
        c->gpus_per_node = (int)per;
        if (x.n_hosts > 1)
            copy_str(c->host2, sizeof c->host2, x.hosts[1]);
    } else if (x.n_hosts > 1) {
        /* Incomplete rank list, but two hosts already: more than one node. */
        c->nodes = (int)x.n_hosts;
        copy_str(c->host2, sizeof c->host2, x.hosts[1]);
    }
    c->dev.gpus = c->gpus_per_node > 0 ? c->gpus_per_node : (int)n;
    if (strncmp(c->dev.name, "AMD", 3) == 0)
        x.rccl = 1;
    {
        /* "nccl-tests 2.18.3 (NCCL 2.30.4)"; the library's part is left out
         * rather than cut when the whole does not fit. */
        const char *t = x.rccl ? "rccl-tests" : "nccl-tests";
        int tl = snprintf(c->tool, sizeof c->tool, "%s%s%s%s%s%s", t, x.version[0] ? " " : "",
                          x.version, x.libver[0] ? " (" : "", x.libver, x.libver[0] ? ")" : "");
        if (tl < 0 || (size_t)tl >= sizeof c->tool)
            snprintf(c->tool, sizeof c->tool, "%s%s%s", t, x.version[0] ? " " : "", x.version);
    }
    if (c->algo[0] != '\0' && !gp__calib_algo_ring(c->algo))
        gp__calib_warn(c, "%s: the log sets NCCL_ALGO=%s (not the ring a link figure means)", name,
                 c->algo);
    else if (c->algo[0] == '^')
        gp__calib_warn(c, "%s: the log sets NCCL_ALGO=%s: NCCL chose between the ring and the "
                          "tree; on one node the ring is the faster at large sizes (a chain "
                          "moves 2S a GPU each way), so those ran the ring", name, c->algo);
    if (x.graph > 0)
        gp__calib_warn(c, "%s: CUDA graph launches (all_reduce_perf -G %ld): each time is an "
                          "operation launched from a graph, without a call's launch cost, so the "
                          "small sizes (the latency) read lower than a plain call's; the "
                          "bandwidth regime is the same",
                       name, x.graph);
    if (x.agg > 1)
        gp__calib_warn(c, "%s: %ld operations grouped in each launch (all_reduce_perf -m %ld): "
                          "each time is one operation's share of the group, so the small sizes "
                          "(the latency) read lower than a single call's; the bandwidth regime "
                          "is the same",
                       name, x.agg, x.agg);
    free(rows);
    free(row_line);
    nctx_free(&x);
    free(L.buf);
    *out = c;
    return GP_OK;
fail:
    free(rows);
    free(row_line);
    nctx_free(&x);
    free(L.buf);
    gp_calib_free(c);
    return rc;
}

/* ---- BabelStream ----------------------------------------------------------------------------- */

typedef struct bfunc {
    const char *label;   /* as printed                                 */
    const char *series;  /* gp_calib_point.series                      */
    double arrays;       /* bytes per pass / array bytes (src/main.cpp) */
} bfunc;

static const bfunc k_bfuncs[] = {
    {"Copy", "copy", 2.0}, {"Mul", "mul", 2.0},     {"Add", "add", 3.0},
    {"Triad", "triad", 3.0}, {"Dot", "dot", 2.0}, {"Nstream", "nstream", 4.0},
};
#define N_BFUNCS (sizeof k_bfuncs / sizeof k_bfuncs[0])

typedef struct btable {
    unsigned line;                 /* the header's line               */
    double t[N_BFUNCS];            /* best pass, s; 0 = absent        */
    unsigned row_line[N_BFUNCS];
    size_t n;
} btable;

int gp_calib_read_babelstream(const char *name, const char *text, size_t len, gp_calib **out,
                              gp_err *e)
{
    gp__calib_lines L;
    gp_calib *c;
    char *raw;
    btable *tabs = NULL;
    size_t n_tabs = 0, cap_tabs = 0, i, f;
    int rc = GP_OK, in_table = 0, have_banner = 0, have_device = 0, bad_sum = 0;
    double array_bytes = 0.0, unit = 0.0, table_unit = 0.0, array_mb = 0.0;
    unsigned last_line = 0;
    char version[24] = "", impl[24] = "", prec[12] = "";

    if ((rc = gp__calib_reader_begin("gp_calib_read_babelstream", &name, text, len, out,
                           GP_CALIB_FMT_BABELSTREAM, &L, &c, e)) != GP_OK)
        return rc;
    c->nodes = 1;

#define BFAIL(code, ln, col, ...)                                                            \
    do {                                                                                     \
        rc = GP_RAISE_AT(e, code, name, ln, col, __VA_ARGS__);                               \
        goto fail;                                                                           \
    } while (0)

    while ((raw = gp__calib_lines_next(&L)) != NULL) {
        char *s = skip_ws(strip_prefix(raw)), *tok[MAX_TOKENS], buf[1024];
        unsigned ln = L.no;
        size_t nt;
        int more;
        if (*s == '\0')
            continue;
        last_line = ln;
        snprintf(buf, sizeof buf, "%s", s);
        nt = tokenize(buf, tok, &more);
        if (strcmp(s, "BabelStream") == 0) {
            have_banner = 1;
            in_table = 0;
        } else if (strncmp(s, "Version:", 8) == 0) {
            if (version[0] == '\0')
                snprintf(version, sizeof version, "%s", skip_ws(s + 8));
        } else if (strncmp(s, "Implementation:", 15) == 0) {
            if (impl[0] == '\0')
                snprintf(impl, sizeof impl, "%s", skip_ws(s + 15));
        } else if (strncmp(s, "Running kernels", 15) == 0) {
            /* "Running kernels N times" */
        } else if (strncmp(s, "Running triad", 13) == 0 ||
                   strncmp(s, "Number of elements:", 19) == 0 ||
                   strncmp(s, "Runtime (seconds):", 18) == 0 ||
                   strncmp(s, "Bandwidth (", 11) == 0 || strncmp(s, "------", 6) == 0) {
            BFAIL(GP_EUNSUP, ln, col_of(raw, s),
                  "BabelStream --triad-only output (one timed loop, no per-pass minimum) is "
                  "not supported; run all kernels");
        } else if (strncmp(s, "function,", 9) == 0 || strncmp(s, "phase,", 6) == 0) {
            BFAIL(GP_EUNSUP, ln, col_of(raw, s),
                  "BabelStream --csv output is not supported; run without --csv");
        } else if (strncmp(s, "Precision:", 10) == 0) {
            const char *p = skip_ws(s + 10);
            if (strcmp(p, "double") != 0 && strcmp(p, "float") != 0)
                BFAIL(GP_EPARSE, ln, col_of(raw, p), "precision '%s' is not double or float", p);
            if (prec[0] != '\0' && strcmp(prec, p) != 0)
                BFAIL(GP_EUNSUP, ln, col_of(raw, p),
                      "precision '%s' after '%s': runs of two precisions in one file", p, prec);
            snprintf(prec, sizeof prec, "%s", p);
        } else if (strncmp(s, "Array size:", 11) == 0) {
            double v, u;
            if (nt < 4 || !gp__calib_num(tok[2], &v) || !(v > 0.0) ||
                (strcmp(tok[3], "MB") != 0 && strcmp(tok[3], "MiB") != 0))
                BFAIL(GP_EPARSE, ln, col_of(raw, s),
                      "expected 'Array size: X MB (=Y GB)' or 'X MiB (=Y GiB)'");
            u = strcmp(tok[3], "MB") == 0 ? 1e6 : 1048576.0;
            if (array_bytes > 0.0 && (v != array_mb || u != unit))
                BFAIL(GP_EUNSUP, ln, col_of(raw, s + (tok[2] - buf)),
                      "array size %s %s after %g: runs of two sizes in one file", tok[2],
                      tok[3], array_mb);
            array_mb = v;
            unit = u;
            array_bytes = v * u;
        } else if (strncmp(s, "Total size:", 11) == 0 || strncmp(s, "Memory:", 7) == 0 ||
                   strncmp(s, "Init:", 5) == 0 || strncmp(s, "Read:", 5) == 0 ||
                   strncmp(s, "Reduction kernel config:", 24) == 0) {
            /* informational (Init/Read time the host-device copies; the Dot
             * kernel's launch shape, which 5.0's CUDA, HIP, SYCL and OpenCL
             * back ends print after 'Using ... device') */
        } else if (strncmp(s, "Driver:", 7) == 0) {
            double v;
            if (nt >= 2 && parse_uint(tok[1], &v) && v < 2147483647.0)
                c->dev.driver_version = (int)v;
        } else if (strncmp(s, "Using ", 6) == 0) {
            char *d = strstr(s, " device ");
            if (d == NULL)
                BFAIL(GP_EUNSUP, ln, col_of(raw, s),
                      "'%.60s' names no device ('Using CUDA|HIP|... device NAME'); a GPU "
                      "figure needs one", s);
            d = skip_ws(d + 8);
            if (!have_device) {
                snprintf(c->dev.name, sizeof c->dev.name, "%s", d);
                have_device = 1;
            } else if (strcmp(c->dev.name, d) != 0) {
                BFAIL(GP_EUNSUP, ln, col_of(raw, d),
                      "device '%s' after '%s': mixed GPUs are not one GPU's figure", d,
                      c->dev.name);
            }
        } else if (strncmp(s, "Validation failed on sum", 24) == 0) {
            /* Only Dot's reduction missed BabelStream's 1e-8 relative
             * check (a float sum over 10^8 elements cannot meet it): the
             * arrays the other kernels wrote validated, so Dot alone is
             * left out, with a warning. */
            if (!bad_sum)
                gp__calib_warn(c, "%s:%u: '%.60s': Dot's sum missed BabelStream's 1e-8 check "
                                  "(a float reduction rarely meets it), so Dot is left out; the "
                                  "arrays of the other kernels validated",
                               name, ln, s);
            bad_sum = 1;
        } else if (bad_sum && strncmp(s, "Sum was ", 8) == 0) {
            /* the failed sum check's second line */
        } else if (strstr(s, "Validation failed") != NULL) {
            BFAIL(GP_EPARSE, ln, col_of(raw, s),
                  "BabelStream reports wrong results ('%.60s'): the run is not a measurement", s);
        } else if (strcmp(tok[0], "Function") == 0) {
            if (nt != 6 || (strcmp(tok[1], "MBytes/sec") != 0 && strcmp(tok[1], "MiBytes/sec") != 0) ||
                strcmp(tok[2], "Min") != 0 || strcmp(tok[3], "(sec)") != 0 ||
                strcmp(tok[4], "Max") != 0 || strcmp(tok[5], "Average") != 0)
                BFAIL(GP_EUNSUP, ln, col_of(raw, s),
                      "unsupported table header: want 'Function MBytes/sec Min (sec) Max "
                      "Average'");
            table_unit = strcmp(tok[1], "MBytes/sec") == 0 ? 1e6 : 1048576.0;
            if (n_tabs == cap_tabs) {
                size_t nc = cap_tabs ? 2 * cap_tabs : 8;
                btable *nb = realloc(tabs, nc * sizeof *nb);
                if (nb == NULL) {
                    rc = GP_RAISE(e, GP_ENOMEM, "out of memory");
                    goto fail;
                }
                tabs = nb;
                cap_tabs = nc;
            }
            memset(&tabs[n_tabs], 0, sizeof tabs[n_tabs]);
            tabs[n_tabs].line = ln;
            n_tabs++;
            in_table = 1;
        } else {
            /* A function row, or nothing BabelStream prints. */
            for (f = 0; f < N_BFUNCS; f++)
                if (strcmp(tok[0], k_bfuncs[f].label) == 0)
                    break;
            if (f == N_BFUNCS || !in_table)
                BFAIL(GP_EPARSE, ln, col_of(raw, s), "not a line of BabelStream output: '%.60s'%s",
                      s, f < N_BFUNCS ? " (a function row outside a 'Function ...' table)" : "");
            {
                btable *T = &tabs[n_tabs - 1];
                double rate, tmin, tmax, tavg, bytes, t, tol;
                if (more || nt != 5)
                    BFAIL(GP_EPARSE, ln, 0,
                          "%s row has %zu columns, expected 5 (Function MBytes/sec Min Max "
                          "Average); a log cut mid-row?", k_bfuncs[f].label, nt);
                if (!gp__calib_num(tok[1], &rate) || !(rate > 0.0))
                    BFAIL(GP_EPARSE, ln, col_of(raw, s + (tok[1] - buf)),
                          "%s rate '%s' is not a positive number", k_bfuncs[f].label, tok[1]);
                if (!(rate * table_unit <= GP_CALIB_RATE_MAX))
                    BFAIL(GP_EPARSE, ln, col_of(raw, s + (tok[1] - buf)),
                          "%s rate '%s' %s is above %g B/s: not a measurement",
                          k_bfuncs[f].label, tok[1], table_unit == 1e6 ? "MB/s" : "MiB/s",
                          GP_CALIB_RATE_MAX);
                if (!gp__calib_num(tok[2], &tmin) || !(tmin > 0.0) || !gp__calib_num(tok[3], &tmax) ||
                    !gp__calib_num(tok[4], &tavg) || tmax < tmin || tavg < tmin - 1e-5 ||
                    tavg > tmax + 1e-5)
                    BFAIL(GP_EPARSE, ln, col_of(raw, s + (tok[2] - buf)),
                          "%s times '%s %s %s' are not min <= average <= max seconds",
                          k_bfuncs[f].label, tok[2], tok[3], tok[4]);
                if (T->t[f] > 0.0)
                    BFAIL(GP_EPARSE, ln, 0, "%s appears twice in the table at line %u",
                          k_bfuncs[f].label, T->line);
                if (!(array_bytes > 0.0))
                    BFAIL(GP_EPARSE, ln, 0,
                          "no 'Array size:' line before the table: the bytes per pass are "
                          "unknown");
                /* BabelStream: rate = 1e-6 (or 2^-20) x bytes / min time, with
                 * bytes = arrays x array size; the printed min has 5 decimals and
                 * the array size one (in MB). */
                bytes = k_bfuncs[f].arrays * array_bytes;
                t = bytes / (rate * table_unit);
                tol = 6e-6 + t * (2e-3 + 0.05 / array_mb);
                if (fabs(t - tmin) > tol)
                    BFAIL(GP_EPARSE, ln, col_of(raw, s + (tok[2] - buf)),
                          "%s: %s %s for %.15g bytes is a %.3g s pass, but Min (sec) says %s: "
                          "columns out of place, or the Array size line belongs to another run",
                          k_bfuncs[f].label, tok[1], table_unit == 1e6 ? "MB/s" : "MiB/s", bytes,
                          t, tok[2]);
                T->t[f] = t;
                T->row_line[f] = ln;
                T->n++;
            }
        }
    }
    if (n_tabs == 0)
        BFAIL(GP_EPARSE, last_line ? last_line : 1, 0,
              "no 'Function MBytes/sec Min (sec) Max Average' table: truncated, or not "
              "BabelStream output");
    if (!have_banner)
        BFAIL(GP_EPARSE, 1, 0, "no 'BabelStream' banner line: not BabelStream output");
    if (!have_device)
        BFAIL(GP_EPARSE, last_line, 0,
              "no 'Using CUDA|HIP|... device NAME' line: the GPU is unknown");
    /* Every table holds the functions of the first (a cut one fewer). */
    for (i = 0; i < n_tabs; i++) {
        if (tabs[i].n == 0)
            BFAIL(GP_EPARSE, i + 1 < n_tabs ? tabs[i + 1].line : last_line, 0,
                  "the table at line %u has no rows: truncated?", tabs[i].line);
        for (f = 0; f < N_BFUNCS; f++)
            if ((tabs[i].t[f] > 0.0) != (tabs[0].t[f] > 0.0))
                BFAIL(GP_EPARSE, i + 1 < n_tabs ? tabs[i + 1].line : last_line, 0,
                      "the table at line %u %s %s, the one at line %u %s: truncated?",
                      tabs[i].line, tabs[i].t[f] > 0.0 ? "has" : "lacks", k_bfuncs[f].label,
                      tabs[0].line, tabs[0].t[f] > 0.0 ? "has it" : "does not");
    }
    {
        size_t pcap = 0;
        double *trial = malloc(2 * n_tabs * sizeof *trial);
        if (trial == NULL) {
            rc = GP_RAISE(e, GP_ENOMEM, "out of memory");
            goto fail;
        }
        for (f = 0; f < N_BFUNCS; f++) {
            gp_calib_point *p;
            if (!(tabs[0].t[f] > 0.0) || (bad_sum && strcmp(k_bfuncs[f].series, "dot") == 0))
                continue;
            if ((rc = push_point(c, &pcap, &p, e)) != GP_OK) {
                free(trial);
                goto fail;
            }
            p->kind = GP_CALIB_MEMORY;
            copy_str(p->series, sizeof p->series, k_bfuncs[f].series);
            copy_str(p->label, sizeof p->label, k_bfuncs[f].label);
            p->gpus = 1;
            p->work = k_bfuncs[f].arrays * array_bytes;
            p->line = tabs[0].row_line[f];
            for (i = 0; i < n_tabs; i++)
                trial[i] = tabs[i].t[f];
            if ((rc = gp_calib_stats_compute(trial, n_tabs, trial + n_tabs, &p->t, e)) != GP_OK) {
                free(trial);
                goto fail;
            }
            p->rate_best = p->work / p->t.min;
            p->rate_median = p->work / p->t.median;
            c->n_pts++;
        }
        free(trial);
    }
    c->dev.gpus = (int)n_tabs;
    c->gpus_per_node = (int)n_tabs;
    {
        char tool[128];
        size_t tl;
        snprintf(tool, sizeof tool, "BabelStream%s%s (%s%s%s)", version[0] ? " " : "", version,
                 impl[0] ? impl : "?", prec[0] ? ", " : "", prec);
        tl = strlen(tool);
        if (tl >= sizeof c->tool)
            tl = sizeof c->tool - 1;
        memcpy(c->tool, tool, tl);
        c->tool[tl] = '\0';
    }
    free(tabs);
    free(L.buf);
    *out = c;
    return GP_OK;
fail:
#undef BFAIL
    free(tabs);
    free(L.buf);
    gp_calib_free(c);
    return rc;
}

/* ---- detection and dispatch --------------------------------------------------------------- */

const char *gp_calib_format_name(gp_calib_format f)
{
    static const char *const names[GP_CALIB_FMT__COUNT] = {"auto", "probe", "nccl-tests",
                                                           "babelstream", "nvbandwidth"};
    return (unsigned)f < GP_CALIB_FMT__COUNT ? names[f] : "unknown";
}

int gp_calib_format_parse(const char *s, gp_calib_format *out, gp_err *e)
{
    int i;
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_format_parse: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_format_parse: NULL out");
    for (i = 0; i < GP_CALIB_FMT__COUNT; i++)
        if (strcmp(s, gp_calib_format_name((gp_calib_format)i)) == 0) {
            *out = (gp_calib_format)i;
            return GP_OK;
        }
    if (strcmp(s, "rccl-tests") == 0) {
        *out = GP_CALIB_FMT_NCCL_TESTS;
        return GP_OK;
    }
    return GP_RAISE_AT(e, GP_EINVAL, "--format", 0, 0,
                       "unknown format '%s' (auto, probe, nccl-tests, rccl-tests, babelstream or "
                       "nvbandwidth)",
                       s);
}

gp_calib_format gp_calib_detect(const char *text, size_t len)
{
    size_t pos = 0;
    int banner = 0, table = 0, seen = 0;
    char line[512];
    if (text == NULL)
        return GP_CALIB_FMT_PROBE;
    while (pos < len) {
        const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        char *p, *tok[MAX_TOKENS];
        int more;
        pos += n + 1;
        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, s, n);
        line[n] = '\0';
        if (memchr(line, '\0', n) != NULL)
            continue;
        {
            char *end = line + strlen(line);
            while (end > line && isspace((unsigned char)end[-1]))
                *--end = '\0';
        }
        p = skip_fnuz(skip_ws(strip_prefix(line)));
        if (strncmp(p, "format:", 7) == 0)
            return GP_CALIB_FMT_PROBE;
        if (*p != '\0' && !seen && sidecar_kind(p) != NULL)
            return GP_CALIB_FMT_NCCL_TESTS; /* refused there, named */
        if (*p != '\0')
            seen = 1;
        if (*p == '#') {
            char *h = skip_ws(p + 1);
            if (strncmp(h, "nThread", 7) == 0 || strncmp(h, "Collective test starting", 24) == 0)
                return GP_CALIB_FMT_NCCL_TESTS;
            if (is_col_header(tok, tokenize(h, tok, &more)))
                return GP_CALIB_FMT_NCCL_TESTS;
            continue;
        }
        if (gp__calib_looks_nvbandwidth(p))
            return GP_CALIB_FMT_NVBANDWIDTH;
        if (strcmp(p, "BabelStream") == 0)
            banner = 1;
        if (strncmp(p, "Function", 8) == 0 &&
            (strstr(p, "MBytes/sec") != NULL || strstr(p, "MiBytes/sec") != NULL))
            table = 1;
        if (banner && table)
            return GP_CALIB_FMT_BABELSTREAM;
    }
    if (banner || table)
        return GP_CALIB_FMT_BABELSTREAM;
    return GP_CALIB_FMT_PROBE;
}

int gp_calib_read_any(const char *name, const char *text, size_t len, gp_calib_format fmt,
                      gp_calib **out, gp_err *e)
{
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_read_any: NULL out");
    *out = NULL;
    if (text == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_calib_read_any: NULL text");
    if (fmt == GP_CALIB_FMT_AUTO)
        fmt = gp_calib_detect(text, len);
    switch (fmt) {
    case GP_CALIB_FMT_NCCL_TESTS:
        return gp_calib_read_nccl_tests(name, text, len, out, e);
    case GP_CALIB_FMT_BABELSTREAM:
        return gp_calib_read_babelstream(name, text, len, out, e);
    case GP_CALIB_FMT_NVBANDWIDTH:
        return gp_calib_read_nvbandwidth(name, text, len, out, e);
    case GP_CALIB_FMT_PROBE:
        return gp_calib_read_text(name, text, len, out, e);
    case GP_CALIB_FMT_AUTO:
    case GP_CALIB_FMT__COUNT:
    default:
        return GP_RAISE(e, GP_EINVAL, "gp_calib_read_any: unknown format %d", (int)fmt);
    }
}
