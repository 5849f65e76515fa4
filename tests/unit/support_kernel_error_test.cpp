// The kernel error record (support/kernel_error.h): a site survives its
// encoding byte for byte, damaged bytes are refused, and each form reads as
// numba-cuda's message in a launch and as numba's in a call from the host.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>

#include "support/kernel_error.h"

using namespace cuhost;

namespace {

KernelErrorSite raise_site() {
  KernelErrorSite s;
  s.form = KernelErrorForm::Raise;
  s.class_key = "exception.3";
  s.message = "bad element";
  s.file = "/tmp/k.py";
  s.line = 17;
  s.function = "body";
  return s;
}

// A random argument of every kind, tuples nested up to `depth`.
KernelErrorArg random_arg(std::mt19937& rng, int depth) {
  using K = KernelErrorArg::Kind;
  KernelErrorArg a;
  a.kind = static_cast<K>(rng() % (depth > 0 ? 9 : 8));
  switch (a.kind) {
    case K::None: break;
    case K::Bool: a.i = rng() % 2; break;
    case K::Int: a.i = static_cast<std::int64_t>((std::uint64_t(rng()) << 32) | rng()); break;
    case K::UInt: a.u = (std::uint64_t(rng()) << 32) | rng(); break;
    case K::Complex: a.imag = std::ldexp(static_cast<double>(rng()), -int(rng() % 60)); [[fallthrough]];
    case K::Float: a.real = std::ldexp(static_cast<double>(rng()) - 2e9, int(rng() % 200) - 100); break;
    case K::String:
    case K::Bytes:
      a.text.resize(rng() % 40);
      for (char& c : a.text) c = static_cast<char>(rng() % 256);
      break;
    case K::Tuple:
      for (int k = static_cast<int>(rng() % 4); k > 0; --k) a.items.push_back(random_arg(rng, depth - 1));
      break;
  }
  return a;
}

KernelErrorReport launch_report(KernelErrorSite site) {
  KernelErrorReport r;
  r.site = std::move(site);
  r.kernel = "body";
  r.code = 2;
  r.tid[0] = 5;
  r.tid[1] = 1;
  r.bid[0] = 3;
  r.bid[2] = 2;
  return r;
}

}  // namespace

TEST_CASE("kernel error: a site survives its encoding", "[support]") {
  std::mt19937 rng(11);
  auto random_text = [&](std::size_t max) {
    std::string s(rng() % (max + 1), ' ');
    for (char& c : s) c = static_cast<char>(rng() % 256);  // any byte, NUL and ESC included
    return s;
  };
  for (int i = 0; i < 200; ++i) {
    KernelErrorSite site;
    site.form = static_cast<KernelErrorForm>(1 + rng() % 4);
    site.class_key = random_text(20);
    site.message = random_text(300);
    site.file = random_text(40);
    site.line = static_cast<std::int64_t>(rng() % 100000);
    site.function = random_text(30);
    for (int k = static_cast<int>(rng() % 4); k > 0; --k) site.args.push_back(random_arg(rng, 2));
    const std::string bytes = encode_site(site);
    KernelErrorSite back;
    REQUIRE(decode_site(bytes.data(), bytes.size(), &back));
    CHECK(back == site);
    KernelErrorSite from_pointer;  // the CPU backend's constants: the size comes from the header
    REQUIRE(decode_site(bytes.data(), &from_pointer));
    CHECK(from_pointer == site);
  }
}

TEST_CASE("kernel error: damaged site bytes are refused", "[support]") {
  const std::string bytes = encode_site(raise_site());
  KernelErrorSite out;
  CHECK_FALSE(decode_site(bytes.data(), bytes.size() - 1, &out));  // cut short
  CHECK_FALSE(decode_site(bytes.data(), 10, &out));                // no whole header
  CHECK_FALSE(decode_site(nullptr, &out));
  std::string bad_form = bytes;
  bad_form[8] = 9;  // the form field
  CHECK_FALSE(decode_site(bad_form.data(), bad_form.size(), &out));
  KernelErrorSite with_none = raise_site();
  with_none.args.push_back(KernelErrorArg{});  // None: its kind byte is the last byte
  std::string bad_arg = encode_site(with_none);
  REQUIRE(decode_site(bad_arg.data(), bad_arg.size(), &out));
  bad_arg.back() = 99;  // not an argument kind
  CHECK_FALSE(decode_site(bad_arg.data(), bad_arg.size(), &out));
  std::string bad_length = bytes;
  bad_length[32] = 100;  // the message's size no longer adds up to the total
  CHECK_FALSE(decode_site(bad_length.data(), bad_length.size(), &out));
  // A larger global (a GPU site read with padding) still holds the site.
  std::string padded = bytes + std::string(7, '\0');
  REQUIRE(decode_site(padded.data(), padded.size(), &out));
  CHECK(out == raise_site());
}

