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

/* ---- fast path for the built-in files ------------------------------------------
 *
 * libyaml spends ~200 instructions per byte; the built-in database is parsed
 * by every gpuplan process, so the files we ship take this hand-written path
 * for a plain subset of YAML: ASCII text, block mappings and sequences, flow
 * mappings and sequences on one or more lines, plain and single/double-quoted
 * one-line scalars, folded/literal block scalars with uniform indentation,
 * comments.  Anything else (and anything odd: duplicate keys, caps, tabs,
 * anchors, tags, documents markers, escapes) answers "unsupported" and the
 * caller falls back to libyaml, which then parses or reports the error.
 * tests/check_db.c checks that both paths build identical trees for every
 * built-in file. */

typedef struct fctx {
    const char *t;
    size_t len, pos, lstart; /* lstart: offset of the current line */
    unsigned line;
    gp__arena *a;
    int depth;
} fctx;

#define F_UNSUP 1
#define F_NOMEM 2

static int f_at_end(const fctx *f)
{
    return f->pos >= f->len;
}

static char f_ch(const fctx *f, size_t off)
{
    return f->pos + off < f->len ? f->t[f->pos + off] : '\0';
}

static unsigned f_col(const fctx *f)
{
    return (unsigned)(f->pos - f->lstart) + 1;
}

static void f_newline(fctx *f)
{
    f->pos++;
    f->line++;
    f->lstart = f->pos;
}

/* Skip spaces, comments and newlines (block context).  Returns F_UNSUP on
 * a tab in indentation or a document marker. */
static int f_skip_block(fctx *f)
{
    for (;;) {
        while (!f_at_end(f) && f->t[f->pos] == ' ')
            f->pos++;
        if (f_at_end(f))
            return 0;
        if (f->t[f->pos] == '#') {
            while (!f_at_end(f) && f->t[f->pos] != '\n')
                f->pos++;
            continue;
        }
        if (f->t[f->pos] == '\n') {
            f_newline(f);
            if ((f_ch(f, 0) == '-' && f_ch(f, 1) == '-' && f_ch(f, 2) == '-') ||
                (f_ch(f, 0) == '.' && f_ch(f, 1) == '.' && f_ch(f, 2) == '.') ||
                f_ch(f, 0) == '%')
                return F_UNSUP;
            continue;
        }
        if (f->t[f->pos] == '\t')
            return F_UNSUP;
        return 0;
    }
}

/* After a value in block context: spaces, an optional comment, then a
 * newline or the end. */
static int f_end_of_line(fctx *f)
{
    while (!f_at_end(f) && f->t[f->pos] == ' ')
        f->pos++;
    if (!f_at_end(f) && f->t[f->pos] == '#' && f->pos > 0 && f->t[f->pos - 1] == ' ')
        while (!f_at_end(f) && f->t[f->pos] != '\n')
            f->pos++;
    return f_at_end(f) || f->t[f->pos] == '\n' ? 0 : F_UNSUP;
}

static gp__ynode *f_node(fctx *f, gp__ytype type)
{
    gp__ynode *n = gp__arena_alloc(f->a, sizeof *n);
    if (n == NULL)
        return NULL;
    n->type = type;
    n->line = f->line;
    n->col = f_col(f);
    n->s = "";
    return n;
}

static int f_scalar_node(fctx *f, gp__ynode *n, const char *s, size_t len, int plain)
{
    if (len > GP_YAML_MAX_SCALAR)
        return F_UNSUP;
    n->type = GP_Y_SCALAR;
    n->plain = plain;
    n->len = len;
    n->s = gp__arena_strndup(f->a, s, len);
    return n->s ? 0 : F_NOMEM;
}

/* A quoted scalar on one line.  Single: '' is a quote.  Double: only \" \\
 * escapes (others are unsupported). */
