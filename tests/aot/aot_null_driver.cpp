// The aot runtime's GPU host path on the null driver (a libcuda.so.1 that
// records instead of computing, tests/null_driver): an export folder of
// examples/aot/kernels.py (argument 1, exported with --arch sm_90) loads its
// cubins, kernels launch (the cooperative one through
// cuLaunchCooperativeKernel), and the exported graph `step`, its parameters
// bound by name, lands in the host's own stream capture and in a graph the
// host builds as a child node: the launched graph's kernel nodes carry the
// bound pointers and scalar, the captured configuration and the constant
// extents. Then the graph's binding errors. Prints "aot null driver ok".
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include <cuhost/aot.h>

namespace {

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::printf("FAILED: %s\n", what.c_str());
  ++failures;
}

template <class Fn>
void expect_error(const std::string& text, Fn fn) {
  try {
    fn();
    expect(false, "no error; expected: " + text);
  } catch (const cuhost::aot::Error& e) {
    expect(std::string(e.what()) == text, std::string("error '") + e.what() + "', expected '" + text + "'");
  }
}

// The host's own driver calls, resolved as the null driver serves them.
struct Host {
  using GetProc = int (*)(const char*, void**, int, unsigned long long, int*);
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  template <class T>
  T get(const char* name) {
    auto get_proc = reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2"));
    void* fn = nullptr;
    int found = 0;
    if (get_proc) get_proc(name, &fn, 13000, 0, &found);
    return reinterpret_cast<T>(fn);
  }
  template <class T>
  T log(const char* name) {
    return reinterpret_cast<T>(dlsym(lib, name));
  }
};

std::uint32_t bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  using cuhost::aot::GraphArgument;
  auto m = cuhost::aot::Module::load(argv[1], {cuhost::aot::Device::Cuda});
  expect(m->image_kind() == "cubin sm_90", "image " + m->image_kind());
  expect(!m->on_cpu(), "on the GPU");

  Host h;
  auto stream_create = h.get<int (*)(void**, unsigned)>("cuStreamCreate");
  auto begin = h.get<int (*)(void*, int)>("cuStreamBeginCapture");
  auto end = h.get<int (*)(void*, void**)>("cuStreamEndCapture");
  auto instantiate = h.get<int (*)(void**, void*, unsigned long long)>("cuGraphInstantiateWithFlags");
  auto launch = h.get<int (*)(void*, void*)>("cuGraphLaunch");
  auto graph_create = h.get<int (*)(void**, unsigned)>("cuGraphCreate");
  auto kernel_count = h.log<int (*)()>("cuhost_null_graph_kernel_count");
  auto kernel_param = h.log<unsigned long long (*)(int, int)>("cuhost_null_graph_kernel_param");
  auto kernel_dim = h.log<unsigned (*)(int, int)>("cuhost_null_graph_kernel_dim");
  if (!stream_create || !begin || !end || !instantiate || !launch || !graph_create || !kernel_count) {
    std::printf("FAILED: the null driver's entry points\n");
    return 1;
  }
  void* s = nullptr;
  expect(stream_create(&s, 1) == 0, "cuStreamCreate");

  const int n = 1000;
  auto* x = static_cast<float*>(m->allocate(n * 4));
  auto* y = static_cast<float*>(m->allocate(n * 4));
  auto* out = static_cast<float*>(m->allocate(n * 4));
  auto* total = static_cast<float*>(m->allocate(4));

  // Kernels launch on the host's stream; the cooperative one too.
  cuhost::aot::Kernel center = m->kernel("center");
  expect(center.slot_count() == 6, "center's slots");
  expect(center.max_cooperative_blocks(128) > 0, "cooperative blocks");
  std::int64_t extent = n, stride = 4, one = 1;
  void* center_params[] = {&x, &extent, &stride, &total, &one, &stride};
  center.launch({{8}, {128}, 0, reinterpret_cast<std::uintptr_t>(s)}, center_params);
  expect_error("kernel 'nosuch' is not in the export folder '" + std::string(argv[1]) + "'",
               [&] { m->kernel("nosuch"); });

  // The exported graph inside the host's own capture.
  cuhost::aot::Graph step = m->graph("step");
  expect(step.parameters() == std::vector<std::string>{"x", "alpha", "y", "out"}, "step's parameters");
  step.bind({GraphArgument::ptr("x", x), GraphArgument::ptr("y", y), GraphArgument::ptr("out", out),
             GraphArgument::real("alpha", 1.5)});
  void *captured = nullptr, *exec = nullptr;
  expect(begin(s, 2 /* relaxed */) == 0, "cuStreamBeginCapture");
  step.launch(reinterpret_cast<std::uintptr_t>(s));
  expect(end(s, &captured) == 0 && captured, "cuStreamEndCapture");
  expect(instantiate(&exec, captured, 0) == 0, "instantiate the host's graph");
  expect(launch(exec, s) == 0, "launch the host's graph");
  auto check_nodes = [&](const char* how, const float* bound_x) {
    std::string at = std::string(how) + ": ";
    expect(kernel_count() == 2, at + "2 kernel nodes, not " + std::to_string(kernel_count()));
    // scale(x, alpha): x's data, extent, stride, then alpha.
    expect(kernel_param(0, 0) == reinterpret_cast<std::uintptr_t>(bound_x), at + "scale's x");
    expect(kernel_param(0, 1) == 1000 && kernel_param(0, 2) == 4, at + "scale's x extent and stride");
    expect(kernel_param(0, 3) == bits(1.5f), at + "scale's alpha");
    // axpy(0.5, x, y, out): the constant, then the three arrays.
    expect(kernel_param(1, 0) == bits(0.5f), at + "axpy's constant a");
    expect(kernel_param(1, 1) == reinterpret_cast<std::uintptr_t>(bound_x), at + "axpy's x");
    expect(kernel_param(1, 4) == reinterpret_cast<std::uintptr_t>(y), at + "axpy's y");
    expect(kernel_param(1, 7) == reinterpret_cast<std::uintptr_t>(out), at + "axpy's out");
    expect(kernel_dim(1, 0) == 8 && kernel_dim(1, 3) == 128, at + "axpy's grid and block");
  };
  check_nodes("in the host's capture", x);

  // As a child node of a graph the host builds, after a rebinding.
  auto* x2 = static_cast<float*>(m->allocate(n * 4));
  step.bind({GraphArgument::ptr("x", x2)});
  void *parent = nullptr, *parent_exec = nullptr;
  expect(graph_create(&parent, 0) == 0, "cuGraphCreate");
  expect(step.add_as_child(reinterpret_cast<std::uintptr_t>(parent)) != 0, "the child node");
  expect(instantiate(&parent_exec, parent, 0) == 0 && launch(parent_exec, s) == 0, "launch the host's graph");
  check_nodes("as a child node", x2);

  // Binding errors, naming the graph.
  cuhost::aot::Graph fresh = m->graph("step");
  expect_error("graph 'step': parameter 'x' is not bound (Graph::bind)", [&] { fresh.launch(); });
  expect_error("graph 'step': has no parameter 'nope'", [&] { fresh.bind({GraphArgument::ptr("nope", x)}); });
  expect_error("graph 'step': parameter 'alpha' is float, not pointer",
               [&] { fresh.bind({GraphArgument::ptr("alpha", x)}); });
  expect_error("graph 'nosuch' is not in the export folder '" + std::string(argv[1]) + "'",
               [&] { m->graph("nosuch"); });

  if (failures) return 1;
  std::printf("aot null driver ok\n");
  return 0;
}
