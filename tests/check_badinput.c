/* docs/bad-input.md, executed: every row of the table is parsed from the
 * document and run through build/gpuplan, asserting the exit status and that
 * stderr contains the documented substring.  The document and the tests
 * cannot drift apart: a row that does not parse fails, and no row is skipped.
 *
 * Row syntax (see the document's header):
 *   | N | class | `[NAME=VALUE ...] gpuplan ARG ...` | `stderr substring` | STATUS |
 * Arguments split on blanks; '...' quotes an argument (may be empty).
 * "$TMP" in an argument or in the substring is a per-run directory holding
 * fixtures that cannot live in git (see make_runtime_fixtures).  Rows that
 * need a file the caller may not read run the CLI as uid/gid 65534 when the
 * tests run as root (root ignores mode 000). */
#define _XOPEN_SOURCE 700 /* putenv, mkfifo */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define DOC "docs/bad-input.md"
#define MAX_ROWS 1024
#define MAX_ARGS 48

typedef struct row {
    int num;
    char cls[160];
    char cmd[1024];
    char says[512];
    int status;
    int line; /* in DOC */
} row;

static row rows[MAX_ROWS];
static size_t n_rows;
static char parse_error[512]; /* non-empty: the document did not parse */
static char tmp_dir[64];

/* Commands that must have at least one row once they exist on this tree. */
static const char *const required_cmds[] = {"hw",        "roofline", "train", "decode",
                                            "allreduce", "scale",    "calib"};