static int f_quoted(fctx *f, gp__ynode **out)
{
    char q = f->t[f->pos], *buf;
    size_t start, endq, n = 0, i;
    gp__ynode *node = f_node(f, GP_Y_SCALAR);
    if (node == NULL)
        return F_NOMEM;
    start = f->pos + 1;
    /* Find the closing quote and the unescaped length. */
    for (i = start;; i++) {
        if (i >= f->len || f->t[i] == '\n')
            return F_UNSUP;
        if (q == '\'' && f->t[i] == '\'') {
            if (i + 1 < f->len && f->t[i + 1] == '\'') {
                i++;
                n++;
                continue;
            }
            break;
        }
        if (q == '"' && f->t[i] == '\\') {
            if (i + 1 < f->len && (f->t[i + 1] == '"' || f->t[i + 1] == '\\')) {
                i++;
                n++;
                continue;
            }
            return F_UNSUP;
        }
        if (q == '"' && f->t[i] == '"')
            break;
        n++;
    }
    endq = i;
    if (n > GP_YAML_MAX_SCALAR)
        return F_UNSUP;
    buf = gp__arena_alloc(f->a, n + 1);
    if (buf == NULL)
        return F_NOMEM;
    for (n = 0, i = start; i < endq; i++) {
        if ((q == '\'' && f->t[i] == '\'') || (q == '"' && f->t[i] == '\\'))
            i++; /* the escaped character follows */
        buf[n++] = f->t[i];
    }
    buf[n] = '\0';
    f->pos = endq + 1;
    node->plain = 0;
    node->s = buf;
    node->len = n;
    *out = node;
    return 0;
}

static int f_plain_start_ok(char c)
{
    return c != '\0' && strchr("-?:,[]{}#&*!|>'\"%@`\n\t ", c) == NULL;
}

/* A plain scalar.  flow: stop at , [ ] { } too.  Rejects ": " inside and
 * multi-line continuation (the caller checks what follows). */
static int f_plain(fctx *f, int flow, gp__ynode **out)
{
    gp__ynode *node;
    size_t start = f->pos, end;
    char c = f->t[f->pos];
    if (!f_plain_start_ok(c) && !(c == '-' && f_ch(f, 1) != ' ' && f_ch(f, 1) != '\n' &&
                                  f_ch(f, 1) != '\0'))
        return F_UNSUP;
    node = f_node(f, GP_Y_SCALAR);
    if (node == NULL)
        return F_NOMEM;
    while (!f_at_end(f)) {
        c = f->t[f->pos];
        if (c == '\n')
            break;
        if (c == '\t')
            return F_UNSUP;
        if (c == '#' && f->t[f->pos - 1] == ' ')
            break;
        if (c == ':') {
            char d = f_ch(f, 1);
            if (d == ' ' || d == '\n' || d == '\0' || (flow && strchr(",[]{}", d) != NULL))
                break;
            if (flow)
                return F_UNSUP;
        }
        if (flow && strchr(",[]{}", c) != NULL)
            break;
        f->pos++;
    }
    end = f->pos;
    while (end > start && f->t[end - 1] == ' ')
        end--;
    *out = node;
    return f_scalar_node(f, node, f->t + start, end - start, 1);
}

/* Spaces, newlines and comments inside a flow collection. */
static int f_skip_flow(fctx *f)
{
    for (;;) {
        while (!f_at_end(f) && f->t[f->pos] == ' ')
            f->pos++;
        if (f_at_end(f))
            return F_UNSUP;
        if (f->t[f->pos] == '#') {
            while (!f_at_end(f) && f->t[f->pos] != '\n')
                f->pos++;
            continue;
        }
        if (f->t[f->pos] == '\n') {
            f_newline(f);
            if (f_ch(f, 0) != ' ' && f_ch(f, 0) != '\n')
                return F_UNSUP; /* flow lines must be indented (and no ---) */
            continue;
        }
        if (f->t[f->pos] == '\t')
            return F_UNSUP;
        return 0;
    }
}

static int f_append(gp__ynode *parent, gp__ynode **last, gp__ynode *n)
{
    if (*last == NULL)
        parent->first = n;
    else
        (*last)->next = n;
    *last = n;
    return 0;
}

static int f_dup_key(const gp__ynode *map, const gp__ynode *key)
{
    const gp__ynode *k;
    for (k = map->first; k != NULL; k = k->next->next)
        if (strcmp(k->s, key->s) == 0)
            return 1;
    return 0;
}

static int f_flow(fctx *f, gp__ynode **out);

static int f_flow_item(fctx *f, gp__ynode **out)
{
    char c = f->t[f->pos];
    if (c == '[' || c == '{')
        return f_flow(f, out);
    if (c == '\'' || c == '"')
        return f_quoted(f, out);
    return f_plain(f, 1, out);
}

