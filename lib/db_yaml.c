/* YAML text -> a small generic node tree (libyaml event API), plus the
 * arena the database lives in.  Private to libgpuplan (see db_int.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "db_int.h"
#include "gpuplan/status.h"

/* ---- arena ---------------------------------------------------------------- */

struct gp__arena_block {
    gp__arena_block *prev;
    size_t cap;
    max_align_t data[]; /* flexible, max-aligned */
};

#define ARENA_BLOCK (64u << 10)
#define ARENA_ALIGN (sizeof(max_align_t))

void gp__arena_init(gp__arena *a)
{
    a->head = NULL;
    a->used = 0;
    a->cap = 0;
}

void gp__arena_free(gp__arena *a)
{
    gp__arena_block *b, *prev;
    if (a == NULL)
        return;
    for (b = a->head; b != NULL; b = prev) {
        prev = b->prev;
        free(b);
    }
    gp__arena_init(a);
}

void gp__arena_reset(gp__arena *a)
{
    gp__arena_block *b, *prev;
    if (a->head == NULL)
        return;
    for (b = a->head->prev; b != NULL; b = prev) {
        prev = b->prev;
        free(b);
    }
    a->head->prev = NULL;
    a->used = 0;
}

void *gp__arena_alloc(gp__arena *a, size_t n)
{
    void *p;
    n = (n + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    if (n == 0)
        n = ARENA_ALIGN;
    if (a->head == NULL || a->cap - a->used < n) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        gp__arena_block *b;
        if (cap > SIZE_MAX - sizeof *b)
            return NULL;
        b = malloc(sizeof *b + cap);
        if (b == NULL)
            return NULL;
        b->prev = a->head;
        b->cap = cap;
        a->head = b;
        a->used = 0;
        a->cap = cap;
    }
    p = (char *)a->head->data + a->used;
    a->used += n;
    memset(p, 0, n);
    return p;
}

char *gp__arena_strndup(gp__arena *a, const char *s, size_t n)
{
    char *d = gp__arena_alloc(a, n + 1);
    if (d == NULL)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *gp__arena_strdup(gp__arena *a, const char *s)
{
    return gp__arena_strndup(a, s, strlen(s));
}

char *gp__arena_printf(gp__arena *a, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *d;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    d = gp__arena_alloc(a, (size_t)n + 1);
    if (d == NULL)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return d;
}

/* ---- YAML ------------------------------------------------------------------- */

#define MAX_CHILDREN 4096

typedef struct yctx {
    yaml_parser_t parser;
    gp__arena *a;
    const char *name;
    const char *text;
    size_t len;
    gp_err *e;
    const char *keys[GP_YAML_MAX_DEPTH + 2]; /* key path for messages */
    int nkeys;
} yctx;

/* "near 'memory.bandwidth'" for messages; empty at the top. */
static const char *near_key(const yctx *c, char *buf, size_t n)
{
    size_t off = 0;
    int i;
    buf[0] = '\0';
    if (c->nkeys == 0)
        return buf;
    off += (size_t)snprintf(buf, n, " (near field '");
    for (i = 0; i < c->nkeys && off < n; i++)
        off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? "." : "",
                                c->keys[i] ? c->keys[i] : "?");
    if (off < n)
        snprintf(buf + off, n - off, "')");
    return buf;
}

/* Line/col (1-based) of byte offset `off` in the text. */
static void offset_pos(const yctx *c, size_t off, unsigned *line, unsigned *col)
{
    size_t i;
    unsigned l = 1, k = 1;
    if (off > c->len)
        off = c->len;
    for (i = 0; i < off; i++) {
        if (c->text[i] == '\n') {
            l++;
            k = 1;
        } else {
            k++;
        }
    }
    *line = l;
    *col = k;
}

/* The reader decodes ahead of the parser, so on an encoding error the key
 * path is not known yet: name the key written on the offending line. */
