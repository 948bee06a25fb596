/* Build-time tool: compile the shipped hwdb/ into C data.
 *
 *   gen_builtin DIR FILE...  > db_builtin_data.c
 *
 * Each FILE (a path under DIR) is parsed here, at build time, by the same
 * parser the library uses for overlays (lib/db_yaml.c), and emitted as a
 * flat array of nodes (gp__bnode: indices, no pointers, so the data needs no
 * relocations) and one block of NUL-terminated strings.  At run time
 * gp__ytree_builtin() turns a file's array back into the node tree that
 * db.c validates, keeping every line and column, so `gpuplan` no longer
 * runs libyaml over 640 kB of text at each start (98 % of a `hw show`'s
 * instructions before; see docs/hwdb.md, "The built-in database").
 *
 * A YAML error in a shipped file stops the build with file:line:col.
 * Files are emitted in byte order of their paths relative to DIR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"
#include "gpuplan/status.h"

typedef struct strbuf {
    char *p;
    size_t len, cap;
} strbuf;

static void die(const char *what)
{
    fprintf(stderr, "gen_builtin: %s\n", what);
    exit(1);
}

static size_t sb_add(strbuf *b, const char *s, size_t n)
{
    size_t at = b->len;
    if (n + 1 > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        char *p;
        while (n + 1 > cap - b->len)
            cap *= 2;
        if ((p = realloc(b->p, cap)) == NULL)
            die("out of memory");
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->p[b->len + n] = '\0';
    b->len += n + 1;
    return at;
}

static size_t subtree(const gp__ynode *n)
{
    size_t c = 1;
    const gp__ynode *k;
    for (k = n->first; k != NULL; k = k->next)
        c += subtree(k);
    return c;
}

/* Node `n` at index `idx` (preorder: a first child follows its parent, a
 * next sibling follows the whole subtree); its children after it. */
static void emit_node(FILE *out, strbuf *strs, const gp__ynode *n, size_t idx)
{
    static const char *const tname[] = {"GP_Y_SCALAR", "GP_Y_MAP", "GP_Y_SEQ"};
    size_t size = subtree(n), at = 0, child = idx + 1;
    const gp__ynode *k;
    if (n->type == GP_Y_SCALAR && n->len > 0)
        at = sb_add(strs, n->s, n->len);
    fprintf(out, "    {%s, %d, %uu, %uu, %zuu, %zuu, %zuu, %zuu, %zuu},\n", tname[n->type],
            n->plain ? 1 : 0, n->line, n->col, at, n->len, n->n,
            n->first != NULL ? idx + 2 : 0, n->next != NULL ? idx + size + 1 : 0);
    for (k = n->first; k != NULL; k = k->next) {
        emit_node(out, strs, k, child);
        child += subtree(k);
    }
}

/* The string block as a C literal: printable ASCII as is (but '"', '\\' and
 * '?', which could start a trigraph), every other byte as a 3-digit octal
 * escape, which no following digit can extend. */
static void emit_strings(FILE *out, const strbuf *b)
{
    size_t i, col = 0;
    fputs("    \"", out);
    for (i = 0; i < b->len; i++) {
        unsigned char ch = (unsigned char)b->p[i];
        if (ch == '"' || ch == '\\' || ch == '?')
            col += (size_t)fprintf(out, "\\%c", ch);
        else if (ch >= 0x20 && ch < 0x7f)
            col += (size_t)(fputc(ch, out) != EOF);
        else
            col += (size_t)fprintf(out, "\\%03o", ch);
        if (col >= 72 && i + 1 < b->len) {
            fputs("\"\n    \"", out);
            col = 0;
        }
    }
    fputs("\"", out);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (f == NULL)
        return NULL;
    do {
        if (cap - n < 65536) {
            char *p = realloc(buf, cap += 65536);
            if (p == NULL)
                die("out of memory");
            buf = p;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Parse and emit file i (path rel under dir); 0 on success. */
static int emit_file(gp__arena *a, const char *dir, const char *rel, size_t i)
{
    char path[4096];
    size_t len;
    char *text;
    gp__ynode *root;
    gp_err e;
    strbuf strs = {NULL, 0, 0};
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    if ((text = read_all(path, &len)) == NULL) {
        fprintf(stderr, "gen_builtin: %s: cannot read\n", path);
        return 1;
    }
    gp_err_clear(&e);
    gp__arena_reset(a);
    if (gp__yaml_parse(a, path, text, len, &root, &e) != GP_OK) {
        char msg[1024];
        fprintf(stderr, "%s\n", gp_err_format(&e, msg, sizeof msg));
        free(text);
        return 1;
    }
    sb_add(&strs, "", 0); /* offset 0: the empty string */
    printf("\n/* %s */\nstatic const gp__bnode n%zu[] = {\n", rel, i);
    emit_node(stdout, &strs, root, 0);
    printf("};\nstatic const char s%zu[] =\n", i);
    emit_strings(stdout, &strs);
    printf(";\n");
    free(strs.p);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    size_t dlen, nfiles, i;
    const char **rel;
    gp__arena a;
    int rc = 0;
    if (argc < 2)
        die("usage: gen_builtin DIR FILE...");
    dlen = strlen(argv[1]);
    nfiles = (size_t)argc - 2;
    if ((rel = calloc(nfiles + 1, sizeof *rel)) == NULL)
        die("out of memory");
    for (i = 0; i < nfiles && rc == 0; i++) {
        const char *p = argv[i + 2];
        if (strncmp(p, argv[1], dlen) != 0 || p[dlen] != '/') {
            fprintf(stderr, "gen_builtin: %s is not under %s/\n", p, argv[1]);
            rc = 1;
            break;
        }
        rel[i] = p + dlen + 1;
        /* The path goes into a C string literal and the file's messages. */
        if (strspn(rel[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-") !=
            strlen(rel[i])) {
            fprintf(stderr, "gen_builtin: %s: use only letters, digits and . _ / - in names\n", p);
            rc = 1;
        }
    }
    if (rc != 0) {
        free(rel);
        return rc;
    }
    qsort(rel, nfiles, sizeof *rel, by_path);
    gp__arena_init(&a);
    printf("/* Generated by lib/gen/gen_builtin.c from %s/ -- do not edit. */\n", argv[1]);
    printf("#include <stddef.h>\n#include \"db_int.h\"\n");
    for (i = 0; i < nfiles && rc == 0; i++)
        rc = emit_file(&a, argv[1], rel[i], i);
    gp__arena_free(&a);
    if (rc == 0) {
        printf("\nconst gp__builtin_file gp__builtin_files[] = {\n");
        for (i = 0; i < nfiles; i++)
            printf("    {\"%s\", n%zu, sizeof n%zu / sizeof n%zu[0], s%zu},\n", rel[i], i, i, i, i);
        printf("    {NULL, NULL, 0, NULL}\n};\nconst size_t gp__builtin_nfiles = %zu;\n", nfiles);
    }
    free(rel);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        die("cannot write the output");
    return rc;
}
