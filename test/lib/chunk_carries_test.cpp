// ChunkCarries composes the carries of a chunked scan on the host. The carry
// into chunk j of 16^k elements is X_k(j) of the canonical order, which is
// the canonical exclusive scan of the chunks' totals at j: the reference's
// own tree checks the host's composition, without a device.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>
#include <vkscan/host.hpp>

#include "reference.hpp"
#include "test_device.hpp"

using namespace vkscan;

namespace {

// Feeds `count` random totals one chunk at a time and compares each carry
// with the reference's exclusive scan of the totals before it.
void checkCarries(ScanOperation operation, DataType type, uint32_t count, uint32_t lines) {
  CAPTURE(scanOperationName(operation));
  CAPTURE(dataTypeName(type));
  const size_t size = dataTypeSize(type);
  // Totals of `lines` lines, line-major per chunk: chunk c's totals at c * lines.
  std::vector<uint8_t> totals = test::randomOperands(operation, type, uint64_t{count} * lines, 7);
  // The reference's scan of each line's totals, [lines, count] along axis 1.
  ScanDesc desc;
  desc.operation = operation;
  desc.input = {type, {lines, count}, {1, lines}};
  desc.output = {type, {lines, count}, {}};
  desc.axis = 1;
  desc.exclusive = true;
  std::vector<uint8_t> expected(desc.output.totalBytes());
  test::referenceScan(desc, totals, expected);

  ChunkCarries carries(operation, type, lines, 256);
  REQUIRE(carries.type() == type);
  REQUIRE(carries.carryBytes() == uint64_t{lines} * size);
  for (uint32_t c = 1; c < count; ++c) {
    carries.push(totals.data() + size_t(c - 1) * lines * size, 256);
    const auto* actual = static_cast<const uint8_t*>(carries.carries());
    for (uint32_t line = 0; line < lines; ++line) {
      CAPTURE(c);
      CAPTURE(line);
      const uint8_t* want = expected.data() + (size_t(line) * count + c) * size;
      CHECK(std::memcmp(actual + size_t(line) * size, want, size) == 0);
    }
  }
}

}  // namespace

TEST_CASE("chunk carries: each carry is the tree's exclusive scan of the totals before it") {
  // 4100 chunks: groups of 16 and 256 complete, and the 4096th moves a
  // third level.
  for (DataType type : {DataType::Float32, DataType::Float64, DataType::Int64, DataType::UInt32}) {
    checkCarries(ScanOperation::Sum, type, 4100, 2);
  }
  checkCarries(ScanOperation::Product, DataType::Float32, 300, 3);
  checkCarries(ScanOperation::Product, DataType::Int32, 300, 1);
  checkCarries(ScanOperation::Maximum, DataType::Float32, 300, 3);
  checkCarries(ScanOperation::Minimum, DataType::Int64, 300, 2);
  checkCarries(ScanOperation::LogSumExp, DataType::Float32, 4100, 1);
  checkCarries(ScanOperation::LogSumExp, DataType::Float64, 300, 2);
}

TEST_CASE("chunk carries: the carry type, and chunks that break the tree are refused") {
  CHECK(ChunkCarries(ScanOperation::Sum, DataType::Float16, 1, 16).type() == DataType::Float32);
  CHECK(ChunkCarries(ScanOperation::Sum, DataType::BFloat16, 1, 16).type() == DataType::Float32);
  CHECK(ChunkCarries(ScanOperation::Sum, DataType::UInt64, 1, 1).type() == DataType::UInt64);
  for (uint64_t length : {0ull, 2ull, 17ull, 4095ull, 4097ull}) {
    CAPTURE(length);
    CHECK_THROWS_AS(ChunkCarries(ScanOperation::Sum, DataType::Float32, 1, length),
                    InvalidArgument);
  }
  ChunkCarries carries(ScanOperation::Sum, DataType::Float32, 1, 16);
  float total = 1.0f;
  CHECK_THROWS_AS(carries.push(&total, 0), InvalidArgument);
  CHECK_THROWS_AS(carries.push(&total, 17), InvalidArgument);
  CHECK_THROWS_AS(carries.push(nullptr, 16), InvalidArgument);
  carries.push(&total, 16);
  carries.push(&total, 5);  // the last, shorter chunk
  CHECK_THROWS_AS(carries.push(&total, 16), InvalidArgument);
  float carry;
  std::memcpy(&carry, carries.carries(), 4);
  CHECK(carry == 1.0f);
}
