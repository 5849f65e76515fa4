// nvJitLink behind one RAII owner: inputs (PTX text from our NVPTX backend,
// and foreign .ptx/.cubin/.fatbin/.a/.o/.ltoir), -arch=sm_XX, -lto when any
// LTO-IR is present; the info and error logs are always kept. Works with no
// GPU and no driver (CI uses it to assemble every PTX for sm_90).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/foreign.h"

namespace cuhost::cuda {

struct LinkInput {
  ir::LinkKind kind = ir::LinkKind::PTXSource;  // CUSource is not accepted here: compile it with NVRTC first
  std::string name;                             // shown in logs and errors
  std::string data;
};

struct LinkResult {
  std::string cubin;  // empty when PTX was asked for
  std::string ptx;    // with the "-ptx" option (LTO links): the linked PTX instead of a cubin
  std::string info_log;
};

// Links inputs into a cubin for sm_<cc_major><cc_minor>. `lto` says LTO was
// requested; -lto is passed exactly when some input is LTO-IR (a -lto link
// with no LTO-IR module is an nvJitLink error). Throws
// UserError(LinkerError) carrying the nvJitLink error log; an unresolved
// symbol's name appears in the message; a symbol defined twice is an error in
// both LTO and non-LTO modes.
LinkResult link(const std::vector<LinkInput>& inputs, int cc_major, int cc_minor, bool lto,
                const std::vector<std::string>& extra_options = {});

// Links an empty kernel for sm_<cc_major><cc_minor> and drops the result.
// nvJitLink's first link in a process costs more than the next ones (its
// compiler's first use; docs/BENCHMARKS.md, P4 and P6): a GPU process runs
// this on a thread of its own while the context is being created, so the
// first kernel's link does not pay it. Never throws.
void warm_up_linker(int cc_major, int cc_minor) noexcept;

}  // namespace cuhost::cuda
