/* Roofline charts: a generated gnuplot script, piped to gnuplot (fork + exec,
 * found on $PATH), writing a temporary file that is renamed into place. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "roofplot.h"

static int find_in_path(const char *prog, char *out, size_t n)
{
    const char *path = getenv("PATH");
    const char *p;
    if (path == NULL)
        path = "/usr/bin:/bin";
    for (p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        int w;
        /* An empty entry means the current directory. */
        if (len == 0)
            w = snprintf(out, n, "./%s", prog);
        else
            w = snprintf(out, n, "%.*s/%s", (int)len, p, prog);
        if (w > 0 && (size_t)w < n && access(out, X_OK) == 0) {
            struct stat st;
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
                return 1;
        }
        if (end == NULL)
            break;
        p = end;
    }
    out[0] = '\0';
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

int gp_cli_plot_prepare(const gp_cli *cli, const char *path, const char *size,
                        gp_cli_plot *out)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    out->width = 800;
    out->height = 600;
    if (path == NULL || path[0] == '\0')
        return gp_cli_usage(cli, "option '--plot' needs a file name ending in .png or .svg");
    if (ends_with(path, ".png"))
        out->svg = 0;
    else if (ends_with(path, ".svg"))
        out->svg = 1;
    else
        return gp_cli_usage(cli, "--plot: unknown file type '%s' (use .png or .svg)", path);
    if (size != NULL) {
        char *end;
        long w, h;
        errno = 0;
        w = strtol(size, &end, 10);
        if (end == size || (*end != 'x' && *end != 'X') || errno != 0)
            return gp_cli_usage(cli, "--plot-size: '%s' is not WIDTHxHEIGHT (e.g. 640x480)",
                                size);
        h = strtol(end + 1, &end, 10);
        if (*end != '\0' || errno != 0 || w < 16 || h < 16 || w > 10000 || h > 10000)
            return gp_cli_usage(cli,
                                "--plot-size: '%s' must be WIDTHxHEIGHT, each 16..10000 pixels",
                                size);
        out->width = (int)w;
        out->height = (int)h;
    }
    if (!find_in_path("gnuplot", out->gnuplot, sizeof out->gnuplot)) {
        fprintf(stderr,
                "gpuplan %s: --plot needs gnuplot, which is not on $PATH; install it "
                "(Debian/Ubuntu: apt-get install gnuplot-nox) or drop --plot\n",
                cli != NULL && cli->cmd != NULL ? cli->cmd : "roofline");
        return GP_EXIT_USAGE;
    }
    return 0;
}

/* Copy s into buf for a gnuplot double-quoted string: quotes, backslashes
 * and control characters become '_'. */
static const char *gq(const char *s, char *buf, size_t n)
{
    size_t i = 0;
    if (s == NULL)
        s = "";
    for (; *s != '\0' && i + 1 < n; s++)
        buf[i++] = (*s == '"' || *s == '\\' || *s == '@' || *s == '^' || *s == '_' ||
                    *s == '{' || *s == '}' || (unsigned char)*s < 32)
                       ? ' '
                       : *s;
    buf[i] = '\0';
    return buf;
}

