// Build-time NVRTC for plugins: `cuhost_nvrtc_compile [--lto] [--cc 90] -o OUT IN.cu`
// compiles a plugin's CUDA source to PTX (or LTO-IR with --lto) with the same
// options cuhost uses at run time, so prebuilt items link like run-time ones.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "cuda/nvrtc.h"
#include "support/diagnostics.h"

int main(int argc, char** argv) {
  bool lto = false;
  int cc = 90;
  std::string out, in;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--lto") {
      lto = true;
    } else if (a == "--cc" && i + 1 < argc) {
      cc = std::atoi(argv[++i]);
    } else if (a == "-o" && i + 1 < argc) {
      out = argv[++i];
    } else if (!a.empty() && a[0] != '-') {
      in = a;
    } else {
      std::fprintf(stderr, "usage: cuhost_nvrtc_compile [--lto] [--cc 90] -o OUT IN.cu\n");
      return 2;
    }
  }
  if (in.empty() || out.empty() || cc < 10) {
    std::fprintf(stderr, "usage: cuhost_nvrtc_compile [--lto] [--cc 90] -o OUT IN.cu\n");
    return 2;
  }
  std::ifstream f(in, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "cuhost_nvrtc_compile: cannot read %s\n", in.c_str());
    return 1;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  try {
    cuhost::cuda::NvrtcOptions opts;
    opts.cc_major = cc / 10;
    opts.cc_minor = cc % 10;
    opts.lto = lto;
    std::string dir = in.find('/') == std::string::npos ? "." : in.substr(0, in.find_last_of('/'));
    std::string name = in.substr(in.find_last_of('/') + 1);
    auto result = cuhost::cuda::compile_cuda_source(ss.str(), name, dir, opts);
    if (!result.log.empty()) std::fprintf(stderr, "%s\n", result.log.c_str());
    std::ofstream o(out, std::ios::binary);
    o.write(result.code.data(), static_cast<std::streamsize>(result.code.size()));
    if (!o) {
      std::fprintf(stderr, "cuhost_nvrtc_compile: cannot write %s\n", out.c_str());
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuhost_nvrtc_compile: %s\n", e.what());
    return 1;
  }
  return 0;
}
