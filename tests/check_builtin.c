/* The shipped database as compiled in: lib/gen/gen_builtin.c parses hwdb/
 * at build time and the library rebuilds each file's node tree from flat
 * arrays (gp__ytree_builtin).  These tests hold that tree to what the
 * parser makes of the file on disk, node for node, and check the
 * generator's refusals and its C escapes by hand (docs/hwdb.md, "The
 * built-in database"). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"
#include "testutil.h"

/* Every field of two trees, recursively; `where` names the file. */
static void assert_same_tree(const gp__ynode *a, const gp__ynode *b, const char *where)
{
    const gp__ynode *ka, *kb;
    ck_assert_msg(a->type == b->type && a->line == b->line && a->col == b->col &&
                      a->plain == b->plain && a->len == b->len && a->n == b->n &&
                      memcmp(a->s, b->s, a->len + 1) == 0,
                  "%s:%u:%u: built-in node differs from the file's (%u:%u '%s')", where, a->line,
                  a->col, b->line, b->col, b->s);
    for (ka = a->first, kb = b->first; ka != NULL && kb != NULL; ka = ka->next, kb = kb->next)
        assert_same_tree(ka, kb, where);
    ck_assert_msg(ka == NULL && kb == NULL, "%s:%u:%u: children differ in number", where,
                  a->line, a->col);
}

/* How many *.yaml files lie in dir and its subfolders (one level). */
static size_t count_yaml(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    size_t n = 0;
    if (d == NULL)
        return 0;
    while ((ent = readdir(d)) != NULL) {
        size_t l = strlen(ent->d_name);
        char sub[1024];
        if (ent->d_name[0] == '.')
            continue;
        if (l > 5 && strcmp(ent->d_name + l - 5, ".yaml") == 0) {
            n++;
        } else if (depth == 0) {
            snprintf(sub, sizeof sub, "%s/%s", dir, ent->d_name);
            n += count_yaml(sub, 1);
        }
    }
    closedir(d);
    return n;
}

START_TEST(builtin_trees_match_hwdb)
{
    size_t i;
    gp__arena a;
    /* One entry per YAML file of hwdb/, none missing, none stale; in byte
     * order of their paths (the order the loader applies them). */
    ck_assert_uint_eq(gp__builtin_nfiles, count_yaml("hwdb", 0));
    ck_assert_ptr_null(gp__builtin_files[gp__builtin_nfiles].path);
    gp__arena_init(&a);
    for (i = 0; i < gp__builtin_nfiles; i++) {
        const gp__builtin_file *f = &gp__builtin_files[i];
        char path[1024], *text;
        gp__ynode *disk, *built;
        gp_err e;
        if (i > 0)
            ck_assert_msg(strcmp(gp__builtin_files[i - 1].path, f->path) < 0, "%s after %s",
                          f->path, gp__builtin_files[i - 1].path);
        snprintf(path, sizeof path, "hwdb/%s", f->path);
        text = gp_test_slurp(path);
        ck_assert_msg(text != NULL, "%s: cannot read", path);
        gp__arena_reset(&a);
        ck_assert_int_eq(gp__yaml_parse(&a, path, text, strlen(text), &disk, &e), GP_OK);
        ck_assert_int_eq(gp__ytree_builtin(&a, f, &built, &e), GP_OK);
        assert_same_tree(built, disk, path);
        free(text);
    }
    gp__arena_free(&a);
}
END_TEST

static const gp__builtin_file *builtin_file(const char *path)
{
    size_t i;
    for (i = 0; i < gp__builtin_nfiles; i++)
        if (strcmp(gp__builtin_files[i].path, path) == 0)
            return &gp__builtin_files[i];
    ck_abort_msg("%s is not built in", path);
    return NULL;
}

/* hwdb/formats/awq-int4-g128.yaml, read by eye: ten keys (id, name,
 * aliases, kind, src, sources, note, bits, compute, group); "id:" at 1:1
 * with the plain value awq-int4-g128 at 1:5; "aliases: [awq, awq-4bit,
 * awq-int4]" on line 3, the flow list at column 10 holding three items;
 * "note: >-" on line 8, a folded (not plain) scalar from column 7 whose two
 * lines join with one space; "group: 128" the last pair, on line 13. */
