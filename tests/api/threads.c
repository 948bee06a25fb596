/* `make check-threads`: the library is re-entrant.  Two threads evaluate
 * different inputs through every model at once (decode, a whole request,
 * the training step model, roofline, AllReduce, scaling, units) and each
 * open their own database and calibration overlay; every figure must equal,
 * bit for bit, what one thread computed alone beforehand.  Built against a
 * ThreadSanitizer build of the library, so a data race on hidden mutable
 * state fails it even when the figures happen to agree. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan.h"

#define ROUNDS 20
#define NOUT 9

typedef struct job {
    const char *gpu, *model, *link, *weights;
    double context;
    double out[NOUT];
    int failed;
} job;

static const gp_db *shared_db;

static int fail(job *j, const char *what, const gp_err *e)
{
    fprintf(stderr, "threads: %s on %s: %s\n", what, j->gpu, e->msg);
    j->failed = 1;
    return 1;
}

/* Every model once on the shared (immutable) database. */
static int run(job *j)
{
    gp_err e;
    const gp_gpu *g = gp_db_find_gpu(shared_db, j->gpu);
    const gp_model *m = gp_db_find_model(shared_db, j->model);
    const gp_link *l = gp_db_find_link(shared_db, j->link);
    gp_infer_params p;
    gp_infer_result r;
    gp_infer_e2e e2e;
    gp_train_in in;
    gp_train_result tr;
    gp_roofline_params rp;
    gp_roofline rr;
    gp_topo t;
    gp_comm_result cr;
    gp_scale_req q;
    gp_scale_row rows[4];
    gp_scale_result res;
    const long counts[4] = {1, 2, 4, 8};
    char buf[64];

    gp_err_clear(&e);
    if (g == NULL || m == NULL || l == NULL) {
        strcpy(e.msg, "unknown gpu, model or link");
        return fail(j, "lookup", &e);
    }
    gp_infer_params_init(&p);
    p.gpu = g;
    p.model = m;
    p.link = l;
    p.gpus = 2;
    p.context = j->context;
    p.prompt = 512;
    p.weights = gp_db_find_format(shared_db, j->weights);
    if (gp_infer_eval(&p, &r, &e) != GP_OK)
        return fail(j, "gp_infer_eval", &e);
    j->out[0] = r.expected.tokens_per_s;
    j->out[1] = r.expected.ttft_s;
    p.gpus = 1;
    if (gp_infer_e2e_eval(&p, 2000, &e2e, &e) != GP_OK)
        return fail(j, "gp_infer_e2e_eval", &e);
    j->out[2] = e2e.expected.latency_s;

    gp_train_in_init(&in);
    in.gpu = g;
    in.model = m;
    in.tokens = 1e11;
    in.gpus = 16;
    in.tp = 2;
    in.mfu_mode = GP_MFU_MODEL;
    in.scale_up = l;
    in.scale_out = gp_db_find_link(shared_db, "ib-ndr");
    if (gp_train_estimate(&in, NULL, &tr, &e) != GP_OK)
        return fail(j, "gp_train_estimate", &e);
    j->out[3] = tr.gpu_days;

    gp_roofline_params_init(&rp);
    rp.precision = GP_BF16;
    if (gp_roofline_eval(g, &rp, j->context * 1e9, 1e9, &rr, &e) != GP_OK)
        return fail(j, "gp_roofline_eval", &e);
    j->out[4] = rr.time_expected;

    t.scale_up = l;
    t.gpus_per_node = 8;
    t.scale_out = NULL;
    t.nodes = 1;
    t.nics_per_node = 0;
    if (gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, j->context * 1e4, NULL, &cr, &e) !=
        GP_OK)
        return fail(j, "gp_comm_eval", &e);
    j->out[5] = cr.expected.time_s;

    memset(&q, 0, sizeof q);
    q.scale_up = l;
    q.grad_bytes = j->context * 1e6;
    q.step_compute_s = 1.0;
    if (gp_scale_eval(&q, NULL, counts, 4, rows, &res, &e) != GP_OK)
        return fail(j, "gp_scale_eval", &e);
    j->out[6] = rows[3].speedup;

    if (gp_parse_qty(j->weights[0] == 'f' ? "14GiB" : "13 GB", GP_Q_BYTES, "--bytes", &j->out[7],
                     &e) != GP_OK)
        return fail(j, "gp_parse_qty", &e);
    gp_format_qty(j->out[0], GP_Q_TOKEN_RATE, 3, 0, buf, sizeof buf);
    j->out[8] = (double)strlen(buf);
    return 0;
}