TEST_CASE("kernel error: a raise reads as numba-cuda's message", "[support]") {
  KernelErrorReport r = launch_report(raise_site());
  CHECK(kernel_error_message(r) ==
        "In function 'body', file /tmp/k.py, line 17, tid=[5, 1, 0] ctaid=[3, 0, 2]: bad element");
  CHECK(kernel_error_kind(r) == ErrorKind::KernelError);
  r.site.message.clear();  // `raise ValueError`: no argument
  CHECK(kernel_error_message(r) == "In function 'body', file /tmp/k.py, line 17, tid=[5, 1, 0] ctaid=[3, 0, 2]");
  r.in_launch = false;  // a call from the host: the argument alone, as Python
  CHECK(kernel_error_message(r) == "");
  r.site.message = "bad element";
  CHECK(kernel_error_message(r) == "bad element");
}

TEST_CASE("kernel error: checks, faults and index errors name the kernel and thread", "[support]") {
  KernelErrorSite check;
  check.form = KernelErrorForm::Check;
  check.class_key = "builtins.ValueError";
  check.message = "slice step cannot be zero";
  KernelErrorReport r = launch_report(check);
  r.code = 0;
  CHECK(kernel_error_message(r) ==
        "error in kernel 'body': ValueError: slice step cannot be zero (code 0, thread (5,1,0), block (3,0,2))");
  CHECK(builtin_class_name(check.class_key) == "ValueError");
  CHECK(builtin_class_name("exception.3") == "");
  r.in_launch = false;
  CHECK(kernel_error_message(r) == "slice step cannot be zero");

  KernelErrorSite fault;
  fault.message = "foreign function 'f' returned an error status";
  r = launch_report(fault);
  r.code = 7;
  CHECK(kernel_error_message(r) ==
        "error in kernel 'body': foreign function 'f' returned an error status (code 7, thread (5,1,0), block "
        "(3,0,2))");
  r.in_launch = false;
  CHECK(kernel_error_message(r) == "error in 'body': foreign function 'f' returned an error status (code 7)");
  r.site.class_key = "builtins.TypeError";  // a None where a value is needed: the class's own message
  r.site.message = "expected int64, got None";
  CHECK(kernel_error_message(r) == "expected int64, got None");

  KernelErrorSite index;
  index.form = KernelErrorForm::Index;
  index.message = "out";
  r = launch_report(index);
  r.code = 1024;
  r.dim = 1;
  r.extent = 1000;
  CHECK(kernel_error_kind(r) == ErrorKind::IndexError);
  CHECK(kernel_error_message(r) ==
        "index 1024 is out of bounds for axis 1 with size 1000 (array 'out' in kernel 'body', thread (5,1,0), block "
        "(3,0,2))");
  r.in_launch = false;
  CHECK(kernel_error_message(r) == "index 1024 is out of bounds for axis 1 with size 1000 (array 'out' in 'body')");
  const KernelErrorRaised thrown(launch_report(index));
  CHECK(thrown.kind() == ErrorKind::IndexError);
  CHECK(thrown.report().site == index);
}

TEST_CASE("kernel error: raised arguments read as Python spells them", "[support]") {
  auto num = [](double v) {
    KernelErrorArg a;
    a.kind = KernelErrorArg::Kind::Float;
    a.real = v;
    return a;
  };
  // What python3 prints for str(float(...)) of each.
  CHECK(python_str(num(0.1)) == "0.1");
  CHECK(python_str(num(1e16)) == "1e+16");
  CHECK(python_str(num(1e15)) == "1000000000000000.0");
  CHECK(python_str(num(2.5e-7)) == "2.5e-07");
  CHECK(python_str(num(0.0001)) == "0.0001");
  CHECK(python_str(num(0.00001)) == "1e-05");
  CHECK(python_str(num(-0.0)) == "-0.0");
  CHECK(python_str(num(123456.789)) == "123456.789");
  CHECK(python_str(num(1.0 / 3)) == "0.3333333333333333");
  CHECK(python_str(num(1.7976931348623157e308)) == "1.7976931348623157e+308");
  KernelErrorArg c;
  c.kind = KernelErrorArg::Kind::Complex;
  c.real = 1;
  c.imag = -2.5;
  CHECK(python_str(c) == "(1-2.5j)");
  c.real = 0;
  c.imag = 2;
  CHECK(python_str(c) == "2j");
  KernelErrorArg t;
  t.kind = KernelErrorArg::Kind::Tuple;
  KernelErrorArg one;
  one.kind = KernelErrorArg::Kind::Int;
  one.i = 1;
  t.items = {one};
  CHECK(python_str(t) == "(1,)");
  t.items.push_back(KernelErrorArg::string("it's"));
  CHECK(python_str(t) == "(1, \"it's\")");
  CHECK(python_str(KernelErrorArg::string("it's")) == "it's");
  KernelErrorArg b;
  b.kind = KernelErrorArg::Kind::Bytes;
  b.text = std::string("a\x01'", 3);
  CHECK(python_str(b) == "b'a\\x01\\''");
}