static char *trim(char *s)
{
    char *e;
    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

/* Strip one pair of surrounding backticks. */
static char *unquote(char *s)
{
    size_t l = strlen(s);
    if (l >= 2 && s[0] == '`' && s[l - 1] == '`') {
        s[l - 1] = '\0';
        return s + 1;
    }
    return s;
}

static void copy_cell(char *dst, size_t n, const char *src, int line, const char *what)
{
    if (strlen(src) >= n && parse_error[0] == '\0')
        snprintf(parse_error, sizeof parse_error, "%s:%d: %s cell too long", DOC, line, what);
    snprintf(dst, n, "%s", src);
}

/* Parse the table rows ("| N | ..."); the header and separator lines do not
 * start with a number and are ignored. */
static void parse_doc(void)
{
    FILE *f = fopen(DOC, "r");
    char line[4096];
    int ln = 0;
    n_rows = 0;
    parse_error[0] = '\0';
    if (f == NULL) {
        snprintf(parse_error, sizeof parse_error, "cannot open %s: %s (run from the source root)",
                 DOC, strerror(errno));
        return;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char *cells[8], *p = line, *bar;
        int nc = 0;
        ln++;
        if (strncmp(line, "| ", 2) != 0 || line[2] < '0' || line[2] > '9')
            continue;
        p = line + 1;
        while (nc < 8 && (bar = strstr(p, " |")) != NULL) {
            *bar = '\0';
            cells[nc++] = trim(p);
            p = bar + 2;
        }
        if (nc != 5) {
            snprintf(parse_error, sizeof parse_error, "%s:%d: expected 5 cells, got %d", DOC, ln,
                     nc);
            break;
        }
        if (n_rows == MAX_ROWS) {
            snprintf(parse_error, sizeof parse_error, "%s:%d: more than %d rows", DOC, ln,
                     MAX_ROWS);
            break;
        }
        {
            row *r = &rows[n_rows];
            char *end;
            r->line = ln;
            r->num = (int)strtol(cells[0], &end, 10);
            if (*end != '\0')
                snprintf(parse_error, sizeof parse_error, "%s:%d: bad row number '%s'", DOC, ln,
                         cells[0]);
            copy_cell(r->cls, sizeof r->cls, cells[1], ln, "class");
            copy_cell(r->cmd, sizeof r->cmd, unquote(cells[2]), ln, "input");
            copy_cell(r->says, sizeof r->says, unquote(cells[3]), ln, "says");
            r->status = (int)strtol(cells[4], &end, 10);
            if (*end != '\0' || cells[4][0] == '\0')
                snprintf(parse_error, sizeof parse_error, "%s:%d: bad exit status '%s'", DOC,
                         ln, cells[4]);
            n_rows++;
        }
        if (parse_error[0] != '\0')
            break;
    }
    fclose(f);
}

/* Replace every "$TMP" in src by the runtime fixture directory. */
static void subst(char *dst, size_t n, const char *src)
{
    size_t o = 0;
    while (*src != '\0' && o + 1 < n) {
        if (strncmp(src, "$TMP", 4) == 0) {
            o += (size_t)snprintf(dst + o, n - o, "%s", tmp_dir);
            if (o >= n)
                o = n - 1;
            src += 4;
        } else {
            dst[o++] = *src++;
        }
    }
    dst[o] = '\0';
}

/* Split the command line into env (NAME=VALUE before "gpuplan") and argv
 * (after it).  Storage in buf; returns 0, or -1 with why in err. */
static int split_cmd(const char *cmd, char *buf, size_t n, const char **env, const char **argv,
                     char *err, size_t en)
{
    const char *s = cmd;
    size_t o = 0;
    int ne = 0, na = 0, seen_prog = 0;
    while (*s != '\0') {
        char *tok;
        while (*s == ' ')
            s++;
        if (*s == '\0')
            break;
        tok = buf + o;
        while (*s != '\0' && *s != ' ') {
            if (*s == '\'') {
                const char *q = strchr(s + 1, '\'');
                if (q == NULL) {
                    snprintf(err, en, "unterminated quote");
                    return -1;
                }
                while (++s < q && o + 1 < n)
                    buf[o++] = *s;
                s = q + 1;
            } else if (o + 1 < n) {
                buf[o++] = *s++;
            } else {
                snprintf(err, en, "command too long");
                return -1;
            }
        }
        buf[o++] = '\0';
        if (!seen_prog) {
            if (strcmp(tok, "gpuplan") == 0)
                seen_prog = 1;
            else if (strchr(tok, '=') != NULL && ne < 7)
                env[ne++] = tok;
            else {
                snprintf(err, en, "'%s' before 'gpuplan' is not NAME=VALUE", tok);
                return -1;
            }
        } else if (na < MAX_ARGS - 1) {
            argv[na++] = tok;
        } else {
            snprintf(err, en, "more than %d arguments", MAX_ARGS - 1);
            return -1;
        }
    }
    env[ne] = NULL;
    argv[na] = NULL;
    if (!seen_prog) {
        snprintf(err, en, "the input does not run 'gpuplan'");
        return -1;
    }
    return 0;
}

/* Run build/gpuplan as uid/gid 65534 (root ignores file modes), capturing
 * stderr.  Returns the exit status, or -1. */
static int run_unprivileged(const char *const *argv, char **err)
{
    char path[1024], errpath[] = "/tmp/gp-test-err-XXXXXX";
    const char *args[MAX_ARGS + 1];
    size_t n = 0;
    int efd, status = -1;
    pid_t pid;
    snprintf(path, sizeof path, "%s/gpuplan", gp_test_build_dir());
    args[0] = path;
    while (argv[n] != NULL && n < MAX_ARGS - 1) {
        args[n + 1] = argv[n];
        n++;
    }
    args[n + 1] = NULL;
    efd = mkstemp(errpath);
    ck_assert_int_ge(efd, 0);
    fflush(NULL);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 1);
        dup2(efd, 2);
        /* Under `make valgrind` the forked child already owns PID.log (as
         * root): the unprivileged process logs to PID-uid65534.log. */
        setenv("GP_VG_TAG", "-uid65534", 1);
        if (setgid(65534) != 0 || setuid(65534) != 0) {
            fprintf(stderr, "check_badinput: cannot drop to uid 65534: %s\n", strerror(errno));
            _exit(126);
        }
        execv(path, (char *const *)(size_t)args);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) < 0)
        status = -1;
    *err = calloc(1, 65536);
    ck_assert_ptr_nonnull(*err);
    lseek(efd, 0, SEEK_SET);
    {
        ssize_t got = read(efd, *err, 65535);
        if (got > 0)
            (*err)[got] = '\0';
    }
    close(efd);
    unlink(errpath);
    if (status >= 0 && WIFEXITED(status))
        return WEXITSTATUS(status);
    return -1;
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Fixtures git cannot hold: a FIFO, a mode-000 file, a 17 MiB (sparse) file,
 * an empty writable directory.  Created once, before the rows run. */
