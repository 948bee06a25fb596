/* libFuzzer harness: the fast YAML subset parser used for the built-in files
 * (lib/db_yaml.c) against libyaml.  Whenever the fast path accepts a text,
 * libyaml must accept it too and build the identical tree (types, 1-based
 * line/col, style, strings); otherwise abort. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db_int.h"
#include "gpuplan/status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const gp__ynode *a, const gp__ynode *b)
{
    const gp__ynode *x, *y;
    if (a->type != b->type || a->line != b->line || a->col != b->col || a->plain != b->plain ||
        a->n != b->n || a->len != b->len || memcmp(a->s, b->s, a->len) != 0)
        return 0;
    for (x = a->first, y = b->first; x != NULL && y != NULL; x = x->next, y = y->next)
        if (!same(x, y))
            return 0;
    return x == NULL && y == NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp__arena fa, sa;
    gp__ynode *fr, *sr;
    gp_err e;
    gp__arena_init(&fa);
    gp__arena_init(&sa);
    if (gp__yaml_parse_fast(&fa, (const char *)data, size, &fr) == 0) {
        if (gp__yaml_parse(&sa, "fuzz.yaml", (const char *)data, size, &sr, &e) != GP_OK)
            abort(); /* fast path accepted what libyaml refuses */
        if (!same(sr, fr))
            abort(); /* different trees */
    }
    gp__arena_free(&fa);
    gp__arena_free(&sa);
    return 0;
}