static void line_key(const yctx *c, size_t off, char *buf, size_t n)
{
    size_t start, end;
    buf[0] = '\0';
    if (off > c->len)
        off = c->len;
    start = off;
    while (start > 0 && c->text[start - 1] != '\n')
        start--;
    while (start < off && (c->text[start] == ' ' || c->text[start] == '-'))
        start++;
    for (end = start; end < off && c->text[end] != ':' && c->text[end] != '\n'; end++)
        ;
    if (end < off && c->text[end] == ':' && end > start && end - start < 64)
        snprintf(buf, n, " (near field '%.*s')", (int)(end - start), c->text + start);
}

static int parser_error(yctx *c)
{
    yaml_parser_t *p = &c->parser;
    unsigned line, col;
    char nk[300];
    if (p->error == YAML_MEMORY_ERROR)
        return GP_RAISE_AT(c->e, GP_ENOMEM, c->name, 0, 0, "out of memory parsing YAML");
    if (p->error == YAML_READER_ERROR) {
        offset_pos(c, p->problem_offset, &line, &col);
        if (c->nkeys == 0)
            line_key(c, p->problem_offset, nk, sizeof nk);
        else
            near_key(c, nk, sizeof nk);
        if (p->problem_value != -1)
            return GP_RAISE_AT(c->e, GP_EPARSE, c->name, line, col,
                               "malformed YAML: %s (byte 0x%02x at offset %zu)%s",
                               p->problem ? p->problem : "unreadable text",
                               (unsigned)p->problem_value & 0xffu, p->problem_offset, nk);
        return GP_RAISE_AT(c->e, GP_EPARSE, c->name, line, col,
                           "malformed YAML: %s (offset %zu)%s",
                           p->problem ? p->problem : "unreadable text", p->problem_offset, nk);
    }
    line = (unsigned)p->problem_mark.line + 1;
    col = (unsigned)p->problem_mark.column + 1;
    if (c->nkeys == 0)
        line_key(c, p->problem_mark.index + 1, nk, sizeof nk);
    else
        near_key(c, nk, sizeof nk);
    return GP_RAISE_AT(c->e, GP_EPARSE, c->name, line, col, "malformed YAML: %s%s%s%s",
                       p->problem ? p->problem : "syntax error",
                       p->context ? " " : "", p->context ? p->context : "", nk);
}

static int next_event(yctx *c, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&c->parser, ev))
        return parser_error(c);
    return GP_OK;
}

static int refuse(yctx *c, const yaml_event_t *ev, const char *what)
{
    char nk[300];
    return GP_RAISE_AT(c->e, GP_EPARSE, c->name, (unsigned)ev->start_mark.line + 1,
                       (unsigned)ev->start_mark.column + 1,
                       "%s are not allowed in the database%s", what,
                       near_key(c, nk, sizeof nk));
}

