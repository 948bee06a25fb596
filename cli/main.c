/* gpuplan: entry point.  Strips the global options (--db, --json, --csv,
 * --help, --version) from anywhere in argv and dispatches to a command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
               "  --db DIR     add an overlay database directory (repeatable; also $GPUPLAN_DB,\n"
               "               colon-separated)\n"
               "  --json       print one JSON object (SI units, unit-suffixed keys)\n"
               "  --csv        print comma-separated values where a command has rows\n"
               "  --help       this text; 'gpuplan COMMAND --help' for a command\n"
               "  --version    print the version\n");
}

static void free_cli(gp_cli *cli)
{
    gp_db_free(cli->db);
    cli->db = NULL;
}

int main(int argc, char **argv)
{
    gp_cli cli;
    char **rest;
    int nrest = 0, i, status;
    const char *env;
    size_t c;

    memset(&cli, 0, sizeof cli);
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
            for (; i < argc; i++)
                rest[nrest++] = argv[i];
            break;
        } else if (strcmp(a, "--db") == 0 || strncmp(a, "--db=", 5) == 0) {
            const char *dir = a[4] == '=' ? a + 5 : (i + 1 < argc ? argv[++i] : NULL);
            if (dir == NULL || dir[0] == '\0') {
                fprintf(stderr, "gpuplan: option '--db' needs a directory; try 'gpuplan --help'\n");
                free(rest);
                return GP_EXIT_USAGE;
            }
            if (cli.n_db >= sizeof cli.db_dirs / sizeof cli.db_dirs[0]) {
                fprintf(stderr, "gpuplan: too many '--db' options (at most %zu)\n",
                        sizeof cli.db_dirs / sizeof cli.db_dirs[0]);
                free(rest);
                return GP_EXIT_USAGE;
            }
            cli.db_dirs[cli.n_db++] = dir;
        } else if (strcmp(a, "--json") == 0) {
            cli.json = 1;
        } else if (strcmp(a, "--csv") == 0) {
            cli.csv = 1;
        } else if (strcmp(a, "--version") == 0 && nrest == 1) {
            printf("gpuplan %s\n", gp_version_string());
            free(rest);
            return GP_EXIT_OK;
        } else if ((strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) && nrest == 1) {
            print_help(stdout);
            free(rest);
            return GP_EXIT_OK;
        } else {
            rest[nrest++] = argv[i];
        }
    }
    rest[nrest] = NULL;
    if (cli.json && cli.csv) {
        fprintf(stderr, "gpuplan: '--json' and '--csv' exclude each other; try 'gpuplan --help'\n");
        free(rest);
        return GP_EXIT_USAGE;
    }
    /* $GPUPLAN_DB: colon-separated overlay directories after the --db ones. */
    env = getenv("GPUPLAN_DB");
    if (env != NULL && env[0] != '\0') {
        static char envbuf[4096];
        char *tok, *save = NULL;
        snprintf(envbuf, sizeof envbuf, "%s", env);
        for (tok = strtok_r(envbuf, ":", &save); tok != NULL;
             tok = strtok_r(NULL, ":", &save)) {
            if (cli.n_db < sizeof cli.db_dirs / sizeof cli.db_dirs[0])
                cli.db_dirs[cli.n_db++] = tok;
        }
    }
    if (nrest < 2) {
        print_help(stderr);
        free(rest);
        return GP_EXIT_USAGE;
    }
    for (c = 0; c < N_COMMANDS; c++) {
        if (strcmp(rest[1], commands[c]->name) == 0) {
            cli.cmd = commands[c]->name;
            gp_cli_getopt_reset();
            status = commands[c]->run(&cli, nrest - 1, rest + 1);
            free_cli(&cli);
            free(rest);
            return status;
        }
    }
    fprintf(stderr, "gpuplan: unknown command '%s'; try 'gpuplan --help'\n", rest[1]);
    free(rest);
    return GP_EXIT_USAGE;
}
