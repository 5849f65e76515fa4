// A single-rank communicator (see self_communicator.h). Buffers are host
// memory (the CPU backend's device memory), so every operation is a copy.
#include "dist/self_communicator.h"

#include <cstring>
#include <vector>

#include "support/diagnostics.h"

namespace cuhost::dist {

namespace {

struct PendingTransfer {
  const void* send = nullptr;
  void* recv = nullptr;
  std::size_t bytes = 0;
};

// Per thread, as NCCL's groups are.
thread_local int t_group_depth = 0;
thread_local std::vector<PendingTransfer> t_sends;
thread_local std::vector<PendingTransfer> t_recvs;

void copy(void* dst, const void* src, std::size_t bytes) {
  if (dst != src && bytes) std::memmove(dst, src, bytes);
}

void check_root(int root, const char* what) {
  if (root != 0)
    throw UserError(ErrorKind::ValueError,
                    concat(what, ": root ", root, " is not a rank of this communicator (size 1)"));
}

void check_peer(int peer, const char* what) {
  if (peer != 0)
    throw UserError(ErrorKind::ValueError,
                    concat(what, ": peer ", peer, " is not a rank of this communicator (size 1)"));
  if (t_group_depth == 0)
    throw UserError(ErrorKind::ValueError,
                    concat(what,
                           " to itself outside a group never completes (NCCL would wait forever); bracket the "
                           "send and its receive with `with nccl.group():`"));
}

class SelfCommunicator final : public Communicator {
 public:
  explicit SelfCommunicator(int device) : device_(device) {}
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int device() const override { return device_; }
  const char* carrier() const override { return "self"; }
  std::uintptr_t handle() const override { return 0; }

  void all_reduce(const void* send, void* recv, std::size_t count, DataType type, ReduceOp, std::uintptr_t) override {
    copy(recv, send, count * element_size(type));
  }
  void reduce(const void* send, void* recv, std::size_t count, DataType type, ReduceOp, int root,
              std::uintptr_t) override {
    check_root(root, "reduce");
    copy(recv, send, count * element_size(type));
  }
  void broadcast(const void* send, void* recv, std::size_t count, DataType type, int root, std::uintptr_t) override {
    check_root(root, "broadcast");
    copy(recv, send, count * element_size(type));
  }
  void reduce_scatter(const void* send, void* recv, std::size_t count, DataType type, ReduceOp,
                      std::uintptr_t) override {
    copy(recv, send, count * element_size(type));
  }
  void all_gather(const void* send, void* recv, std::size_t count, DataType type, std::uintptr_t) override {
    copy(recv, send, count * element_size(type));
  }
  void send(const void* data, std::size_t count, DataType type, int peer, std::uintptr_t) override {
    check_peer(peer, "send");
    t_sends.push_back(PendingTransfer{data, nullptr, count * element_size(type)});
  }
  void recv(void* data, std::size_t count, DataType type, int peer, std::uintptr_t) override {
    check_peer(peer, "recv");
    t_recvs.push_back(PendingTransfer{nullptr, data, count * element_size(type)});
  }

  void group_start() override { ++t_group_depth; }
  void group_end() override {
    if (t_group_depth == 0) throw UserError(ErrorKind::ValueError, "group_end without group_start");
    if (--t_group_depth > 0) return;
    std::vector<PendingTransfer> sends, recvs;
    sends.swap(t_sends);
    recvs.swap(t_recvs);
    if (sends.size() != recvs.size())
      throw UserError(ErrorKind::ValueError,
                      concat("a group posted ", sends.size(), " send(s) to itself and ", recvs.size(),
                             " receive(s) from itself; each send needs its receive"));
    // Matched in order, as NCCL matches the operations between two ranks.
    for (std::size_t i = 0; i < sends.size(); ++i) {
      if (sends[i].bytes != recvs[i].bytes)
        throw UserError(ErrorKind::ValueError, concat("send ", i, " of the group carries ", sends[i].bytes,
                                                      " bytes but its receive expects ", recvs[i].bytes));
      copy(recvs[i].recv, sends[i].send, sends[i].bytes);
    }
  }

 private:
  int device_;
};

}  // namespace

std::shared_ptr<Communicator> make_self_communicator(int device) { return std::make_shared<SelfCommunicator>(device); }

}  // namespace cuhost::dist
