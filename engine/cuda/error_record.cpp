// Reads and clears a kernel's error record after a checked launch (see
// error_record.h): the report is built from the record's slots and the
// failed site's data, as the CPU backend builds it (support/kernel_error.h).
#include "cuda/error_record.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "codegen/kernel_abi.h"
#include "cuda/driver.h"
#include "cuda/image_symbols.h"
#include "support/diagnostics.h"
#include "support/kernel_error.h"

namespace cuhost::cuda {
namespace {

// Site `n`, read from the library's __device__ bytes; a site that cannot be
// read reports as a fault of the record's kind with the message "?".
KernelErrorSite read_site(CUlibrary library, long long n, codegen::ErrorRecordKind kind) {
  KernelErrorSite site;
  site.form = kind == codegen::ErrorRecordKind::Index ? KernelErrorForm::Index : KernelErrorForm::Fault;
  site.message = "?";
  CUdeviceptr ptr = 0;
  std::size_t bytes = 0;
  const std::string name = concat(codegen::kErrorSitePrefix, n);
  if (!library_may_define(reinterpret_cast<std::uintptr_t>(library), name) ||
      driver().cuLibraryGetGlobal(&ptr, &bytes, library, name.c_str()) != CUDA_SUCCESS || bytes == 0)
    return site;
  std::vector<char> data(bytes);
  check(driver().cuMemcpyDtoH(data.data(), ptr, bytes), "cuMemcpyDtoH");
  KernelErrorSite stored;
  return decode_site(data.data(), data.size(), &stored) ? stored : site;
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

  KernelErrorReport report;
  report.site = read_site(reinterpret_cast<CUlibrary>(errors.library), r[codegen::kErrorSite], kind);
  report.kernel = kernel_name;
  report.code = r[codegen::kErrorValue];
  report.dim = r[codegen::kErrorDim];
  report.extent = r[codegen::kErrorExtent];
  for (int a = 0; a < 3; ++a) {
    report.tid[a] = r[codegen::kErrorTid + a];
    report.bid[a] = r[codegen::kErrorBid + a];
  }
  throw KernelErrorRaised(std::move(report));
}

}  // namespace cuhost::cuda
