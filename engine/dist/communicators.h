// The communicators the host lends to scripts (Runtime::create_communicators,
// Runtime::register_communicator, `cuhost run --nccl`), in rank order, and
// the process-wide group bracketing over them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <cuhost/runtime.h>

#include "dist/communicator.h"

namespace cuhost::dist {

// Creates communicators as the options say (see cuhost/runtime.h) and adds
// them to the lent ones. Throws UserError: CudaSupportError when NCCL or MPI
// is missing, NcclError when their initialization fails, ValueError for
// devices that do not exist.
void create_communicators(const CommunicatorOptions& options);

// Lends an NCCL communicator the host created (not destroyed by cuhost).
void lend_nccl_communicator(std::uintptr_t nccl_comm, int device);

// The lent communicators, in the order they were lent.
std::vector<std::shared_ptr<Communicator>> lent_communicators();

// ncclGroupStart/End over every carrier in use, for the calling thread.
// group_end() throws for an unmatched call.
void group_start();
void group_end();

}  // namespace cuhost::dist
