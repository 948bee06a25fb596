/* gpuplan: entry point.  Strips the global options (--db, --json, --csv,
 * --help, --version) from anywhere in argv and dispatches to a command.
 * gp_cli_main is the whole program and keeps no state between calls, so the
 * test runner (make valgrind) and the fuzz harness call it in-process;
 * GP_CLI_NO_MAIN leaves out main for them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gsl/gsl_errno.h>

#include "cli.h"

static const gp_cli_command *const commands[] = {
#define GP_CLI_CMD(name) &gp_cli_cmd_##name,
#include "cli_cmds.h"
#undef GP_CLI_CMD
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_help(FILE *f)
{
    size_t i;
    fprintf(f, "usage: gpuplan [--db DIR]... [--json|--csv] COMMAND [OPTIONS]\n\n"
               "Plan GPU work as a ledger of compute, bandwidth and movement.\n\n"
               "commands:\n");
    for (i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "\nglobal options:\n"
               "  --db DIR     add an overlay database directory (repeatable, later wins); loaded\n"
               "               after ${XDG_CONFIG_HOME:-~/.config}/gpuplan (when it exists) and\n"
               "               $GPUPLAN_DB (colon-separated)\n"
               "  --json       print one JSON object (SI units, unit-suffixed keys)\n"
               "  --csv        comma-separated values: a command's rows, else its JSON object as\n"
               "               one header record and one value record (nested keys joined by '.')\n"
               "  --help       this text; 'gpuplan COMMAND --help' (or 'gpuplan help COMMAND')\n"
               "               for a command\n"
               "  --version    print the version\n");
}

#define MAX_DIRS 16

/* Fill cli->db_dirs (load order: default directory if it exists, then
 * $GPUPLAN_DB, then --db) and cli->write_dir.  Returns 0, or 2 after a
 * message when there are too many directories. */
static int collect_dirs(gp_cli *cli, const char *const *opt, size_t n_opt)
{
    static char envbuf[4096], defbuf[1024];
    const char *env_dirs[MAX_DIRS], *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    const char *env = getenv("GPUPLAN_DB");
    size_t n_env = 0, i;
    struct stat st;

    defbuf[0] = '\0';
    if (x != NULL && x[0] == '/')
        snprintf(defbuf, sizeof defbuf, "%s/gpuplan", x);
    else if (home != NULL && home[0] != '\0')
        snprintf(defbuf, sizeof defbuf, "%s/.config/gpuplan", home);
    if (env != NULL && env[0] != '\0') {
        char *tok, *save = NULL;
        snprintf(envbuf, sizeof envbuf, "%s", env);
        for (tok = strtok_r(envbuf, ":", &save); tok != NULL; tok = strtok_r(NULL, ":", &save)) {
            if (n_env >= MAX_DIRS) {
                fprintf(stderr, "gpuplan: GPUPLAN_DB names too many directories (at most %d)\n",
                        MAX_DIRS);
                return 2;
            }
            env_dirs[n_env++] = tok;
        }
    }
    cli->n_db = 0;
    if (defbuf[0] != '\0' && stat(defbuf, &st) == 0 && S_ISDIR(st.st_mode))
        cli->db_dirs[cli->n_db++] = defbuf;
    if (cli->n_db + n_env + n_opt > MAX_DIRS) {
        fprintf(stderr, "gpuplan: too many overlay directories (at most %d with GPUPLAN_DB and --db)\n",
                MAX_DIRS);
        return 2;
    }
    for (i = 0; i < n_env; i++)
        cli->db_dirs[cli->n_db++] = env_dirs[i];
    for (i = 0; i < n_opt; i++)
        cli->db_dirs[cli->n_db++] = opt[i];
    cli->write_dir_is_default = n_opt == 0 && n_env == 0;
    snprintf(cli->write_dir, sizeof cli->write_dir, "%s",
             n_opt > 0 ? opt[0] : n_env > 0 ? env_dirs[0] : defbuf);
    return 0;
}

