// Whether an MPI launcher (mpirun, mpiexec, srun with PMI/PMIx) started this
// process, as its environment tells: Open MPI, MPICH/Hydra and PMIx each
// set their own variables. Read without MPI, so that a gsort built without
// the distributed sort can tell that it was started as one of several ranks.
#pragma once

namespace gsort {

struct LaunchedRanks {
  bool launched = false;  // some launcher's variable is set
  int size = 0;           // the ranks started, where the environment says (else 0)
  int rank = 0;           // this one's, where it says
};

LaunchedRanks launched_ranks();

}  // namespace gsort
