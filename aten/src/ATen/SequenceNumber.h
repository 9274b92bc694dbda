// aten/src/ATen/SequenceNumber.h - the per-thread counter that numbers autograd nodes.
// Mirrors PyTorch's aten/src/ATen/SequenceNumber.h. Guide: docs/source/internals/autograd.rst.
//
// Each new Node takes the next number. The engine runs ready nodes with the highest number
// first, which is the reverse of the order the forward pass created them in.
#pragma once

#include <c10/macros/Export.h>

#include <cstdint>

namespace at::sequence_number {

TORCH_API uint64_t peek();
TORCH_API uint64_t get_and_increment();

}  // namespace at::sequence_number
