// Run-time loading and initialization of Open MPI (see mpi.h).
#include "dist/mpi.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::dist {

namespace {

struct Loaded {
  MpiStatus status;
  MpiTable table;
};

Loaded& load() {
  static Loaded loaded;
  static std::once_flag once;
  std::call_once(once, [] {
    const char* override_name = std::getenv("CUHOST_MPI_LIBRARY");
    std::vector<std::string> names;
    if (override_name && *override_name)
      names.push_back(override_name);
    else
      names = {"libmpi.so.40", "libmpi.so"};
    void* lib = nullptr;
    std::string tried;
    for (const std::string& name : names) {
      // RTLD_GLOBAL: Open MPI's own components (dlopen-ed plugins) resolve
      // libmpi's symbols through the global namespace.
      lib = dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL);
      if (lib) {
        loaded.status.library = name;
        break;
      }
      const char* why = dlerror();
      tried += concat(tried.empty() ? "" : "; ", why ? why : name);
    }
    if (!lib) {
      loaded.status.reason = concat("Open MPI's libmpi could not be loaded (", tried,
                                    "); install Open MPI (libopenmpi3/openmpi-bin) to run as MPI ranks");
      return;
    }
    std::string missing;
    auto need = [&](const char* name) -> void* {
      void* p = dlsym(lib, name);
      if (!p) missing += concat(missing.empty() ? "" : ", ", name);
      return p;
    };
#define CUHOST_MPI_FN(name, ret, params) loaded.table.name = reinterpret_cast<ret(*) params>(need(#name));
#include "dist/mpi_api.inc"
#undef CUHOST_MPI_FN
    MpiTable& t = loaded.table;
    t.comm_world = need("ompi_mpi_comm_world");
    t.errors_return = need("ompi_mpi_errors_return");
    t.byte = need("ompi_mpi_byte");
    t.int8 = need("ompi_mpi_int8_t");
    t.uint8 = need("ompi_mpi_uint8_t");
    t.int32 = need("ompi_mpi_int32_t");
    t.uint32 = need("ompi_mpi_uint32_t");
    t.int64 = need("ompi_mpi_int64_t");
    t.uint64 = need("ompi_mpi_uint64_t");
    t.float32 = need("ompi_mpi_float");
    t.float64 = need("ompi_mpi_double");
    t.sum = need("ompi_mpi_op_sum");
    t.prod = need("ompi_mpi_op_prod");
    t.max = need("ompi_mpi_op_max");
    t.min = need("ompi_mpi_op_min");
    if (!missing.empty()) {
      loaded.status.reason =
          concat(loaded.status.library, " is not Open MPI or lacks what cuhost needs (missing ", missing, ")");
      loaded.table = MpiTable{};
      return;
    }
    loaded.status.available = true;
  });
  return loaded;
}

std::once_flag g_init_once;
bool g_initialized = false;
bool g_finished = false;
std::mutex g_finish_mutex;

}  // namespace

const MpiStatus& mpi_status() { return load().status; }

const MpiTable& mpi() {
  Loaded& l = load();
  if (!l.status.available) throw UserError(ErrorKind::CudaSupportError, "MPI is unavailable: " + l.status.reason);
  return l.table;
}

void check_mpi(int code, const char* function) {
  if (code == kMpiSuccess) return;
  std::string text = concat("error code ", code);
  const MpiTable& t = mpi();
  char buffer[512] = {};
  int length = 0;
  if (t.MPI_Error_string && t.MPI_Error_string(code, buffer, &length) == kMpiSuccess && length > 0)
    text.assign(buffer, static_cast<std::size_t>(length));
  throw UserError(ErrorKind::NcclError, concat(function, " failed: ", text));
}

const MpiTable& mpi_initialized() {
  const MpiTable& t = mpi();
  std::call_once(g_init_once, [&t] {
    log::StageTimer timer("startup", "MPI_Init_thread");
    int already = 0;
    check_mpi(t.MPI_Initialized(&already), "MPI_Initialized");
    if (!already) {
      int provided = 0;
      check_mpi(t.MPI_Init_thread(nullptr, nullptr, kMpiThreadMultiple, &provided), "MPI_Init_thread");
    }
    check_mpi(t.MPI_Comm_set_errhandler(t.comm_world, t.errors_return), "MPI_Comm_set_errhandler");
    g_initialized = true;
    std::atexit([] { finish_mpi(0); });
  });
  if (!g_initialized) throw UserError(ErrorKind::NcclError, "MPI failed to initialize earlier in this process");
  return t;
}

bool mpi_was_initialized() { return g_initialized; }

void finish_mpi(int exit_code) {
  std::lock_guard<std::mutex> lock(g_finish_mutex);
  if (!g_initialized || g_finished) return;
  g_finished = true;
  const MpiTable& t = load().table;
  int finalized = 0;
  if (t.MPI_Finalized(&finalized) != kMpiSuccess || finalized) return;
  int size = 1;
  t.MPI_Comm_size(t.comm_world, &size);
  if (exit_code != 0 && size > 1) {
    std::fflush(stdout);
    std::fflush(stderr);
    t.MPI_Abort(t.comm_world, exit_code);
    return;
  }
  t.MPI_Finalize();
}

}  // namespace cuhost::dist
