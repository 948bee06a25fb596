/* gpuplan calib: import / show / run GPU measurement files (docs/calibration.md).
 *
 *   gpuplan calib import FILE [--as ID] [--format F] [--date D]   write the overlay
 *   gpuplan calib show FILE [--as ID] [--format F] [--date D]     measurements, fits, efficiencies
 *
 * FILE is a gpuplan-probe measurement file, nccl-tests/rccl-tests
 * all_reduce_perf output, BabelStream output or nvbandwidth output (detected
 * by content, or --format probe|nccl-tests|babelstream|nvbandwidth).
 *   gpuplan calib run [--probe PATH] [--as ID] [-o FILE] [--quick] [--only P]
 *
 * The overlay goes to the first overlay directory (--db DIR, else the first
 * entry of $GPUPLAN_DB), else ${XDG_CONFIG_HOME:-~/.config}/gpuplan, as
 * gpus/calib-<id>.yaml (and links/calib-<id>.yaml for peer links): temp file
 * in the same directory + fsync + rename; shipped files are never touched. */
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuplan [--db DIR] calib import FILE [--as ID] [--format F] [--date D]\n"
            "       gpuplan [--json] calib show FILE [--as ID] [--format F] [--date D]\n"
            "       gpuplan [--db DIR] calib run [--probe PATH] [--as ID] [-o FILE] [--quick]\n"
            "                                    [--only PROBES] [--device N]\n\n"
            "Calibration: plan with what this machine really does.\n"
            "  import  turn a measurement file into overlays (gpus/calib-ID.yaml for GPU figures,\n"
            "          links/calib-ID.yaml for the GPU's scale-up link) in the first --db DIR,\n"
            "          else the first $GPUPLAN_DB entry, else ${XDG_CONFIG_HOME:-~/.config}/gpuplan;\n"
            "          atomic, idempotent; only what the file holds is written\n"
            "  show    print the measurements, alpha-beta fits and efficiencies vs datasheet\n"
            "  run     run gpuplan-probe (--probe PATH, else next to gpuplan, else $PATH),\n"
            "          keep its file (-o, default gpuplan-calib.yaml) and import it\n\n"
            "FILE: a gpuplan-probe file (format: gpuplan-calib/1), the text output of\n"
            "nccl-tests or rccl-tests all_reduce_perf (-> the scale-up link's AllReduce busbw;\n"
            "one node only), BabelStream's output (-> the GPU's memory bandwidth), or\n"
            "nvbandwidth's output (-> host-to-device / device-to-host and peer copy bandwidth).\n\n"
            "  --as ID        the database GPU the device is (when its name does not match)\n"
            "  --format F     auto (default: by content), probe, nccl-tests (or rccl-tests),\n"
            "                 babelstream, nvbandwidth\n"
            "  --date D       the measurement's date (YYYY-MM-DD) for logs that carry none\n"
            "  --probe PATH   the gpuplan-probe executable\n"
            "  -o, --output FILE\n"
            "                 where 'run' keeps the measurement file (default\n"
            "                 gpuplan-calib.yaml)\n"
            "  --quick, --only PROBES, --device N   passed to gpuplan-probe\n");
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* ---- shared: read + match ----------------------------------------------------------------- */

typedef struct loaded {
    gp_calib *c;
    gp_calib_summary s;
    const gp_db *db;
    const gp_gpu *g;
} loaded;

/* How to read FILE (--format, --date). */
typedef struct readopts {
    gp_calib_format fmt;
    const char *date;
} readopts;

/* A summary or device figure: 0 = not in the file, which JSON says with
 * null (README: null where a figure is undefined), not 0 B/s. */
/* A device count the file may not give (an nccl-tests log has no SM count,
 * driver or PCIe figures): null when 0, as JSON's other unknowns. */
static json_t *jcount0(long long v)
{
    return v > 0 ? json_integer((json_int_t)v) : json_null();
}

static json_t *jmeas(double v)
{
    return v > 0.0 ? gp_cli_jnum(v) : json_null();
}

/* Read and check the measurement file (before anything is touched), run
 * `prepare` (may be NULL; import creates its target directory there, so a
 * new --db DIR loads), then load the database and find the GPU. */
static int load(gp_cli *cli, const char *file, const char *as, int need_gpu, const readopts *ro,
                loaded *L, int (*prepare)(void *), void *arg)
{
    gp_err e;
    int rc;
    size_t i;
    gp_err_clear(&e);
    memset(L, 0, sizeof *L);
    if (gp_calib_read_file_any(file, ro ? ro->fmt : GP_CALIB_FMT_AUTO, &L->c, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    if (ro != NULL && ro->date != NULL) {
        if (L->c->date[0] != '\0') {
            fprintf(stderr, "gpuplan calib: option '--date': %s records its own date '%s'\n",
                    file, L->c->date);
            return GP_EXIT_USAGE;
        }
        snprintf(L->c->date, sizeof L->c->date, "%s", ro->date);
    }
    for (i = 0; i < L->c->n_warn && i < GP_CALIB_MAX_WARN; i++)
        fprintf(stderr, "gpuplan calib: warning: %s\n", L->c->warn[i]);
    if (L->c->n_warn > GP_CALIB_MAX_WARN)
        fprintf(stderr, "gpuplan calib: warning: %zu more warnings\n",
                L->c->n_warn - GP_CALIB_MAX_WARN);
    gp_calib_summarize(L->c, &L->s);
    if (prepare != NULL && (rc = prepare(arg)) != GP_EXIT_OK)
        return rc;
    L->db = gp_cli_db(cli);
    if (L->db == NULL)
        return GP_EXIT_USAGE;
    if (as != NULL) {
        if (gp_db_get_gpu(L->db, as, "--as", &L->g, &e) != GP_OK)
            return gp_cli_fail(cli, &e);
    } else if (L->c->dev.name[0] == '\0') {
        /* nvbandwidth v0.10 prints no 'Device N:' lines. */
        if (need_gpu) {
            fprintf(stderr, "gpuplan calib: %s names no GPU (%s prints no device names); name "
                            "the database GPU with --as ID (see 'gpuplan hw list gpus')\n",
                    file, L->c->tool[0] ? L->c->tool : "the tool");
            return GP_EXIT_USAGE;
        }
        L->g = NULL;
    } else if (gp_calib_match_gpu(L->db, L->c->dev.name, &L->g, &e) != GP_OK) {
        if (need_gpu)
            return gp_cli_fail(cli, &e);
        L->g = NULL;
    }
    return GP_EXIT_OK;
}

/* Every overlay gp_calib_overlay_* writes starts with this line. */
#define OVERLAY_MARK "# gpuplan calibration overlay"

/* ---- import ------------------------------------------------------------------------------ */

#define IMPORT_MAX_NEW_DIRS 8

typedef struct import_dir {
    gp_cli *cli;
    char dir[PATH_MAX];
    int is_default;
    /* Directories this import created (the --db directory, its missing
     * parents, gpus/, links/): each mkdir_noted call's path and the length
     * of its first missing prefix (it and every directory below it on the
     * path were created), so that a refused or failed import removes them
     * again and leaves the file system as it found it, however deep. */
    char made[IMPORT_MAX_NEW_DIRS][PATH_MAX];
    size_t made_top[IMPORT_MAX_NEW_DIRS];
    size_t n_made;
} import_dir;

/* gp_cli_mkdir_p(path), noting in d the directories it is about to create. */
static int mkdir_noted(import_dir *d, const char *path, gp_err *e)
{
    char buf[PATH_MAX];
    size_t i, n = strlen(path);
    struct stat st;
    if (n >= sizeof buf)
        return gp_cli_mkdir_p(path, e); /* refuses the name */
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++)
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            int missing;
            buf[i] = '\0';
            missing = stat(buf, &st) != 0 && errno == ENOENT;
            buf[i] = c;
            if (missing) {
                if (d->n_made < IMPORT_MAX_NEW_DIRS) {
                    memcpy(d->made[d->n_made], path, n + 1);
                    d->made_top[d->n_made++] = i;
                }
                break; /* everything below a missing directory is new too */
            }
        }
    return gp_cli_mkdir_p(path, e);
}

/* Remove, newest first, the directories the import created: each noted
 * path, then its parents up to its first missing prefix (rmdir refuses
 * any that is no longer empty, and so its parents). */
static void unmake_dirs(import_dir *d)
{
    while (d->n_made > 0) {
        char *p = d->made[--d->n_made], *slash;
        size_t top = d->made_top[d->n_made];
        while (strlen(p) >= top) {
            (void)rmdir(p);
            if ((slash = strrchr(p, '/')) == NULL)
                break;
            *slash = '\0';
        }
    }
}

/* Put `text` at dir/sub/name unless identical; *old receives the previous
 * content (malloc'd, NULL when none) for a rollback.  *changed = 1 when written. */
static int place(import_dir *T, const char *sub, const char *name, const char *text,
                 char **old, int *changed, char *path, size_t pathn, gp_err *e)
{
    const char *dir = T->dir;
    char d[PATH_MAX];
    int rc;
    *old = NULL;
    *changed = 0;
    if ((size_t)snprintf(d, sizeof d, "%s/%s", dir, sub) >= sizeof d ||
        (size_t)snprintf(path, pathn, "%s/%s/%s", dir, sub, name) >= pathn)
        return GP_RAISE_AT(e, GP_EIO, dir, 0, 0, "path too long");
    if ((rc = mkdir_noted(T, d, e)) != GP_OK)
        return rc;
    if ((rc = gp_cli_slurp(path, old, e)) != GP_OK)
        return rc;
    if (*old != NULL && strcmp(*old, text) == 0)
        return GP_OK; /* idempotent: same bytes already there */
    if (*old != NULL && strncmp(*old, OVERLAY_MARK, strlen(OVERLAY_MARK)) != 0)
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0,
                           "refusing to replace a file 'gpuplan calib import' did not write");
    if ((rc = gp_cli_write_atomic(d, name, text, e)) != GP_OK)
        return rc;
    *changed = 1;
    return GP_OK;
}