/* Build the node that starts with event *ev (consumed by the caller after). */
static int build(yctx *c, yaml_event_t *ev, int depth, gp__ynode **out)
{
    gp__ynode *n, *last = NULL;
    yaml_event_t sub;
    int rc, is_map;
    char nk[300];

    if (ev->type == YAML_ALIAS_EVENT)
        return refuse(c, ev, "YAML aliases (*name)");
    if ((ev->type == YAML_SCALAR_EVENT && ev->data.scalar.anchor != NULL) ||
        (ev->type == YAML_MAPPING_START_EVENT && ev->data.mapping_start.anchor != NULL) ||
        (ev->type == YAML_SEQUENCE_START_EVENT && ev->data.sequence_start.anchor != NULL))
        return refuse(c, ev, "YAML anchors (&name)");
    if ((ev->type == YAML_SCALAR_EVENT && ev->data.scalar.tag != NULL) ||
        (ev->type == YAML_MAPPING_START_EVENT && ev->data.mapping_start.tag != NULL) ||
        (ev->type == YAML_SEQUENCE_START_EVENT && ev->data.sequence_start.tag != NULL))
        return refuse(c, ev, "YAML tags (!tag)");

    n = gp__arena_alloc(c->a, sizeof *n);
    if (n == NULL)
        return GP_RAISE_AT(c->e, GP_ENOMEM, c->name, 0, 0, "out of memory");
    n->line = (unsigned)ev->start_mark.line + 1;
    n->col = (unsigned)ev->start_mark.column + 1;

    if (ev->type == YAML_SCALAR_EVENT) {
        if (ev->data.scalar.length > GP_YAML_MAX_SCALAR)
            return GP_RAISE_AT(c->e, GP_EPARSE, c->name, n->line, n->col,
                               "scalar of %zu bytes is longer than the limit of %u%s",
                               ev->data.scalar.length, (unsigned)GP_YAML_MAX_SCALAR,
                               near_key(c, nk, sizeof nk));
        if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length) != NULL)
            return GP_RAISE_AT(c->e, GP_EPARSE, c->name, n->line, n->col,
                               "scalar contains a NUL character%s", near_key(c, nk, sizeof nk));
        n->type = GP_Y_SCALAR;
        n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        n->len = ev->data.scalar.length;
        n->s = gp__arena_strndup(c->a, (const char *)ev->data.scalar.value, n->len);
        if (n->s == NULL)
            return GP_RAISE_AT(c->e, GP_ENOMEM, c->name, 0, 0, "out of memory");
        *out = n;
        return GP_OK;
    }
    if (ev->type != YAML_MAPPING_START_EVENT && ev->type != YAML_SEQUENCE_START_EVENT)
        return GP_RAISE_AT(c->e, GP_EPARSE, c->name, n->line, n->col,
                           "malformed YAML: unexpected event%s", near_key(c, nk, sizeof nk));
    if (depth >= GP_YAML_MAX_DEPTH)
        return GP_RAISE_AT(c->e, GP_EPARSE, c->name, n->line, n->col,
                           "nesting deeper than %d levels%s", GP_YAML_MAX_DEPTH,
                           near_key(c, nk, sizeof nk));
    is_map = ev->type == YAML_MAPPING_START_EVENT;
    n->type = is_map ? GP_Y_MAP : GP_Y_SEQ;
    n->s = "";
    for (;;) {
        gp__ynode *key = NULL, *val = NULL, *k;
        if ((rc = next_event(c, &sub)) != GP_OK)
            return rc;
        if (sub.type == (is_map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT)) {
            yaml_event_delete(&sub);
            break;
        }
        if (n->n >= MAX_CHILDREN) {
            yaml_event_delete(&sub);
            return GP_RAISE_AT(c->e, GP_EPARSE, c->name, n->line, n->col,
                               "more than %d items in one %s%s", MAX_CHILDREN,
                               is_map ? "mapping" : "list", near_key(c, nk, sizeof nk));
        }
        if (is_map) {
            rc = build(c, &sub, depth + 1, &key);
            yaml_event_delete(&sub);
            if (rc != GP_OK)
                return rc;
            if (key->type != GP_Y_SCALAR)
                return GP_RAISE_AT(c->e, GP_EPARSE, c->name, key->line, key->col,
                                   "mapping keys must be plain strings%s",
                                   near_key(c, nk, sizeof nk));
            for (k = n->first; k != NULL; k = k->next->next)
                if (strcmp(k->s, key->s) == 0) {
                    c->keys[c->nkeys++] = key->s;
                    rc = GP_RAISE_AT(c->e, GP_EPARSE, c->name, key->line, key->col,
                                     "duplicate key '%s' (first at line %u)%s", key->s,
                                     k->line, near_key(c, nk, sizeof nk));
                    c->nkeys--;
                    return rc;
                }
            c->keys[c->nkeys++] = key->s;
            if ((rc = next_event(c, &sub)) != GP_OK) {
                c->nkeys--;
                return rc;
            }
            rc = build(c, &sub, depth + 1, &val);
            yaml_event_delete(&sub);
            c->nkeys--;
            if (rc != GP_OK)
                return rc;
            key->next = val;
            if (last == NULL)
                n->first = key;
            else
                last->next = key;
            last = val;
        } else {
            rc = build(c, &sub, depth + 1, &val);
            yaml_event_delete(&sub);
            if (rc != GP_OK)
                return rc;
            if (last == NULL)
                n->first = val;
            else
                last->next = val;
            last = val;
        }
        n->n++;
    }
    *out = n;
    return GP_OK;
}

