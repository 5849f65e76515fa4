// Launcher variables (see launcher_env.h): Open MPI's OMPI_COMM_WORLD_*,
// MPICH/Hydra's PMI_* and MPI_LOCALRANKID, Slurm's SLURM_*; the first
// family present wins.
#include "support/launcher_env.h"

#include <cstdlib>

namespace cuhost::support {

namespace {

using Lookup = const char* (*)(const char*);

int env_int(Lookup lookup, const char* name, int fallback) {
  const char* v = lookup(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  return end && *end == '\0' && n >= 0 ? static_cast<int>(n) : fallback;
}

bool read(Lookup lookup, LauncherEnvironment& e, const char* launcher, const char* rank, const char* size,
          const char* local_rank) {
  const int r = env_int(lookup, rank, -1);
  const int n = env_int(lookup, size, -1);
  if (r < 0 || n <= 0 || r >= n) return false;
  e.launched = true;
  e.launcher = launcher;
  e.rank = r;
  e.size = n;
  e.local_rank = env_int(lookup, local_rank, r);
  return true;
}

const char* process_environment(const char* name) { return std::getenv(name); }

}  // namespace

LauncherEnvironment read_launcher_environment(Lookup lookup) {
  LauncherEnvironment e;
  if (read(lookup, e, "Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"))
    return e;
  if (read(lookup, e, "MPICH/PMI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID")) return e;
  if (read(lookup, e, "Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID")) return e;
  return LauncherEnvironment{};
}

const LauncherEnvironment& launcher_environment() {
  static const LauncherEnvironment env = read_launcher_environment(process_environment);
  return env;
}

}  // namespace cuhost::support