static void free_cli(gp_cli *cli)
{
    gp_db_free(cli->db);
    cli->db = NULL;
    json_decref(cli->notes);
    cli->notes = NULL;
}

int gp_cli_main(int argc, char **argv)
{
    gp_cli cli;
    char **rest;
    static char help_word[] = "help", help_opt[] = "--help";
    char help_cmd[32], *help_argv[3];
    int nrest = 0, i, status, ended = 0, version = 0;
    const char *opt_dirs[MAX_DIRS];
    size_t n_opt = 0, c;

    memset(&cli, 0, sizeof cli);
    gp_cli_set_flat_csv(0);
    /* The library never aborts: GSL reports through return codes. */
    gsl_set_error_handler_off();

    rest = calloc((size_t)argc + 1, sizeof *rest);
    if (rest == NULL) {
        fprintf(stderr, "gpuplan: out of memory\n");
        return GP_EXIT_FAIL;
    }
    rest[nrest++] = argv[0];
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            /* Before the command it only ends the global options; after
             * it, the command's getopt sees it too. */
            ended = nrest == 1;
            for (i += nrest == 1; i < argc; i++)
                rest[nrest++] = argv[i];
            break;
        } else if (strcmp(a, "--db") == 0 || strncmp(a, "--db=", 5) == 0) {
            const char *dir = a[4] == '=' ? a + 5 : (i + 1 < argc ? argv[++i] : NULL);
            if (dir == NULL || dir[0] == '\0') {
                fprintf(stderr, "gpuplan: option '--db' needs a directory; try 'gpuplan --help'\n");
                free(rest);
                return GP_EXIT_USAGE;
            }
            if (n_opt >= MAX_DIRS) {
                fprintf(stderr, "gpuplan: too many '--db' options (at most %d)\n", MAX_DIRS);
                free(rest);
                return GP_EXIT_USAGE;
            }
            opt_dirs[n_opt++] = dir;
        } else if (strcmp(a, "--json") == 0) {
            cli.json = 1;
        } else if (strcmp(a, "--csv") == 0) {
            cli.csv = 1;
        } else if (strcmp(a, "--version") == 0 && nrest == 1) {
            version = 1; /* printed once the rest is known to be empty */
        } else if ((strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) && nrest == 1 &&
                   !version) {
            /* "gpuplan --help decode" is "gpuplan help decode". */
            if (i + 1 < argc && argv[i + 1][0] != '-') {
                rest[nrest++] = help_word;
                continue;
            }
            print_help(stdout);
            free(rest);
            return GP_EXIT_OK;
        } else {
            rest[nrest++] = argv[i];
        }
    }
    rest[nrest] = NULL;
    if (version) {
        /* "gpuplan --version extra": an argument it does not take. */
        if (nrest > 1) {
            fprintf(stderr, "gpuplan: '--version' takes no argument (got '%s'); try 'gpuplan "
                            "--help'\n",
                    rest[1]);
            free(rest);
            return GP_EXIT_USAGE;
        }
        printf("gpuplan %s\n", gp_version_string());
        free(rest);
        return GP_EXIT_OK;
    }
    if (nrest >= 2 && strcmp(rest[1], "help") == 0) {
        /* "gpuplan help" is "gpuplan --help"; "gpuplan help COMMAND" is
         * "gpuplan COMMAND --help". */
        if (nrest == 2 || (nrest == 3 && (strcmp(rest[2], "--help") == 0 ||
                                          strcmp(rest[2], "-h") == 0))) {
            print_help(stdout);
            free(rest);
            return GP_EXIT_OK;
        }
        for (c = 0; c < N_COMMANDS && strcmp(rest[2], commands[c]->name) != 0; c++)
            ;
        if (nrest > 3 || c == N_COMMANDS) {
            size_t k;
            if (nrest > 3)
                fprintf(stderr, "gpuplan: 'help' takes one command (got '%s' after '%s')",
                        rest[3], rest[2]);
            else {
                fprintf(stderr, "gpuplan: help: unknown command '%s' (commands:", rest[2]);
                for (k = 0; k < N_COMMANDS; k++)
                    fprintf(stderr, " %s", commands[k]->name);
                fprintf(stderr, ")");
            }
            fprintf(stderr, "; try 'gpuplan --help'\n");
            free(rest);
            return GP_EXIT_USAGE;
        }
        snprintf(help_cmd, sizeof help_cmd, "%s", commands[c]->name);
        help_argv[0] = help_cmd;
        help_argv[1] = help_opt;
        help_argv[2] = NULL;
        cli.cmd = commands[c]->name;
        gp_cli_getopt_reset();
        status = commands[c]->run(&cli, 2, help_argv);
        free_cli(&cli);
        free(rest);
        return status;
    }
    if (cli.json && cli.csv) {
        fprintf(stderr, "gpuplan: '--json' and '--csv' exclude each other; try 'gpuplan --help'\n");
        free(rest);
        return GP_EXIT_USAGE;
    }
    if (collect_dirs(&cli, opt_dirs, n_opt) != 0) {
        free(rest);
        return GP_EXIT_USAGE;
    }
    if (nrest < 2) {
        print_help(stderr);
        free(rest);
        return GP_EXIT_USAGE;
    }
    for (c = 0; c < N_COMMANDS; c++) {
        if (strcmp(rest[1], commands[c]->name) == 0) {
            /* --csv prints rows where a command has them; the others print
             * their JSON object as one CSV row. */
            if (cli.csv && !commands[c]->csv) {
                cli.json = 1;
                gp_cli_set_flat_csv(1);
            }
            cli.cmd = commands[c]->name;
            gp_cli_getopt_reset();
            status = commands[c]->run(&cli, nrest - 1, rest + 1);
            free_cli(&cli);
            free(rest);
            return status;
        }
    }
    if (rest[1][0] == '-' && rest[1][1] != '\0' && !ended) {
        /* Before any command: a global option gpuplan does not have ('--'
         * ends them: what follows is the command's name). */
        fprintf(stderr,
                "gpuplan: unknown option '%s' (global options: --db DIR, --json, --csv, --help, "
                "--version); try 'gpuplan --help'\n",
                rest[1]);
    } else {
        size_t k;
        fprintf(stderr, "gpuplan: unknown command '%s' (commands:", rest[1]);
        for (c = 0; c < N_COMMANDS; c++)
            fprintf(stderr, " %s", commands[c]->name);
        fprintf(stderr, ")");
        /* "gpuplan --db hw list": --db took the command for its directory. */
        for (k = 0, c = N_COMMANDS; k < n_opt && c == N_COMMANDS; k++)
            for (c = 0; c < N_COMMANDS && strcmp(opt_dirs[k], commands[c]->name) != 0; c++)
                ;
        if (c < N_COMMANDS)
            fprintf(stderr, "; '--db' took '%s' for its directory: give --db DIR",
                    commands[c]->name);
        fprintf(stderr, "; try 'gpuplan --help'\n");
    }
    free(rest);
    return GP_EXIT_USAGE;
}

#ifndef GP_CLI_NO_MAIN
/* A write to standard output that failed (a full disk, a closed pipe's
 * reader gone: EPIPE when SIGPIPE is ignored) is a failure, not success:
 * "gpuplan ... --json > out.json" on a full disk must not exit 0 with a
 * truncated file.  Status 1 (not the user's input), unless the command
 * already failed. */
int main(int argc, char **argv)
{
    int status = gp_cli_main(argc, argv);
    int bad = ferror(stdout);
    errno = 0;
    if (fclose(stdout) != 0 || bad) {
        fprintf(stderr, "gpuplan: writing to standard output failed: %s\n",
                errno != 0 ? strerror(errno) : "write error");
        return status != GP_EXIT_OK ? status : GP_EXIT_FAIL;
    }
    return status;
}
#endif
