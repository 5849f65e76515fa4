// NCCL communicators (see nccl_communicator.h). Communicators cuhost made live
// for the process, like the contexts they run in: destroying them at exit
// could wait for ranks that are gone.
#include "dist/nccl_communicator.h"

#include <cstring>

#include "cuda/context.h"
#include "cuda/nccl.h"
#include "support/diagnostics.h"

namespace cuhost::dist {

// The NCCL loader and the driver context helpers of cuda/.
using namespace cuhost::cuda;

namespace {

ncclDataType_t nccl_type(dist::DataType type) {
  switch (type) {
    case dist::DataType::Int8: return ncclInt8;
    case dist::DataType::UInt8: return ncclUint8;
    case dist::DataType::Int32: return ncclInt32;
    case dist::DataType::UInt32: return ncclUint32;
    case dist::DataType::Int64: return ncclInt64;
    case dist::DataType::UInt64: return ncclUint64;
    case dist::DataType::Float16: return ncclFloat16;
    case dist::DataType::Float32: return ncclFloat32;
    case dist::DataType::Float64: return ncclFloat64;
    case dist::DataType::BFloat16: return ncclBfloat16;
  }
  return ncclUint8;
}

ncclRedOp_t nccl_op(dist::ReduceOp op) {
  switch (op) {
    case dist::ReduceOp::Sum: return ncclSum;
    case dist::ReduceOp::Prod: return ncclProd;
    case dist::ReduceOp::Max: return ncclMax;
    case dist::ReduceOp::Min: return ncclMin;
    case dist::ReduceOp::Avg: return ncclAvg;
  }
  return ncclSum;
}

cudaStream_t as_stream(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

// Checks an NCCL call's result. NCCL may switch the thread's device
// (cudaSetDevice) inside, so cuhost's record of the current context is
// dropped first.
void checked(ncclResult_t result, const char* function, ncclComm_t comm = nullptr) {
  context_may_have_changed();
  check_nccl(result, function, comm);
}

class NcclCommunicator final : public dist::Communicator {
 public:
  NcclCommunicator(ncclComm_t comm, int device) : comm_(comm), device_(device) {
    const NcclTable& t = nccl();
    checked(t.ncclCommUserRank(comm_, &rank_), "ncclCommUserRank", comm_);
    checked(t.ncclCommCount(comm_, &size_), "ncclCommCount", comm_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int device() const override { return device_; }
  const char* carrier() const override { return "nccl"; }
  std::uintptr_t handle() const override { return reinterpret_cast<std::uintptr_t>(comm_); }

  void all_reduce(const void* send, void* recv, std::size_t count, dist::DataType type, dist::ReduceOp op,
                  std::uintptr_t stream) override {
    checked(nccl().ncclAllReduce(send, recv, count, nccl_type(type), nccl_op(op), comm_, as_stream(stream)),
            "ncclAllReduce", comm_);
  }
  void reduce(const void* send, void* recv, std::size_t count, dist::DataType type, dist::ReduceOp op, int root,
              std::uintptr_t stream) override {
    checked(nccl().ncclReduce(send, recv, count, nccl_type(type), nccl_op(op), root, comm_, as_stream(stream)),
            "ncclReduce", comm_);
  }
  void broadcast(const void* send, void* recv, std::size_t count, dist::DataType type, int root,
                 std::uintptr_t stream) override {
    checked(nccl().ncclBroadcast(send, recv, count, nccl_type(type), root, comm_, as_stream(stream)), "ncclBroadcast",
            comm_);
  }
  void reduce_scatter(const void* send, void* recv, std::size_t recv_count, dist::DataType type, dist::ReduceOp op,
                      std::uintptr_t stream) override {
    checked(nccl().ncclReduceScatter(send, recv, recv_count, nccl_type(type), nccl_op(op), comm_, as_stream(stream)),
            "ncclReduceScatter", comm_);
  }
  void all_gather(const void* send, void* recv, std::size_t send_count, dist::DataType type,
                  std::uintptr_t stream) override {
    checked(nccl().ncclAllGather(send, recv, send_count, nccl_type(type), comm_, as_stream(stream)), "ncclAllGather",
            comm_);
  }
  void send(const void* data, std::size_t count, dist::DataType type, int peer, std::uintptr_t stream) override {
    checked(nccl().ncclSend(data, count, nccl_type(type), peer, comm_, as_stream(stream)), "ncclSend", comm_);
  }
  void recv(void* data, std::size_t count, dist::DataType type, int peer, std::uintptr_t stream) override {
    checked(nccl().ncclRecv(data, count, nccl_type(type), peer, comm_, as_stream(stream)), "ncclRecv", comm_);
  }
  void group_start() override { checked(nccl().ncclGroupStart(), "ncclGroupStart"); }
  void group_end() override { checked(nccl().ncclGroupEnd(), "ncclGroupEnd"); }

 private:
  ncclComm_t comm_;
  int device_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

std::vector<std::shared_ptr<dist::Communicator>> make_nccl_communicators(const std::vector<int>& devices) {
  const NcclTable& t = nccl();
  std::vector<ncclComm_t> comms(devices.size(), nullptr);
  for (int d : devices) primary_context(d);  // NCCL uses the primary contexts cuhost shares
  checked(t.ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
  std::vector<std::shared_ptr<dist::Communicator>> out;
  for (std::size_t i = 0; i < devices.size(); ++i)
    out.push_back(std::make_shared<NcclCommunicator>(comms[i], devices[i]));
  return out;
}

std::string make_nccl_unique_id() {
  ncclUniqueId id;
  checked(nccl().ncclGetUniqueId(&id), "ncclGetUniqueId");
  return std::string(id.internal, sizeof id.internal);
}

std::shared_ptr<dist::Communicator> make_nccl_rank_communicator(const std::string& unique_id, int rank, int size,
                                                                int device) {
  const NcclTable& t = nccl();
  ncclUniqueId id;
  CUHOST_CHECK(unique_id.size() == sizeof id.internal) << "an NCCL unique id has " << sizeof id.internal << " bytes";
  std::memcpy(id.internal, unique_id.data(), sizeof id.internal);
  make_primary_context_current(device);
  ncclComm_t comm = nullptr;
  checked(t.ncclCommInitRank(&comm, size, id, rank), "ncclCommInitRank");
  return std::make_shared<NcclCommunicator>(comm, device);
}

std::shared_ptr<dist::Communicator> borrow_nccl_communicator(std::uintptr_t comm, int device) {
  return std::make_shared<NcclCommunicator>(reinterpret_cast<ncclComm_t>(comm), device);
}

}  // namespace cuhost::dist
