// NCCL communicators (dist::Communicator on GPUs): made for several devices
// of this process at once (ncclCommInitAll), for one rank of a multi-process
// job from a unique id (ncclCommInitRank), or borrowed from the host. Their
// operations are asynchronous on the given stream; the caller makes the
// communicator's device current first.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dist/communicator.h"

namespace cuhost::dist {

// One communicator per listed device, ranks in list order.
std::vector<std::shared_ptr<dist::Communicator>> make_nccl_communicators(const std::vector<int>& devices);

// NCCL's unique id (ncclGetUniqueId), as the bytes rank 0 shares with the others.
std::string make_nccl_unique_id();

// This process's rank of `size`, on `device`, from rank 0's unique id.
std::shared_ptr<dist::Communicator> make_nccl_rank_communicator(const std::string& unique_id, int rank, int size,
                                                                int device);

// A communicator the host made (an ncclComm_t), not destroyed by cuhost.
std::shared_ptr<dist::Communicator> borrow_nccl_communicator(std::uintptr_t comm, int device);

}  // namespace cuhost::dist
