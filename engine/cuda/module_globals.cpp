// CUlibrary globals for plugin host libraries (see module_globals.h). Driver
// failures become status codes with the driver function's name: these run
// under a vendor's C frames and must not throw. Copies run in the context
// the module was loaded in, made current for the copy when another one is
// (a teardown at exit may run on a thread where none is current).
#include "cuda/module_globals.h"

#include <cuda.h>

#include "cuda/driver.h"
#include "cuda/image_symbols.h"
#include "cuhost/plugin_abi.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {

namespace {

class CudaModuleGlobals : public model::ModuleGlobals {
 public:
  explicit CudaModuleGlobals(std::uintptr_t library) : library_(reinterpret_cast<CUlibrary>(library)) {
    if (driver().cuCtxGetCurrent(&context_) != CUDA_SUCCESS) context_ = nullptr;
  }
  int backend() const override { return CUHOST_PLUGIN_BACKEND_CUDA; }
  int find(const std::string& name, std::uint64_t* address, std::size_t* bytes, bool* read_only,
           std::string* error) override {
    CUdeviceptr ptr = 0;
    std::size_t size = 0;
    InContext in(context_);  // a library's globals are per context
    CUresult r = library_may_define(reinterpret_cast<std::uintptr_t>(library_), name)
                     ? driver().cuLibraryGetGlobal(&ptr, &size, library_, name.c_str())
                     : CUDA_ERROR_NOT_FOUND;  // not in the image: no failing driver call
    if (r == CUDA_ERROR_NOT_FOUND) {
      *error = concat("no global named '", name, "' in the module (declare it extern \"C\" __device__ in the ",
                      "plugin's source)");
      return CUHOST_PLUGIN_NOT_FOUND;
    }
    if (r != CUDA_SUCCESS) {
      *error = concat("cuLibraryGetGlobal failed: ", error_name(r), " for global '", name, "'");
      return CUHOST_PLUGIN_DEVICE_ERROR;
    }
    *address = static_cast<std::uint64_t>(ptr);
    *bytes = size;
    *read_only = false;
    return CUHOST_PLUGIN_OK;
  }
  int copy_in(std::uint64_t address, const void* src, std::size_t bytes, std::string* error) override {
    InContext in(context_);
    CUresult r = driver().cuMemcpyHtoD(static_cast<CUdeviceptr>(address), src, bytes);
    if (r == CUDA_SUCCESS) return CUHOST_PLUGIN_OK;
    *error = concat("cuMemcpyHtoD failed: ", error_name(r));
    return CUHOST_PLUGIN_DEVICE_ERROR;
  }
  int copy_out(void* dst, std::uint64_t address, std::size_t bytes, std::string* error) override {
    InContext in(context_);
    CUresult r = driver().cuMemcpyDtoH(dst, static_cast<CUdeviceptr>(address), bytes);
    if (r == CUDA_SUCCESS) return CUHOST_PLUGIN_OK;
    *error = concat("cuMemcpyDtoH failed: ", error_name(r));
    return CUHOST_PLUGIN_DEVICE_ERROR;
  }

 private:
  // Makes `wanted` current for one scope when another context is.
  class InContext {
   public:
    explicit InContext(CUcontext wanted) {
      if (!wanted || driver().cuCtxGetCurrent(&previous_) != CUDA_SUCCESS || previous_ == wanted) return;
      switched_ = driver().cuCtxSetCurrent(wanted) == CUDA_SUCCESS;
    }
    ~InContext() {
      if (switched_) driver().cuCtxSetCurrent(previous_);
    }
    InContext(const InContext&) = delete;
    InContext& operator=(const InContext&) = delete;

   private:
    CUcontext previous_ = nullptr;
    bool switched_ = false;
  };

  CUlibrary library_;
  CUcontext context_ = nullptr;
};

}  // namespace

std::shared_ptr<model::ModuleGlobals> make_module_globals(std::uintptr_t library) {
  return std::make_shared<CudaModuleGlobals>(library);
}

void point_library_global(CUlibrary library, const char* symbol, CUdeviceptr target) {
  CUdeviceptr global = 0;
  std::size_t bytes = 0;
  check(driver().cuLibraryGetGlobal(&global, &bytes, library, symbol), "cuLibraryGetGlobal");
  static_assert(sizeof(CUdeviceptr) == sizeof(std::uint64_t));
  auto address = static_cast<std::uint64_t>(target);
  check(driver().cuMemcpyHtoD(global, &address, sizeof(address)), "cuMemcpyHtoD");
}

}  // namespace cuhost::cuda