static void rollback(const char *path, const char *old)
{
    gp_err e;
    char d[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (old == NULL) {
        unlink(path);
        return;
    }
    snprintf(d, sizeof d, "%.*s", (int)(slash - path), path);
    gp_err_clear(&e);
    (void)gp_cli_write_atomic(d, slash + 1, old, &e);
}

static int prepare_dir(void *arg)
{
    import_dir *d = arg;
    gp_err e;
    gp_err_clear(&e);
    if (gp_cli_user_db_dir(d->cli, d->dir, sizeof d->dir, &d->is_default, &e) != GP_OK ||
        mkdir_noted(d, d->dir, &e) != GP_OK)
        return gp_cli_fail(d->cli, &e);
    return GP_EXIT_OK;
}

/* What kind of file this is, in words, for messages. */
static const char *file_kind(const gp_calib *c)
{
    switch (c->format) {
    case GP_CALIB_FMT_NCCL_TESTS:
        return "an nccl-tests log";
    case GP_CALIB_FMT_BABELSTREAM:
        return "a BabelStream log";
    case GP_CALIB_FMT_NVBANDWIDTH:
        return "an nvbandwidth log";
    default:
        return "the measurement file";
    }
}

/* The point of series (kind, series): the largest size (largest = 1) or the
 * best median rate; NULL when the file has none. */
static const gp_calib_point *series_point(const gp_calib *c, gp_calib_kind kind,
                                          const char *series, int largest)
{
    const gp_calib_point *best = NULL;
    size_t i;
    for (i = 0; i < c->n_pts; i++) {
        const gp_calib_point *p = &c->pts[i];
        if (p->kind != kind || strcmp(p->series, series) != 0)
            continue;
        if (best == NULL || (largest ? p->work > best->work : p->rate_median > best->rate_median))
            best = p;
    }
    return best;
}

/* The size sweeps that give a bandwidth (docs/calibration.md): `imported`
 * when the overlay carries it (peer uni only without an AllReduce sweep). */
typedef struct bw_sweep {
    gp_calib_kind kind;
    const char *series, *label;
    int imported;
} bw_sweep;

static const bw_sweep k_sweeps[] = {
    {GP_CALIB_TRANSFER, "h2d-pinned", "h2d pinned", 1},
    {GP_CALIB_TRANSFER, "d2h-pinned", "d2h pinned", 1},
    {GP_CALIB_TRANSFER, "h2d-pageable", "h2d pageable", 0},
    {GP_CALIB_TRANSFER, "d2h-pageable", "d2h pageable", 0},
    {GP_CALIB_PEER, "uni", "peer uni", 1},
    {GP_CALIB_PEER, "bidir", "peer bidir (sum)", 0},
    {GP_CALIB_ALLREDUCE, "allreduce", "allreduce busbw", 1},
};

/* The largest point of a sweep whose sizes all stay below the bandwidth
 * regime (GP_CALIB_BW_MIN_BYTES), else NULL. */
static const gp_calib_point *latency_only(const gp_calib *c, const bw_sweep *w)
{
    const gp_calib_point *top = series_point(c, w->kind, w->series, 1);
    return top != NULL && top->work < GP_CALIB_BW_MIN_BYTES ? top : NULL;
}

/* A sweep the overlay would take its bandwidth from, none of whose sizes
 * reaches the bandwidth regime: its times are latency (32 us for 64 B to
 * 4 KiB on 8 x A100) and its beta an extrapolation (36.9 GB/s +-49 % of a
 * 235 GB/s link).  GP_EUNSUP at the largest size's line. */
static int bw_regime_ok(const gp_calib *c, int *no_link, gp_err *e)
{
    int has_ar = series_point(c, GP_CALIB_ALLREDUCE, "allreduce", 1) != NULL;
    int others = 0; /* the file measures something besides copies and links */
    size_t i;
    *no_link = 0;
    for (i = 0; i < c->n_pts && !others; i++)
        others = c->pts[i].kind == GP_CALIB_GEMM || c->pts[i].kind == GP_CALIB_MEMORY ||
                 c->pts[i].kind == GP_CALIB_LATENCY;
    for (i = 0; i < sizeof k_sweeps / sizeof k_sweeps[0]; i++) {
        const bw_sweep *w = &k_sweeps[i];
        const gp_calib_point *top;
        if (!w->imported || (w->kind == GP_CALIB_PEER && has_ar) ||
            (top = latency_only(c, w)) == NULL)
            continue;
        /* A probe file's sweep cut short (its time budget, a quick run)
         * costs only that figure -- the link overlay for a link sweep, the
         * host-link bandwidth for a pinned copy (its summary holds 0 there,
         * which the overlay leaves out) -- when the file measured the GPU
         * itself too (GEMM, memory, latency): those figures stand. */
        if (c->format == GP_CALIB_FMT_PROBE && others) {
            int link = w->kind == GP_CALIB_ALLREDUCE || w->kind == GP_CALIB_PEER;
            fprintf(stderr, "gpuplan calib: note: %s: %s:%u: the %s sweep's largest size is "
                            "%.15g B, below the bandwidth regime (>= %.0f MiB)\n",
                    link ? "no link overlay" : "no host-link bandwidth", c->path, top->line,
                    w->kind == GP_CALIB_ALLREDUCE ? "AllReduce" : w->label, top->work,
                    GP_CALIB_BW_MIN_BYTES / 1048576.0);
            if (link)
                *no_link = 1;
            continue;
        }
        return GP_RAISE_AT(e, GP_EUNSUP, c->path, top->line, 0,
                           "the %s sweep's largest size is %.15g B, below the bandwidth "
                           "regime (>= %.0f MiB): its times are latency, so it measures no "
                           "bandwidth (nothing written); rerun it up to >= %.0f MiB%s",
                           w->kind == GP_CALIB_ALLREDUCE ? "AllReduce" : w->label, top->work,
                           GP_CALIB_BW_MIN_BYTES / 1048576.0, GP_CALIB_BW_MIN_BYTES / 1048576.0,
                           w->kind == GP_CALIB_ALLREDUCE ? " (all_reduce_perf -b 8 -e 1G)" : "");
    }
    return GP_OK;
}

/* A figure the overlay would carry below GP_MEAS_FLOOR_MIN of its datasheet
 * figure: no working link, memory or GEMM runs 100 x under its datasheet
 * (include/gpuplan/db.h).  GP_EUNSUP at the line of the point it came from. */
static int floor_fail(const loaded *L, const gp_calib_point *pt, const char *what, double meas,
                      const gp_fig *ds, const char *of, gp_qty q, gp_err *e)
{
    char m[32], d[32];
    if (ds == NULL || !gp_meas_below_floor(meas, ds->v))
        return GP_OK;
    gp_format_qty(meas, q, 3, 0, m, sizeof m);
    gp_format_qty(ds->v, q, 3, 0, d, sizeof d);
    return GP_RAISE_AT(e, GP_EUNSUP, L->c->path, pt != NULL ? pt->line : 0, 0,
                       "%s %s is %.2g %% of %s's datasheet %s, below %g %%: nothing that works "
                       "runs 100 times under its datasheet -- a latency-bound size, a unit "
                       "slip or another device's file (check --as); nothing written",
                       what, m, 100.0 * meas / ds->v, of, d, 100.0 * GP_MEAS_FLOOR_MIN);
}

static int floor_ok(const loaded *L, gp_err *e)
{
    const gp_calib *c = L->c;
    const gp_calib_summary *s = &L->s;
    const gp_gpu *g = L->g;
    const char *peer_id = g->scale_up_link ? g->scale_up_link : g->host_link;
    const gp_link *host = g->host_link ? gp_db_find_link(L->db, g->host_link) : NULL;
    const gp_link *peer = peer_id ? gp_db_find_link(L->db, peer_id) : NULL;
    int p, q, rc;
    if ((rc = floor_fail(L, series_point(c, GP_CALIB_MEMORY, "copy", 0), "memory bandwidth",
                         s->mem_bw, &g->mem_bw, g->id, GP_Q_RATE, e)) != GP_OK ||
        (rc = floor_fail(L, series_point(c, GP_CALIB_MEMORY, "l2-read", 0), "L2 bandwidth",
                         s->l2_bw, &g->l2_bw, g->id, GP_Q_RATE, e)) != GP_OK)
        return rc;
    for (p = 0; p < GP_PREC__COUNT; p++)
        for (q = 0; q < GP_PIPE__COUNT; q++) {
            char series[40], what[48];
            snprintf(series, sizeof series, "%s-%s-fp32acc", gp_precision_name((gp_precision)p),
                     gp_pipeline_name((gp_pipeline)q));
            snprintf(what, sizeof what, "%s %s GEMM", gp_precision_name((gp_precision)p),
                     gp_pipeline_name((gp_pipeline)q));
            if ((rc = floor_fail(L, series_point(c, GP_CALIB_GEMM, series, 0), what,
                                 s->gemm[p][q], &g->peak[p][q], g->id, GP_Q_FLOPS, e)) != GP_OK)
                return rc;
        }
    if (host != NULL &&
        ((rc = floor_fail(L, series_point(c, GP_CALIB_TRANSFER, "h2d-pinned", 1),
                          "host-to-device bandwidth", s->h2d_bw, &host->bw, host->id, GP_Q_RATE,
                          e)) != GP_OK ||
         (rc = floor_fail(L, series_point(c, GP_CALIB_TRANSFER, "d2h-pinned", 1),
                          "device-to-host bandwidth", s->d2h_bw, &host->bw, host->id, GP_Q_RATE,
                          e)) != GP_OK))
        return rc;
    if (peer == NULL)
        return GP_OK;
    if (s->allreduce_busbw > 0.0)
        /* Only a one-node sweep is the link's (the others are refused). */
        return s->allreduce_nodes != 1
                   ? GP_OK
                   : floor_fail(L, series_point(c, GP_CALIB_ALLREDUCE, "allreduce", 1),
                                "AllReduce busbw", s->allreduce_busbw, &peer->bw, peer->id,
                                GP_Q_RATE, e);
    return floor_fail(L, series_point(c, GP_CALIB_PEER, "uni", 1), "GPU-to-GPU copy bandwidth",
                      s->peer_bw, &peer->bw, peer->id, GP_Q_RATE, e);
}

/* A measurement well above its datasheet figure is no measurement of this
 * GPU: most likely the file came from another card (or --as names the wrong
 * one).  Boost clocks and memory overclocks allow a few per cent, so only
 * more than GP_MEAS_BOOST_MAX is said -- where the loader then refuses a
 * GEMM or DRAM figure, this names the likely cause; the L2 figure is an
 * estimate and the AllReduce busbw has its own message (NVLS). */
static void warn_above_datasheet(const char *file, const loaded *L)
{
    gp_calib_eff eff[64];
    const gp_link *host, *peer;
    size_t n, i, over = 0, worst = 0;
    host = L->g->host_link ? gp_db_find_link(L->db, L->g->host_link) : NULL;
    peer = L->g->scale_up_link ? gp_db_find_link(L->db, L->g->scale_up_link) : host;
    n = gp_calib_efficiencies(&L->s, L->g, host, peer, eff, 64);
    for (i = 0; i < n && i < 64; i++) {
        if (!gp_meas_above_boost(eff[i].measured, eff[i].datasheet) ||
            strcmp(eff[i].what, "l2 read") == 0 ||
            strcmp(eff[i].what, "allreduce busbw") == 0)
            continue;
        if (over++ == 0 || eff[i].eff > eff[worst].eff)
            worst = i;
    }
    if (over > 0) {
        gp_qty q = strstr(eff[worst].what, "GEMM") ? GP_Q_FLOPS : GP_Q_RATE;
        char m[32], d[32];
        gp_format_qty(eff[worst].measured, q, 3, 0, m, sizeof m);
        gp_format_qty(eff[worst].datasheet, q, 3, 0, d, sizeof d);
        fprintf(stderr,
                "gpuplan calib: warning: %s: %zu measurement%s above %s's datasheet by more than "
                "%.0f%% (the most: %s %s = %.0f%% of %s): a file from another GPU? (check --as)\n",
                file, over, over > 1 ? "s" : "", L->g->id, 100.0 * (GP_MEAS_BOOST_MAX - 1.0),
                eff[worst].what, m, 100.0 * eff[worst].eff, d);
    }
}

/* An import replaces the GPU's calibration file: say which figures the
 * previous one held that this file does not (they are dropped), so a user
 * importing a second tool's output does not lose the first silently. */
static void note_dropped(const char *file, const loaded *L, int writes_gpu)
{
    const gp_gpu *g = L->g;
    const gp_calib_summary *s = &L->s;
    char list[512] = "";
    size_t n;
    int p, q, any_gemm_old = 0, any_gemm_new = 0;
    if (!writes_gpu || g->calibration == NULL)
        return;
    for (p = 0; p < GP_PREC__COUNT; p++)
        for (q = 0; q < GP_PIPE__COUNT; q++) {
            any_gemm_old |= g->meas_peak[p][q].v > 0.0;
            any_gemm_new |= s->gemm[p][q] > 0.0;
        }
#define DROP(old_, new_, name_)                                                   \
    if ((old_) > 0.0 && !((new_) > 0.0)) {                                        \
        n = strlen(list);                                                         \
        snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", name_);        \
    }
    DROP(g->meas_mem_bw.v, s->mem_bw, "memory bandwidth")
    DROP(any_gemm_old ? 1.0 : 0.0, any_gemm_new ? 1.0 : 0.0, "GEMM rates")
    DROP(g->meas_l2_bw.v, s->l2_bw, "L2 bandwidth")
    DROP(g->meas_lat_dram.v, s->lat_dram, "latencies")
    DROP(g->meas_h2d_bw.v, s->h2d_bw, "host-to-device")
    DROP(g->meas_d2h_bw.v, s->d2h_bw, "device-to-host")
#undef DROP
    if (list[0] != '\0')
        fprintf(stderr,
                "gpuplan calib: note: %s replaces the calibration of '%s' (%s); its %s are "
                "not in this file and are dropped (one calibration file per GPU: import the "
                "recording that holds them all, as gpuplan-probe's does; docs/calibration.md)\n",
                file, g->id, g->calibration, list);
}

/* Whether the figure the link overlay would carry (AllReduce busbw, else
 * the peer copy) is the link's: not on fewer GPUs than a point-to-point mesh
 * joins, and not above the link's datasheet rate per direction: no ring and no copy
 * on that link reaches it, so it is no measurement of the link's ring (the
 * loader refuses measured.bandwidth above bandwidth too; the expected figure
 * would beat the ceiling).  On a switched NVLink with an NVLS figure, an
 * AllReduce busbw above the line rate is NVLink SHARP, NCCL's default
 * there from a few MiB up (~480 GB/s busbw on 8 x H100's 450 GB/s): a
 * different algorithm with its own figure (the link's `nvls`), not the
 * ring's.  GP_OK, or GP_EUNSUP naming the file. */
static int link_figure_ok(const loaded *L, const gp_link *lk, gp_err *e)
{
    int ar = L->s.allreduce_busbw > 0.0;
    double fig = ar ? L->s.allreduce_busbw : L->s.peer_bw;
    double n = ar ? (double)L->s.allreduce_gpus : 2.0;
    char m[32], d[32];
    /* A point-to-point mesh's figure is each GPU's over all its direct
     * links: fewer GPUs than the mesh joins measure only some of them
     * (gp_link_mesh_share), and the figure would be scaled down again. */
    if (gp_link_mesh_share(lk, n) < 1.0)
        return GP_RAISE_AT(e, GP_EUNSUP, L->c->path, 0, 0,
                           "link '%s' is a point-to-point mesh of %g GPUs, each GPU's figure "
                           "spread over one direct link to each peer: %s on %g GPUs uses %g of "
                           "a GPU's %g links, not the whole; import an AllReduce sweep on all "
                           "%g GPUs (docs/models/collectives.md)",
                           lk->id, lk->max_gpus.v, ar ? "an AllReduce" : "a GPU-to-GPU copy", n,
                           n - 1.0, lk->max_gpus.v - 1.0, lk->max_gpus.v);
    /* 1.0001: the loader's own margin for a measured link figure. */
    if (!(lk->bw.v > 0.0) || !(fig > lk->bw.v * 1.0001))
        return GP_OK;
    gp_format_qty(fig, GP_Q_RATE, 1, 0, m, sizeof m);
    gp_format_qty(lk->bw.v, GP_Q_RATE, 1, 0, d, sizeof d);
    if (ar && lk->bw_nvls.v > 0.0 && L->s.allreduce_gpus >= 3)
        return GP_RAISE_AT(e, GP_EUNSUP, L->c->path, 0, 0,
                           "AllReduce busbw %s exceeds the datasheet %s per direction of link "
                           "'%s', which a ring cannot: the sweep ran NVLink SHARP (NVLS, "
                           "NCCL's default AllReduce on an NVSwitch from a few MiB up), whose "
                           "busbw is not the ring figure a link carries (NVLS has its own, the "
                           "link's 'nvls'; docs/models/collectives.md); rerun the sweep with "
                           "NCCL_ALGO=Ring and import that", m, d, lk->id);
    return GP_RAISE_AT(e, GP_EUNSUP, L->c->path, 0, 0,
                       "%s %s exceeds the datasheet %s per direction of link '%s', which no %s "
                       "on it can: not a measurement of GPU '%s''s link (a file from another "
                       "GPU? check --as)", ar ? "AllReduce busbw" : "GPU-to-GPU copy", m, d,
                       lk->id, ar ? "ring" : "copy", L->g->id);
}

/* The layers the CLI loads, in order, with `dir` (where import writes)
 * among them: the default directory is loaded first when it existed at
 * start-up, then $GPUPLAN_DB, then --db. */
static size_t import_layers(const gp_cli *cli, const char *dir, int is_default,
                            const char **dirs, size_t cap)
{
    size_t nd = 0, i;
    for (i = 0; i < cli->n_db && nd + 1 < cap; i++)
        dirs[nd++] = cli->db_dirs[i];
    if (is_default && (cli->n_db == 0 || strcmp(cli->db_dirs[0], dir) != 0))
        dirs[nd++] = dir;
    return nd;
}

/* origin "PATH:LINE:COL" names PATH. */
static int origin_is(const char *origin, const char *path)
{
    size_t n = strlen(path);
    return origin != NULL && strncmp(origin, path, n) == 0 && origin[n] == ':';
}

/* A GPU's calibration figures, as pointers into g (cap >= 8 + peaks). */
static size_t meas_figs(const gp_gpu *g, const gp_fig **f)
{
    size_t n = 0;
    int p, q;
    f[n++] = &g->meas_mem_bw;
    f[n++] = &g->meas_l2_bw;
    f[n++] = &g->meas_lat_l1;
    f[n++] = &g->meas_lat_l2;
    f[n++] = &g->meas_lat_dram;
    f[n++] = &g->meas_h2d_bw;
    f[n++] = &g->meas_d2h_bw;
    f[n++] = &g->meas_h2d_lat;
    for (p = 0; p < GP_PREC__COUNT; p++)
        for (q = 0; q < GP_PIPE__COUNT; q++)
            f[n++] = &g->meas_peak[p][q];
    return n;
}

/* The overlay `path` just written sets figures a later layer sets again:
 * the import is not in effect there.  Say which file wins (the import
 * stands: the user may mean to drop or reorder the other). */
static void note_shadowed(const char *path, const gp_fig *const *mine,
                          const gp_fig *const *all, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (mine[i]->v > 0.0 && origin_is(mine[i]->origin, path) &&
            !origin_is(all[i]->origin, path)) {
            fprintf(stderr, "gpuplan calib: note: %s is not in effect: %s, a later overlay, "
                            "sets the same figures (the last --db, or $GPUPLAN_DB entry, wins)\n",
                    path, all[i]->origin != NULL ? all[i]->origin : "another file");
            return;
        }
}

/* Load the layers up to and including `dir`, and all of them, and hold the
 * figures import wrote (gpath, lpath; NULL when not written) against both. */
static void check_in_effect(const char *const *dirs, size_t nd, const char *dir,
                            const char *gpath, const char *lpath, const char *gpu,
                            const char *link)
{
    size_t upto = 0;
    gp_db *mine = NULL, *all = NULL;
    gp_err e;
    while (upto < nd && strcmp(dirs[upto], dir) != 0)
        upto++;
    gp_err_clear(&e);
    if (upto + 1 >= nd || gp_db_open(&mine, 0, dirs, upto + 1, &e) != GP_OK ||
        gp_db_open(&all, 0, dirs, nd, &e) != GP_OK)
        goto out;
    if (gpath != NULL) {
        const gp_fig *fm[8 + GP_PREC__COUNT * GP_PIPE__COUNT];
        const gp_fig *fa[8 + GP_PREC__COUNT * GP_PIPE__COUNT];
        const gp_gpu *gm = gp_db_find_gpu(mine, gpu), *ga = gp_db_find_gpu(all, gpu);
        if (gm != NULL && ga != NULL) {
            size_t n = meas_figs(gm, fm);
            (void)meas_figs(ga, fa);
            note_shadowed(gpath, fm, fa, n);
        }
    }
    if (lpath != NULL && link != NULL) {
        const gp_link *lm = gp_db_find_link(mine, link), *la = gp_db_find_link(all, link);
        if (lm != NULL && la != NULL) {
            const gp_fig *fm[2] = {&lm->meas_bw, &lm->meas_latency};
            const gp_fig *fa[2] = {&la->meas_bw, &la->meas_latency};
            note_shadowed(lpath, fm, fa, 2);
        }
    }
out:
    gp_db_free(mine);
    gp_db_free(all);
}

/* Earlier imports' overlays for the same link from another GPU's file
 * (links/calib-<other gpu>.yaml with that link's id): the link's figure is
 * one, so the new one replaces them.  Left in place, the file that sorts last
 * won, whatever the order of the imports, and import said "wrote" for a
 * figure that was not in effect (an H100 sweep after an H200 one on
 * nvlink4). */
#define SUPERSEDED_MAX 16

typedef struct superseded {
    char path[SUPERSEDED_MAX][PATH_MAX];
    char *old[SUPERSEDED_MAX];
    size_t n;
} superseded;

static void find_superseded(const char *dir, const char *mine, const char *link_id,
                            superseded *S)
{
    char d[PATH_MAX], want[300];
    DIR *dp;
    struct dirent *de;
    S->n = 0;
    if ((size_t)snprintf(d, sizeof d, "%s/links", dir) >= sizeof d ||
        (size_t)snprintf(want, sizeof want, "\nid: \"%s\"\n", link_id) >= sizeof want)
        return;
    if ((dp = opendir(d)) == NULL)
        return;
    while ((de = readdir(dp)) != NULL && S->n < SUPERSEDED_MAX) {
        size_t nl = strlen(de->d_name);
        char path[PATH_MAX], *text = NULL;
        gp_err e;
        if (strncmp(de->d_name, "calib-", 6) != 0 || nl < 11 ||
            strcmp(de->d_name + nl - 5, ".yaml") != 0 || strcmp(de->d_name, mine) == 0)
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", d, de->d_name) >= sizeof path)
            continue;
        gp_err_clear(&e);
        if (gp_cli_slurp(path, &text, &e) != GP_OK || text == NULL)
            continue;
        if (strncmp(text, OVERLAY_MARK, strlen(OVERLAY_MARK)) == 0 && strstr(text, want) != NULL) {
            snprintf(S->path[S->n], sizeof S->path[0], "%s", path);
            S->old[S->n++] = text;
        } else {
            free(text);
        }
    }
    closedir(dp);
}

static int import_into(gp_cli *cli, const char *file, const char *as, const char *shown,
                       const readopts *ro, import_dir *T)
{
    loaded L;
    gp_err e;
    char name[300], gpath[PATH_MAX] = "", lpath[PATH_MAX] = "";
    char *gtext = NULL, *ltext = NULL, *gold = NULL, *lold = NULL;
    const char *link_id = NULL, *dir = T->dir;
    const gp_link *lk = NULL;
    int rc, is_default, gchanged = 0, lchanged = 0, status = GP_EXIT_OK;
    int has_link_data, no_link = 0, removed = 0;
    superseded *S = NULL;
    size_t k;

    T->cli = cli;
    T->dir[0] = '\0';
    T->is_default = 0;
    if ((rc = load(cli, file, as, 1, ro, &L, prepare_dir, T)) != GP_EXIT_OK) {
        gp_calib_free(L.c);
        return rc;
    }
    gp_err_clear(&e);
    /* Bandwidths from latency-only sweeps, figures 100 x under the
     * datasheet: refused before anything is written. */
    if (bw_regime_ok(L.c, &no_link, &e) != GP_OK || floor_ok(&L, &e) != GP_OK) {
        gp_calib_free(L.c);
        return gp_cli_fail(cli, &e);
    }
    has_link_data = !no_link &&
                    (L.s.peer_bw > 0.0 || L.s.peer_lat > 0.0 || L.s.allreduce_busbw > 0.0);
    /* GPU figures: only what the file holds (an nccl-tests log has none). */
    if (gp_calib_overlay_gpu(L.c, &L.s, L.g->id, shown, &gtext, &e) != GP_OK) {
        if (!has_link_data || e.code != GP_EINVAL) {
            gp_calib_free(L.c);
            return gp_cli_fail(cli, &e);
        }
        gtext = NULL;
        gp_err_clear(&e);
    }
    if (has_link_data) {
        link_id = L.g->scale_up_link != NULL ? L.g->scale_up_link : L.g->host_link;
        lk = link_id != NULL ? gp_db_find_link(L.db, link_id) : NULL;
        if (lk == NULL) {
            if (gtext == NULL) {
                fprintf(stderr, "gpuplan calib: %s: GPU '%s' names no scale-up or host link in "
                                "the database, so %s's AllReduce figure has nowhere to go\n",
                        file, L.g->id, file_kind(L.c));
                gp_calib_free(L.c);
                return GP_EXIT_USAGE;
            }
        } else if (link_figure_ok(&L, lk, &e) != GP_OK ||
                   gp_calib_overlay_link(L.c, &L.s, lk->id, shown, &ltext, &e) != GP_OK) {
            /* Nothing else to write: the refusal is the answer.  A probe file
             * keeps its GPU overlay (as before) and says why the link has none. */
            if (gtext == NULL) {
                gp_calib_free(L.c);
                return gp_cli_fail(cli, &e);
            }
            {
                char buf[1024];
                fprintf(stderr, "gpuplan calib: note: no link overlay: %s\n",
                        gp_err_format(&e, buf, sizeof buf));
            }
            ltext = NULL;
        }
        if (lk != NULL)
            link_id = lk->id;
    }
    warn_above_datasheet(file, &L);
    note_dropped(file, &L, gtext != NULL);
    is_default = T->is_default;
    snprintf(name, sizeof name, "calib-%s.yaml", L.g->id);
    if (gtext != NULL &&
        place(T, "gpus", name, gtext, &gold, &gchanged, gpath, sizeof gpath, &e) != GP_OK) {
        status = gp_cli_fail(cli, &e);
        goto out;
    }
    if (ltext != NULL &&
        place(T, "links", name, ltext, &lold, &lchanged, lpath, sizeof lpath, &e) != GP_OK) {
        if (gchanged)
            rollback(gpath, gold);
        status = gp_cli_fail(cli, &e);
        goto out;
    }
    /* The link's figure from another GPU's earlier import goes: one figure
     * per link (find_superseded). */
    if (ltext != NULL && link_id != NULL) {
        S = calloc(1, sizeof *S);
        if (S == NULL) {
            if (gchanged)
                rollback(gpath, gold);
            if (lchanged)
                rollback(lpath, lold);
            fprintf(stderr, "gpuplan calib: out of memory\n");
            status = GP_EXIT_FAIL;
            goto out;
        }
        find_superseded(dir, name, link_id, S);
        for (k = 0; k < S->n; k++)
            if (unlink(S->path[k]) == 0) {
                removed = 1;
            } else {
                free(S->old[k]); /* still there: nothing to restore */
                S->old[k] = NULL;
            }
    }
    /* Check that the database still loads with the new overlay; undo if not. */
    if (gchanged || lchanged || removed) {
        const char *dirs[17];
        size_t nd = import_layers(cli, dir, is_default, dirs, 17);
        gp_db *db2 = NULL;
        gp_err_clear(&e);
        if (gp_db_open(&db2, 0, dirs, nd, &e) != GP_OK) {
            if (gchanged)
                rollback(gpath, gold);
            if (lchanged)
                rollback(lpath, lold);
            for (k = 0; S != NULL && k < S->n; k++)
                if (S->old[k] != NULL)
                    rollback(S->path[k], S->old[k]);
            fprintf(stderr, "gpuplan calib: import: the overlay does not load; nothing written "
                            "to %s:\n", dir);
            status = gp_cli_fail(cli, &e);
            goto out;
        }
        gp_db_free(db2);
    }
    {
        const char *dirs[17];
        size_t nd = import_layers(cli, dir, is_default, dirs, 17);
        check_in_effect(dirs, nd, dir, gtext != NULL ? gpath : NULL,
                        ltext != NULL ? lpath : NULL, L.g->id, link_id);
    }
    if (cli->json) {
        json_t *o = json_object(), *files = json_array();
        json_object_set_new(o, "gpu", json_string(L.g->id));
        json_object_set_new(o, "device", json_string(L.c->dev.name));
        json_object_set_new(o, "format", json_string(gp_calib_format_name(L.c->format)));
        json_object_set_new(o, "dir", json_string(dir));
        if (gtext != NULL)
            json_array_append_new(files, json_string(gpath));
        if (ltext != NULL)
            json_array_append_new(files, json_string(lpath));
        json_object_set_new(o, "files", files);
        {
            json_t *rm = json_array();
            for (k = 0; S != NULL && k < S->n; k++)
                if (S->old[k] != NULL)
                    json_array_append_new(rm, json_string(S->path[k]));
            json_object_set_new(o, "removed", rm);
        }
        json_object_set_new(o, "link", link_id && ltext ? json_string(link_id) : json_null());
        json_object_set_new(o, "changed", json_boolean(gchanged || lchanged || removed));
        status = gp_cli_emit(o) ? GP_EXIT_FAIL : GP_EXIT_OK;
    } else {
        printf("calibration of '%s' (%s, %s) -> GPU '%s'\n",
               L.c->dev.name[0] ? L.c->dev.name : "(GPUs not named in the file)", file,
               gp_calib_format_name(L.c->format), L.g->id);
        if (gtext != NULL)
            printf("  %s %s\n", gchanged ? "wrote" : "unchanged", gpath);
        else
            printf("  no GPU overlay: %s holds no GPU figures (memory, GEMM, latency, host "
                   "copies)\n", file_kind(L.c));
        if (ltext != NULL)
            printf("  %s %s (link '%s')\n", lchanged ? "wrote" : "unchanged", lpath, link_id);
        for (k = 0; S != NULL && k < S->n; k++)
            if (S->old[k] != NULL)
                printf("  removed %s (an earlier import's figure for link '%s', replaced)\n",
                       S->path[k], link_id);
        if (is_default)
            printf("  gpuplan reads %s as an overlay from now on (before $GPUPLAN_DB and "
                   "--db)\n", dir);
    }
out:
    free(gtext);
    free(ltext);
    free(gold);
    free(lold);
    if (S != NULL) {
        for (k = 0; k < S->n; k++)
            free(S->old[k]);
        free(S);
    }
    gp_calib_free(L.c);
    return status;
}

/* Import FILE into the user's database directory.  Whatever the outcome
 * of a refused or failed import, the directories it created for the
 * overlay are removed again (a refused import left an empty --db DIR). */
static int do_import(gp_cli *cli, const char *file, const char *as, const char *shown,
                     const readopts *ro)
{
    import_dir *T = calloc(1, sizeof *T);
    int status;
    if (T == NULL) {
        fprintf(stderr, "gpuplan calib: out of memory\n");
        return GP_EXIT_FAIL;
    }
    T->cli = cli;
    status = import_into(cli, file, as, shown, ro, T);
    if (status != GP_EXIT_OK)
        unmake_dirs(T);
    free(T);
    return status;
}

/* ---- show ---------------------------------------------------------------------------------- */

typedef struct series_desc {
    gp_calib_kind kind;
    const char *series;
    const char *label;
} series_desc;

static const series_desc k_fits[] = {
    {GP_CALIB_TRANSFER, "h2d-pinned", "h2d pinned"},
    {GP_CALIB_TRANSFER, "d2h-pinned", "d2h pinned"},
    {GP_CALIB_TRANSFER, "h2d-pageable", "h2d pageable"},
    {GP_CALIB_TRANSFER, "d2h-pageable", "d2h pageable"},
    {GP_CALIB_PEER, "uni", "peer uni"},
    {GP_CALIB_PEER, "bidir", "peer bidir"},
    {GP_CALIB_ALLREDUCE, "allreduce", "allreduce (busbw)"},
};

static json_t *jpoint(const gp_calib_point *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(gp_calib_kind_name(p->kind)));
    json_object_set_new(o, "series", json_string(p->series));
    if (p->label[0])
        json_object_set_new(o, "label", json_string(p->label));
    if (p->kind == GP_CALIB_GEMM) {
        json_object_set_new(o, "m", json_integer(p->m));
        json_object_set_new(o, "n", json_integer(p->n));
        json_object_set_new(o, "k", json_integer(p->k));
        json_object_set_new(o, "work_flop", gp_cli_jnum(p->work));
        json_object_set_new(o, "median_flop_per_s", gp_cli_jnum(p->rate_median));
        json_object_set_new(o, "best_flop_per_s", gp_cli_jnum(p->rate_best));
    } else if (p->kind == GP_CALIB_LATENCY) {
        json_object_set_new(o, "working_set_bytes", gp_cli_jnum(p->work));
        json_object_set_new(o, "median_cycles", gp_cli_jnum(p->cycles.median));
    } else {
        json_object_set_new(o, "work_bytes", gp_cli_jnum(p->work));
        json_object_set_new(o, "median_bytes_per_s", gp_cli_jnum(p->rate_median));
        json_object_set_new(o, "best_bytes_per_s", gp_cli_jnum(p->rate_best));
    }
    if (p->kind == GP_CALIB_ALLREDUCE)
        json_object_set_new(o, "gpus", json_integer(p->gpus));
    json_object_set_new(o, "min_s", gp_cli_jnum(p->t.min));
    json_object_set_new(o, "median_s", gp_cli_jnum(p->t.median));
    json_object_set_new(o, "p95_s", gp_cli_jnum(p->t.p95));
    json_object_set_new(o, "cv", gp_cli_jnum(p->t.cv));
    json_object_set_new(o, "trials", json_integer((json_int_t)p->t.n));
    json_object_set_new(o, "line", json_integer(p->line));
    return o;
}

/* A quantity row, left out when the figure was not measured (0); rates
 * to four significant figures (gp_cli_sig_digits: 1.709 TB/s, 232.0 GB/s),
 * a measurement read against a datasheet figure (1.555 TB/s) needing more
 * than "1.6 TB/s". */
static void mrow(const char *label, double v, gp_qty kind, int digits, const char *note)
{
    if (v > 0.0)
        gp_cli_qrow(label, v, kind,
                    kind == GP_Q_RATE || kind == GP_Q_FLOPS ? gp_cli_sig_digits(v, 4) : digits,
                    note);
}

/* The "device" row's note: where and how the file was measured. */
static void device_note(const gp_calib *c, const gp_calib_summary *s, char *out, size_t n)
{
    if (c->format == GP_CALIB_FMT_NCCL_TESTS && c->nodes > 0)
        snprintf(out, n, "%d rank%s on %d node%s (%s%s%s)%s%s", s->allreduce_gpus,
                 s->allreduce_gpus == 1 ? "" : "s", c->nodes, c->nodes == 1 ? "" : "s", c->host,
                 c->nodes > 1 ? ", " : "", c->nodes > 1 ? c->host2 : "",
                 c->algo[0] ? ", NCCL_ALGO=" : "", c->algo);
    else if (c->format == GP_CALIB_FMT_NCCL_TESTS)
        snprintf(out, n, "%d ranks, nodes unknown (the log lists no host per rank)",
                 s->allreduce_gpus);
    else if (c->format == GP_CALIB_FMT_BABELSTREAM)
        snprintf(out, n, "%d device%s (one table each), driver %d", c->dev.gpus,
                 c->dev.gpus == 1 ? "" : "s", c->dev.driver_version);
    else if (c->format == GP_CALIB_FMT_NVBANDWIDTH)
        snprintf(out, n, "%d GPU%s%s%s, driver %s, CUDA driver %d, runtime %d", c->dev.gpus,
                 c->dev.gpus == 1 ? "" : "s", c->host[0] ? " on " : "", c->host,
                 c->dev.nvml_driver[0] ? c->dev.nvml_driver : "?", c->dev.driver_version,
                 c->dev.runtime_version);
    else
        snprintf(out, n, "cc %s, %d SMs, driver %d, runtime %d", c->dev.cc, c->dev.sm_count,
                 c->dev.driver_version, c->dev.runtime_version);
}

/* nvbandwidth: every testcase read, its median over GPUs (or GPU pairs) and
 * range, and what became of it (docs/calibration.md, "nvbandwidth"). */
static void nvbw_rows(const gp_calib *c)
{
    size_t i;
    printf("nvbandwidth testcases (GB/s = 1e9 B/s, as printed; median over GPUs or pairs):\n");
    for (i = 0; i < c->n_pts; i++) {
        const gp_calib_point *p = &c->pts[i];
        char v[32], lo[32], hi[32], note[200];
        const char *use = "shown only";
        /* The printed rate: 1 GB / time; device_local_copy's point counts
         * read + write, nvbandwidth the bytes copied once. */
        double k = p->kind == GP_CALIB_MEMORY ? 0.5 : 1.0;
        if (strcmp(p->series, "h2d-pinned") == 0)
            use = "-> h2d_bandwidth (host link, per direction)";
        else if (strcmp(p->series, "d2h-pinned") == 0)
            use = "-> d2h_bandwidth (host link, per direction)";
        else if (strcmp(p->series, "uni") == 0)
            use = "-> scale-up link bandwidth (per direction)";
        else if (strcmp(p->series, "memcpy-d2d") == 0)
            use = "x2 = DRAM read + write, shown as cudaMemcpy d2d";
        snprintf(v, sizeof v, "%.2f GB/s", k * p->rate_median / 1e9);
        snprintf(lo, sizeof lo, "%.2f", k * p->work / p->t.max / 1e9);
        snprintf(hi, sizeof hi, "%.2f", k * p->rate_best / 1e9);
        snprintf(note, sizeof note, "%d %s, %s .. %s; %s", p->gpus,
                 p->kind == GP_CALIB_PEER ? (p->gpus == 1 ? "pair" : "pairs")
                                          : (p->gpus == 1 ? "GPU" : "GPUs"),
                 lo, hi, use);
        gp_cli_row(p->label, v, note);
    }
}

/* 1 when s contains word, ignoring ASCII case. */
static int contains_icase(const char *s, const char *word)
{
    size_t n = strlen(word), i;
    for (; n > 0 && *s != '\0'; s++) {
        for (i = 0; i < n && s[i] != '\0' &&
                    tolower((unsigned char)s[i]) == tolower((unsigned char)word[i]);
             i++)
            ;
        if (i == n)
            return 1;
    }
    return 0;
}

static int do_show(gp_cli *cli, const char *file, const char *as, const readopts *ro)
{
    loaded L;
    gp_calib_eff eff[64];
    size_t neff = 0, i;
    const gp_link *host = NULL, *peer = NULL;
    const gp_calib_summary *s;
    int rc, p, q, fits_said = 0;
    char buf[64], note[160];

    if ((rc = load(cli, file, as, as != NULL, ro, &L, NULL, NULL)) != GP_EXIT_OK) {
        gp_calib_free(L.c);
        return rc;
    }
    s = &L.s;
    if (L.g != NULL) {
        host = L.g->host_link ? gp_db_find_link(L.db, L.g->host_link) : NULL;
        peer = L.g->scale_up_link ? gp_db_find_link(L.db, L.g->scale_up_link) : host;
        neff = gp_calib_efficiencies(s, L.g, host, peer, eff, 64);
        if (neff > 64)
            neff = 64;
    }
    if (cli->json) {
        json_t *o = json_object(), *dev = json_object(), *sum = json_object();
        json_t *fits = json_array(), *effs = json_array(), *pts = json_array(), *comp;
        json_object_set_new(o, "file", json_string(file));
        json_object_set_new(o, "format", json_string(gp_calib_format_name(L.c->format)));
        json_object_set_new(o, "tool", json_string(L.c->tool));
        json_object_set_new(o, "date", json_string(L.c->date));
        json_object_set_new(o, "host", json_string(L.c->host));
        json_object_set_new(o, "nodes", json_integer(L.c->nodes));
        json_object_set_new(o, "gpus_per_node", json_integer(L.c->gpus_per_node));
        json_object_set_new(o, "nccl_algo", L.c->algo[0] ? json_string(L.c->algo) : json_null());
        {
            json_t *w = json_array();
            for (i = 0; i < L.c->n_warn && i < GP_CALIB_MAX_WARN; i++)
                json_array_append_new(w, json_string(L.c->warn[i]));
            json_object_set_new(o, "warnings", w);
        }
        json_object_set_new(dev, "name", json_string(L.c->dev.name));
        json_object_set_new(dev, "compute_capability", L.c->dev.cc[0] != '\0'
                                                            ? json_string(L.c->dev.cc)
                                                            : json_null());
        json_object_set_new(dev, "sm_count", jcount0(L.c->dev.sm_count));
        json_object_set_new(dev, "clock_sm_hz", jmeas(L.c->dev.clock_sm_hz));
        json_object_set_new(dev, "memory_bytes", jmeas(L.c->dev.memory_bytes));
        json_object_set_new(dev, "l2_bytes", jmeas(L.c->dev.l2_bytes));
        json_object_set_new(dev, "driver_version", jcount0(L.c->dev.driver_version));
        json_object_set_new(dev, "runtime_version", jcount0(L.c->dev.runtime_version));
        json_object_set_new(dev, "pcie_gen", jcount0(L.c->dev.pcie_gen));
        json_object_set_new(dev, "pcie_width", jcount0(L.c->dev.pcie_width));
        json_object_set_new(dev, "pcie_max_gen", jcount0(L.c->dev.pcie_max_gen));
        json_object_set_new(dev, "pcie_max_width", jcount0(L.c->dev.pcie_max_width));
        json_object_set_new(o, "device", dev);
        json_object_set_new(o, "gpu", L.g ? json_string(L.g->id) : json_null());
        json_object_set_new(sum, "mem_bw_bytes_per_s", jmeas(s->mem_bw));
        json_object_set_new(sum, "mem_bw_best_bytes_per_s", jmeas(s->mem_bw_best));
        json_object_set_new(sum, "mem_read_bytes_per_s", jmeas(s->mem_read_bw));
        json_object_set_new(sum, "mem_write_bytes_per_s", jmeas(s->mem_write_bw));
        json_object_set_new(sum, "mem_triad_bytes_per_s", jmeas(s->mem_triad_bw));
        json_object_set_new(sum, "memcpy_d2d_bytes_per_s", jmeas(s->memcpy_d2d_bw));
        json_object_set_new(sum, "l2_bw_bytes_per_s", jmeas(s->l2_bw));
        json_object_set_new(sum, "lat_l1_s", jmeas(s->lat_l1));
        json_object_set_new(sum, "lat_l2_s", jmeas(s->lat_l2));
        json_object_set_new(sum, "lat_dram_s", jmeas(s->lat_dram));
        json_object_set_new(sum, "lat_l1_cycles", jmeas(s->lat_l1_cyc));
        json_object_set_new(sum, "lat_l2_cycles", jmeas(s->lat_l2_cyc));
        json_object_set_new(sum, "lat_dram_cycles", jmeas(s->lat_dram_cyc));
        json_object_set_new(sum, "h2d_bytes_per_s", jmeas(s->h2d_bw));
        json_object_set_new(sum, "d2h_bytes_per_s", jmeas(s->d2h_bw));
        json_object_set_new(sum, "h2d_latency_s", jmeas(s->h2d_lat));
        json_object_set_new(sum, "d2h_latency_s", jmeas(s->d2h_lat));
        json_object_set_new(sum, "h2d_pageable_bytes_per_s", jmeas(s->h2d_pageable_bw));
        json_object_set_new(sum, "d2h_pageable_bytes_per_s", jmeas(s->d2h_pageable_bw));
        json_object_set_new(sum, "peer_bytes_per_s", jmeas(s->peer_bw));
        json_object_set_new(sum, "peer_bidir_bytes_per_s", jmeas(s->peer_bidir_bw));
        json_object_set_new(sum, "peer_latency_s", jmeas(s->peer_lat));
        json_object_set_new(sum, "allreduce_busbw_bytes_per_s", jmeas(s->allreduce_busbw));
        json_object_set_new(sum, "allreduce_latency_s", jmeas(s->allreduce_lat));
        json_object_set_new(sum, "allreduce_gpus", json_integer(s->allreduce_gpus));
        json_object_set_new(sum, "allreduce_fit_min_bytes", gp_cli_jnum(s->allreduce_fit_min_bytes));
        json_object_set_new(sum, "gemm_fp16acc_flop_per_s", jmeas(s->gemm_fp16acc));
        comp = json_object();
        for (p = 0; p < GP_PREC__COUNT; p++)
            for (q = 0; q < GP_PIPE__COUNT; q++)
                if (s->gemm[p][q] > 0.0) {
                    char key[48];
                    snprintf(key, sizeof key, "%s_%s_flop_per_s", gp_precision_name((gp_precision)p),
                             gp_pipeline_name((gp_pipeline)q));
                    json_object_set_new(comp, key, gp_cli_jnum(s->gemm[p][q]));
                }
        json_object_set_new(sum, "gemm", comp);
        json_object_set_new(o, "summary", sum);
        for (i = 0; i < sizeof k_fits / sizeof k_fits[0]; i++) {
            gp_calib_fit f;
            gp_err e;
            json_t *fo;
            gp_err_clear(&e);
            if (gp_calib_fit_series(L.c, k_fits[i].kind, k_fits[i].series, 0, 0, &f, &e) != GP_OK)
                continue;
            const gp_calib_point *top = series_point(L.c, k_fits[i].kind, k_fits[i].series, 1);
            /* No size in the bandwidth regime: beta (and n1/2) are null. */
            int bw = top == NULL || top->work >= GP_CALIB_BW_MIN_BYTES;
            fo = json_object();
            json_object_set_new(fo, "series", json_string(k_fits[i].series));
            json_object_set_new(fo, "kind", json_string(gp_calib_kind_name(k_fits[i].kind)));
            json_object_set_new(fo, "points", json_integer((json_int_t)f.n));
            json_object_set_new(fo, "max_bytes", top ? gp_cli_jnum(top->work) : json_null());
            json_object_set_new(fo, "size_multiplier", gp_cli_jnum(f.c));
            json_object_set_new(fo, "alpha_s", gp_cli_jnum(f.alpha));
            json_object_set_new(fo, "alpha_se_s", gp_cli_jnum(f.alpha_se));
            json_object_set_new(fo, "beta_bytes_per_s", bw ? gp_cli_jnum(f.beta) : json_null());
            json_object_set_new(fo, "beta_se_bytes_per_s",
                                bw ? gp_cli_jnum(f.beta_se) : json_null());
            json_object_set_new(fo, "n_half_bytes", bw ? gp_cli_jnum(f.n_half) : json_null());
            json_object_set_new(fo, "n_half_se_bytes",
                                bw ? gp_cli_jnum(f.n_half_se) : json_null());
            json_object_set_new(fo, "max_rel_resid", gp_cli_jnum(f.max_rel_resid));
            json_array_append_new(fits, fo);
        }
        if (s->allreduce_fit.n > 0 && s->allreduce_fit_min_bytes > 0.0) {
            const gp_calib_fit *f = &s->allreduce_fit;
            json_t *fo = json_object();
            json_object_set_new(fo, "series", json_string("allreduce"));
            json_object_set_new(fo, "kind", json_string("allreduce"));
            json_object_set_new(fo, "min_bytes", gp_cli_jnum(s->allreduce_fit_min_bytes));
            json_object_set_new(fo, "points", json_integer((json_int_t)f->n));
            json_object_set_new(fo, "size_multiplier", gp_cli_jnum(f->c));
            json_object_set_new(fo, "alpha_s", gp_cli_jnum(f->alpha));
            json_object_set_new(fo, "alpha_se_s", gp_cli_jnum(f->alpha_se));
            json_object_set_new(fo, "beta_bytes_per_s", gp_cli_jnum(f->beta));
            json_object_set_new(fo, "beta_se_bytes_per_s", gp_cli_jnum(f->beta_se));
            json_object_set_new(fo, "n_half_bytes", gp_cli_jnum(f->n_half));
            json_object_set_new(fo, "n_half_se_bytes", gp_cli_jnum(f->n_half_se));
            json_object_set_new(fo, "max_rel_resid", gp_cli_jnum(f->max_rel_resid));
            json_array_append_new(fits, fo);
        }
        json_object_set_new(o, "fits", fits);
        for (i = 0; i < neff; i++) {
            json_t *eo = json_object();
            json_object_set_new(eo, "what", json_string(eff[i].what));
            int flops = strstr(eff[i].what, "GEMM") != NULL;
            json_object_set_new(eo, flops ? "measured_flop_per_s" : "measured_bytes_per_s",
                                gp_cli_jnum(eff[i].measured));
            json_object_set_new(eo, flops ? "datasheet_flop_per_s" : "datasheet_bytes_per_s",
                                gp_cli_jnum(eff[i].datasheet));
            json_object_set_new(eo, "efficiency", gp_cli_jnum(eff[i].eff));
            json_object_set_new(eo, "src", eff[i].src ? json_string(eff[i].src) : json_null());
            json_array_append_new(effs, eo);
        }
        json_object_set_new(o, "efficiencies", effs);
        for (i = 0; i < L.c->n_pts; i++)
            json_array_append_new(pts, jpoint(&L.c->pts[i]));
        json_object_set_new(o, "points", pts);
        rc = gp_cli_emit(o) ? GP_EXIT_FAIL : GP_EXIT_OK;
        gp_calib_free(L.c);
        return rc;
    }

    {
        /* The format, unless the tool's name says it: "(nccl-tests,
         * rccl-tests 2.13)" but "(nvbandwidth v0.10.0, ...)", never
         * "(nccl-tests, nccl-tests, ...)". */
        const char *fmt = gp_calib_format_name(L.c->format);
        const char *date = L.c->date[0] ? L.c->date : "no date";
        if (L.c->tool[0] == '\0' || contains_icase(L.c->tool, fmt))
            printf("calibration %s (%s, %s)\n", file, L.c->tool[0] ? L.c->tool : fmt, date);
        else
            printf("calibration %s (%s, %s, %s)\n", file, fmt, L.c->tool, date);
    }
    {
        char dnote[400];
        device_note(L.c, s, dnote, sizeof dnote);
        gp_cli_row("device", L.c->dev.name[0] ? L.c->dev.name : "(not named)", dnote);
    }
    gp_cli_row("database GPU", L.g ? L.g->id : "(no match; use --as ID)", NULL);
    if (L.c->dev.pcie_gen > 0) {
        snprintf(buf, sizeof buf, "gen %d x%d", L.c->dev.pcie_gen, L.c->dev.pcie_width);
        snprintf(note, sizeof note, "max gen %d x%d%s", L.c->dev.pcie_max_gen,
                 L.c->dev.pcie_max_width,
                 (L.c->dev.pcie_gen < L.c->dev.pcie_max_gen ||
                  L.c->dev.pcie_width < L.c->dev.pcie_max_width)
                     ? "  DOWN-TRAINED (or idle power saving)"
                     : "");
        gp_cli_row("PCIe link", buf, note);
    }
    printf("measured (median of trials; best configuration or shape):\n");
    mrow("memory copy (r+w)", s->mem_bw, GP_Q_RATE, 1,
         L.c->format == GP_CALIB_FMT_BABELSTREAM
             ? "BabelStream Copy, read + write bytes, median over devices"
             : "SM kernel, read + write bytes");
    mrow("memory read", s->mem_read_bw, GP_Q_RATE, 1, NULL);
    mrow("memory write", s->mem_write_bw, GP_Q_RATE, 1, NULL);
    mrow("memory triad", s->mem_triad_bw, GP_Q_RATE, 1, "2 reads + 1 write");
    mrow("cudaMemcpy d2d (r+w)", s->memcpy_d2d_bw, GP_Q_RATE, 1, "copy engine");
    mrow("L2 read", s->l2_bw, GP_Q_RATE, 1, NULL);
    /* BabelStream's other kernels (no overlay field): best over trials' median. */
    for (i = 0; i < L.c->n_pts; i++) {
        const gp_calib_point *pt = &L.c->pts[i];
        if (pt->kind == GP_CALIB_MEMORY &&
            (strcmp(pt->series, "mul") == 0 || strcmp(pt->series, "add") == 0 ||
             strcmp(pt->series, "dot") == 0 || strcmp(pt->series, "nstream") == 0)) {
            char lab[48];
            snprintf(lab, sizeof lab, "memory %s", pt->series);
            snprintf(note, sizeof note, "BabelStream %s, %.0f bytes per pass", pt->label,
                     pt->work);
            mrow(lab, pt->rate_median, GP_Q_RATE, 1, note);
        }
    }
    for (p = 0; p < GP_PREC__COUNT; p++)
        for (q = 0; q < GP_PIPE__COUNT; q++)
            if (s->gemm[p][q] > 0.0) {
                char lab[48];
                snprintf(lab, sizeof lab, "GEMM %s %s", gp_precision_name((gp_precision)p),
                         gp_pipeline_name((gp_pipeline)q));
                mrow(lab, s->gemm[p][q], GP_Q_FLOPS, 1, NULL);
            }
    if (s->gemm_fp16acc > 0.0)
        mrow("GEMM fp16 tensor fp16acc", s->gemm_fp16acc, GP_Q_FLOPS, 1, NULL);
    if (s->lat_l1 > 0.0 || s->lat_l2 > 0.0 || s->lat_dram > 0.0) {
        snprintf(note, sizeof note, "%.0f / %.0f / %.0f cycles", s->lat_l1_cyc, s->lat_l2_cyc,
                 s->lat_dram_cyc);
        snprintf(buf, sizeof buf, "%.1f / %.1f / %.1f ns", s->lat_l1 * 1e9, s->lat_l2 * 1e9,
                 s->lat_dram * 1e9);
        gp_cli_row("latency L1 / L2 / DRAM", buf, note);
    }
    mrow("h2d pinned", s->h2d_bw, GP_Q_RATE, 2, NULL);
    mrow("d2h pinned", s->d2h_bw, GP_Q_RATE, 2, NULL);
    mrow("h2d pageable", s->h2d_pageable_bw, GP_Q_RATE, 2, NULL);
    mrow("d2h pageable", s->d2h_pageable_bw, GP_Q_RATE, 2, NULL);
    mrow("peer uni", s->peer_bw, GP_Q_RATE, 1, NULL);
    mrow("peer bidir (sum)", s->peer_bidir_bw, GP_Q_RATE, 1, NULL);
    mrow("peer latency", s->peer_lat, GP_Q_DURATION, 2, NULL);
    if (s->allreduce_busbw > 0.0) {
        snprintf(note, sizeof note, "%d GPUs, busbw = 2(n-1)/n S / t, %s", s->allreduce_gpus,
                 s->allreduce_fit.n == 0            ? "best size"
                 : s->allreduce_fit_min_bytes > 0.0 ? "fit beta, S >= 64 MiB"
                                                    : "fit beta");
        mrow("allreduce busbw", s->allreduce_busbw, GP_Q_RATE, 1, note);
    }
    mrow("allreduce latency", s->allreduce_lat, GP_Q_DURATION, 2,
         s->allreduce_fit.n > 0 && s->allreduce_fit_min_bytes == 0.0
             ? "fit alpha"
             : "median time of the smallest size");
    /* A sweep whose sizes all stay below the bandwidth regime measures a
     * latency, not a bandwidth: said, not given a figure. */
    for (i = 0; i < sizeof k_sweeps / sizeof k_sweeps[0]; i++) {
        const gp_calib_point *top = latency_only(L.c, &k_sweeps[i]);
        if (top == NULL)
            continue;
        snprintf(note, sizeof note, "largest size %.15g B (line %u) < %.0f MiB: a latency sweep",
                 top->work, top->line, GP_CALIB_BW_MIN_BYTES / 1048576.0);
        gp_cli_row(k_sweeps[i].label, "not measured", note);
    }
    if (L.c->format == GP_CALIB_FMT_NVBANDWIDTH)
        nvbw_rows(L.c);
    /* The section's title with its first row: none when nothing fits
     * (BabelStream, nvbandwidth: one size a test). */
#define FITS_TITLE()                                                                               \
    do {                                                                                           \
        if (!fits_said++)                                                                          \
            printf("alpha-beta fits, t(S) = alpha + c S / beta (weights 1/t^2):\n");              \
    } while (0)
    for (i = 0; i < sizeof k_fits / sizeof k_fits[0]; i++) {
        gp_calib_fit f;
        gp_err e;
        char a[32], b[32], nh[32], line[160];
        gp_err_clear(&e);
        const gp_calib_point *top;
        if (gp_calib_fit_series(L.c, k_fits[i].kind, k_fits[i].series, 0, 0, &f, &e) != GP_OK)
            continue;
        top = series_point(L.c, k_fits[i].kind, k_fits[i].series, 1);
        gp_format_qty(f.alpha, GP_Q_DURATION, 2, 0, a, sizeof a);
        gp_format_qty(f.beta, GP_Q_RATE, 2, 0, b, sizeof b);
        gp_format_qty(f.n_half, GP_Q_BYTES, 1, 0, nh, sizeof nh);
        snprintf(line, sizeof line, "alpha %s (+-%.1f%%), n1/2 %s, %zu sizes, max resid %.1f%%%s",
                 a, f.alpha > 0 ? 100.0 * f.alpha_se / f.alpha : 0.0, nh, f.n,
                 100.0 * f.max_rel_resid,
                 f.max_rel_resid <= 0.10 ? ""
                 : k_fits[i].kind == GP_CALIB_ALLREDUCE && s->allreduce_fit_min_bytes > 0.0
                     ? " (poor fit: the window below is used)"
                     : " (poor fit: table used)");
        snprintf(note, sizeof note, "%s (+-%.1f%%)", b, f.beta > 0 ? 100.0 * f.beta_se / f.beta : 0.0);
        if (top != NULL && top->work < GP_CALIB_BW_MIN_BYTES) {
            /* beta extrapolated from latency-bound sizes: no bandwidth. */
            snprintf(line, sizeof line, "alpha %s (+-%.1f%%), %zu sizes <= %.15g B: beta not "
                                        "measured (no size >= %.0f MiB)",
                     a, f.alpha > 0 ? 100.0 * f.alpha_se / f.alpha : 0.0, f.n, top->work,
                     GP_CALIB_BW_MIN_BYTES / 1048576.0);
            snprintf(note, sizeof note, "beta n/a");
        }
        FITS_TITLE();
        gp_cli_row(k_fits[i].label, note, line);
    }
    if (s->allreduce_fit.n > 0 && s->allreduce_fit_min_bytes > 0.0) {
        const gp_calib_fit *f = &s->allreduce_fit;
        char a[32], b[32], nh[32], line[160], lab[48];
        gp_format_qty(f->alpha, GP_Q_DURATION, 2, 0, a, sizeof a);
        gp_format_qty(f->beta, GP_Q_RATE, 2, 0, b, sizeof b);
        gp_format_qty(f->n_half, GP_Q_BYTES, 1, 0, nh, sizeof nh);
        snprintf(lab, sizeof lab, "allreduce, S >= %.0f MiB", s->allreduce_fit_min_bytes / 1048576.0);
        snprintf(line, sizeof line, "alpha %s (+-%.1f%%), n1/2 %s, %zu sizes, max resid %.1f%%", a,
                 f->alpha > 0 ? 100.0 * f->alpha_se / f->alpha : 0.0, nh, f->n,
                 100.0 * f->max_rel_resid);
        snprintf(note, sizeof note, "%s (+-%.1f%%)", b, f->beta > 0 ? 100.0 * f->beta_se / f->beta : 0.0);
        FITS_TITLE();
        gp_cli_row(lab, note, line);
    }
#undef FITS_TITLE
    if (L.c->nodes > 1 && s->allreduce_busbw > 0.0)
        printf("note: %d nodes: the busbw is bounded by the network between them; it is not "
               "compared with (nor imported as) the scale-up link\n", L.c->nodes);
    if (L.g != NULL && neff > 0) { /* no empty section either */
        printf("efficiency vs datasheet (%s):\n", L.g->id);
        for (i = 0; i < neff; i++) {
            char m[32], d[32], v[96];
            gp_qty k = strstr(eff[i].what, "GEMM") ? GP_Q_FLOPS : GP_Q_RATE;
            gp_cli_fmt_sig(eff[i].measured, k, 4, m, sizeof m);
            gp_cli_fmt_sig(eff[i].datasheet, k, 4, d, sizeof d);
            if (gp_meas_below_floor(eff[i].measured, eff[i].datasheet)) /* import refuses it */
                snprintf(v, sizeof v, "%.2g%% BELOW %g%%", 100.0 * eff[i].eff,
                         100.0 * GP_MEAS_FLOOR_MIN);
            else
                snprintf(v, sizeof v, "%.1f%%", 100.0 * eff[i].eff);
            snprintf(note, sizeof note, "%s / %s  [%s]", m, d, eff[i].src ? eff[i].src : "?");
            gp_cli_row(eff[i].what, v, note);
        }
    }
    gp_calib_free(L.c);
    return GP_EXIT_OK;
}

/* ---- run ------------------------------------------------------------------------------------- */

/* A regular file this process may execute (a directory passes X_OK too). */
static int is_exe(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static int find_probe(const char *given, char *out, size_t n)
{
    char self[PATH_MAX];
    ssize_t k;
    const char *path;
    if (given != NULL) {
        snprintf(out, n, "%s", given);
        return is_exe(out);
    }
    k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k > 0) {
        char *slash;
        self[k] = '\0';
        slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
            if ((size_t)snprintf(out, n, "%s/gpuplan-probe", self) < n && is_exe(out))
                return 1;
        }
    }
    path = getenv("PATH");
    while (path != NULL && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if (len > 0 && (size_t)snprintf(out, n, "%.*s/gpuplan-probe", (int)len, path) < n &&
            is_exe(out))
            return 1;
        path = colon ? colon + 1 : NULL;
    }
    return 0;
}