int gp__ytree_builtin(gp__arena *a, const gp__builtin_file *f, gp__ynode **root, gp_err *e)
{
    gp__ynode *t;
    size_t i;
    *root = NULL;
    if (f->nnodes == 0 || f->nnodes > SIZE_MAX / sizeof *t ||
        (t = gp__arena_alloc(a, f->nnodes * sizeof *t)) == NULL)
        return GP_RAISE_AT(e, GP_ENOMEM, f->path, 0, 0, "out of memory");
    for (i = 0; i < f->nnodes; i++) {
        const gp__bnode *b = &f->nodes[i];
        t[i].type = (gp__ytype)b->type;
        t[i].line = b->line;
        t[i].col = b->col;
        t[i].plain = (int)b->plain;
        t[i].s = f->strs + b->s;
        t[i].len = b->len;
        t[i].n = b->n;
        t[i].first = b->first != 0 ? &t[b->first - 1] : NULL;
        t[i].next = b->next != 0 ? &t[b->next - 1] : NULL;
    }
    *root = t;
    return GP_OK;
}

int gp__yaml_is_null(const gp__ynode *n)
{
    return n != NULL && n->type == GP_Y_SCALAR && n->plain &&
           (n->len == 0 || strcmp(n->s, "~") == 0 || strcmp(n->s, "null") == 0 ||
            strcmp(n->s, "Null") == 0 || strcmp(n->s, "NULL") == 0);
}

int gp__yaml_parse(gp__arena *a, const char *name, const char *text, size_t len,
                   gp__ynode **root, gp_err *e)
{
    yctx c;
    yaml_event_t ev;
    int rc = GP_OK, ndocs = 0;
    gp__ynode *doc = NULL;

    *root = NULL;
    /* A UTF-8 byte-order mark may open a YAML stream; with the encoding set
     * below, libyaml would read it as part of the first key. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
    }
    if (len > GP_YAML_MAX_FILE)
        return GP_RAISE_AT(e, GP_EPARSE, name, 0, 0, "file of %zu bytes is larger than %u bytes",
                           len, (unsigned)GP_YAML_MAX_FILE);
    memset(&c, 0, sizeof c);
    c.a = a;
    c.name = name;
    c.text = text;
    c.len = len;
    c.e = e;
    if (!yaml_parser_initialize(&c.parser))
        return GP_RAISE_AT(e, GP_ENOMEM, name, 0, 0, "out of memory");
    yaml_parser_set_input_string(&c.parser, (const unsigned char *)text, len);
    yaml_parser_set_encoding(&c.parser, YAML_UTF8_ENCODING);
    for (;;) {
        if ((rc = next_event(&c, &ev)) != GP_OK)
            break;
        if (ev.type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (ev.type == YAML_DOCUMENT_START_EVENT) {
            if (++ndocs > 1) {
                rc = GP_RAISE_AT(e, GP_EPARSE, name, (unsigned)ev.start_mark.line + 1,
                                 (unsigned)ev.start_mark.column + 1,
                                 "more than one YAML document in the file");
                yaml_event_delete(&ev);
                break;
            }
        } else if (ev.type != YAML_STREAM_START_EVENT && ev.type != YAML_DOCUMENT_END_EVENT) {
            rc = build(&c, &ev, 0, &doc);
            if (rc != GP_OK) {
                yaml_event_delete(&ev);
                break;
            }
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&c.parser);
    if (rc != GP_OK)
        return rc;
    if (doc == NULL || gp__yaml_is_null(doc)) {
        unsigned line = 1, col = 1;
        if (doc != NULL) {
            line = doc->line;
            col = doc->col;
        }
        return GP_RAISE_AT(e, GP_EPARSE, name, line, col,
                           "empty file: expected an entry (a mapping) or a list of entries");
    }
    *root = doc;
    return GP_OK;
}
