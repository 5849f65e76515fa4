// The communicator of a single rank in one process (the CPU backend without
// MPI): collectives are copies, and a send to itself is received by the
// matching receive of the same group.
#pragma once

#include <memory>

#include "dist/communicator.h"

namespace cuhost::dist {

std::shared_ptr<Communicator> make_self_communicator(int device);

}  // namespace cuhost::dist