static int f_flow(fctx *f, gp__ynode **out)
{
    char open = f->t[f->pos], close = open == '[' ? ']' : '}';
    gp__ynode *n = f_node(f, open == '[' ? GP_Y_SEQ : GP_Y_MAP), *last = NULL, *k, *v;
    int rc;
    if (n == NULL)
        return F_NOMEM;
    if (++f->depth > GP_YAML_MAX_DEPTH)
        return F_UNSUP;
    f->pos++;
    for (;;) {
        if ((rc = f_skip_flow(f)) != 0)
            return rc;
        if (f->t[f->pos] == close && n->n == 0) {
            f->pos++;
            break;
        }
        if ((rc = f_flow_item(f, &k)) != 0)
            return rc;
        if ((rc = f_skip_flow(f)) != 0)
            return rc;
        if (f->line != k->line && f->t[f->pos] == ':')
            return F_UNSUP; /* an implicit key must sit on one line */
        if (open == '{') {
            if (k->type != GP_Y_SCALAR || f->t[f->pos] != ':' ||
                (f_ch(f, 1) != ' ' && f_ch(f, 1) != '\n') || f_dup_key(n, k))
                return F_UNSUP;
            f->pos++;
            if ((rc = f_skip_flow(f)) != 0)
                return rc;
            if (strchr(",}", f->t[f->pos]) != NULL)
                return F_UNSUP; /* empty value */
            if ((rc = f_flow_item(f, &v)) != 0)
                return rc;
            k->next = v;
            f_append(n, &last, k);
            last = v;
            if ((rc = f_skip_flow(f)) != 0)
                return rc;
        } else {
            if (f->t[f->pos] == ':')
                return F_UNSUP; /* single-pair mapping in a list */
            f_append(n, &last, k);
        }
        if (++n->n > MAX_CHILDREN)
            return F_UNSUP;
        if (f->t[f->pos] == ',') {
            f->pos++;
            if ((rc = f_skip_flow(f)) != 0)
                return rc;
            if (f->t[f->pos] == close)
                return F_UNSUP; /* trailing comma */
            continue;
        }
        if (f->t[f->pos] == close) {
            f->pos++;
            break;
        }
        return F_UNSUP;
    }
    f->depth--;
    *out = n;
    return 0;
}

/* Folded (>) or literal (|) block scalar, clip or strip chomping, every
 * content line at one indentation > parent, no blank or trailing-space lines. */
static int f_block_scalar(fctx *f, unsigned parent_indent, gp__ynode **out)
{
    gp__ynode *n = f_node(f, GP_Y_SCALAR);
    char style = f->t[f->pos], *buf;
    int strip = 0;
    size_t ind = 0, p, total = 0, nlines = 0, pass;
    if (n == NULL)
        return F_NOMEM;
    f->pos++;
    if (f_ch(f, 0) == '-') {
        strip = 1;
        f->pos++;
    }
    if (f_end_of_line(f) != 0 || f_at_end(f))
        return F_UNSUP;
    f_newline(f);
    /* Two passes over the content lines: measure, then copy. */
    buf = NULL;
    for (pass = 0; pass < 2; pass++) {
        size_t o = 0;
        p = f->pos;
        nlines = 0;
        for (;;) {
            size_t sp = 0, e;
            while (p + sp < f->len && f->t[p + sp] == ' ')
                sp++;
            if (p + sp >= f->len) {
                if (sp > 0)
                    return F_UNSUP; /* trailing spaces at the end of the text */
                break;                  /* end of text */
            }
            if (nlines == 0) {
                ind = sp;
                if (ind <= parent_indent)
                    return F_UNSUP;
            }
            if (f->t[p + sp] == '\n' || f->t[p + sp] == '\t')
                return F_UNSUP; /* blank line or tab: folding rules, fall back */
            if (sp < ind)
                break;
            if (sp > ind)
                return F_UNSUP;
            for (e = p + sp; e < f->len && f->t[e] != '\n'; e++)
                ;
            if (e >= f->len || f->t[e - 1] == ' ')
                return F_UNSUP; /* no final newline / trailing spaces */
            if (pass == 1) {
                if (nlines > 0)
                    buf[o++] = style == '>' ? ' ' : '\n';
                memcpy(buf + o, f->t + p + sp, e - (p + sp));
            }
            o += (nlines > 0 && pass == 0 ? 1 : 0) + e - (p + sp);
            nlines++;
            p = e + 1;
        }
        if (nlines == 0)
            return F_UNSUP;
        if (pass == 0) {
            total = o + (strip ? 0 : 1);
            if (total > GP_YAML_MAX_SCALAR)
                return F_UNSUP;
            buf = gp__arena_alloc(f->a, total + 1);
            if (buf == NULL)
                return F_NOMEM;
        } else if (!strip) {
            buf[o++] = '\n';
        }
    }
    n->plain = 0;
    n->s = buf;
    n->len = total;
    /* Advance past the content lines. */
    while (f->pos < p) {
        if (f->t[f->pos] == '\n') {
            f_newline(f);
        } else {
            f->pos++;
        }
    }
    *out = n;
    return 0;
}

