// What a parallel launcher (mpirun/mpiexec of Open MPI or MPICH, srun) tells
// each process it starts through the environment: its rank, the number of
// ranks, and its rank among the processes on its own host (which picks its
// GPU). Read without initializing MPI, so the device can be chosen before
// the CUDA context is made.
#pragma once

namespace cuhost::support {

struct LauncherEnvironment {
  bool launched = false;  // a launcher's variables were found
  int rank = 0;           // in the whole job
  int size = 1;
  int local_rank = -1;        // on this host; -1 when not launched
  const char* launcher = "";  // "Open MPI", "MPICH/PMI", "Slurm"
};

// Read once per process.
const LauncherEnvironment& launcher_environment();

// What `lookup` (getenv, or a test's table) says; launcher_environment() is
// this over the process environment.
LauncherEnvironment read_launcher_environment(const char* (*lookup)(const char* name));

}  // namespace cuhost::support
