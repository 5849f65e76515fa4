// Unit tests of the aot runtime's own SHA-256 and JSON (engine/aot): the
// digests every exported file is checked against, on the FIPS 180-4 test
// vectors and on block-boundary lengths against a digest computed in
// another way; the manifest's JSON read back as written, and its errors.
#include <catch2/catch.hpp>

#include <string>

#include "aot/json.h"
#include "aot/sha256.h"

using cuhost::aot::Json;
using cuhost::aot::sha256_hex;

TEST_CASE("SHA-256 of the standard test vectors", "[aot]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256 around the 55/56/64-byte padding boundaries", "[aot]") {
  // Known digests of 'a' repeated n times (computed with coreutils' sha256sum).
  CHECK(sha256_hex(std::string(55, 'a')) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(sha256_hex(std::string(56, 'a')) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  CHECK(sha256_hex(std::string(64, 'a')) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  // One changed byte changes the digest.
  std::string data(4096, 'x');
  std::string before = sha256_hex(data);
  data[2000] = 'y';
  CHECK(sha256_hex(data) != before);
}

TEST_CASE("JSON written by the exporter reads back", "[aot]") {
  Json j = Json::object();
  j.set("name", "axpy \"quoted\"\n");
  j.set("bytes", 123456789012LL);
  j.set("ratio", 0.25);
  j.set("cooperative", true);
  j.set("none", Json());
  Json a = Json::array();
  a.push(1);
  a.push("two");
  j.set("items", a);
  for (int indent : {0, 2}) {
    Json back = Json::parse(j.dump(indent));
    CHECK(back["name"].as_string("name") == "axpy \"quoted\"\n");
    CHECK(back["bytes"].as_int("bytes") == 123456789012LL);
    CHECK(back["ratio"].as_number("ratio") == 0.25);
    CHECK(back["cooperative"].as_bool("cooperative"));
    CHECK(back["none"].is_null());
    CHECK(back["missing"].is_null());
    REQUIRE(back["items"].items("items").size() == 2);
    CHECK(back["items"].items("items")[1].as_string("items[1]") == "two");
    CHECK(back.members("root")[0].first == "name");  // the keys keep their order
  }
}

TEST_CASE("JSON errors name the byte or the field", "[aot]") {
  try {
    Json::parse("{\"a\": [1, 2,, 3]}");
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "invalid JSON at byte 12: unexpected character");
  }
  try {
    Json::parse("{\"a\": 1} x");
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "invalid JSON at byte 9: text after the JSON value");
  }
  Json j = Json::parse("{\"slot_count\": \"six\", \"n\": 1.5}");
  try {
    j["slot_count"].as_int("kernel 'axpy': slot_count");
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "kernel 'axpy': slot_count must be a number, not a string");
  }
  CHECK_THROWS_WITH(j["n"].as_int("n"), "n must be an integer");
}
