/* Shared CLI helpers: database loading, error and usage messages, option
 * quantities, JSON and table output. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"

static const char *cmd_name(const gp_cli *cli);

const gp_db *gp_cli_db(gp_cli *cli)
{
    gp_err e;
    if (cli->db != NULL)
        return cli->db;
    gp_err_clear(&e);
    if (gp_db_open(&cli->db, 0, cli->db_dirs, cli->n_db, &e) != GP_OK) {
        gp_cli_fail(cli, &e);
        return NULL;
    }
    return cli->db;
}

int gp_cli_fail(const gp_cli *cli, const gp_err *e)
{
    char buf[1024];
    gp_err_format(e, buf, sizeof buf);
    if (cli != NULL && cli->cmd != NULL)
        fprintf(stderr, "gpuplan %s: %s\n", cli->cmd, buf);
    else
        fprintf(stderr, "gpuplan: %s\n", buf);
    /* Out of memory is not the user's input: status 1 (docs/bad-input.md). */
    return e != NULL && e->code == GP_ENOMEM ? GP_EXIT_FAIL : GP_EXIT_USAGE;
}

int gp_cli_usage(const gp_cli *cli, const char *fmt, ...)
{
    va_list ap;
    const char *cmd = cli != NULL && cli->cmd != NULL ? cli->cmd : NULL;
    fprintf(stderr, "gpuplan%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "; try 'gpuplan %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
    return GP_EXIT_USAGE;
}

int gp_cli_attention(const gp_cli *cli, const char *arg, int *unfused)
{
    if (strcmp(arg, "flash") == 0)
        *unfused = 0;
    else if (strcmp(arg, "unfused") == 0)
        *unfused = 1;
    else
        return gp_cli_usage(cli, "option '--attention': unknown '%s' (known: flash unfused)",
                            arg);
    return 0;
}

int gp_cli_qty(const gp_cli *cli, const char *opt, const char *arg, gp_qty kind,
               double *out)
{
    gp_err e;
    gp_err_clear(&e);
    if (gp_parse_qty(arg, kind, opt, out, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    return 0;
}

int gp_cli_fraction(const gp_cli *cli, const char *opt, const char *arg, double lo, double *out)
{
    if (gp_cli_qty(cli, opt, arg, GP_Q_FRACTION, out))
        return GP_EXIT_USAGE;
    if (!(*out >= lo && *out <= 1.0))
        return gp_cli_usage(cli, "'%s' must lie in [%g, 1] (got '%s')", opt, lo, arg);
    return 0;
}

int gp_cli_msg_bytes(const gp_cli *cli, const char *opt, const char *arg, double *out)
{
    if (gp_cli_qty(cli, opt, arg, GP_Q_BYTES, out))
        return GP_EXIT_USAGE;
    if (*out != floor(*out))
        return gp_cli_usage(cli, "option '%s' must be a whole number of bytes (got '%s' = %g B; "
                                 "in a size B is a byte: a billion bytes is 1GB)",
                            opt, arg, *out);
    return 0;
}

int gp_cli_rate(const gp_cli *cli, const char *opt, const char *arg, double *out)
{
    if (gp_cli_qty(cli, opt, arg, GP_Q_RATE, out))
        return GP_EXIT_USAGE;
    if (!(*out >= GP_LINK_RATE_MIN && *out <= GP_RATE_MAX))
        return gp_cli_usage(cli, "option '%s' must be a rate in [1 kB/s, 1 PB/s], the "
                                 "database's range for link rates (got '%s')", opt, arg);
    return 0;
}

int gp_cli_int(const gp_cli *cli, const char *opt, const char *arg, long min,
               long *out)
{
    gp_err e;
    gp_err_clear(&e);
    if (gp_parse_int(arg, min, opt, out, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    return 0;
}

void gp_cli_getopt_reset(void)
{
    optind = 0; /* glibc: full re-initialisation (also clears a half-parsed cluster) */
    opterr = 0;
}

/* The word that named long option o, when it named it by a prefix of its
 * name: getopt_long takes any unique prefix ('--micro-batch' for scale's
 * '--micro-batches', '--n' for '--nics-per-node'), and gpuplan's commands
 * share option names that mean different things, so a prefix would silently
 * become another option.  The word is argv[optind - 1], or the one before
 * when the value was the next word. */
static const char *abbreviation(int argc, char **argv, const struct option *o)
{
    int i = optind - 1;
    const char *t, *eq;
    size_t n;
    if (o->has_arg != no_argument && optarg != NULL && i >= 1 && i < argc && argv[i] == optarg)
        i--;
    if (i < 1 || i >= argc || strncmp(argv[i], "--", 2) != 0)
        return NULL;
    t = argv[i] + 2;
    eq = strchr(t, '=');
    n = eq != NULL ? (size_t)(eq - t) : strlen(t);
    return n == strlen(o->name) && strncmp(t, o->name, n) == 0 ? NULL : argv[i];
}

int gp_cli_getopt(gp_cli *cli, int argc, char **argv, const char *optstring,
                  const struct option *opts)
{
    int li = -1, c;
    const char *v, *abbr;
    if (optind == 0) /* the first call after gp_cli_getopt_reset: a new table */
        memset(cli->opt_seen, 0, sizeof cli->opt_seen);
    c = getopt_long(argc, argv, optstring, opts, &li);
    if (c == -1 || c == '?' || c == ':')
        return c;
    if (li >= 0 && (abbr = abbreviation(argc, argv, &opts[li])) != NULL) {
        size_t n = strcspn(abbr, "=");
        gp_cli_usage(cli, "unknown option '%.*s' (did you mean '--%s'? options are not abbreviated)",
                     (int)n, abbr, opts[li].name);
        return GP_CLI_OPT_REPEAT;
    }
    if (optarg == NULL)
        return c;
    if (li < 0) /* a short option: its long twin */
        for (li = 0; opts[li].name != NULL && opts[li].val != c; li++)
            ;
    if (li >= GP_CLI_MAX_OPTS || opts[li].name == NULL)
        return c;
    v = cli->opt_value[li];
    if (cli->opt_seen[li] && strcmp(v, optarg) != 0) {
        gp_cli_usage(cli, "option '--%s' given twice ('%s', then '%s'): give it once",
                     opts[li].name, v, optarg);
        return GP_CLI_OPT_REPEAT;
    }
    cli->opt_seen[li] = 1;
    cli->opt_value[li] = optarg;
    return c;
}

/* Whether `name` begins `s` up to one of its '-' (case-insensitive): "efa"
 * begins "efa-p4d" and "efa-p5", "ib" "ib-ndr"; not "efav2". */
static int leads(const char *name, const char *s)
{
    size_t n = strlen(name);
    return s != NULL && n > 0 && strncasecmp(s, name, n) == 0 && s[n] == '-';
}

/* 1 when `name` begins the id or an alias of scale-out link l. */
static int leads_link(const char *name, const gp_link *l)
{
    size_t j;
    if (leads(name, l->id))
        return 1;
    for (j = 0; j < l->n_aliases; j++)
        if (leads(name, l->aliases[j]))
            return 1;
    return 0;
}

/* An unknown --scale-out name that begins the names of several links
 * between nodes ("efa": efa-p4d and efa-p5, whose NICs a node and rates
 * differ by instance; "ib", "roce") picks none of them: refused, listing
 * each with its name and the names it goes by that begin the same way.
 * Returns 2 after the message, else 0 (one such link or none). */
static int refuse_family(const gp_cli *cli, const gp_db *db, const char *name)
{
    char list[1536];
    size_t i, j, n = gp_db_count(db, GP_KIND_LINK), off = 0, hits = 0;
    list[0] = '\0';
    for (i = 0; i < n; i++) {
        const gp_link *l = gp_db_link_at(db, i);
        size_t k = 0;
        int w;
        if (l == NULL || l->id == NULL || l->scope != GP_SCOPE_SCALE_OUT || !leads_link(name, l))
            continue;
        hits++;
        if (off >= sizeof list)
            continue; /* counted; the list is full */
        w = snprintf(list + off, sizeof list - off, "%s%s (%s", off ? "; " : "", l->id,
                     l->name != NULL ? l->name : "");
        if (w < 0)
            continue;
        off += (size_t)w;
        for (j = 0; j < l->n_aliases && off < sizeof list; j++) {
            if (!leads(name, l->aliases[j]))
                continue;
            w = snprintf(list + off, sizeof list - off, "%s%s", k++ ? ", " : "; also ",
                         l->aliases[j]);
            if (w < 0)
                break;
            off += (size_t)w;
        }
        if (off < sizeof list)
            off += (size_t)snprintf(list + off, sizeof list - off, ")");
    }
    if (hits < 2)
        return 0;
    fprintf(stderr,
            "gpuplan %s: --scale-out: '%s' names no one link but begins the names of %zu "
            "links between nodes, priced differently: %s; give the id of your nodes' link "
            "('gpuplan hw show ID' shows its figures)\n",
            cmd_name(cli), name, hits, list);
    return GP_EXIT_USAGE;
}

int gp_cli_scale_out(const gp_cli *cli, const gp_db *db, const char *id, const gp_link **out)
{
    char near[256], list[512];
    size_t i, n, off = 0;
    gp_err e;
    gp_err_clear(&e);
    if (gp_db_get_link(db, id, "--scale-out", out, &e) == GP_OK)
        return 0;
    if (e.code == GP_ENOTFOUND && refuse_family(cli, db, id) != 0)
        return GP_EXIT_USAGE;
    /* A near miss keeps the database's "did you mean"; a name nothing like
     * a known one lists the links that join nodes, not all of them. */
    if (e.code != GP_ENOTFOUND || gp_db_suggest(db, GP_KIND_LINK, id, near, sizeof near) > 0)
        return gp_cli_fail(cli, &e);
    list[0] = '\0';
    n = gp_db_count(db, GP_KIND_LINK);
    for (i = 0; i < n; i++) {
        const gp_link *l = gp_db_link_at(db, i);
        size_t len;
        if (l == NULL || l->id == NULL || l->scope != GP_SCOPE_SCALE_OUT)
            continue;
        len = strlen(l->id);
        if (off + len + 2 >= sizeof list)
            break;
        snprintf(list + off, sizeof list - off, "%s%s", off ? " " : "", l->id);
        off += len + (off ? 1 : 0);
    }
    fprintf(stderr,
            "gpuplan %s: --scale-out: unknown link '%s' (links between nodes: %s; 'gpuplan hw "
            "list links' lists all %zu)\n",
            cli != NULL && cli->cmd != NULL ? cli->cmd : "", id, list[0] ? list : "none", n);
    return GP_EXIT_USAGE;
}

int gp_cli_params_floor(const gp_cli *cli, double n)
{
    if (!(n < GP_TRAIN_PARAMS_MIN))
        return 0;
    if (n < 1000.0)
        gp_cli_usage(cli, "'--params': %g parameters is below %g: did you mean %gB (counts take "
                          "K, M, B, T)?",
                     n, GP_TRAIN_PARAMS_MIN, n);
    else
        gp_cli_usage(cli, "'--params': %g parameters is below %g (counts take K, M, B, T: 7B is "
                          "7e9)",
                     n, GP_TRAIN_PARAMS_MIN);
    return 1;
}

json_t *gp_cli_jnum(double v)
{
    if (!isfinite(v))
        return json_null();
    return json_real(v);
}

json_t *gp_cli_jcount(double v)
{
    if (isfinite(v) && v == floor(v) && fabs(v) <= 9007199254740992.0) /* 2^53 */
        return json_integer((json_int_t)v);
    return gp_cli_jnum(v);
}

const char *gp_cli_csvnum(double v, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    if (isfinite(v))
        snprintf(buf, n, GP_CLI_G, v);
    else
        buf[0] = '\0';
    return buf;
}

static const char *cmd_name(const gp_cli *cli)
{
    return cli != NULL && cli->cmd != NULL ? cli->cmd : "gpuplan";
}

static void print_note(const gp_cli *cli, const char *level, const char *msg)
{
    fprintf(stderr, "gpuplan %s: %s: %s\n", cmd_name(cli), level, msg);
}

void gp_cli_note(const gp_cli *cli, const char *level, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    json_t *o;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (level == NULL)
        level = "note";
    if (cli == NULL || cli->notes == NULL) {
        print_note(cli, level, msg);
        return;
    }
    o = json_pack("{s:s, s:s}", "level", level, "message", msg);
    if (o == NULL || json_array_append_new(cli->notes, o) != 0)
        print_note(cli, level, msg); /* not kept: said now, not lost */
}

void gp_cli_notes_defer(gp_cli *cli)
{
    if (cli != NULL && cli->notes == NULL) {
        cli->notes = json_array();
        cli->notes_printed = 0;
    }
}

void gp_cli_notes_flush(gp_cli *cli)
{
    size_t n;
    if (cli == NULL || cli->notes == NULL)
        return;
    n = json_array_size(cli->notes);
    for (; cli->notes_printed < n; cli->notes_printed++) {
        const json_t *o = json_array_get(cli->notes, cli->notes_printed);
        print_note(cli, json_string_value(json_object_get(o, "level")),
                   json_string_value(json_object_get(o, "message")));
    }
}

json_t *gp_cli_jwarnings(const gp_cli *cli)
{
    json_t *a = json_array();
    size_t i, n = cli != NULL && cli->notes != NULL ? json_array_size(cli->notes) : 0;
    for (i = 0; a != NULL && i < n; i++)
        json_array_append_new(
            a, json_string(json_string_value(
                   json_object_get(json_array_get(cli->notes, i), "message"))));
    return a;
}

void gp_cli_note_host_bw(const gp_cli *cli, const gp_link *up, double host_bw)
{
    if (host_bw > 0.0 && up != NULL && up->p2p)
        gp_cli_note(cli, "note", "--host-bw ignored: link '%s' has peer-to-peer, so nothing is "
                                 "staged through host memory",
                    up->id ? up->id : "?");
}

void gp_cli_note_ignored(const gp_cli *cli, const char *const *names, size_t n,
                         const char *why)
{
    const char *given[16];
    char list[512];
    size_t i, k = 0, off = 0;
    for (i = 0; i < n && k < sizeof given / sizeof given[0]; i++)
        if (names[i] != NULL)
            given[k++] = names[i];
    if (k == 0)
        return;
    list[0] = '\0';
    for (i = 0; i < k && off < sizeof list; i++) { /* "A", "A and B", "A, B and C" */
        int w = snprintf(list + off, sizeof list - off, "%s%s",
                         i == 0 ? "" : i + 1 == k ? " and " : ", ", given[i]);
        if (w < 0)
            break;
        off += (size_t)w;
    }
    gp_cli_note(cli, "note", "%s ignored: %s", list, why);
}

void gp_cli_note_nics(const gp_cli *cli, long nics, long per_node)
{
    if (nics > 0 && per_node >= 1 && nics > per_node)
        gp_cli_note(cli, "note",
                    "--nics-per-node %ld is more than the node's %ld GPU%s: priced as %ld, one "
                    "NIC a GPU (each GPU's traffic between nodes leaves through one NIC; for "
                    "several NICs a GPU name a scale-out link of their sum, e.g. 4 x 100 Gb/s "
                    "as roce-400)",
                    nics, per_node, per_node == 1 ? "" : "s", per_node);
}

void gp_cli_note_link_scopes(const gp_cli *cli, const char *up_opt, const gp_link *up,
                             double per_node, const gp_link *out, int multi_node,
                             const char *node_opts)
{
    if (up != NULL && per_node > 1.0 && up->scope == GP_SCOPE_SCALE_OUT) {
        const char *id = up->id != NULL ? up->id : "?";
        if (multi_node)
            gp_cli_note(cli, "note",
                        "%s %s is a scale-out link (between nodes): priced as the link among "
                        "each node's %.0f GPUs; %s names the link inside a node (nvlink4, "
                        "pcie4-x16, ...)",
                        up_opt, id, per_node, up_opt);
        else
            gp_cli_note(cli, "note",
                        "%s %s is a scale-out link (between nodes): priced as %.0f GPUs on it; "
                        "for nodes of several GPUs give %s --scale-out %s",
                        up_opt, id, per_node, node_opts, id);
    }
    if (out != NULL && multi_node && out->scope == GP_SCOPE_SCALE_UP)
        gp_cli_note(cli, "warning",
                    "--scale-out %s is a scale-up link (inside a node); it is priced here as "
                    "the link between nodes",
                    out->id != NULL ? out->id : "?");
}

int gp_cli_unified_needs_link(const gp_gpu *g, int scale_out, double per_node)
{
    return gp_gpu_unified(g) && !(scale_out && per_node == 1.0);
}

int gp_cli_refuse_unified(const gp_cli *cli, const char *lead, const gp_gpu *g,
                          const char *what, const char *opt)
{
    return gp_cli_usage(cli, "%s%s is one GPU per machine, sharing its memory with the CPU; %s "
                             "needs '%s' for the network between them",
                        lead, g->id ? g->id : "?", what, opt);
}

const char *gp_cli_gpu_link(const gp_db *db, const gp_gpu *g, double node, double gpus,
                            int per_node, const char *link_opt, char *note, size_t n)
{
    const gp_link *su;
    char split[48];
    note[0] = '\0';
    if (g->scale_up_link == NULL)
        return g->host_link;
    su = g->host_link != NULL ? gp_db_find_link(db, g->scale_up_link) : NULL;
    /* A switch (NVSwitch) or a full mesh (xGMI) joins its whole domain;
     * beyond it the node is wrong, not the link: left to the refusal that
     * says so. */
    if (!gp_link_gives_way(su) || !(node > su->max_gpus.v))
        return g->scale_up_link;
    if (per_node)
        snprintf(split, sizeof split, "--gpus-per-node %.0f", su->max_gpus.v);
    else if (fmod(gpus, su->max_gpus.v) == 0.0)
        snprintf(split, sizeof split, "--nodes %.0f", gpus / su->max_gpus.v);
    else
        snprintf(split, sizeof split, "--nodes M");
    /* Beyond it: the GPU's wide_link (GeForce RTX 3090: no P2P over PCIe,
     * so pcie4-x16-host), else the host link (PCIe P2P). */
    snprintf(note, n,
             "%s joins at most %.0f GPUs: nodes of %.0f are priced over %s %s (%s to name "
             "another; for nodes of %.0f joined by a network: %s --scale-out ID)",
             su->id, su->max_gpus.v, node, g->wide_link != NULL ? "its wide link" : "the host link",
             g->wide_link != NULL ? g->wide_link : g->host_link, link_opt, su->max_gpus.v, split);
    return g->wide_link != NULL ? g->wide_link : g->host_link;
}

void gp_cli_link_opt_init(gp_cli_link_opt *o)
{
    memset(o, 0, sizeof *o);
    o->lat = -1.0;
}

int gp_cli_link_opt_parse(const gp_cli *cli, gp_cli_link_opt *o, int lat, const char *arg)
{
    if (!lat)
        return gp_cli_rate(cli, "--link-bw", arg, &o->bw);
    if (gp_cli_qty(cli, "--link-latency", arg, GP_Q_DURATION, &o->lat))
        return GP_EXIT_USAGE;
    /* The database's bound for a link's alpha (lib/db.c MAX_LAT). */
    if (!(o->lat >= 0.0 && o->lat <= 1.0))
        return gp_cli_usage(cli, "option '--link-latency' must be a time in [0, 1 s] per hop "
                                 "(got '%s')", arg);
    return 0;
}

int gp_cli_link_opt_given(const gp_cli_link_opt *o)
{
    return o->bw > 0.0;
}

int gp_cli_link_opt_apply(const gp_cli *cli, gp_cli_link_opt *o, const gp_link *named,
                          const gp_link **out)
{
    static const char given_bw[] = "--link-bw (given)", given_lat[] = "--link-latency (given)";
    char b1[32], b2[32];
    *out = named;
    if (!(o->bw > 0.0) && o->lat < 0.0)
        return 0;
    if (named == NULL) {
        if (!(o->bw > 0.0))
            return gp_cli_usage(cli, "--link-latency needs --link ID or --link-bw RATE (the "
                                     "link it is the latency of)");
        memset(&o->own, 0, sizeof o->own);
        snprintf(o->name, sizeof o->name, "a link of %s per direction (--link-bw)",
                 gp_format_qty(o->bw, GP_Q_RATE, 1, 0, b1, sizeof b1));
        o->own.id = "custom";
        o->own.name = o->name;
        o->own.kind = GP_LINK_OTHER;
        o->own.scope = GP_SCOPE_SCALE_UP;
        o->own.bw.v = o->own.bw_achievable.v = o->bw;
        o->own.bw.src = o->own.bw_achievable.src = given_bw;
        o->own.latency.v = o->lat > 0.0 ? o->lat : 0.0;
        o->own.latency.src = o->lat >= 0.0 ? given_lat : "not given: 0 (--link-latency T)";
        o->own.p2p = 1;
        o->own.switched = 1;
        *out = &o->own;
        return 0;
    }
    if (o->bw > named->bw.v)
        return gp_cli_usage(cli, "--link-bw %s is above %s's datasheet %s per direction: leave "
                                 "out --link to price a link of your own",
                            gp_format_qty(o->bw, GP_Q_RATE, 3, 0, b1, sizeof b1),
                            named->id ? named->id : "the link",
                            gp_format_qty(named->bw.v, GP_Q_RATE, 3, 0, b2, sizeof b2));
    o->own = *named;
    if (o->bw > 0.0) {
        o->own.bw_achievable.v = o->bw;
        o->own.bw_achievable.src = given_bw;
        o->own.meas_bw.v = 0.0; /* the given figure stands in for a calibration's */
    }
    if (o->lat >= 0.0) {
        o->own.latency.v = o->lat;
        o->own.latency.src = given_lat;
        o->own.meas_latency.v = 0.0;
    }
    if (o->own.meas_bw.v <= 0.0 && o->own.meas_latency.v <= 0.0)
        o->own.calibration = NULL;
    *out = &o->own;
    return 0;
}

/* --csv on a command without rows (train, decode, roofline, calib, hw
 * show): its JSON object as one header record and one value record; a
 * list, and an empty object, is one field holding its JSON text. */
static int flat_csv;

void gp_cli_set_flat_csv(int on)
{
    flat_csv = on;
}

void gp_cli_csv_str(const char *s)
{
    putchar('"');
    for (; s != NULL && *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void csv_scalar(const json_t *v)
{
    char num[64];
    if (json_is_string(v))
        gp_cli_csv_str(json_string_value(v));
    else if (json_is_integer(v))
        printf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v))
        fputs(gp_cli_csvnum(json_real_value(v), num, sizeof num), stdout);
    else if (json_is_true(v) || json_is_false(v))
        fputs(json_is_true(v) ? "true" : "false", stdout);
    /* null: an empty field, as JSON's null */
}

/* One pass over OBJ: the column names (HEADER 1: nested keys joined by
 * '.') or the values, in the JSON's order. */
static void csv_walk(json_t *obj, const char *prefix, int header, int *first)
{
    const char *key;
    json_t *v;
    json_object_foreach (obj, key, v) {
        char name[512];
        snprintf(name, sizeof name, "%s%s%s", prefix, prefix[0] ? "." : "", key);
        if (json_is_object(v) && json_object_size(v) > 0) {
            csv_walk(v, name, header, first);
            continue;
        }
        if (!*first)
            putchar(',');
        *first = 0;
        if (header) {
            gp_cli_csv_str(name);
        } else if (json_is_array(v) || json_is_object(v)) {
            /* A list (of scalars or of objects: a table's rows) or an
             * empty object: its JSON text, one field. */
            char *t = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(GP_CLI_NUM_DIGITS));
            gp_cli_csv_str(t != NULL ? t : "");
            free(t);
        } else {
            csv_scalar(v);
        }
    }
}

const char *gp_cli_algo_label(gp_coll_op op, gp_coll_algo a, long nodes, int none)
{
    if (none)
        return "none";
    if (op == GP_COLL_ALLTOALL)
        return "direct";
    return a == GP_COLL_NVLS && nodes > 1 ? "nvls-tree" : gp_coll_algo_name(a);
}

void gp_cli_link_opt_notes(const gp_cli *cli, const gp_cli_link_opt *o, const gp_link *up,
                           int nvls, int ceiling)
{
    char b[32];
    /* A link of the user's own has no NVLS figure (refused) and its RATE is
     * the ceiling too: of its figures only the latency can go unused. */
    if (up != &o->own)
        return;
    if (o->own.kind == GP_LINK_OTHER) {
        const char *lat[] = {ceiling && o->lat >= 0.0 ? "--link-latency" : NULL};
        gp_cli_note_ignored(cli, lat, 1, "--ceiling prices no latency");
        return;
    }
    if (nvls && o->bw > 0.0)
        gp_cli_note(cli, "note",
                    "--link-bw sets %s's ring rate; NVLS (priced here) runs at its in-switch "
                    "figure, %s per direction",
                    up->id ? up->id : "the link",
                    gp_format_qty(up->bw_nvls.v, GP_Q_RATE, 1, 0, b, sizeof b));
    if (nvls && o->lat >= 0.0 && !ceiling)
        gp_cli_note(cli, "note",
                    "--link-latency prices %s's hops; NVLS's switch phases (priced here) take "
                    "NCCL's 23 us (tuning.cc) whatever it is",
                    up->id ? up->id : "the link");
    if (ceiling) {
        const char *both[] = {o->bw > 0.0 ? "--link-bw" : NULL,
                              o->lat >= 0.0 ? "--link-latency" : NULL};
        gp_cli_note_ignored(cli, both, 2, "--ceiling prices the datasheet rate and no latency");
    }
}

int gp_cli_emit(json_t *obj)
{
    char *s;
    if (obj == NULL)
        return 1;
    if (flat_csv && json_is_object(obj)) {
        int first = 1;
        csv_walk(obj, "", 1, &first);
        putchar('\n');
        first = 1;
        csv_walk(obj, "", 0, &first);
        putchar('\n');
        json_decref(obj);
        return 0;
    }
    s = json_dumps(obj,
                   JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(GP_CLI_NUM_DIGITS));
    json_decref(obj);
    if (s == NULL)
        return 1;
    fputs(s, stdout);
    fputc('\n', stdout);
    free(s);
    return 0;
}

json_t *gp_cli_jledger(const gp_ledger *l)
{
    json_t *o = json_object();
    json_object_set_new(o, "compute_s", gp_cli_jnum(l->t[GP_ACCT_COMPUTE]));
    json_object_set_new(o, "memory_s", gp_cli_jnum(l->t[GP_ACCT_MEMORY]));
    json_object_set_new(o, "movement_s", gp_cli_jnum(l->t[GP_ACCT_MOVEMENT]));
    json_object_set_new(o, "total_s", gp_cli_jnum(l->total));
    json_object_set_new(o, "binding", json_string(gp_account_name(l->binding)));
    json_object_set_new(o, "margin", gp_cli_jnum(l->margin));
    json_object_set_new(o, "rule", json_string(gp_overlap_name(l->rule)));
    return o;
}

int gp_cli_sig_digits(double v, int sig)
{
    double m = fabs(v);
    int d;
    if (!isfinite(m) || m == 0.0)
        return sig > 1 ? sig - 1 : 0;
    for (;;) {
        double p, r;
        d = sig - 1 - (int)floor(log10(m));
        d = d < 0 ? 0 : d > 6 ? 6 : d;
        p = pow(10.0, d);
        r = round(m * p) / p; /* as printed */
        /* The ladder moves up once the mantissa prints as 1000 or more
         * (999999.6 with 4: "1.000 M", not "999.9996 K"). */
        if (r >= 1000.0) {
            m = r / 1000.0;
            continue;
        }
        /* Rounded up to the next power of ten: 99.996 is "100.0", not
         * "100.00". */
        if (floor(log10(r)) > floor(log10(m))) {
            d = sig - 1 - (int)floor(log10(r));
            d = d < 0 ? 0 : d > 6 ? 6 : d;
        }
        return d;
    }
}

const char *gp_cli_fmt_sig(double v, gp_qty kind, int sig, char *buf, size_t n)
{
    const char *e;
    gp_format_qty(v, kind, gp_cli_sig_digits(v, sig), 0, buf, n);
    /* Past its ladder's last prefix the quantity prints in scientific form,
     * where the digits are the mantissa's decimals: sig - 1 of them
     * (8.751e23 FLOP, not the 8.8e23 the ladder's 875.1 would give). */
    e = strchr(buf, 'e');
    if (e != NULL && e > buf && e[-1] >= '0' && e[-1] <= '9' &&
        (e[1] == '+' || e[1] == '-' || (e[1] >= '0' && e[1] <= '9')))
        gp_format_qty(v, kind, sig > 1 ? sig - 1 : 0, 0, buf, n);
    return buf;
}

char *gp_cli_exp_fix(char *s)
{
    char *r, *w;
    if (s == NULL)
        return s;
    for (r = w = s; *r != '\0';) {
        /* A mantissa's last digit (or point), 'e', a sign, a digit. */
        if (r[0] == 'e' && r > s && ((r[-1] >= '0' && r[-1] <= '9') || r[-1] == '.') &&
            (r[1] == '+' || r[1] == '-') && r[2] >= '0' && r[2] <= '9') {
            *w++ = *r++;       /* e */
            if (*r++ == '-')
                *w++ = '-';
            while (r[0] == '0' && r[1] >= '0' && r[1] <= '9')
                r++;           /* e+04 -> e4, e-05 -> e-5, e+00 -> e0 */
            while (*r >= '0' && *r <= '9')
                *w++ = *r++;
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
    return s;
}

const char *gp_cli_g(double v, int sig, char *buf, size_t n)
{
    if (buf == NULL || n == 0)
        return buf;
    if (!isfinite(v))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.*g", sig < 1 ? 1 : sig > 17 ? 17 : sig, v);
    return gp_cli_exp_fix(buf);
}

const char *gp_cli_num(double v, int sig, char *buf, size_t n)
{
    char t[64], *e;
    int x;
    if (buf == NULL || n == 0)
        return buf;
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return buf;
    }
    sig = sig < 1 ? 1 : sig > 17 ? 17 : sig;
    /* C's %g rule, with the exponent X of the rounded %e form (9999.6 to
     * 4 digits is 1.000e4), and its trailing zeros kept (glibc's "%#.4g"
     * prints 9999.6 as "1.e+04"). */
    snprintf(t, sizeof t, "%.*e", sig - 1, v);
    e = strchr(t, 'e');
    x = e != NULL ? atoi(e + 1) : 0;
    if (v != 0.0 && (x < -4 || x >= sig)) {
        snprintf(buf, n, "%s", t);
        return gp_cli_exp_fix(buf);
    }
    snprintf(buf, n, "%.*f", sig - 1 - x, v);
    return buf;
}

const char *gp_cli_usd(double v, char *buf, size_t n)
{
    double a = fabs(v);
    char t[48];
    if (buf == NULL || n == 0)
        return buf;
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
    } else if (a < 99.995) {
        /* Cents, more decimals below a dime: 2 significant digits. */
        int d = 2;
        while (d < 6 && a > 0.0 && round(a * pow(10.0, d)) < 10.0)
            d++;
        snprintf(buf, n, "USD %.*f", d, v);
    } else if (a < 999999.5) {
        snprintf(buf, n, "USD %.0f", v);
    } else {
        snprintf(buf, n, "USD %s", gp_cli_fmt_sig(v, GP_Q_COUNT, 4, t, sizeof t));
    }
    return buf;
}

json_t *gp_cli_jbytes(double v)
{
    return gp_cli_jnum(isfinite(v) ? ceil(v) : v);
}

int gp_cli_required(const gp_cli *cli, const char *opt, const char *alts, const char *when)
{
    return gp_cli_usage(cli, "option '%s'%s%s%s is required%s%s", opt, alts ? " (or " : "",
                        alts ? alts : "", alts ? ")" : "", when ? " " : "", when ? when : "");
}

void gp_cli_row(const char *label, const char *value, const char *note)
{
    char v[256], t[2048];
    /* Copies with the exponents in the house form; a text too long for the
     * buffer prints as it is. */
    if (value == NULL)
        value = "";
    if (strlen(value) < sizeof v)
        value = gp_cli_exp_fix(strcpy(v, value));
    if (note != NULL && strlen(note) < sizeof t)
        note = gp_cli_exp_fix(strcpy(t, note));
    if (note != NULL && note[0] != '\0')
        printf("  %-28s %-18s %s\n", label, value, note);
    else
        printf("  %-28s %s\n", label, value);
}

void gp_cli_qrow(const char *label, double v, gp_qty kind, int digits,
                 const char *note)
{
    char buf[64];
    gp_cli_row(label, gp_format_qty(v, kind, digits, 0, buf, sizeof buf), note);
}

void gp_cli_print_ledger(const char *title, const gp_ledger *l)
{
    int i;
    char buf[64], note[128];
    const char *rule = l->rule == GP_OVERLAP_SUM    ? "accounts add up"
                       : l->rule == GP_OVERLAP_ROOF ? "max(compute, memory) + movement"
                                                    : "accounts overlap; the slowest sets the time";
    char tb[256];
    size_t tl;
    if (title == NULL)
        title = "ledger";
    if (strlen(title) < sizeof tb) /* "... 1.4e3 GB of gradients" */
        title = gp_cli_exp_fix(strcpy(tb, title));
    tl = strlen(title);
    /* A title with its own parenthesis takes the rule inside it:
     * "step on 8 GPUs (best; accounts add up)", not "(best) (accounts add up)". */
    if (tl > 0 && title[tl - 1] == ')')
        printf("%.*s; %s):\n", (int)(tl - 1), title, rule);
    else
        printf("%s (%s):\n", title, rule);
    for (i = 0; i < GP_ACCT__COUNT; i++) {
        const char *mark = (gp_account)i == l->binding && l->total > 0 ? "<- binds" : "";
        gp_cli_row(gp_account_name((gp_account)i),
                   gp_format_qty(l->t[i], GP_Q_DURATION, 3, 0, buf, sizeof buf), mark);
    }
    gp_cli_row("total", gp_format_qty(l->total, GP_Q_DURATION, 3, 0, buf, sizeof buf), NULL);
    if (l->margin > 0 && l->margin < 1e4)
        snprintf(note, sizeof note, "%s binds by %.2fx over the next account, %s",
                 gp_account_name(l->binding), l->margin, gp_account_name(l->runner_up));
    else if (l->margin > 0) /* not hundreds of digits: 3.39e297x */
        snprintf(note, sizeof note, "%s binds by %sx over the next account, %s",
                 gp_account_name(l->binding), gp_cli_g(l->margin, 3, buf, sizeof buf),
                 gp_account_name(l->runner_up));
    else
        snprintf(note, sizeof note, "%s is the only account charged", gp_account_name(l->binding));
    printf("  %s\n", note);
}

/* What to look at next, by verdict and by how busy the roofs are. */
static void diag_advice(const gp_diagnosis *d, const char *idle, char *buf, size_t cap)
{
    const char *b = gp_account_name(d->busiest);
    switch (d->verdict) {
    case GP_VERDICT_IMPOSSIBLE:
        snprintf(buf, cap, "faster than the datasheet ceiling: these inputs do not describe the "
                           "run (the work, its sizes, the hardware or link), or the measurement "
                           "counts the work differently");
        break;
    case GP_VERDICT_FASTER:
        snprintf(buf, cap, "faster than the expected figure by more than %.0f%%, yet under the "
                           "ceiling: the default efficiencies are pessimistic for this run; "
                           "measure the hardware (gpuplan calib) or name the engine",
                 100.0 * GP_DIAG_TOLERANCE);
        break;
    case GP_VERDICT_AS_EXPECTED:
        snprintf(buf, cap, "within %.0f%% of the expected figure: the hardware gives what it can; "
                           "to go faster, shrink the %s account's work",
                 100.0 * GP_DIAG_TOLERANCE, b);
        break;
    default:
        if (d->saturated)
            snprintf(buf, cap, "the %s roof is %.0f%% busy at the measured speed, yet the run is "
                               "slower than expected: the achievable %s rate is lower than "
                               "assumed (clocks, power cap, a slower kernel): measure it "
                               "(gpuplan calib) and rerun with the overlay",
                     b, 100.0 * d->util[d->busiest], b);
        else
            snprintf(buf, cap, "no roof is near saturation (busiest: %s at %.0f%%): %s", b,
                     100.0 * d->util[d->busiest],
                     idle != NULL ? idle
                                  : "the time goes outside the ledger: host synchronisation, "
                                    "extra copies, launch gaps, input pipeline; profile the "
                                    "timeline (nsys) before the kernels (ncu)");
        break;
    }
}

/* gp_cli_jdiag and gp_cli_jdiag_as: the verdict's name and advice given
 * (verdict non-NULL), else the ledgers' (gp_verdict_name, diag_advice). */
static json_t *jdiag(const gp_diagnosis *d, const char *idle, const char *verdict,
                     const char *advice)
{
    json_t *o = json_object(), *u = json_object();
    char adv[400];
    int a;
    json_object_set_new(o, "measured_s", gp_cli_jnum(d->measured_s));
    json_object_set_new(o, "ceiling_s", gp_cli_jnum(d->ceiling_s));
    json_object_set_new(o, "expected_s", gp_cli_jnum(d->expected_s));
    json_object_set_new(o, "of_ceiling", gp_cli_jnum(d->of_ceiling));
    json_object_set_new(o, "of_expected", gp_cli_jnum(d->of_expected));
    json_object_set_new(o, "gap_s", gp_cli_jnum(d->gap_s));
    for (a = 0; a < GP_ACCT__COUNT; a++)
        json_object_set_new(u, gp_account_name((gp_account)a), gp_cli_jnum(d->util[a]));
    json_object_set_new(o, "utilisation", u);
    json_object_set_new(o, "busiest", json_string(gp_account_name(d->busiest)));
    json_object_set_new(o, "saturated", json_boolean(d->saturated));
    if (verdict != NULL) {
        json_object_set_new(o, "verdict", json_string(verdict));
        json_object_set_new(o, "advice", json_string(advice != NULL ? advice : ""));
    } else {
        json_object_set_new(o, "verdict", json_string(gp_verdict_name(d->verdict)));
        diag_advice(d, idle, adv, sizeof adv);
        json_object_set_new(o, "advice", json_string(adv));
    }
    return o;
}

json_t *gp_cli_jdiag(const gp_diagnosis *d, const char *idle)
{
    return jdiag(d, idle, NULL, NULL);
}

json_t *gp_cli_jdiag_as(const gp_diagnosis *d, const char *verdict, const char *advice)
{
    return jdiag(d, NULL, verdict, advice);
}

/* A share as a percentage: "12.3%", and "1.23e7%" from a million per
 * cent on (an impossible measurement), not 25 digits. */
static const char *pct(double share, int decimals, char *buf, size_t n)
{
    double v = 100.0 * share;
    char t[32];
    if (fabs(v) >= 1e6)
        snprintf(buf, n, "%s%%", gp_cli_g(v, 3, t, sizeof t));
    else
        snprintf(buf, n, "%.*f%%", decimals, v);
    return buf;
}

static void print_diagnosis(const char *what, const gp_diagnosis *d, const char *idle,
                            const char *verdict, const char *advice)
{
    char buf[64], note[160], adv[400], u[3][32];
    printf("diagnosis (%s):\n", what);
    /* A verdict of the command's own (verdict) may read a run past this
     * ceiling as another algorithm's: the bound is then only this one's. */
    snprintf(note, sizeof note, "ceiling %s: %s",
             gp_format_qty(d->ceiling_s, GP_Q_DURATION, 3, 0, buf, sizeof buf),
             verdict != NULL ? "a bound of what is priced" : "no run can beat it");
    gp_cli_row("speed, of the ceiling", pct(d->of_ceiling, 1, buf, sizeof buf), note);
    snprintf(note, sizeof note, "expected %s",
             gp_format_qty(d->expected_s, GP_Q_DURATION, 3, 0, buf, sizeof buf));
    gp_cli_row("speed, of the expected", pct(d->of_expected, 1, buf, sizeof buf), note);
    gp_cli_qrow("measured - expected", d->gap_s, GP_Q_DURATION, 3,
                d->gap_s > 0 ? "time the expected ledger does not explain" : "faster than expected");
    snprintf(note, sizeof note, "compute %s, memory %s, movement %s (datasheet roofs)",
             pct(d->util[GP_ACCT_COMPUTE], 0, u[0], sizeof u[0]),
             pct(d->util[GP_ACCT_MEMORY], 0, u[1], sizeof u[1]),
             pct(d->util[GP_ACCT_MOVEMENT], 0, u[2], sizeof u[2]));
    gp_cli_row("roofs busy at that speed", "", note);
    if (verdict != NULL) {
        printf("  verdict: %s: %s\n", verdict, advice != NULL ? advice : "");
        return;
    }
    diag_advice(d, idle, adv, sizeof adv);
    printf("  verdict: %s: %s\n", gp_verdict_name(d->verdict), adv);
}

void gp_cli_print_diagnosis(const char *what, const gp_diagnosis *d, const char *idle)
{
    print_diagnosis(what, d, idle, NULL, NULL);
}

void gp_cli_print_diagnosis_as(const char *what, const gp_diagnosis *d, const char *verdict,
                               const char *advice)
{
    print_diagnosis(what, d, NULL, verdict, advice);
}

/* ---- files in the user's database directory (calib import, hw import-model) ---- */


int gp_cli_mkdir_p(const char *path, gp_err *e)
{
    char buf[PATH_MAX];
    size_t i, n = strlen(path);
    struct stat st;
    if (n == 0 || n >= sizeof buf)
        return GP_RAISE(e, GP_EIO, "bad directory name '%s'", path);
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return GP_RAISE_AT(e, GP_EIO, buf, 0, 0, "cannot create directory: %s",
                                   strerror(errno));
            buf[i] = c;
        }
    }
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "not a directory");
    return GP_OK;
}

/* Whole file into a malloc'd NUL-terminated *out (caller frees); *out NULL
 * and GP_OK when the file does not exist.  Any other failure (cannot open,
 * read error, out of memory) is an error, never "absent": the caller decides
 * from *out whether it may overwrite the file. */
int gp_cli_slurp(const char *path, char **out, gp_err *e)
{
    /* O_NONBLOCK: a FIFO where the file goes is refused, not waited on. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    FILE *f;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    *out = NULL;
    if (fd < 0) {
        if (errno == ENOENT)
            return GP_OK;
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "is not a regular file: refusing to replace it");
    }
    if ((f = fdopen(fd, "rb")) == NULL) {
        int err = errno;
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot read: %s", strerror(err));
    }
    for (;;) {
        size_t got;
        if (cap - n < 4096) {
            char *nb = realloc(buf, cap ? 2 * cap : 8192);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return GP_RAISE_AT(e, GP_ENOMEM, path, 0, 0, "out of memory reading it");
            }
            buf = nb;
            cap = cap ? 2 * cap : 8192;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
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
    buf[n] = '\0';
    *out = buf;
    return GP_OK;
}

static void fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

/* Write text to dir/name atomically (temp file in dir, fsync, rename). */
int gp_cli_write_atomic(const char *dir, const char *name, const char *text, gp_err *e)
{
    char tmp[PATH_MAX], dst[PATH_MAX];
    size_t len = strlen(text), off = 0;
    int fd;
    if ((size_t)snprintf(tmp, sizeof tmp, "%s/.%s.tmp.XXXXXX", dir, name) >= sizeof tmp ||
        (size_t)snprintf(dst, sizeof dst, "%s/%s", dir, name) >= sizeof dst)
        return GP_RAISE_AT(e, GP_EIO, dir, 0, 0, "path too long");
    fd = mkstemp(tmp);
    if (fd < 0)
        return GP_RAISE_AT(e, GP_EIO, dir, 0, 0, "cannot create a temporary file: %s",
                           strerror(errno));
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        off += (size_t)w;
    }
    if (off < len || fchmod(fd, 0644) != 0 || fsync(fd) != 0) {
        int err = errno;
        close(fd);
        unlink(tmp);
        return GP_RAISE_AT(e, GP_EIO, tmp, 0, 0, "write failed: %s", strerror(err));
    }
    if (close(fd) != 0 || rename(tmp, dst) != 0) {
        int err = errno;
        unlink(tmp);
        return GP_RAISE_AT(e, GP_EIO, dst, 0, 0, "cannot write: %s", strerror(err));
    }
    fsync_dir(dir);
    return GP_OK;
}

/* The user's database directory (cli/main.c: the first --db, else the first
 * $GPUPLAN_DB entry, else ${XDG_CONFIG_HOME:-~/.config}/gpuplan). */
int gp_cli_user_db_dir(const gp_cli *cli, char *out, size_t n, int *is_default, gp_err *e)
{
    *is_default = cli->write_dir_is_default;
    if (cli->write_dir[0] == '\0')
        return GP_RAISE(e, GP_EIO,
                        "no database directory: pass --db DIR, or set GPUPLAN_DB, "
                        "XDG_CONFIG_HOME or HOME");
    if ((size_t)snprintf(out, n, "%s", cli->write_dir) >= n)
        return GP_RAISE(e, GP_EIO, "database directory path too long");
    return GP_OK;
}
