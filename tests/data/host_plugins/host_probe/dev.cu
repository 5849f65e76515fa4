// Probe results written by the host library's setup; a __constant__ too, to
// check it is refused as read-only on the CPU backend.
extern "C" {
__device__ long long host_probe_table[12];
__constant__ int host_probe_const = 5;
__device__ long long host_probe_get(int i) { return i == 12 ? host_probe_const : host_probe_table[i]; }
}