/* Does a mapping key start here ("key:" followed by space/newline)? */
static int f_is_key(const fctx *f)
{
    size_t i = f->pos;
    char c = f->t[i];
    if (c == '\'' || c == '"') {
        for (i++; i < f->len && f->t[i] != c && f->t[i] != '\n'; i++)
            if (c == '"' && f->t[i] == '\\')
                i++; /* skip the escaped character */
        if (i >= f->len || f->t[i] != c)
            return 0;
        i++;
        return i < f->len && f->t[i] == ':' &&
               (i + 1 >= f->len || f->t[i + 1] == ' ' || f->t[i + 1] == '\n');
    }
    if (c == '[' || c == '{')
        return 0;
    for (; i < f->len && f->t[i] != '\n'; i++) {
        if (f->t[i] == '#' && i > f->pos && f->t[i - 1] == ' ')
            return 0;
        if (f->t[i] == ':' && (i + 1 >= f->len || f->t[i + 1] == ' ' || f->t[i + 1] == '\n'))
            return 1;
    }
    return 0;
}

static int f_block(fctx *f, unsigned indent, gp__ynode **out);

static int f_bseq(fctx *f, unsigned indent, gp__ynode **out);

/* Block mapping whose keys sit at column `indent` (0-based). */
static int f_bmap(fctx *f, unsigned indent, gp__ynode **out)
{
    gp__ynode *n = f_node(f, GP_Y_MAP), *last = NULL, *k, *v;
    int rc;
    if (n == NULL)
        return F_NOMEM;
    if (++f->depth > GP_YAML_MAX_DEPTH)
        return F_UNSUP;
    for (;;) {
        char c = f->t[f->pos];
        if (!f_is_key(f))
            return F_UNSUP;
        rc = (c == '\'' || c == '"') ? f_quoted(f, &k) : f_plain(f, 0, &k);
        if (rc != 0)
            return rc;
        if (f_ch(f, 0) != ':' || f_dup_key(n, k) ||
            (f_ch(f, 1) != ' ' && f_ch(f, 1) != '\n' && f_ch(f, 1) != '\0'))
            return F_UNSUP;
        f->pos++;
        while (!f_at_end(f) && f->t[f->pos] == ' ')
            f->pos++;
        c = f_ch(f, 0);
        if (c == '\0' || c == '\n' || c == '#') {
            unsigned m;
            if ((rc = f_skip_block(f)) != 0)
                return rc;
            if (f_at_end(f))
                return F_UNSUP; /* null value */
            m = (unsigned)(f->pos - f->lstart);
            if (f->t[f->pos] == '-' && (f_ch(f, 1) == ' ' || f_ch(f, 1) == '\n') && m >= indent)
                rc = f_bseq(f, m, &v);
            else if (m > indent)
                rc = f_block(f, m, &v);
            else
                return F_UNSUP; /* null value */
            if (rc != 0)
                return rc;
        } else {
            if (c == '[' || c == '{')
                rc = f_flow(f, &v);
            else if (c == '\'' || c == '"')
                rc = f_quoted(f, &v);
            else if (c == '>' || c == '|')
                rc = f_block_scalar(f, indent, &v);
            else
                rc = f_plain(f, 0, &v);
            if (rc != 0)
                return rc;
            if (!(v->type == GP_Y_SCALAR && (c == '>' || c == '|')) &&
                (rc = f_end_of_line(f)) != 0)
                return rc;
            if ((rc = f_skip_block(f)) != 0)
                return rc;
        }
        k->next = v;
        f_append(n, &last, k);
        last = v;
        if (++n->n > MAX_CHILDREN)
            return F_UNSUP;
        if (f_at_end(f))
            break;
        {
            unsigned m = (unsigned)(f->pos - f->lstart);
            if (m < indent)
                break;
            if (m > indent)
                return F_UNSUP;
        }
    }
    f->depth--;
    *out = n;
    return 0;
}