/* A database and a calibration overlay of the thread's own. */
static int own_db(job *j)
{
    gp_err e;
    gp_db *db = NULL, *cal = NULL;
    gp_calib *c = NULL;
    gp_calib_summary s;
    const gp_gpu *g;
    char *text = NULL, near[128];
    int rc = 1;

    gp_err_clear(&e);
    if (gp_db_open(&db, 0, NULL, 0, &e) != GP_OK ||
        gp_calib_read_file_any("tests/data/calib/synthetic-h100.yaml", GP_CALIB_FMT_AUTO, &c,
                               &e) != GP_OK)
        goto out;
    gp_calib_summarize(c, &s);
    if (gp_calib_match_gpu(db, c->dev.name, &g, &e) != GP_OK ||
        gp_calib_overlay_gpu(c, &s, g->id, "threads", &text, &e) != GP_OK ||
        gp_db_open_text(&cal, 0, GP_KIND_GPU, "threads.yaml", text, strlen(text), &e) != GP_OK)
        goto out;
    gp_db_suggest(db, GP_KIND_GPU, j->gpu, near, sizeof near);
    if (gp_db_get_gpu(db, "h1000", "--gpu", &g, &e) != GP_ENOTFOUND)
        goto out;
    rc = 0;
out:
    if (rc)
        fail(j, "own database", &e);
    free(text);
    gp_calib_free(c);
    gp_db_free(cal);
    gp_db_free(db);
    return rc;
}

static void *worker(void *arg)
{
    job *j = arg;
    int i, k;
    for (i = 0; i < ROUNDS && !j->failed; i++) {
        job again = *j;
        if (run(&again) || (i % 5 == 0 && own_db(&again))) {
            j->failed = 1;
            break;
        }
        for (k = 0; k < NOUT; k++)
            if (memcmp(&again.out[k], &j->out[k], sizeof(double)) != 0) {
                fprintf(stderr, "threads: %s figure %d: %.17g alone, %.17g beside another thread\n",
                        j->gpu, k, j->out[k], again.out[k]);
                j->failed = 1;
            }
    }
    return NULL;
}

int main(void)
{
    gp_err e;
    gp_db *db = NULL;
    job jobs[2] = {{"h100", "llama-2-70b", "nvlink4", "fp8", 4096, {0}, 0},
                   {"a100", "mixtral-8x7b", "nvlink3", "q4_k_m", 300, {0}, 0}};
    pthread_t th[2];
    int i, bad = 0;

    if (gp_db_open(&db, 0, NULL, 0, &e) != GP_OK) {
        fprintf(stderr, "threads: %s\n", e.msg);
        return 1;
    }
    shared_db = db;
    for (i = 0; i < 2; i++)
        if (run(&jobs[i]) || own_db(&jobs[i]))
            bad = 1;
    for (i = 0; i < 2 && !bad; i++)
        if (pthread_create(&th[i], NULL, worker, &jobs[i]) != 0)
            return 1;
    for (i = 0; i < 2 && !bad; i++)
        pthread_join(th[i], NULL);
    for (i = 0; i < 2; i++)
        bad |= jobs[i].failed;
    gp_db_free(db);
    if (!bad)
        printf("check-threads: 2 threads x %d rounds, every figure as computed alone: ok\n",
               ROUNDS);
    return bad;
}
