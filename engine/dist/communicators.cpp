// The lent communicators and their creation (see communicators.h). Which
// carrier serves depends on the backend (NCCL on CUDA; MPI or a single rank
// on the CPU) and on whether this process is one rank of an MPI job.
#include "dist/communicators.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <string>

#include "dist/mpi.h"
#include "dist/mpi_communicator.h"
#include "dist/nccl_communicator.h"
#include "dist/self_communicator.h"
#include "runtime/devices.h"
#include "runtime/session.h"
#include "support/diagnostics.h"
#include "support/launcher_env.h"

namespace cuhost::dist {

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<Communicator>> lent;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: communicators live for the process
  return *r;
}

void lend(std::vector<std::shared_ptr<Communicator>> comms) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto& c : comms) r.lent.push_back(std::move(c));
}

std::vector<int> devices_for(const CommunicatorOptions& options) {
  std::vector<int> devices = options.devices;
  if (devices.empty())
    for (int i = 0; i < runtime::device_count(); ++i) devices.push_back(i);
  std::set<int> seen;
  for (int d : devices) {
    if (!runtime::valid_device(d))
      throw UserError(ErrorKind::ValueError, concat("no device ", d, " to create a communicator on (",
                                                    runtime::device_count(), " device(s))"));
    if (!seen.insert(d).second)
      throw UserError(ErrorKind::ValueError, concat("device ", d, " is listed twice for communicators"));
  }
  return devices;
}

// One rank of the MPI job: NCCL over the process's device, bootstrapped
// through MPI, or MPI itself on the CPU backend.
std::shared_ptr<Communicator> mpi_rank_communicator(bool on_gpu, int device) {
  if (!on_gpu) return make_mpi_communicator(device);
  const MpiTable& t = mpi_initialized();
  int rank = 0, size = 1;
  check_mpi(t.MPI_Comm_rank(t.comm_world, &rank), "MPI_Comm_rank");
  check_mpi(t.MPI_Comm_size(t.comm_world, &size), "MPI_Comm_size");
  // Rank 0 makes the id (a failure there still broadcasts, so no rank waits forever).
  std::string id(128, '\0');
  std::string error;
  if (rank == 0) {
    try {
      id = make_nccl_unique_id();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  int failed = error.empty() ? 0 : 1;
  check_mpi(t.MPI_Bcast(&failed, 4, t.byte, 0, t.comm_world), "MPI_Bcast");
  if (failed) throw UserError(ErrorKind::NcclError, rank == 0 ? error : "rank 0 could not create the NCCL unique id");
  check_mpi(t.MPI_Bcast(id.data(), static_cast<int>(id.size()), t.byte, 0, t.comm_world), "MPI_Bcast");
  return make_nccl_rank_communicator(id, rank, size, device);
}

}  // namespace

void create_communicators(const CommunicatorOptions& options) {
  const runtime::Session& s = runtime::session();
  const bool on_gpu = s.backend == Backend::Cuda;
  using Scope = CommunicatorOptions::Scope;
  const bool mpi =
      options.scope == Scope::Mpi || (options.scope == Scope::Auto && support::launcher_environment().launched);
  if (mpi) {
    if (!options.devices.empty())
      throw UserError(ErrorKind::ValueError,
                      "an MPI rank's communicator is on the rank's device (by local rank or --device); devices "
                      "cannot be listed for it");
    lend({mpi_rank_communicator(on_gpu, on_gpu ? s.device : 0)});
    return;
  }
  std::vector<int> devices = devices_for(options);
  if (on_gpu) {
    lend(make_nccl_communicators(devices));
  } else {
    lend({make_self_communicator(devices.front())});
  }
}

void lend_nccl_communicator(std::uintptr_t nccl_comm, int device) {
  if (runtime::session().backend != Backend::Cuda)
    throw UserError(ErrorKind::CudaSupportError, "an NCCL communicator can only be lent on the CUDA backend");
  lend({borrow_nccl_communicator(nccl_comm, device)});
}

std::vector<std::shared_ptr<Communicator>> lent_communicators() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.lent;
}

namespace {
// One communicator per carrier in use (group calls are per carrier).
std::vector<std::shared_ptr<Communicator>> one_per_carrier() {
  std::vector<std::shared_ptr<Communicator>> out;
  std::set<std::string> seen;
  for (auto& c : lent_communicators())
    if (seen.insert(c->carrier()).second) out.push_back(c);
  return out;
}
}  // namespace

void group_start() {
  for (auto& c : one_per_carrier()) c->group_start();
}

void group_end() {
  for (auto& c : one_per_carrier()) c->group_end();
}

}  // namespace cuhost::dist