static void make_runtime_fixtures(void)
{
    char p[256];
    int fd;
    if (gp_test_tmpdir(tmp_dir, sizeof tmp_dir) != 0)
        return;
    chmod(tmp_dir, 0755); /* the unprivileged rows must reach inside */
#define MK(rel) (snprintf(p, sizeof p, "%s/%s", tmp_dir, rel), mkdir(p, 0755))
    MK("fifo");
    MK("fifo/gpus");
    snprintf(p, sizeof p, "%s/fifo/gpus/pipe.yaml", tmp_dir);
    (void)mkfifo(p, 0644);
    MK("fifoimp");
    MK("fifoimp/models");
    snprintf(p, sizeof p, "%s/fifoimp/models/t1.yaml", tmp_dir);
    (void)mkfifo(p, 0644);
    MK("noperm");
    MK("noperm/gpus");
    snprintf(p, sizeof p, "%s/noperm/gpus/secret.yaml", tmp_dir);
    (void)write_file(p, "id: h100-sxm\n");
    chmod(p, 0);
    MK("big");
    MK("big/gpus");
    snprintf(p, sizeof p, "%s/big/gpus/big.yaml", tmp_dir);
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        (void)ftruncate(fd, (off_t)17 << 20);
        close(fd);
    }
    MK("out");
#undef MK
}

static void setup(void)
{
    make_runtime_fixtures();
}

static void teardown(void)
{
    char p[256];
    if (tmp_dir[0] == '\0')
        return;
    snprintf(p, sizeof p, "%s/noperm/gpus/secret.yaml", tmp_dir);
    chmod(p, 0644);
    gp_test_rmtree(tmp_dir);
    tmp_dir[0] = '\0';
}

START_TEST(document_parses_with_40_numbered_rows)
{
    size_t i;
    ck_assert_msg(parse_error[0] == '\0', "%s", parse_error);
    ck_assert_msg(n_rows >= 40, "%s has %zu rows, want >= 40", DOC, n_rows);
    ck_assert_msg(tmp_dir[0] != '\0', "runtime fixture directory not created");
    for (i = 0; i < n_rows; i++)
        ck_assert_msg(rows[i].num == (int)i + 1, "%s:%d: row numbered %d, want %zu", DOC,
                      rows[i].line, rows[i].num, i + 1);
}
END_TEST

/* One loop iteration per row (the document is parsed when the suite is
 * built). */
START_TEST(row_runs_as_documented)
{
    const row *r;
    char cmd[1024], says[512], buf[2048], why[128];
    const char *env[8], *argv[MAX_ARGS];
    char *out = NULL, *err = NULL;
    int st;
    ck_assert_uint_lt((size_t)_i, n_rows);
    r = &rows[_i];
    ck_assert_msg(parse_error[0] == '\0', "%s", parse_error);
    subst(cmd, sizeof cmd, r->cmd);
    subst(says, sizeof says, r->says);
    ck_assert_msg(says[0] != '\0', "%s:%d: row %d: empty 'says' cell", DOC, r->line, r->num);
    ck_assert_msg(split_cmd(cmd, buf, sizeof buf, env, argv, why, sizeof why) == 0,
                  "%s:%d: row %d: %s", DOC, r->line, r->num, why);
    if (strstr(cmd, "/noperm") != NULL && geteuid() == 0)
        st = run_unprivileged(argv, &err);
    else
        st = gp_test_cli_env(argv, env[0] != NULL ? env : NULL, &out, &err);
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(st == r->status, "%s:%d: row %d (%s): exit %d, want %d; stderr: %.600s", DOC,
                  r->line, r->num, r->cls, st, r->status, err);
    ck_assert_msg(strstr(err, says) != NULL,
                  "%s:%d: row %d (%s): stderr lacks '%s'; stderr: %.600s", DOC, r->line, r->num,
                  r->cls, says, err);
    free(out);
    free(err);
}
END_TEST

/* Every command of the tree (from `gpuplan --help`) that the hardening issue
 * names has at least one row. */
START_TEST(every_command_has_rows)
{
    const char *argv[] = {"--help", NULL};
    char *out = NULL, *p;
    size_t c, i;
    ck_assert_int_eq(gp_test_cli(argv, &out, NULL), 0);
    p = strstr(out, "commands:\n");
    ck_assert_ptr_nonnull(p);
    for (c = 0; c < sizeof required_cmds / sizeof required_cmds[0]; c++) {
        char pat[64];
        int found = 0;
        snprintf(pat, sizeof pat, "\n  %s ", required_cmds[c]);
        if (strstr(p, pat) == NULL)
            continue; /* not on this tree yet */
        snprintf(pat, sizeof pat, " %s ", required_cmds[c]);
        for (i = 0; i < n_rows && !found; i++) {
            char padded[1100];
            snprintf(padded, sizeof padded, "%s ", rows[i].cmd);
            found = strstr(padded, pat) != NULL;
        }
        ck_assert_msg(found, "%s has no row for the '%s' command", DOC, required_cmds[c]);
    }
    free(out);
}
END_TEST

