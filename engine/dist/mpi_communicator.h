// The communicator of this process as one rank of MPI_COMM_WORLD on the CPU
// backend: collectives run over MPI on host memory (the CPU backend's device
// memory), so multi-process programs run, and are tested, without a GPU.
#pragma once

#include <memory>

#include "dist/communicator.h"

namespace cuhost::dist {

// Initializes MPI if needed. Throws CudaSupportError when MPI is missing.
std::shared_ptr<Communicator> make_mpi_communicator(int device);

}  // namespace cuhost::dist
