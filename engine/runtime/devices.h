// The device each thread works on. As in numba-cuda (whose current context
// is the driver's, per thread), `cuda.select_device(i)`, `with
// cuda.gpus[i]:` and Runtime::set_device choose the device of the calling
// thread only: its allocations, copies, streams, events and launches go
// there. A thread that chose none uses the host's default device
// (RuntimeOptions::device, or the MPI local rank's device). On the CPU
// backend there is one device, 0.
#pragma once

#include <cstdint>
#include <vector>

namespace cuhost::runtime {

// Ordinals 0..kMaxDevices-1 have per-device state (cuda/context.h).
constexpr int kMaxDevices = 64;

// The calling thread's device (see above).
int current_device();

// Chooses `ordinal` for the calling thread and, on the CUDA backend, makes
// its primary context current. The ordinal must be valid (valid_device).
void select_device(int ordinal);

// Forgets the calling thread's choice: it uses the host's default device
// again (cuda.close(), as numba-cuda's close drops the thread's context).
void forget_selected_device();

// The number of devices: CUDA devices, or 1 (the CPU) on the CPU backend.
int device_count();

// Whether `ordinal` names a device of the running backend.
bool valid_device(int ordinal);

// Makes the primary context of `device` current on this thread (CUDA; no-op
// on the CPU) without changing the thread's chosen device. The checked form
// asks the driver; the fast one trusts what cuhost last made current here
// (launch paths, see cuda/context.h).
void make_device_current(int device);
void use_device_context(int device);

// Switches the calling thread to `device` for a scope (a copy of an array
// that lives there) and back afterwards; nothing when `device` is negative or
// already the thread's device.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_selection_ = -1;  // the thread's choice before (-1: none)
  int previous_device_ = -1;     // -1: the scope changed nothing
};

// The lowest compute capability among the process's CUDA devices: the
// target kernels are compiled for once, so the PTX loads on every device
// (each links it for its own architecture).
void lowest_compute_capability(int* major, int* minor);

// Devices whose context cuhost made current in this process (ascending):
// what cuda.close() and whole-process synchronization visit.
std::vector<int> devices_in_use();

// Lets kernels on `device` use the memory of `peer`: true when the devices
// are the same or peer access is (now) enabled; false when the driver says
// the devices cannot access each other (the caller reports it).
bool use_peer_memory(int device, int peer);

}  // namespace cuhost::runtime
