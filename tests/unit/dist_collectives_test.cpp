// Unit tests of the collectives' host-side logic (engine/dist): the launcher
// environment a rank reads its place from, the host reductions MPI cannot do
// as NCCL does (16-bit floats, wrapping 8-bit integers, averages), the
// single-rank communicator's group rules, and NCCL's version numbers.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cuda/nccl.h"
#include "dist/communicator.h"
#include "dist/host_reduce.h"
#include "dist/self_communicator.h"
#include "support/half_bits.h"
#include "support/launcher_env.h"

using namespace cuhost;

namespace {

std::map<std::string, std::string> g_env;
const char* fake_env(const char* name) {
  auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

float from_half(std::uint16_t h) {  // a reference decoder, written from the format's definition
  int sign = h >> 15, exponent = (h >> 10) & 31, mantissa = h & 1023;
  double v = exponent == 0 ? mantissa * std::pow(2.0, -24) : (1 + mantissa / 1024.0) * std::pow(2.0, exponent - 15);
  return static_cast<float>(sign ? -v : v);
}

float from_bfloat16(std::uint16_t b) {
  std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace

TEST_CASE("a rank reads its place from the launcher's environment", "[dist]") {
  g_env = {{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}};
  support::LauncherEnvironment e = support::read_launcher_environment(fake_env);
  CHECK(e.launched);
  CHECK(std::string(e.launcher) == "Open MPI");
  CHECK((e.rank == 3 && e.size == 4 && e.local_rank == 1));

  g_env = {{"PMI_RANK", "2"}, {"PMI_SIZE", "3"}, {"MPI_LOCALRANKID", "0"}};
  e = support::read_launcher_environment(fake_env);
  CHECK((e.launched && std::string(e.launcher) == "MPICH/PMI" && e.rank == 2 && e.local_rank == 0));

  g_env = {{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "8"}};  // no local id: the rank stands for it
  e = support::read_launcher_environment(fake_env);
  CHECK((e.launched && e.rank == 5 && e.size == 8 && e.local_rank == 5));

  for (auto bad : std::vector<std::map<std::string, std::string>>{
           {},
           {{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "2"}},
           {{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "2"}},
           {{"OMPI_COMM_WORLD_RANK", "-1"}, {"OMPI_COMM_WORLD_SIZE", "2"}}}) {
    g_env = bad;
    e = support::read_launcher_environment(fake_env);
    CHECK(!e.launched);
    CHECK(e.local_rank == -1);
  }
}

TEST_CASE("16-bit floats are reduced through float and rounded once", "[dist]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  for (dist::DataType type : {dist::DataType::Float16, dist::DataType::BFloat16}) {
    const bool half = type == dist::DataType::Float16;
    auto encode = [&](double d) {
      return half ? support::double_to_half_bits(d) : support::double_to_bfloat16_bits(d);
    };
    auto decode = [&](std::uint16_t b) { return half ? from_half(b) : from_bfloat16(b); };
    for (dist::ReduceOp op : {dist::ReduceOp::Sum, dist::ReduceOp::Prod, dist::ReduceOp::Max, dist::ReduceOp::Min}) {
      std::vector<std::uint16_t> a(200), b(200), expected(200);
      for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = encode(value(rng));
        b[i] = encode(value(rng));
        float x = decode(a[i]), y = decode(b[i]);
        float r = op == dist::ReduceOp::Sum    ? x + y
                  : op == dist::ReduceOp::Prod ? x * y
                  : op == dist::ReduceOp::Max  ? std::max(x, y)
                                               : std::min(x, y);
        expected[i] = encode(r);
      }
      dist::reduce_on_host(a.data(), b.data(), a.size(), type, op);
      CHECK(b == expected);
    }
  }
}

TEST_CASE("8-bit integers wrap around as NCCL's do", "[dist]") {
  std::vector<std::uint8_t> a = {200, 255, 3, 128}, b = {100, 1, 250, 128};
  dist::reduce_on_host(a.data(), b.data(), a.size(), dist::DataType::UInt8, dist::ReduceOp::Sum);
  CHECK(b == std::vector<std::uint8_t>{44, 0, 253, 0});
  std::vector<std::int8_t> c = {100, -100, 7, -128}, d = {100, -100, -9, 127};
  dist::reduce_on_host(c.data(), d.data(), c.size(), dist::DataType::Int8, dist::ReduceOp::Sum);
  CHECK(d == std::vector<std::int8_t>{-56, 56, -2, -1});
  std::vector<std::int8_t> e = {5, -5}, f = {-3, 9};
  dist::reduce_on_host(e.data(), f.data(), e.size(), dist::DataType::Int8, dist::ReduceOp::Max);
  CHECK(f == std::vector<std::int8_t>{5, 9});
  std::vector<std::uint8_t> g = {16, 3}, h = {16, 5};
  dist::reduce_on_host(g.data(), h.data(), g.size(), dist::DataType::UInt8, dist::ReduceOp::Prod);
  CHECK(h == std::vector<std::uint8_t>{0, 15});
}

TEST_CASE("an average divides the sum by the ranks, truncating integers", "[dist]") {
  std::vector<std::int32_t> i = {7, -7, 9};
  dist::divide_elements(i.data(), i.size(), dist::DataType::Int32, 2);
  CHECK(i == std::vector<std::int32_t>{3, -3, 4});
  std::vector<double> d = {1.0, -3.0};
  dist::divide_elements(d.data(), d.size(), dist::DataType::Float64, 4);
  CHECK(d == std::vector<double>{0.25, -0.75});
  std::vector<std::uint16_t> h = {support::double_to_half_bits(3.0)};
  dist::divide_elements(h.data(), 1, dist::DataType::Float16, 2);
  CHECK(from_half(h[0]) == 1.5f);
}

TEST_CASE("the single-rank communicator copies, and matches its own sends in groups", "[dist]") {
  auto c = dist::make_self_communicator(0);
  CHECK((c->rank() == 0 && c->size() == 1 && std::string(c->carrier()) == "self"));
  std::vector<float> x = {1, 2, 3}, y(3);
  c->all_reduce(x.data(), y.data(), 3, dist::DataType::Float32, dist::ReduceOp::Sum, 0);
  CHECK(y == x);
  std::vector<float> got(3);
  c->group_start();
  c->recv(got.data(), 3, dist::DataType::Float32, 0, 0);  // posted first: matched at the group's end
  c->send(x.data(), 3, dist::DataType::Float32, 0, 0);
  CHECK(got == std::vector<float>(3, 0.0f));
  c->group_end();
  CHECK(got == x);
  CHECK_THROWS_WITH(c->send(x.data(), 3, dist::DataType::Float32, 0, 0),
                    Catch::Contains("to itself outside a group never completes"));
  CHECK_THROWS_WITH(c->broadcast(x.data(), y.data(), 3, dist::DataType::Float32, 1, 0),
                    Catch::Contains("root 1 is not a rank of this communicator (size 1)"));
  c->group_start();
  c->send(x.data(), 3, dist::DataType::Float32, 0, 0);
  c->recv(got.data(), 2, dist::DataType::Float32, 0, 0);
  CHECK_THROWS_WITH(c->group_end(), Catch::Contains("send 0 of the group carries 12 bytes but its receive expects 8"));
  CHECK_THROWS_WITH(c->group_end(), Catch::Contains("group_end without group_start"));
}

TEST_CASE("NCCL's version codes read as dotted versions", "[dist]") {
  CHECK(cuda::nccl_version_string(22809) == "2.28.9");
  CHECK(cuda::nccl_version_string(21903) == "2.19.3");
  CHECK(cuda::nccl_version_string(2708) == "2.7.8");
}
