/* Private to the library (not installed): the fast path gp_scale_eval uses. */
#ifndef GP_COMM_INT_H
#define GP_COMM_INT_H

#include "gpuplan/comm.h"

/* As gp_comm_eval for collective `op`, but only the time on one basis
 * (ceiling != 0: datasheet; else expected) into *time_s, and no ledger.
 * p must be non-NULL.  Same validation and errors as gp_comm_eval; with
 * GP_COLL_AUTO, the algorithm gp__comm_algo names. */
int gp__comm_time(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double bytes,
                  const gp_comm_params *p, int ceiling, double *time_s, gp_err *e);

/* The algorithm gp_comm_eval prices for this request (GP_COLL_AUTO
 * resolved: NVLS or the ring; one GPU or 0 bytes: the ring).  The request
 * must be valid (gp__comm_time returned GP_OK for it). */
gp_coll_algo gp__comm_algo(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double bytes,
                           const gp_comm_params *p);

#endif /* GP_COMM_INT_H */