/* Not bad input, the other side of the convention: every command listed by
 * 'gpuplan --help' prints its help on stdout with exit 0 for -h as for
 * --help (gpuplan -h does; decode, roofline and train refused -h). */
START_TEST(every_command_takes_dash_h)
{
    const char *argv[] = {"--help", NULL};
    char *out = NULL, *p, *line;
    int n = 0;
    ck_assert_int_eq(gp_test_cli(argv, &out, NULL), 0);
    p = strstr(out, "commands:\n");
    ck_assert_ptr_nonnull(p);
    for (line = strchr(p, '\n') + 1; strncmp(line, "  ", 2) == 0 && line[2] != ' ';
         line = strchr(line, '\n') + 1) {
        char name[32], *h = NULL, *err = NULL;
        const char *a[] = {name, "-h", NULL};
        ck_assert_int_eq(sscanf(line, " %31s", name), 1);
        ck_assert_msg(gp_test_cli(a, &h, &err) == 0, "gpuplan %s -h: %s", name, err);
        ck_assert_msg(strstr(h, "usage:") != NULL, "gpuplan %s -h printed no usage", name);
        free(h);
        free(err);
        n++;
    }
    ck_assert_int_ge(n, 7);
    free(out);
}
END_TEST

/* Runs after the rows: every row that names $TMP/out as an overlay or
 * import directory is a refusal, so nothing may have been written there. */
START_TEST(refusals_wrote_nothing)
{
    char cmd[160], *out = NULL;
    FILE *p;
    size_t got;
    ck_assert(tmp_dir[0] != '\0');
    snprintf(cmd, sizeof cmd, "find %s/out -mindepth 1 2>&1", tmp_dir);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    out = calloc(1, 4096);
    ck_assert_ptr_nonnull(out);
    got = fread(out, 1, 4095, p);
    pclose(p);
    ck_assert_msg(got == 0, "refused commands left files behind: %s", out);
    free(out);
}
END_TEST

/* A failed write to standard output is status 1 with a message, not 0
 * (bad-input.md: 1 is "a write that failed").  /dev/full refuses every
 * write with ENOSPC; run as a real process (main checks stdout on exit). */
START_TEST(stdout_write_failure_is_status_1)
{
    static const char *const argvs[][4] = {{"--version", NULL, NULL, NULL},
                                           {"--json", "hw", "show", "h100"}};
    size_t k;
    for (k = 0; k < sizeof argvs / sizeof argvs[0]; k++) {
        char path[1024], errpath[] = "/tmp/gp-test-err-XXXXXX", buf[512];
        const char *args[6];
        int efd = mkstemp(errpath), ofd = open("/dev/full", O_WRONLY);
        ssize_t n;
        size_t i;
        ck_assert_int_ge(efd, 0);
        ck_assert_int_ge(ofd, 0);
        snprintf(path, sizeof path, "%s/gpuplan", gp_test_build_dir());
        args[0] = path;
        for (i = 0; i < 4; i++)
            args[i + 1] = argvs[k][i];
        args[5] = NULL;
        ck_assert_int_eq(gp_test_exec(args, NULL, ofd, efd), 1);
        lseek(efd, 0, SEEK_SET);
        n = read(efd, buf, sizeof buf - 1);
        buf[n > 0 ? n : 0] = '\0';
        ck_assert_msg(strstr(buf, "writing to standard output failed: No space left on device") !=
                          NULL,
                      "stderr: %s", buf);
        close(efd);
        close(ofd);
        unlink(errpath);
    }
}
END_TEST

Suite *gp_test_suite_badinput(void)
{
    Suite *s = suite_create("badinput");
    TCase *tc = tcase_create("badinput");
    parse_doc();
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, document_parses_with_40_numbered_rows);
    tcase_add_test(tc, every_command_has_rows);
    tcase_add_test(tc, every_command_takes_dash_h);
    tcase_add_loop_test(tc, row_runs_as_documented, 0, (int)n_rows);
    tcase_add_test(tc, refusals_wrote_nothing);
    tcase_add_test(tc, stdout_write_failure_is_status_1);
    suite_add_tcase(s, tc);
    return s;
}