/* Block sequence whose dashes sit at column `indent`. */
static int f_bseq(fctx *f, unsigned indent, gp__ynode **out)
{
    gp__ynode *n = f_node(f, GP_Y_SEQ), *last = NULL, *v;
    int rc;
    if (n == NULL)
        return F_NOMEM;
    if (++f->depth > GP_YAML_MAX_DEPTH)
        return F_UNSUP;
    for (;;) {
        unsigned c;
        if (f->t[f->pos] != '-' || f_ch(f, 1) != ' ')
            return F_UNSUP;
        f->pos++;
        while (!f_at_end(f) && f->t[f->pos] == ' ')
            f->pos++;
        if (f_at_end(f) || f->t[f->pos] == '\n' || f->t[f->pos] == '#' || f->t[f->pos] == '-')
            return F_UNSUP;
        c = (unsigned)(f->pos - f->lstart);
        if (f->t[f->pos] == '[' || f->t[f->pos] == '{') {
            if ((rc = f_flow(f, &v)) != 0 || (rc = f_end_of_line(f)) != 0 ||
                (rc = f_skip_block(f)) != 0)
                return rc;
        } else if (f_is_key(f)) {
            if ((rc = f_bmap(f, c, &v)) != 0)
                return rc;
        } else {
            rc = (f->t[f->pos] == '\'' || f->t[f->pos] == '"') ? f_quoted(f, &v)
                                                                : f_plain(f, 0, &v);
            if (rc != 0 || (rc = f_end_of_line(f)) != 0 || (rc = f_skip_block(f)) != 0)
                return rc;
        }
        f_append(n, &last, v);
        if (++n->n > MAX_CHILDREN)
            return F_UNSUP;
        if (f_at_end(f))
            break;
        c = (unsigned)(f->pos - f->lstart);
        if (c < indent || (c == indent && f->t[f->pos] != '-'))
            break;
        if (c > indent)
            return F_UNSUP;
    }
    f->depth--;
    *out = n;
    return 0;
}

/* A block node whose first character is at column `indent`. */
static int f_block(fctx *f, unsigned indent, gp__ynode **out)
{
    char c = f->t[f->pos];
    if (c == '-' && (f_ch(f, 1) == ' ' || f_ch(f, 1) == '\n'))
        return f_bseq(f, indent, out);
    if (f_is_key(f))
        return f_bmap(f, indent, out);
    return F_UNSUP; /* scalar or flow document, multi-line scalar: fall back */
}

int gp__yaml_parse_fast(gp__arena *a, const char *text, size_t len, gp__ynode **root)
{
    fctx f;
    size_t i;
    int rc;
    *root = NULL;
    for (i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch >= 0x80 || (ch < 0x20 && ch != '\n') || ch == 0x7f)
            return F_UNSUP; /* non-ASCII, tabs, CR, control characters */
    }
    memset(&f, 0, sizeof f);
    f.t = text;
    f.len = len;
    f.line = 1;
    f.a = a;
    if (len >= 3 && (memcmp(text, "---", 3) == 0 || text[0] == '%'))
        return F_UNSUP;
    if ((rc = f_skip_block(&f)) != 0)
        return rc;
    if (f_at_end(&f) || f.pos != f.lstart)
        return F_UNSUP; /* empty, or the root is indented */
    if ((rc = f_block(&f, 0, root)) != 0) {
        *root = NULL;
        return rc;
    }
    if ((rc = f_skip_block(&f)) != 0 || !f_at_end(&f)) {
        *root = NULL;
        return F_UNSUP;
    }
    return 0;
}
