// Reads and clears a kernel's error record after a checked launch (see
// error_record.h); the messages match the CPU backend's word for word.
#include "cuda/error_record.h"

#include <cstdint>
#include <vector>

#include "codegen/kernel_abi.h"
#include "cuda/driver.h"
#include "cuda/image_symbols.h"
#include "support/diagnostics.h"
#include "support/kernel_errors.h"

namespace cuhost::cuda {
namespace {

// The text of site `n`, read from the library's __device__ string.
std::string site_text(CUlibrary library, long long n) {
  CUdeviceptr ptr = 0;
  std::size_t bytes = 0;
  const std::string name = concat(codegen::kErrorSitePrefix, n);
  if (!library_may_define(reinterpret_cast<std::uintptr_t>(library), name) ||
      driver().cuLibraryGetGlobal(&ptr, &bytes, library, name.c_str()) != CUDA_SUCCESS || bytes == 0)
    return "?";
  std::vector<char> text(bytes);
  check(driver().cuMemcpyDtoH(text.data(), ptr, bytes), "cuMemcpyDtoH");
  text.back() = '\0';
  return text.data();
}

}  // namespace

void check_kernel_errors(const KernelErrorRecord& errors, CUstream stream, const std::string& kernel_name) {
  if (!errors.record) return;
  check(driver().cuStreamSynchronize(stream), "cuStreamSynchronize", kernel_name);
  std::int64_t r[codegen::kErrorRecordSlots] = {};
  const auto record = static_cast<CUdeviceptr>(errors.record);
  check(driver().cuMemcpyDtoH(r, record, sizeof r), "cuMemcpyDtoH", kernel_name);
  const auto kind = static_cast<codegen::ErrorRecordKind>(r[codegen::kErrorKind]);
  if (kind == codegen::ErrorRecordKind::None) return;
  const long long zeros[codegen::kErrorRecordSlots] = {};
  check(driver().cuMemcpyHtoD(record, zeros, sizeof zeros), "cuMemcpyHtoD", kernel_name);

  const std::string site = site_text(reinterpret_cast<CUlibrary>(errors.library), r[codegen::kErrorSite]);
  const std::string where = thread_place(&r[codegen::kErrorTid], &r[codegen::kErrorBid]);
  if (kind == codegen::ErrorRecordKind::Index)
    throw UserError(ErrorKind::IndexError, index_error_text(r[codegen::kErrorValue], r[codegen::kErrorDim],
                                                            r[codegen::kErrorExtent], site, kernel_name, where));
  throw UserError(ErrorKind::KernelError, kernel_error_text(kernel_name, site, r[codegen::kErrorValue], where));
}

}  // namespace cuhost::cuda