/* Where `calib run -o` will keep the probe's file, checked before the probe
 * runs (~75 s on a GPU): not a directory, in a directory that exists and
 * this process may write (the probe writes a temp file there and renames
 * it).  GP_EXIT_OK or GP_EXIT_USAGE with the reason. */
static int check_outfile(gp_cli *cli, const char *given)
{
    const char *path = given != NULL ? given : "gpuplan-calib.yaml";
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return gp_cli_usage(cli, "option '-o': '%s' is a directory; give the measurement "
                                 "file's name (e.g. %s%sgpuplan-calib.yaml)",
                            path, path, path[strlen(path) - 1] == '/' ? "" : "/");
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) >= sizeof dir)
        return gp_cli_usage(cli, "option '-o': '%.80s...' is too long a path", path);
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) != 0)
        return gp_cli_usage(cli, "option '-o'%s: '%s': directory '%s' %s",
                            given ? "" : " (default)", path, dir,
                            errno == ENOENT ? "does not exist" : strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return gp_cli_usage(cli, "option '-o'%s: '%s': '%s' is not a directory",
                            given ? "" : " (default)", path, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return gp_cli_usage(cli, "option '-o'%s: '%s': directory '%s' is not writable (%s)",
                            given ? "" : " (default)", path, dir, strerror(errno));
    return GP_EXIT_OK;
}

static int do_run(gp_cli *cli, const char *probe, const char *as, const char *outfile, int quick,
                  const char *only, const char *device)
{
    char exe[PATH_MAX];
    const char *argv[12];
    int n = 0, st = 0;
    pid_t pid;
    if (!find_probe(probe, exe, sizeof exe)) {
        if (probe != NULL) {
            /* A path the user gave: bad input, exit 2. */
            fprintf(stderr, "gpuplan calib: option '--probe': '%s' is not an executable\n", probe);
            return GP_EXIT_USAGE;
        }
        fprintf(stderr,
                "gpuplan calib: gpuplan-probe is not installed (looked next to gpuplan and in "
                "$PATH); build it with 'make calib' (needs nvcc and a CUDA toolkit), then "
                "'make install' or pass --probe PATH\n");
        return GP_EXIT_FAIL;
    }
    argv[n++] = exe;
    argv[n++] = "-o";
    argv[n++] = outfile;
    if (quick)
        argv[n++] = "--quick";
    if (only != NULL) {
        argv[n++] = "--only";
        argv[n++] = only;
    }
    if (device != NULL) {
        argv[n++] = "--device";
        argv[n++] = device;
    }
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "gpuplan calib: cannot start %s: %s\n", exe, strerror(errno));
        return GP_EXIT_FAIL;
    }
    if (pid == 0) {
        /* stdout of the probe goes to stderr so --json output stays clean. */
        dup2(2, 1);
        execv(exe, (char *const *)(void *)argv);
        fprintf(stderr, "gpuplan calib: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "gpuplan calib: waiting for %s: %s\n", exe, strerror(errno));
            return GP_EXIT_FAIL;
        }
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "gpuplan calib: %s failed (%s %d); nothing imported\n", exe,
                WIFEXITED(st) ? "exit status" : "signal",
                WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? WTERMSIG(st) : -1);
        return GP_EXIT_FAIL;
    }
    return do_import(cli, outfile, as, base_name(outfile), NULL);
}

