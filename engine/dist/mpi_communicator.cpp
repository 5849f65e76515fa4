// Collectives over MPI (see mpi_communicator.h). NCCL's semantics are kept:
// in-place forms (send == recv, and NCCL's in-place offsets for
// reduce_scatter and all_gather), root-only buffers, average as sum then
// division, send/recv that wait for each other, and groups in which sends
// and receives are only posted (MPI_Isend/Irecv) and all complete at
// group_end, so two ranks that both send first do not deadlock. float16 and
// bfloat16, which MPI has no type for, are 2-byte types with reductions of
// our own (MPI_Op_create), as are the 8-bit integers, which must wrap around.
// MPI counts are ints: larger buffers go in chunks.
#include "dist/mpi_communicator.h"

#include <climits>
#include <cstring>
#include <mutex>
#include <vector>

#include "dist/host_reduce.h"
#include "dist/mpi.h"
#include "support/diagnostics.h"

namespace cuhost::dist {

namespace {

thread_local int t_group_depth = 0;
thread_local std::vector<MpiRequest> t_pending;

// The element types whose reductions are ours (host_reduce.h): float16 and
// bfloat16 (2-byte types MPI has no arithmetic for) and the 8-bit integers.
constexpr DataType kHostReduced[] = {DataType::Float16, DataType::BFloat16, DataType::Int8, DataType::UInt8};

int host_reduced_index(DataType type) {
  for (int i = 0; i < 4; ++i)
    if (kHostReduced[i] == type) return i;
  return -1;
}

// MPI operations for them, made once after MPI_Init: [type][Sum, Prod, Max, Min].
struct HostOps {
  MpiDatatype sixteen_bits = nullptr;  // 2 contiguous bytes
  MpiOp ops[4][4] = {};
};

template <DataType T, ReduceOp Op>
void reduce_user(void* in, void* inout, int* len, MpiDatatype*) {
  reduce_on_host(in, inout, static_cast<std::size_t>(*len), T, Op);
}

template <DataType T>
void make_ops(const MpiTable& t, MpiOp* ops) {
  const MpiUserFunction fns[4] = {reduce_user<T, ReduceOp::Sum>, reduce_user<T, ReduceOp::Prod>,
                                  reduce_user<T, ReduceOp::Max>, reduce_user<T, ReduceOp::Min>};
  for (int o = 0; o < 4; ++o) check_mpi(t.MPI_Op_create(fns[o], 1, &ops[o]), "MPI_Op_create");
}

const HostOps& host_ops() {
  static HostOps ops;
  static std::once_flag once;
  std::call_once(once, [] {
    const MpiTable& t = mpi_initialized();
    check_mpi(t.MPI_Type_contiguous(2, t.byte, &ops.sixteen_bits), "MPI_Type_contiguous");
    check_mpi(t.MPI_Type_commit(&ops.sixteen_bits), "MPI_Type_commit");
    make_ops<DataType::Float16>(t, ops.ops[0]);
    make_ops<DataType::BFloat16>(t, ops.ops[1]);
    make_ops<DataType::Int8>(t, ops.ops[2]);
    make_ops<DataType::UInt8>(t, ops.ops[3]);
  });
  return ops;
}

MpiDatatype mpi_type(const MpiTable& t, DataType type) {
  switch (type) {
    case DataType::Int8: return t.int8;
    case DataType::UInt8: return t.uint8;
    case DataType::Int32: return t.int32;
    case DataType::UInt32: return t.uint32;
    case DataType::Int64: return t.int64;
    case DataType::UInt64: return t.uint64;
    case DataType::Float32: return t.float32;
    case DataType::Float64: return t.float64;
    case DataType::Float16:
    case DataType::BFloat16: return host_ops().sixteen_bits;
  }
  return t.byte;
}

int op_index(ReduceOp op) {
  switch (op) {
    case ReduceOp::Prod: return 1;
    case ReduceOp::Max: return 2;
    case ReduceOp::Min: return 3;
    default: return 0;  // Sum, and Avg (a sum, then divided)
  }
}

MpiOp mpi_op(const MpiTable& t, DataType type, ReduceOp op) {
  const int own = host_reduced_index(type);
  if (own >= 0) return host_ops().ops[own][op_index(op)];
  const MpiOp builtin[4] = {t.sum, t.prod, t.max, t.min};
  return builtin[op_index(op)];
}

// The pieces of `count` elements MPI can take in one call.
template <class Fn>
void in_chunks(std::size_t count, Fn&& fn) {
  constexpr std::size_t kMax = INT_MAX;
  std::size_t done = 0;
  do {
    std::size_t n = count - done < kMax ? count - done : kMax;
    fn(done, static_cast<int>(n));
    done += n;
  } while (done < count);
}

int whole_count(std::size_t count, const char* what) {
  if (count > static_cast<std::size_t>(INT_MAX))
    throw UserError(ErrorKind::ValueError,
                    concat(what, " of ", count, " elements per rank is too large for MPI (at most ", INT_MAX, ")"));
  return static_cast<int>(count);
}

bool overlaps(const void* a, const void* b, std::size_t bytes_a, std::size_t bytes_b) {
  auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return x < y + bytes_b && y < x + bytes_a;
}

class MpiCommunicator final : public Communicator {
 public:
  explicit MpiCommunicator(int device) : t_(mpi_initialized()), device_(device) {
    check_mpi(t_.MPI_Comm_rank(t_.comm_world, &rank_), "MPI_Comm_rank");
    check_mpi(t_.MPI_Comm_size(t_.comm_world, &size_), "MPI_Comm_size");
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int device() const override { return device_; }
  const char* carrier() const override { return "mpi"; }
  std::uintptr_t handle() const override { return reinterpret_cast<std::uintptr_t>(t_.comm_world); }

  void all_reduce(const void* send, void* recv, std::size_t count, DataType type, ReduceOp op,
                  std::uintptr_t) override {
    const std::size_t es = element_size(type);
    const bool in_place = send == recv;
    in_chunks(count, [&](std::size_t first, int n) {
      const void* s = in_place ? mpi_in_place() : static_cast<const char*>(send) + first * es;
      check_mpi(t_.MPI_Allreduce(s, static_cast<char*>(recv) + first * es, n, mpi_type(t_, type), mpi_op(t_, type, op),
                                 t_.comm_world),
                "MPI_Allreduce");
    });
    if (op == ReduceOp::Avg) divide_elements(recv, count, type, size_);
  }

  void reduce(const void* send, void* recv, std::size_t count, DataType type, ReduceOp op, int root,
              std::uintptr_t) override {
    check_rank(root, "reduce", "root");
    const std::size_t es = element_size(type);
    const bool in_place = rank_ == root && send == recv;
    in_chunks(count, [&](std::size_t first, int n) {
      const void* s = in_place ? mpi_in_place() : static_cast<const char*>(send) + first * es;
      void* r = rank_ == root ? static_cast<char*>(recv) + first * es : nullptr;
      check_mpi(t_.MPI_Reduce(s, r, n, mpi_type(t_, type), mpi_op(t_, type, op), root, t_.comm_world), "MPI_Reduce");
    });
    if (op == ReduceOp::Avg && rank_ == root) divide_elements(recv, count, type, size_);
  }

  void broadcast(const void* send, void* recv, std::size_t count, DataType type, int root, std::uintptr_t) override {
    check_rank(root, "broadcast", "root");
    const std::size_t es = element_size(type);
    if (rank_ == root && send != recv) std::memmove(recv, send, count * es);
    in_chunks(count * es, [&](std::size_t first, int n) {
      check_mpi(t_.MPI_Bcast(static_cast<char*>(recv) + first, n, t_.byte, root, t_.comm_world), "MPI_Bcast");
    });
  }

  void reduce_scatter(const void* send, void* recv, std::size_t recv_count, DataType type, ReduceOp op,
                      std::uintptr_t) override {
    const int n = whole_count(recv_count, "reduce_scatter");
    const std::size_t block = recv_count * element_size(type);
    std::vector<char> copy;
    if (overlaps(send, recv, block * size_, block)) {  // NCCL's in-place form: recv is block `rank` of send
      copy.assign(static_cast<const char*>(send), static_cast<const char*>(send) + block * size_);
      send = copy.data();
    }
    check_mpi(t_.MPI_Reduce_scatter_block(send, recv, n, mpi_type(t_, type), mpi_op(t_, type, op), t_.comm_world),
              "MPI_Reduce_scatter_block");
    if (op == ReduceOp::Avg) divide_elements(recv, recv_count, type, size_);
  }

  void all_gather(const void* send, void* recv, std::size_t send_count, DataType type, std::uintptr_t) override {
    const int n = whole_count(send_count, "all_gather");
    const std::size_t block = send_count * element_size(type);
    const void* s = send;
    std::vector<char> copy;
    if (send == static_cast<const char*>(recv) + block * rank_) {
      s = mpi_in_place();  // NCCL's in-place form: send is block `rank` of recv
    } else if (overlaps(send, recv, block, block * size_)) {
      copy.assign(static_cast<const char*>(send), static_cast<const char*>(send) + block);
      s = copy.data();
    }
    check_mpi(t_.MPI_Allgather(s, n, mpi_type(t_, type), recv, n, mpi_type(t_, type), t_.comm_world), "MPI_Allgather");
  }

  void send(const void* data, std::size_t count, DataType type, int peer, std::uintptr_t) override {
    check_rank(peer, "send", "peer");
    const int bytes = whole_count(count * element_size(type), "send");
    MpiRequest request = nullptr;
    check_mpi(t_.MPI_Isend(data, bytes, t_.byte, peer, kTag, t_.comm_world, &request), "MPI_Isend");
    post(request);
  }

  void recv(void* data, std::size_t count, DataType type, int peer, std::uintptr_t) override {
    check_rank(peer, "recv", "peer");
    const int bytes = whole_count(count * element_size(type), "recv");
    MpiRequest request = nullptr;
    check_mpi(t_.MPI_Irecv(data, bytes, t_.byte, peer, kTag, t_.comm_world, &request), "MPI_Irecv");
    post(request);
  }

  void group_start() override { ++t_group_depth; }
  void group_end() override {
    if (t_group_depth == 0) throw UserError(ErrorKind::ValueError, "group_end without group_start");
    if (--t_group_depth == 0) wait_pending();
  }

 private:
  static constexpr int kTag = 0x6375;  // one tag: messages between two ranks match in order, as NCCL's do

  void check_rank(int r, const char* what, const char* role) const {
    if (r < 0 || r >= size_)
      throw UserError(ErrorKind::ValueError,
                      concat(what, ": ", role, " ", r, " is not a rank of this communicator (size ", size_, ")"));
  }

  void post(MpiRequest request) {
    t_pending.push_back(request);
    if (t_group_depth == 0) wait_pending();
  }

  void wait_pending() {
    std::vector<MpiRequest> requests;
    requests.swap(t_pending);
    if (requests.empty()) return;
    check_mpi(t_.MPI_Waitall(static_cast<int>(requests.size()), requests.data(), nullptr), "MPI_Waitall");
  }

  const MpiTable& t_;
  int device_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

std::shared_ptr<Communicator> make_mpi_communicator(int device) { return std::make_shared<MpiCommunicator>(device); }

}  // namespace cuhost::dist
