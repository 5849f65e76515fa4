// A communicator: one rank of a group that runs collectives (NCCL's
// vocabulary: all_reduce, reduce, broadcast, reduce_scatter, all_gather,
// send/recv) on device memory. The host creates them (communicators.h) and
// lends them to scripts. Three carriers implement it: NCCL on GPUs
// (dist/nccl_communicator.cpp), MPI between processes on the CPU backend
// (mpi_communicator.cpp) and a single rank in one process on the CPU
// backend (self_communicator.cpp). Buffers are device pointers (host memory
// on the CPU backend) of `count` elements; the callers have checked
// devices, sizes and types. Calls are asynchronous on `stream` on GPUs and
// complete on return on the CPU. Between group_start() and group_end() (per
// thread, as in NCCL) operations are only queued: sends and receives of
// several peers, or collectives on several communicators of one process, then
// progress together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace cuhost::dist {

// NCCL's element types (ncclDataType_t order); reductions need one of them.
enum class DataType { Int8, UInt8, Int32, UInt32, Int64, UInt64, Float16, Float32, Float64, BFloat16 };
enum class ReduceOp { Sum, Prod, Max, Min, Avg };

std::size_t element_size(DataType type);
const char* data_type_name(DataType type);
const char* reduce_op_name(ReduceOp op);

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual int device() const = 0;             // the device its buffers live on
  virtual const char* carrier() const = 0;    // "nccl", "mpi" or "self"
  virtual std::uintptr_t handle() const = 0;  // the ncclComm_t, MPI_Comm or 0

  virtual void all_reduce(const void* send, void* recv, std::size_t count, DataType type, ReduceOp op,
                          std::uintptr_t stream) = 0;
  // recv is used on `root` only.
  virtual void reduce(const void* send, void* recv, std::size_t count, DataType type, ReduceOp op, int root,
                      std::uintptr_t stream) = 0;
  // send is read on `root` only; every rank receives into recv.
  virtual void broadcast(const void* send, void* recv, std::size_t count, DataType type, int root,
                         std::uintptr_t stream) = 0;
  // send holds size() * recv_count elements; rank r receives block r, reduced.
  virtual void reduce_scatter(const void* send, void* recv, std::size_t recv_count, DataType type, ReduceOp op,
                              std::uintptr_t stream) = 0;
  // recv holds size() * send_count elements, block r from rank r.
  virtual void all_gather(const void* send, void* recv, std::size_t send_count, DataType type,
                          std::uintptr_t stream) = 0;
  virtual void send(const void* data, std::size_t count, DataType type, int peer, std::uintptr_t stream) = 0;
  virtual void recv(void* data, std::size_t count, DataType type, int peer, std::uintptr_t stream) = 0;

  // Group bracketing for this carrier (see above); the registry calls every
  // carrier in use.
  virtual void group_start() = 0;
  virtual void group_end() = 0;
};

}  // namespace cuhost::dist