/* ---- entry ----------------------------------------------------------------------------------- */

static int run_calib(gp_cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {{"as", required_argument, NULL, 'a'},
                                         {"probe", required_argument, NULL, 'p'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"quick", no_argument, NULL, 'q'},
                                         {"only", required_argument, NULL, 'O'},
                                         {"device", required_argument, NULL, 'd'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"date", required_argument, NULL, 'D'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *sub, *as = NULL, *probe = NULL, *outfile = NULL, *only = NULL, *device = NULL;
    const char *file = NULL, *format = NULL;
    readopts ro = {GP_CALIB_FMT_AUTO, NULL};
    int c, quick = 0, i;

    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return GP_EXIT_OK;
        }
    if (argc < 2)
        return gp_cli_usage(cli, "missing subcommand (import, show or run)");
    sub = argv[1];
    if (strcmp(sub, "import") != 0 && strcmp(sub, "show") != 0 && strcmp(sub, "run") != 0)
        return gp_cli_usage(cli, "unknown subcommand '%s' (import, show or run)", sub);
    argc--;
    argv++;
    while ((c = gp_cli_getopt(cli, argc, argv, ":o:h", opts)) != -1) {
        switch (c) {
        case 'a':
            as = optarg;
            break;
        case 'p':
            probe = optarg;
            break;
        case 'o':
            outfile = optarg;
            break;
        case 'q':
            quick = 1;
            break;
        case 'O':
            only = optarg;
            break;
        case 'd':
            device = optarg;
            break;
        case 'f':
            format = optarg;
            break;
        case 'D':
            ro.date = optarg;
            break;
        case GP_CLI_OPT_REPEAT: return GP_EXIT_USAGE;
        case ':':
            return gp_cli_usage(cli, "option '%s' needs a value", argv[optind - 1]);
        default:
            return gp_cli_usage(cli, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (as != NULL && as[0] == '\0')
        return gp_cli_usage(cli, "option '--as' needs a GPU id, got ''");
    if (format != NULL) {
        gp_err e;
        gp_err_clear(&e);
        if (gp_calib_format_parse(format, &ro.fmt, &e) != GP_OK)
            return gp_cli_usage(cli, "option '--format': unknown format '%s' (auto, probe, "
                                     "nccl-tests, rccl-tests, babelstream or nvbandwidth)", format);
    }
    if (ro.date != NULL && !gp_calib_date_ok(ro.date))
        return gp_cli_usage(cli, "option '--date': '%s' is not a date (YYYY-MM-DD, or "
                                 "YYYY-MM-DDTHH:MM:SSZ)", ro.date);
    if (strcmp(sub, "run") == 0 && (format != NULL || ro.date != NULL))
        return gp_cli_usage(cli, "options --format and --date belong to 'calib import' and "
                                 "'calib show'");
    if (strcmp(sub, "run") == 0) {
        if (optind < argc)
            return gp_cli_usage(cli, "'calib run' takes no file argument, got '%s'", argv[optind]);
        if (outfile != NULL && outfile[0] == '\0')
            return gp_cli_usage(cli, "option '-o' needs a file name (got '')");
        if (check_outfile(cli, outfile) != GP_EXIT_OK)
            return GP_EXIT_USAGE;
        return do_run(cli, probe, as, outfile ? outfile : "gpuplan-calib.yaml", quick, only,
                      device);
    }
    if (probe != NULL || outfile != NULL || quick || only != NULL || device != NULL)
        return gp_cli_usage(cli, "options --probe, -o, --quick, --only and --device belong to "
                                 "'calib run'");
    if (optind >= argc)
        return gp_cli_usage(cli, "'calib %s' needs a measurement FILE", sub);
    file = argv[optind];
    if (file[0] == '\0')
        return gp_cli_usage(cli, "'calib %s' needs a measurement FILE (got '')", sub);
    if (optind + 1 < argc)
        return gp_cli_usage(cli, "unexpected argument '%s'", argv[optind + 1]);
    if (strcmp(sub, "import") == 0)
        return do_import(cli, file, as, base_name(file), &ro);
    return do_show(cli, file, as, &ro);
}

const gp_cli_command gp_cli_cmd_calib = {
    "calib", "measure a GPU (gpuplan-probe) and import the figures as an overlay", run_calib, 0};
