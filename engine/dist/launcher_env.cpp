// Launcher variables (see launcher_env.h): Open MPI's OMPI_COMM_WORLD_*,
// MPICH/Hydra's PMI_* and MPI_LOCALRANKID, Slurm's SLURM_*; the first
// family present wins.
#include "dist/launcher_env.h"

#include <cstdlib>

namespace cuhost::dist {

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  return end && *end == '\0' && n >= 0 ? static_cast<int>(n) : fallback;
}

bool read(LauncherEnvironment& e, const char* launcher, const char* rank, const char* size, const char* local_rank) {
  const int r = env_int(rank, -1);
  const int n = env_int(size, -1);
  if (r < 0 || n <= 0) return false;
  e.launched = true;
  e.launcher = launcher;
  e.rank = r;
  e.size = n;
  e.local_rank = env_int(local_rank, r);
  return true;
}

}  // namespace

const LauncherEnvironment& launcher_environment() {
  static const LauncherEnvironment env = [] {
    LauncherEnvironment e;
    if (read(e, "Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK")) return e;
    if (read(e, "MPICH/PMI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID")) return e;
    if (read(e, "Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID")) return e;
    return e;
  }();
  return env;
}

}  // namespace cuhost::dist
