// Names and sizes of the collective element types and reductions (see
// communicator.h).
#include "dist/communicator.h"

namespace cuhost::dist {

std::size_t element_size(DataType type) {
  switch (type) {
    case DataType::Int8:
    case DataType::UInt8: return 1;
    case DataType::Float16:
    case DataType::BFloat16: return 2;
    case DataType::Int32:
    case DataType::UInt32:
    case DataType::Float32: return 4;
    case DataType::Int64:
    case DataType::UInt64:
    case DataType::Float64: return 8;
  }
  return 1;
}

const char* data_type_name(DataType type) {
  switch (type) {
    case DataType::Int8: return "int8";
    case DataType::UInt8: return "uint8";
    case DataType::Int32: return "int32";
    case DataType::UInt32: return "uint32";
    case DataType::Int64: return "int64";
    case DataType::UInt64: return "uint64";
    case DataType::Float16: return "float16";
    case DataType::Float32: return "float32";
    case DataType::Float64: return "float64";
    case DataType::BFloat16: return "bfloat16";
  }
  return "?";
}

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Prod: return "prod";
    case ReduceOp::Max: return "max";
    case ReduceOp::Min: return "min";
    case ReduceOp::Avg: return "avg";
  }
  return "?";
}

}  // namespace cuhost::dist