/* Write s as a gnuplot single-quoted string (a quote is doubled). */
static void put_sq(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s != '\0'; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

static double pow10_floor(double v)
{
    return pow(10.0, floor(log10(v)));
}

static double pow10_ceil(double v)
{
    return pow(10.0, ceil(log10(v)));
}

/* A rate into buf to 3 significant digits (gp_cli_sig_digits), OP/s for
 * the integer precisions (their peaks are operations, not FLOPs). */
static const char *rate_label(double v, gp_qty kind, int integer, char *buf, size_t n)
{
    char *fl;
    gp_cli_fmt_sig(v, kind, 3, buf, n);
    if (integer && (fl = strstr(buf, "FLOP/s")) != NULL)
        memmove(fl, fl + 2, strlen(fl + 2) + 1);
    return buf;
}

static void write_script(FILE *f, const gp_cli_plot *pl, const char *tmp, const gp_gpu *g,
                         const gp_roofline *r, const char *label)
{
    static const char *const dash[GP_ROOF__COUNT] = {"2", "1", "3", "4"};
    /* One colour per precision roof: gnuplot's default cycle repeats after
     * 8, so an H100's fp8 roof took fp64's colour.  None black or gray (the
     * selected roof, the link roofs) or red (the kernel). */
    static const char *const colour[] = {
        "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#bcbd22", "#393b79", "#637939", "#8c6d31", "#7b4173",
        "#3182bd", "#e6550d", "#31a354", "#756bb1", "#a55194", "#6baed6",
    };
    char b1[256], b2[256], qb[64];
    double xlo = r->intensity, xhi = r->intensity, ylo, yhi = r->peak, bw_min = r->bw;
    double bdev = r->roofs[GP_ROOF_DEVICE].bw;
    int p, pipe, lt = 0, i, first = 1;

    /* Ranges: a decade around every ridge and the kernel. */
    for (p = 0; p < GP_PREC__COUNT; p++)
        for (pipe = 0; pipe < GP_PIPE__COUNT; pipe++) {
            double pk = gp_gpu_peak(g, (gp_precision)p, (gp_pipeline)pipe, GP_ACC_FP32, 0);
            if (pk > 0.0 && bdev > 0.0) {
                xlo = fmin(xlo, pk / bdev);
                xhi = fmax(xhi, pk / bdev);
                yhi = fmax(yhi, pk);
            }
        }
    for (i = 0; i < GP_ROOF__COUNT; i++)
        if (r->roofs[i].known) {
            xlo = fmin(xlo, r->peak / r->roofs[i].bw);
            xhi = fmax(xhi, r->peak / r->roofs[i].bw);
            bw_min = fmin(bw_min, r->roofs[i].bw);
        }
    xlo = pow10_floor(xlo / 10.0);
    xhi = pow10_ceil(xhi * 10.0);
    ylo = pow10_floor(fmin(r->attainable, xlo * bw_min));
    yhi = pow10_ceil(yhi * 2.0);

    fprintf(f, "set encoding utf8\n");
    if (pl->svg)
        fprintf(f, "set terminal svg size %d,%d fixed font 'sans,11'\n", pl->width,
                pl->height);
    else
        fprintf(f,
                "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
                "{ set terminal pngcairo size %d,%d font 'sans,9' } "
                "else { set terminal png size %d,%d }\n",
                pl->width, pl->height, pl->width, pl->height);
    fprintf(f, "set termoption noenhanced\nset output ");
    put_sq(f, tmp);
    fprintf(f, "\nset logscale xy\nset grid\nset samples 800\nset key bottom right font ',8'\n");
    fprintf(f, "set format x '%%g'\nset format y '%%.0s%%c'\n");
    fprintf(f, "set xlabel \"arithmetic intensity (FLOP/byte)\"\n");
    fprintf(f, "set ylabel \"attainable FLOP/s\"\n");
    fprintf(f, "set title \"Roofline: %s\"\n", gq(g->name != NULL ? g->name : g->id, b1, sizeof b1));
    fprintf(f, "set xrange [%g:%g]\nset yrange [%g:%g]\n", xlo, xhi, ylo, yhi);
    fprintf(f, "roof(x, P, B) = (x * B < P) ? x * B : P\n");
    /* The kernel's point and label. */
    fprintf(f, "set label 1 \"%s  I=%.3g FLOP/B\" at %.17g,%.17g offset 1,1 front\n",
            gq(label, b2, sizeof b2), r->intensity, r->intensity, r->attainable);
    fprintf(f, "plot ");
    /* Every precision's roof over device memory; the selected one thick. */
    for (p = 0; p < GP_PREC__COUNT && bdev > 0.0; p++)
        for (pipe = 0; pipe < GP_PIPE__COUNT; pipe++) {
            double pk = gp_gpu_peak(g, (gp_precision)p, (gp_pipeline)pipe, GP_ACC_FP32, 0);
            if (pk <= 0.0)
                continue;
            fprintf(f, "%sroof(x, %.17g, %.17g) lw 1 lc rgb '%s' dt 1 title \"%s %s %s\"",
                    first ? "" : ", \\\n     ", pk, bdev,
                    colour[(size_t)lt++ % (sizeof colour / sizeof colour[0])],
                    gp_precision_name((gp_precision)p), gp_pipeline_name((gp_pipeline)pipe),
                    rate_label(pk, GP_Q_FLOPS, p == GP_INT8 || p == GP_INT4, qb, sizeof qb));
            first = 0;
        }
    /* The selected configuration (accumulate / sparsity as asked), thick. */
    fprintf(f,
            "%sroof(x, %.17g, %.17g) lw 3 lc rgb 'black' title \"selected: %s %s%s%s, device %s\"",
            first ? "" : ", \\\n     ", r->peak, r->roofs[GP_ROOF_DEVICE].known ? bdev : r->bw,
            gp_precision_name(r->precision), gp_pipeline_name(r->pipeline),
            r->sparse ? " sparse" : "", r->accum == GP_ACC_FP16 ? " fp16-acc" : "",
            rate_label(bdev, GP_Q_RATE, 0, qb, sizeof qb));
    /* The other memory roofs at the selected peak. */
    for (i = 0; i < GP_ROOF__COUNT; i++) {
        const gp_roof *f_ = &r->roofs[i];
        if (!f_->known || i == GP_ROOF_DEVICE)
            continue;
        /* A GPU without a scale-up link reaches its peers over the host
         * link: one line is enough unless the peer roof is the one used. */
        if (i == GP_ROOF_PEER && !f_->on_path && r->roofs[GP_ROOF_HOST].known &&
            f_->bw == r->roofs[GP_ROOF_HOST].bw)
            continue;
        fprintf(f, ", \\\n     roof(x, %.17g, %.17g) lw 2 lc rgb 'gray40' dt %s title \"%s %s%s\"",
                r->peak, f_->bw, dash[i], gp_roof_level_name((gp_roof_level)i),
                rate_label(f_->bw, GP_Q_RATE, 0, qb, sizeof qb),
                (gp_roof_level)i == r->binding_roof ? " (binds)" : "");
    }
    fprintf(f, ", \\\n     '-' using 1:2 with points pt 7 ps 1.6 lc rgb 'red' title \"%s\"\n",
            gq(label, b2, sizeof b2));
    fprintf(f, "%.17g %.17g\ne\n", r->intensity, r->attainable);
    fprintf(f, "unset output\n");
}

static int make_tmp(const char *path, char *tmp, size_t n)
{
    const char *slash = strrchr(path, '/');
    int w, fd;
    if (slash == NULL)
        w = snprintf(tmp, n, ".gpuplan-plot-XXXXXX");
    else
        w = snprintf(tmp, n, "%.*s/.gpuplan-plot-XXXXXX", (int)(slash - path), path);
    if (w < 0 || (size_t)w >= n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

int gp_cli_plot_write(const gp_cli *cli, const gp_cli_plot *pl, const gp_gpu *g,
                      const gp_roofline *r, const char *label)
{
    const char *cmd = cli != NULL && cli->cmd != NULL ? cli->cmd : "roofline";
    char tmp[4096];
    int fds[2], st = 0, rc = 0;
    pid_t pid;
    FILE *f;
    struct stat sb;
    void (*old)(int);

    if (make_tmp(pl->path, tmp, sizeof tmp) != 0) {
        fprintf(stderr, "gpuplan %s: --plot: cannot create a file beside '%s': %s\n", cmd,
                pl->path, strerror(errno));
        return GP_EXIT_USAGE;
    }
    if (pipe(fds) != 0) {
        fprintf(stderr, "gpuplan %s: --plot: pipe: %s\n", cmd, strerror(errno));
        unlink(tmp);
        return GP_EXIT_FAIL;
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "gpuplan %s: --plot: fork: %s\n", cmd, strerror(errno));
        close(fds[0]);
        close(fds[1]);
        unlink(tmp);
        return GP_EXIT_FAIL;
    }
    if (pid == 0) {
        char *const argv[] = {(char *)(size_t) "gnuplot", NULL};
        dup2(fds[0], 0);
        dup2(2, 1); /* keep our stdout (JSON) clean */
        close(fds[0]);
        close(fds[1]);
        execv(pl->gnuplot, argv);
        _exit(127);
    }
    close(fds[0]);
    old = signal(SIGPIPE, SIG_IGN);
    f = fdopen(fds[1], "w");
    if (f == NULL) {
        close(fds[1]);
        rc = 1;
    } else {
        write_script(f, pl, tmp, g, r, label);
        if (fclose(f) != 0)
            rc = 1;
    }
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    signal(SIGPIPE, old);
    if (rc != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || stat(tmp, &sb) != 0 ||
        sb.st_size == 0) {
        fprintf(stderr, "gpuplan %s: --plot: gnuplot (%s) failed to draw '%s'%s\n", cmd,
                pl->gnuplot, pl->path,
                WIFEXITED(st) && WEXITSTATUS(st) == 127 ? " (could not run it)" : "");
        unlink(tmp);
        return GP_EXIT_FAIL;
    }
    /* mkstemp made it 0600; give it the mode a new file would get. */
    {
        mode_t mask = umask(0);
        umask(mask);
        chmod(tmp, 0666 & ~mask);
    }
    if (rename(tmp, pl->path) != 0) {
        fprintf(stderr, "gpuplan %s: --plot: cannot rename into '%s': %s\n", cmd, pl->path,
                strerror(errno));
        unlink(tmp);
        return GP_EXIT_USAGE;
    }
    return 0;
}
