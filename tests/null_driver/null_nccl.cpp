// A stand-in libnccl.so.2 for the null driver (null_cuda.cpp), whose device
// memory is host memory: it carries out NCCL's operations for real between
// the communicators of one process, so cuhost's NCCL path (the table, the
// communicators made by ncclCommInitAll, the argument checks, groups,
// send/recv) is tested with results in CI, without a GPU. Each rank's call
// is queued; an operation runs once every rank of its clique posted its
// part (in posting order, as NCCL matches them), and a send runs when its
// receive was posted. Only one process: ncclCommInitRank takes a single
// rank (nranks 1). Never put it on a real run's library path. The null
// driver defers stream work (null_streams.h): a rank's call first runs the
// work queued on its stream, which NCCL would wait for.
#include <cuda.h>
#include <dlfcn.h>
#include <nccl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Clique;

}  // namespace

struct ncclComm {
  Clique* clique = nullptr;
  int rank = 0;
  int device = 0;
};

namespace {

enum class Kind { AllReduce, Reduce, Broadcast, ReduceScatter, AllGather };

struct Part {
  Kind kind;
  const void* send;
  void* recv;
  size_t count;
  ncclDataType_t type;
  ncclRedOp_t op;
  int root;
};

struct Transfer {
  const void* send = nullptr;
  void* recv = nullptr;
  size_t bytes = 0;
};

struct Clique {
  int size = 0;
  std::vector<std::deque<Part>> parts;                               // per rank
  std::map<std::pair<int, int>, std::deque<Transfer>> sends, recvs;  // (from, to)
};

std::mutex g_mutex;
thread_local std::string t_last_error;

size_t type_size(ncclDataType_t t) {
  switch (t) {
    case ncclInt8:
    case ncclUint8: return 1;
    case ncclFloat16:
    case ncclBfloat16: return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32: return 4;
    default: return 8;
  }
}

float half_to_float(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v = e == 0 ? std::ldexp(float(m), -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(float(m | 0x400), e - 25);
  return s ? -v : v;
}
uint16_t float_to_half(float f) {  // nearest even, enough for the small values tests use
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  float a = std::fabs(f);
  if (std::isnan(f)) return static_cast<uint16_t>(sign | 0x7e00);
  if (a >= 65520.0f) return static_cast<uint16_t>(sign | 0x7c00);
  if (a < 6.103515625e-05f) return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f)));
  int e;
  float m = std::frexp(a, &e);                                         // a = m * 2^e, m in [0.5, 1)
  uint32_t mant = static_cast<uint32_t>(std::nearbyint(m * 2048.0f));  // 11 bits
  if (mant == 2048) {
    mant = 1024;
    ++e;
  }
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(e + 14) << 10) | (mant & 0x3ff));
}
float bf16_to_float(uint16_t b) {
  uint32_t x = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
uint16_t float_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

double load(const void* p, size_t i, ncclDataType_t t) {
  switch (t) {
    case ncclInt8: return static_cast<const int8_t*>(p)[i];
    case ncclUint8: return static_cast<const uint8_t*>(p)[i];
    case ncclInt32: return static_cast<const int32_t*>(p)[i];
    case ncclUint32: return static_cast<const uint32_t*>(p)[i];
    case ncclInt64: return static_cast<double>(static_cast<const int64_t*>(p)[i]);
    case ncclUint64: return static_cast<double>(static_cast<const uint64_t*>(p)[i]);
    case ncclFloat16: return half_to_float(static_cast<const uint16_t*>(p)[i]);
    case ncclBfloat16: return bf16_to_float(static_cast<const uint16_t*>(p)[i]);
    case ncclFloat32: return static_cast<const float*>(p)[i];
    default: return static_cast<const double*>(p)[i];
  }
}
void store(void* p, size_t i, ncclDataType_t t, double v) {
  switch (t) {
    case ncclInt8: static_cast<int8_t*>(p)[i] = static_cast<int8_t>(v); break;
    case ncclUint8: static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(v); break;
    case ncclInt32: static_cast<int32_t*>(p)[i] = static_cast<int32_t>(v); break;
    case ncclUint32: static_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(v); break;
    case ncclInt64: static_cast<int64_t*>(p)[i] = static_cast<int64_t>(v); break;
    case ncclUint64: static_cast<uint64_t*>(p)[i] = static_cast<uint64_t>(v); break;
    case ncclFloat16: static_cast<uint16_t*>(p)[i] = float_to_half(static_cast<float>(v)); break;
    case ncclBfloat16: static_cast<uint16_t*>(p)[i] = float_to_bf16(static_cast<float>(v)); break;
    case ncclFloat32: static_cast<float*>(p)[i] = static_cast<float>(v); break;
    default: static_cast<double*>(p)[i] = v; break;
  }
}
double combine(double a, double b, ncclRedOp_t op) {
  switch (op) {
    case ncclProd: return a * b;
    case ncclMax: return std::max(a, b);
    case ncclMin: return std::min(a, b);
    default: return a + b;  // sum, and avg before the division
  }
}
bool is_integer(ncclDataType_t t) { return t <= ncclUint64; }

// Reduces element `i` of every rank's send buffer (at `offset` elements).
double reduced(const std::vector<Part>& ps, size_t offset, size_t i) {
  const Part& p0 = ps[0];
  double v = load(p0.send, offset + i, p0.type);
  for (size_t r = 1; r < ps.size(); ++r) v = combine(v, load(ps[r].send, offset + i, p0.type), p0.op);
  if (p0.op == ncclAvg) v = is_integer(p0.type) ? std::trunc(v / ps.size()) : v / ps.size();
  return v;
}

void execute(const std::vector<Part>& ps) {
  const Part& p0 = ps[0];
  const size_t n = p0.count, es = type_size(p0.type), size = ps.size();
  switch (p0.kind) {
    case Kind::AllReduce: {
      std::vector<double> out(n);
      for (size_t i = 0; i < n; ++i) out[i] = reduced(ps, 0, i);
      for (const Part& p : ps)
        for (size_t i = 0; i < n; ++i) store(p.recv, i, p.type, out[i]);
      break;
    }
    case Kind::Reduce: {
      std::vector<double> out(n);
      for (size_t i = 0; i < n; ++i) out[i] = reduced(ps, 0, i);
      for (size_t i = 0; i < n; ++i) store(ps[p0.root].recv, i, p0.type, out[i]);
      break;
    }
    case Kind::Broadcast: {
      std::vector<char> data(static_cast<const char*>(ps[p0.root].send),
                             static_cast<const char*>(ps[p0.root].send) + n * es);
      for (const Part& p : ps) std::memcpy(p.recv, data.data(), n * es);
      break;
    }
    case Kind::ReduceScatter: {
      std::vector<std::vector<double>> out(size, std::vector<double>(n));
      for (size_t r = 0; r < size; ++r)
        for (size_t i = 0; i < n; ++i) out[r][i] = reduced(ps, r * n, i);
      for (size_t r = 0; r < size; ++r)
        for (size_t i = 0; i < n; ++i) store(ps[r].recv, i, p0.type, out[r][i]);
      break;
    }
    case Kind::AllGather: {
      std::vector<char> data(size * n * es);
      for (size_t r = 0; r < size; ++r) std::memcpy(data.data() + r * n * es, ps[r].send, n * es);
      for (const Part& p : ps) std::memcpy(p.recv, data.data(), data.size());
      break;
    }
  }
}

// Runs every operation all ranks have posted, and every matched transfer.
void progress(Clique* c) {
  for (;;) {
    bool all = true;
    for (auto& q : c->parts) all = all && !q.empty();
    if (!all) break;
    std::vector<Part> ps;
    for (auto& q : c->parts) {
      ps.push_back(q.front());
      q.pop_front();
    }
    execute(ps);
  }
  for (auto& [key, sends] : c->sends) {
    auto& recvs = c->recvs[key];
    while (!sends.empty() && !recvs.empty()) {
      std::memcpy(recvs.front().recv, sends.front().send, std::min(sends.front().bytes, recvs.front().bytes));
      sends.pop_front();
      recvs.pop_front();
    }
  }
}

// Runs the work the null driver queued on `stream` (cuStreamSynchronize of
// the libcuda.so.1 the process loaded).
void after_stream(cudaStream_t stream) {
  using Sync = CUresult (*)(CUstream);
  static Sync sync = [] {
    using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    auto get = lib ? reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2")) : nullptr;
    void* fn = nullptr;
    if (get) get("cuStreamSynchronize", &fn, 0, 0, nullptr);
    return reinterpret_cast<Sync>(fn);
  }();
  if (sync) sync(reinterpret_cast<CUstream>(stream));
}

ncclResult_t post(ncclComm_t comm, Part part, cudaStream_t stream) {
  if (!comm || !comm->clique) return ncclInvalidArgument;
  after_stream(stream);
  std::lock_guard<std::mutex> lock(g_mutex);
  comm->clique->parts[comm->rank].push_back(part);
  progress(comm->clique);
  return ncclSuccess;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) ncclResult_t ncclGetVersion(int* version) {
  *version = NCCL_VERSION_CODE;
  return ncclSuccess;
}
__attribute__((visibility("default"))) const char* ncclGetErrorString(ncclResult_t r) {
  switch (r) {
    case ncclSuccess: return "no error";
    case ncclInvalidArgument: return "invalid argument (null NCCL)";
    case ncclInvalidUsage: return "invalid usage (null NCCL)";
    default: return "error (null NCCL)";
  }
}
__attribute__((visibility("default"))) const char* ncclGetLastError(ncclComm_t) { return t_last_error.c_str(); }
__attribute__((visibility("default"))) ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
  std::memset(id, 0, sizeof *id);
  std::strcpy(id->internal, "null-nccl");
  return ncclSuccess;
}
__attribute__((visibility("default"))) ncclResult_t ncclCommInitAll(ncclComm_t* comms, int n, const int* devices) {
  if (n < 1) return ncclInvalidArgument;
  auto* clique = new Clique();
  clique->size = n;
  clique->parts.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) comms[i] = new ncclComm{clique, i, devices ? devices[i] : i};
  return ncclSuccess;
}
__attribute__((visibility("default"))) ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId,
                                                                     int rank) {
  if (nranks != 1 || rank != 0) {
    t_last_error = "the null NCCL runs the ranks of one process only";
    return ncclInvalidUsage;
  }
  return ncclCommInitAll(comm, 1, nullptr);
}
__attribute__((visibility("default"))) ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  delete comm;
  return ncclSuccess;
}
__attribute__((visibility("default"))) ncclResult_t ncclCommCount(const ncclComm_t comm, int* count) {
  *count = comm->clique->size;
  return ncclSuccess;
}
__attribute__((visibility("default"))) ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int* device) {
  *device = comm->device;
  return ncclSuccess;
}
__attribute__((visibility("default"))) ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank) {
  *rank = comm->rank;
  return ncclSuccess;
}
__attribute__((visibility("default"))) ncclResult_t ncclAllReduce(const void* s, void* r, size_t n, ncclDataType_t t,
                                                                  ncclRedOp_t op, ncclComm_t comm,
                                                                  cudaStream_t stream) {
  return post(comm, Part{Kind::AllReduce, s, r, n, t, op, 0}, stream);
}
__attribute__((visibility("default"))) ncclResult_t ncclReduce(const void* s, void* r, size_t n, ncclDataType_t t,
                                                               ncclRedOp_t op, int root, ncclComm_t comm,
                                                               cudaStream_t stream) {
  return post(comm, Part{Kind::Reduce, s, r, n, t, op, root}, stream);
}
__attribute__((visibility("default"))) ncclResult_t ncclBroadcast(const void* s, void* r, size_t n, ncclDataType_t t,
                                                                  int root, ncclComm_t comm, cudaStream_t stream) {
  return post(comm, Part{Kind::Broadcast, s, r, n, t, ncclSum, root}, stream);
}
__attribute__((visibility("default"))) ncclResult_t ncclReduceScatter(const void* s, void* r, size_t n,
                                                                      ncclDataType_t t, ncclRedOp_t op, ncclComm_t comm,
                                                                      cudaStream_t stream) {
  return post(comm, Part{Kind::ReduceScatter, s, r, n, t, op, 0}, stream);
}
__attribute__((visibility("default"))) ncclResult_t ncclAllGather(const void* s, void* r, size_t n, ncclDataType_t t,
                                                                  ncclComm_t comm, cudaStream_t stream) {
  return post(comm, Part{Kind::AllGather, s, r, n, t, ncclSum, 0}, stream);
}
__attribute__((visibility("default"))) ncclResult_t ncclSend(const void* s, size_t n, ncclDataType_t t, int peer,
                                                             ncclComm_t comm, cudaStream_t stream) {
  after_stream(stream);
  std::lock_guard<std::mutex> lock(g_mutex);
  comm->clique->sends[{comm->rank, peer}].push_back(Transfer{s, nullptr, n * type_size(t)});
  progress(comm->clique);
  return ncclSuccess;
}
__attribute__((visibility("default"))) ncclResult_t ncclRecv(void* r, size_t n, ncclDataType_t t, int peer,
                                                             ncclComm_t comm, cudaStream_t stream) {
  after_stream(stream);
  std::lock_guard<std::mutex> lock(g_mutex);
  comm->clique->recvs[{peer, comm->rank}].push_back(Transfer{nullptr, r, n * type_size(t)});
  progress(comm->clique);
  return ncclSuccess;
}
__attribute__((visibility("default"))) ncclResult_t ncclGroupStart() { return ncclSuccess; }
__attribute__((visibility("default"))) ncclResult_t ncclGroupEnd() { return ncclSuccess; }

}  // extern "C"
