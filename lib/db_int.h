/* Private to libgpuplan: database internals shared by db*.c.  Not installed.
 *
 * db_yaml.c turns YAML text into a small generic node tree (keeping 1-based
 * line/col); db.c walks that tree with a table of field descriptors. */
#ifndef GP_DB_INT_H
#define GP_DB_INT_H

#include <stddef.h>

/* (No other includes: the generated db_builtin_data.c is compiled with -Ilib
 * only.) */
struct gp_err;
struct gp_gpu;

/* One node of a shipped file, parsed at build time (lib/gen/gen_builtin.c):
 * a gp__ynode with indices for pointers, so the data needs no relocations. */
typedef struct gp__bnode {
    unsigned type;         /* gp__ytype                                    */
    unsigned plain;
    unsigned line, col;
    unsigned s, len;       /* offset of the scalar in the file's strings   */
    unsigned n;
    unsigned first, next;  /* index + 1 in the file's nodes; 0: none      */
} gp__bnode;

/* One shipped hwdb file; nodes[0] is the root. */
typedef struct gp__builtin_file {
    const char *path; /* relative to hwdb/, e.g. "gpus/h100-sxm.yaml" */
    const gp__bnode *nodes;
    size_t nnodes;
    const char *strs;
} gp__builtin_file;

extern const gp__builtin_file gp__builtin_files[];
extern const size_t gp__builtin_nfiles;

/* ---- arena: bump allocator, everything freed at once ------------------- */
typedef struct gp__arena_block gp__arena_block;
typedef struct gp__arena {
    gp__arena_block *head;
    size_t used, cap; /* in the head block */
} gp__arena;

void gp__arena_init(gp__arena *a);
void gp__arena_free(gp__arena *a);
/* Forget everything allocated, keeping the newest block for reuse. */
void gp__arena_reset(gp__arena *a);
/* Zeroed, max-aligned memory, or NULL when out of memory. */
void *gp__arena_alloc(gp__arena *a, size_t n);
char *gp__arena_strndup(gp__arena *a, const char *s, size_t n);
char *gp__arena_strdup(gp__arena *a, const char *s);
/* printf into the arena; NULL when out of memory. */
char *gp__arena_printf(gp__arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- YAML node tree ----------------------------------------------------- */
typedef enum gp__ytype { GP_Y_SCALAR, GP_Y_MAP, GP_Y_SEQ } gp__ytype;

typedef struct gp__ynode gp__ynode;
struct gp__ynode {
    gp__ytype type;
    unsigned line, col;  /* 1-based start mark                          */
    int plain;           /* scalar written without quotes               */
    const char *s;       /* scalar text, NUL-terminated                 */
    size_t len;
    size_t n;            /* children: map = pairs (key, value); seq = items */
    gp__ynode *first;    /* map children alternate key, value           */
    gp__ynode *next;
};

#define GP_YAML_MAX_DEPTH 32
#define GP_YAML_MAX_SCALAR 4096
#define GP_YAML_MAX_FILE (16u << 20)

/* Parse `text` (one YAML document) into a tree allocated in `a`.  Refuses
 * anchors/aliases, tags other than the standard ones, nesting deeper than
 * GP_YAML_MAX_DEPTH, scalars longer than GP_YAML_MAX_SCALAR, duplicate keys,
 * non-scalar keys, empty input and more than one document.  `name` is used
 * in messages.  Returns GP_OK, GP_EPARSE or GP_ENOMEM. */
int gp__yaml_parse(gp__arena *a, const char *name, const char *text, size_t len,
                   gp__ynode **root, struct gp_err *e);


/* The node tree of a shipped file, in `a`: what gp__yaml_parse gave for
 * its text at build time.  Returns GP_OK or GP_ENOMEM. */
int gp__ytree_builtin(gp__arena *a, const gp__builtin_file *f, gp__ynode **root,
                      struct gp_err *e);

/* Plain scalar that YAML reads as null ("", "~", "null"). */
int gp__yaml_is_null(const gp__ynode *n);

/* Words of a hardware or model name for lenient matching (db.c lookups,
 * calib.c device names): text after the last '/' (a Hugging Face "org/"
 * prefix goes), split at non-alphanumerics, lower-cased, each cut to 31
 * characters, vendor and packaging words dropped (nvidia, geforce, tesla,
 * amd, instinct, generation, meta, hf).  Stores at most `cap` words; returns how
 * many there are (more than cap: the rest were not stored).
 * "NVIDIA GeForce RTX 4090" -> rtx 4090; "meta-llama/Llama-2-7b-hf" ->
 * llama 2 7b. */
#define GP__WORD_MAX 32
size_t gp__name_words(const char *s, char w[][GP__WORD_MAX], size_t cap);

/* Edit distance between a and b (ASCII case folded), or cap + 1 once it
 * exceeds cap: the did-you-mean of ids, engines and formats. */
size_t gp__edit_distance(const char *a, const char *b, size_t cap);
/* How many edits a did-you-mean allows for `name`: a third of its length,
 * 1 to 3 (the database's ids and the engine names alike). */
size_t gp__suggest_limit(const char *name);
/* Whether GPU g's vendor is `name`, a whole word ("Intel Corporation" is
 * Intel, "Intelligent" is not; "Advanced Micro Devices" is AMD): the engine
 * builds per vendor and the unified-memory parts alike. */
int gp__vendor_is(const struct gp_gpu *g, const char *name);

#endif /* GP_DB_INT_H */