START_TEST(builtin_tree_by_hand)
{
    gp__arena a;
    gp__ynode *root, *k;
    gp_err e;
    unsigned i;
    gp__arena_init(&a);
    ck_assert_int_eq(gp__ytree_builtin(&a, builtin_file("formats/awq-int4-g128.yaml"), &root, &e),
                     GP_OK);
    ck_assert_int_eq(root->type, GP_Y_MAP);
    ck_assert_uint_eq(root->n, 10);
    k = root->first;
    ck_assert_str_eq(k->s, "id");
    ck_assert_uint_eq(k->line, 1);
    ck_assert_uint_eq(k->col, 1);
    ck_assert_str_eq(k->next->s, "awq-int4-g128");
    ck_assert_uint_eq(k->next->len, 13);
    ck_assert_uint_eq(k->next->col, 5);
    ck_assert_int_eq(k->next->plain, 1);
    k = k->next->next->next->next; /* aliases */
    ck_assert_str_eq(k->s, "aliases");
    ck_assert_int_eq(k->next->type, GP_Y_SEQ);
    ck_assert_uint_eq(k->next->n, 3);
    ck_assert_uint_eq(k->next->line, 3);
    ck_assert_uint_eq(k->next->col, 10);
    ck_assert_str_eq(k->next->first->next->next->s, "awq-int4");
    for (i = 0; i < 4; i++) /* kind, src, sources, note */
        k = k->next->next;
    ck_assert_str_eq(k->s, "note");
    ck_assert_uint_eq(k->next->line, 8);
    ck_assert_uint_eq(k->next->col, 7);
    ck_assert_int_eq(k->next->plain, 0);
    ck_assert_ptr_nonnull(strstr(k->next->s, "= 4.15625 bits per weight."));
    for (i = 0; i < 3; i++) /* bits, compute, group */
        k = k->next->next;
    ck_assert_str_eq(k->s, "group");
    ck_assert_uint_eq(k->line, 13);
    ck_assert_str_eq(k->next->s, "128");
    ck_assert_ptr_null(k->next->next);
    gp__arena_free(&a);
}
END_TEST

/* A malformed shipped file stops the build with the parser's own message:
 * tests/data/bad/db-duplicate-key/gpus/dup.yaml repeats "name" on line 3
 * (first on line 2), as bad-input row 14 reports it at run time. */
START_TEST(generator_refuses_bad_yaml)
{
    const char *dup[] = {"tests/data/bad/db-duplicate-key",
                         "tests/data/bad/db-duplicate-key/gpus/dup.yaml", NULL};
    const char *outside[] = {"hwdb", "tests/data/bad/db-duplicate-key/gpus/dup.yaml", NULL};
    char *err = NULL;
    ck_assert_int_eq(gp_test_run_env("gen/gen_builtin", dup, NULL, NULL, &err), 1);
    ck_assert_msg(strstr(err, "tests/data/bad/db-duplicate-key/gpus/dup.yaml:3:1: duplicate key "
                              "'name' (first at line 2)") != NULL,
                  "%s", err);
    free(err);
    ck_assert_int_eq(gp_test_run_env("gen/gen_builtin", outside, NULL, NULL, &err), 1);
    ck_assert_msg(strstr(err, "tests/data/bad/db-duplicate-key/gpus/dup.yaml is not under hwdb/") !=
                      NULL,
                  "%s", err);
    free(err);
}
END_TEST

/* Bytes the shipped files do not hold yet, through the generator's C
 * literal: YAML "a\"b\\c??=d\u00e9\te" is the scalar a"b\c??=d, then é
 * (UTF-8 0xC3 0xA9 = octal 303 251), a tab (011), e.  In C: '"' and '\\'
 * escaped, each '?' escaped so "??=" is no trigraph, the rest as 3-digit
 * octal; the scalar is 13 bytes. */
START_TEST(generator_escapes)
{
    char dir[256], file[300];
    const char *argv[] = {dir, file, NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/x.yaml", "x: \"a\\\"b\\\\c?\?=d\\u00e9\\te\"\n"), 0);
    snprintf(file, sizeof file, "%s/gpus/x.yaml", dir);
    ck_assert_int_eq(gp_test_run_env("gen/gen_builtin", argv, NULL, &out, &err), 0);
    ck_assert_msg(strstr(out, "a\\\"b\\\\c\\?\\?=d\\303\\251\\011e\\000") != NULL, "%s", out);
    /* The root map (1 pair, first child at index 1 + 1), the key "x" at
     * offset 1 (offset 0 is the empty string), the value after it at 3. */
    ck_assert_ptr_nonnull(strstr(out, "{GP_Y_MAP, 0, 1u, 1u, 0u, 0u, 1u, 2u, 0u}"));
    ck_assert_ptr_nonnull(strstr(out, "{GP_Y_SCALAR, 1, 1u, 1u, 1u, 1u, 0u, 0u, 3u}"));
    ck_assert_ptr_nonnull(strstr(out, "{GP_Y_SCALAR, 0, 1u, 4u, 3u, 13u, 0u, 0u, 0u}"));
    ck_assert_ptr_nonnull(strstr(out, "{\"gpus/x.yaml\", n0, "));
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

Suite *gp_test_suite_builtin(void)
{
    Suite *s = suite_create("builtin");
    TCase *tc = tcase_create("tree");
    tcase_add_test(tc, builtin_trees_match_hwdb);
    tcase_add_test(tc, builtin_tree_by_hand);
    suite_add_tcase(s, tc);
    tc = tcase_create("generator");
    tcase_add_test(tc, generator_refuses_bad_yaml);
    tcase_add_test(tc, generator_escapes);
    suite_add_tcase(s, tc);
    return s;
}
