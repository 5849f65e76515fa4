// MPI, loaded at run time: Open MPI's libmpi (libmpi.so.40, else libmpi.so)
// is dlopen-ed on first use, never linked, so cuhost starts where MPI is not
// installed. No mpi.h is needed to build: Open MPI's handles are the
// addresses of its predefined objects (MPI_COMM_WORLD is &ompi_mpi_comm_world,
// MPI_FLOAT &ompi_mpi_float, MPI_SUM &ompi_mpi_op_sum), found with dlsym, and
// its constants (MPI_THREAD_MULTIPLE 3, MPI_IN_PLACE (void*)1,
// MPI_STATUS(ES)_IGNORE null) are part of its ABI. MPI is the launcher and
// bootstrap of multi-process runs (each rank takes a GPU by local rank, the
// NCCL unique id travels by MPI_Bcast) and, on the CPU backend, carries the
// collectives themselves.
#pragma once

#include <cstddef>
#include <string>

namespace cuhost::dist {

using MpiComm = void*;
using MpiDatatype = void*;
using MpiOp = void*;
using MpiRequest = void*;
using MpiErrhandler = void*;
using MpiUserFunction = void (*)(void* in, void* inout, int* len, MpiDatatype* type);

constexpr int kMpiSuccess = 0;
constexpr int kMpiThreadMultiple = 3;
inline void* mpi_in_place() { return reinterpret_cast<void*>(1); }

struct MpiTable {
#define CUHOST_MPI_FN(name, ret, params) ret(*name) params = nullptr;
#include "dist/mpi_api.inc"
#undef CUHOST_MPI_FN
  // Predefined objects.
  MpiComm comm_world = nullptr;
  MpiErrhandler errors_return = nullptr;
  MpiDatatype byte = nullptr, int8 = nullptr, uint8 = nullptr, int32 = nullptr, uint32 = nullptr, int64 = nullptr,
              uint64 = nullptr, float32 = nullptr, float64 = nullptr;
  MpiOp sum = nullptr, prod = nullptr, max = nullptr, min = nullptr;
};

struct MpiStatus {
  bool available = false;
  std::string reason;   // why not
  std::string library;  // the name it was loaded under
};

// Loads libmpi once (thread-safe). CUHOST_MPI_LIBRARY names another library.
const MpiStatus& mpi_status();

// The table; throws CudaSupportError ("MPI is unavailable: ...").
const MpiTable& mpi();

// Initializes MPI once (MPI_Init_thread, MPI_THREAD_MULTIPLE requested,
// errors returned rather than aborting) and registers MPI_Finalize at exit.
// Returns the table. Throws NcclError when MPI_Init_thread fails.
const MpiTable& mpi_initialized();

// Whether mpi_initialized() ran in this process.
bool mpi_was_initialized();

// Throws NcclError "<function> failed: <MPI error string>" unless `code` is
// MPI_SUCCESS.
void check_mpi(int code, const char* function);

// Ends the MPI job after the program finished with `exit_code`: a failing
// rank of several aborts the job (MPI_Abort), so the other ranks do not wait
// for it forever in a collective; otherwise MPI_Finalize. Nothing when MPI
// was not initialized.
void finish_mpi(int exit_code);

}  // namespace cuhost::dist
