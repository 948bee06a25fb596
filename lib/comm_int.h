/* Private to the library (not installed): the fast path gp_scale_eval uses. */
#ifndef GP_COMM_INT_H
#define GP_COMM_INT_H

#include "gpuplan/comm.h"

/* As gp_comm_eval for collective `op`, but only the time on one basis
 * (ceiling != 0: datasheet; else expected) into *time_s, and no ledger;
 * *used (may be NULL) gets the algorithm priced: GP_COLL_AUTO resolved as
 * gp_comm_eval resolves it (NVLS or the ring; one GPU or 0 bytes: the
 * ring), any other algo as given.  p must be non-NULL.  Same validation
 * and errors as gp_comm_eval. */
int gp__comm_time(const gp_topo *t, gp_coll_op op, gp_coll_algo algo, double bytes,
                  const gp_comm_params *p, int ceiling, double *time_s, gp_coll_algo *used,
                  gp_err *e);

#endif /* GP_COMM_INT_H */
