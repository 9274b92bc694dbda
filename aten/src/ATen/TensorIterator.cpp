// aten/src/ATen/TensorIterator.cpp - building a TensorIterator: shapes, dtypes, strides, loop.
// Mirrors PyTorch's aten/src/ATen/TensorIterator.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/TensorIterator.h>
#include <ATen/MemoryOverlap.h>

#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/Parallel.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TypeProperties.h>

#include <algorithm>
#include <numeric>

namespace at {

// ---- OperandInfo --------------------------------------------------------------------------

void OperandInfo::exchange_tensor(Tensor&& new_tensor) {
  TORCH_INTERNAL_ASSERT(!original_tensor.defined());
  original_tensor = std::move(tensor);
  tensor = std::move(new_tensor);
}

void OperandInfo::restore_original_tensor() {
  TORCH_INTERNAL_ASSERT(original_tensor.defined());
  tensor = std::move(original_tensor);
  original_tensor.reset();
}

// ---- TensorIteratorConfig -----------------------------------------------------------------

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& output) {
  TORCH_INTERNAL_ASSERT(num_inputs_ == 0, "Keep in mind that you have to add all outputs first before adding any input.");
  tensors_.push_back(output);
  const_.push_back(false);
  num_outputs_++;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& input) {
  tensors_.push_back(input);
  const_.push_back(false);
  num_inputs_++;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_const_input(const Tensor& input) {
  tensors_.push_back(input);
  const_.push_back(true);
  num_inputs_++;
  return *this;
}

// ---- build() ------------------------------------------------------------------------------

// [marker: build]
void TensorIteratorBase::build(TensorIteratorConfig& config) {
  is_reduction_ = config.is_reduction_;
  populate_operands(config);
  // Which outputs are also inputs (in-place: add_(self, other) is add(self, other, out=self)).
  mark_outputs();
  // An output may not write one location twice, nor half-overlap an input (MemoryOverlap.h).
  compute_mem_overlaps(config);
  // The broadcast shape of the inputs.
  compute_shape(config);
  // Outputs of the wrong shape: resize (out=) or fail (in-place).
  mark_resize_outputs(config);
  // The common dtype, device checks, promotion copies of inputs, temporaries for outputs.
  compute_types(config);
  // Byte strides of every operand in the broadcast shape (0 where broadcast).
  compute_strides(config);
  // Dimension 0 becomes the fastest-moving one in memory.
  reorder_dimensions();
  // Outputs that need it get memory, in the order just computed.
  allocate_or_resize_outputs();
  // Merge dimensions that are contiguous with each other (a [2, 3] contiguous tensor is 6).
  coalesce_dimensions();

  for (auto& op : operands_) {
    TORCH_INTERNAL_ASSERT(op.tensor.defined());
    op.data = op.tensor.data_ptr();
  }
}
// [end marker: build]

void TensorIteratorBase::populate_operands(TensorIteratorConfig& config) {
  for (size_t idx = 0; idx < config.tensors_.size(); idx++) {
    operands_.emplace_back(config.tensors_[idx]);
    operands_.back().is_const = config.const_[idx];
  }
  num_outputs_ = config.num_outputs_;
}

void TensorIteratorBase::mark_outputs() {
  for (int i = 0; i < num_outputs_; i++) {
    operands_[i].is_output = true;
    const auto& output = operands_[i].tensor;
    if (!output.defined()) {
      continue;
    }
    // An output that is also an input is read and written: never resized.
    for (int arg = num_outputs_; arg < ntensors(); arg++) {
      if (output.is_same(operands_[arg].tensor)) {
        operands_[i].is_read_write = true;
      }
    }
  }
}

// [marker: compute_mem_overlaps]
void TensorIteratorBase::compute_mem_overlaps(const TensorIteratorConfig& config) {
  if (!config.check_mem_overlap_) {
    return;
  }
  for (int i = 0; i < num_outputs_; i++) {
    const auto& output = operands_[i].tensor;
    if (!output.defined()) {
      continue;
    }
    assert_no_internal_overlap(output);
    for (int j = num_outputs_; j < ntensors(); j++) {
      const auto& input = operands_[j].tensor;
      if (input.defined() && !input.is_same(output)) {
        assert_no_partial_overlap(output, input);
      }
    }
  }
}
// [end marker: compute_mem_overlaps]

// [marker: compute_shape]
void TensorIteratorBase::compute_shape(const TensorIteratorConfig& config) {
  all_ops_same_shape_ = true;
  bool has_scalars = false;
  bool has_tensors = false;
  for (auto& op : operands_) {
    if (!op.tensor.defined()) {
      continue;
    }
    // out= tensors take no part in the shape when they may be resized: torch.add(a, b, out=c)
    // gives c the broadcast shape of a and b, whatever c's shape was.
    if (config.resize_outputs_ && op.is_output) {
      continue;
    }
    auto shape = op.tensor.sizes();
    if (shape.empty()) {
      has_scalars = true;
    } else {
      has_tensors = true;
    }
    if (has_scalars && has_tensors) {
      all_ops_same_shape_ = false;
    }
    if (shape_.empty()) {
      shape_ = shape.vec();
    } else if (!shape.equals(shape_)) {
      all_ops_same_shape_ = false;
      shape_ = infer_size(shape_, shape);
    }
  }
  all_ops_are_scalars_ = !has_tensors;
}
// [end marker: compute_shape]

void TensorIteratorBase::mark_resize_outputs(const TensorIteratorConfig& config) {
  for (int i = 0; i < num_outputs_; i++) {
    const auto& output = operands_[i].tensor;
    if (!output.defined()) {
      operands_[i].will_resize = true;
    }
    if (output.defined() && !output.sizes().equals(shape_)) {
      if (config.resize_outputs_ && !operands_[i].is_read_write) {
        operands_[i].will_resize = true;
        continue;
      }
      // Outputs never broadcast: a.add_(b) cannot grow a. A reduction's output is the
      // exception: its size-1 dimensions are the reduced ones.
      TORCH_CHECK(config.is_reduction_, "output with shape ", output.sizes(), " doesn't match the broadcast shape ", IntArrayRef(shape_));
    }
  }
}

// A meta tensor mixed with a tensor of another device (other than a CPU scalar). PyTorch's
// meta kernels word this differently from the CPU/CUDA check: the first tensor's device is
// the expected one, and the first tensor elsewhere is named.
void TensorIteratorBase::report_meta_device_mismatch(const TensorIteratorConfig& config) const {
  std::optional<Device> expected;
  for (const auto& op : operands_) {
    if (!op.tensor.defined() ||
        (config.allow_cpu_scalars_ && !op.is_output && op.tensor.dim() == 0 && op.tensor.is_cpu())) {
      continue;
    }
    if (!expected) {
      expected = op.tensor.device();
    } else if (op.tensor.device() != *expected) {
      TORCH_CHECK(false, "Tensor on device ", op.tensor.device(), " is not on the expected device ", *expected, "!");
    }
  }
}

// [marker: compute_types]
void TensorIteratorBase::compute_types(const TensorIteratorConfig& config) {
  // Pass 1: a first guess at the common dtype and device, and whether the dtypes differ.
  Device common_device = kCPU;
  common_dtype_ = ScalarType::Undefined;
  // The first defined output's dtype; only used to check check_all_same_dtype.
  ScalarType output_dtype = ScalarType::Undefined;
  bool has_different_input_dtypes = false;
  bool has_different_output_dtypes = false;
  bool has_undefined_outputs = false;

  for (auto& op : operands_) {
    if (!op.is_type_defined()) {
      TORCH_INTERNAL_ASSERT(op.is_output, "Found type undefined input tensor!");
      if (config.static_dtype_.has_value()) {
        op.target_dtype = config.static_dtype_.value();
      } else {
        has_undefined_outputs = true;
      }
      TORCH_INTERNAL_ASSERT(config.check_all_same_device_);
      continue;
    }
    if (!op.tensor.defined()) {
      TORCH_INTERNAL_ASSERT(op.is_output, "Found undefined input tensor!");
      continue;
    }
    TORCH_INTERNAL_ASSERT(op.target_dtype == op.current_dtype);
    // The first non-CPU device is the common device (a CUDA kernel may still read CPU scalars).
    if (common_device == kCPU && !op.tensor.is_cpu()) {
      common_device = op.tensor.device();
    }
    if (!op.is_output) {
      if (op.target_dtype != common_dtype_) {
        if (common_dtype_ == ScalarType::Undefined) {
          common_dtype_ = op.target_dtype;
        } else {
          has_different_input_dtypes = true;
        }
      }
    } else if (op.target_dtype != output_dtype) {
      if (output_dtype == ScalarType::Undefined) {
        output_dtype = op.target_dtype;
      } else {
        has_different_output_dtypes = true;
      }
    }
  }

  TORCH_INTERNAL_ASSERT(!(has_different_input_dtypes && !config.promote_inputs_to_common_dtype_ &&
                          (has_undefined_outputs || config.enforce_safe_casting_to_output_ ||
                           config.cast_common_dtype_to_outputs_)));

  if (config.check_all_same_dtype_ &&
      (has_different_input_dtypes || has_different_output_dtypes ||
       (common_dtype_ != output_dtype && output_dtype != ScalarType::Undefined))) {
    for (auto& op : operands_) {
      if (!op.tensor.defined()) {
        continue;
      }
      TORCH_CHECK(op.target_dtype == common_dtype_, "Found dtype ", op.target_dtype, " but expected ", common_dtype_);
    }
  }

  if (!has_undefined_outputs && !config.check_all_same_device_ && !config.promote_inputs_to_common_dtype_ &&
      !config.cast_common_dtype_to_outputs_ && !config.enforce_safe_casting_to_output_) {
    // Nothing more to do (copy_ takes this path); the common dtype exists only if all agree.
    common_dtype_ = has_different_input_dtypes ? ScalarType::Undefined : common_dtype_;
    common_device_ = common_device;
    for (auto& op : operands_) {
      if (!op.is_device_defined()) {
        op.device = common_device;
      }
    }
    return;
  }

  // The common dtype by result_type's rules (native/TypeProperties.cpp).
  if ((has_different_input_dtypes || all_ops_are_scalars_) && config.promote_inputs_to_common_dtype_) {
    common_dtype_ = compute_common_dtype();
  }
  if (config.promote_integer_inputs_to_float_ && c10::isIntegralType(common_dtype_, /*includeBool=*/true)) {
    common_dtype_ = c10::get_default_dtype_as_scalartype();
  }

  // Pass 2: fill in undefined outputs, check devices and casts, make the CPU temporaries.
  common_device_ = common_device;
  const int max_cpu_scalars_on_non_cpu = config.allow_cpu_scalars_ ? 1 : 0;
  int current_cpu_scalars_on_non_cpu = 0;
  for (auto& op : operands_) {
    const bool is_type_defined = op.is_type_defined();
    const bool is_device_defined = op.is_device_defined();
    if (!is_type_defined) {
      op.target_dtype = common_dtype_;
    }
    if (!is_device_defined) {
      op.device = common_device;
    }
    if (!is_type_defined && !is_device_defined) {
      continue;
    }
    if (!op.tensor.defined()) {
      continue;
    }
    if (config.check_all_same_device_) {
      if (!common_device.is_cpu() && config.allow_cpu_scalars_ && !op.is_output && op.tensor.dim() == 0 &&
          op.tensor.is_cpu()) {
        TORCH_CHECK(current_cpu_scalars_on_non_cpu < max_cpu_scalars_on_non_cpu,
                    "Trying to pass too many CPU scalars to non-CPU kernel!");
        ++current_cpu_scalars_on_non_cpu;
      } else if (op.device.value() != common_device) {
        if (common_device.is_meta() || op.device->is_meta()) {
          report_meta_device_mismatch(config);
        }
        TORCH_CHECK(false, "Expected all tensors to be on the same device, but found at least two devices, ",
                    common_device, " and ", op.device.value(), "!");
      }
    }
    if (config.enforce_safe_casting_to_output_ && op.is_output && op.current_dtype != common_dtype_) {
      TORCH_CHECK(c10::canCast(common_dtype_, op.current_dtype), "result type ", common_dtype_,
                  " can't be cast to the desired output type ", op.current_dtype);
    }
    // On CPU the kernels see one dtype: inputs are converted by copying, and an output of
    // another dtype is computed in a temporary and copied back by cast_outputs(). (CUDA
    // kernels convert on the fly instead.)
    if (common_device == kCPU) {
      if (config.cast_common_dtype_to_outputs_ && op.is_output && op.current_dtype != common_dtype_) {
        op.exchange_tensor(at::empty_like(op.tensor, common_dtype_, std::nullopt, std::nullopt, std::nullopt,
                                          c10::MemoryFormat::Contiguous));
        op.current_dtype = common_dtype_;
        op.target_dtype = common_dtype_;
      }
      if (config.promote_inputs_to_common_dtype_ && !op.is_output && op.current_dtype != common_dtype_) {
        op.exchange_tensor(op.tensor.to(common_dtype_));
        op.current_dtype = common_dtype_;
        op.target_dtype = common_dtype_;
      }
    }
  }
}
// [end marker: compute_types]

ScalarType TensorIteratorBase::compute_common_dtype() {
  native::ResultTypeState state = {};
  for (const auto& op : operands_) {
    if (op.is_output) {
      continue;
    }
    state = native::update_result_type_state(op.tensor, state);
  }
  common_dtype_ = native::result_type(state);
  TORCH_INTERNAL_ASSERT(common_dtype_ != ScalarType::Undefined);
  return common_dtype_;
}

void TensorIteratorBase::compute_strides(const TensorIteratorConfig& config) {
  for (auto& op : operands_) {
    if (!op.tensor.defined() || op.will_resize) {
      continue;
    }
    auto original_shape = op.tensor.sizes();
    auto original_stride = op.tensor.strides();
    const int64_t element_size_in_bytes = op.tensor.element_size();
    const size_t offset = ndim() - original_shape.size();
    op.stride_bytes.assign(ndim(), 0);
    for (size_t i = 0; i < original_shape.size(); i++) {
      // A size-1 dimension stretched to the broadcast size is read with stride 0; a missing
      // leading dimension likewise (the zeros the vector starts with).
      if (original_shape[i] == 1 && shape_[offset + i] != 1) {
        op.stride_bytes[offset + i] = 0;
      } else {
        op.stride_bytes[offset + i] = original_stride[i] * element_size_in_bytes;
      }
    }
  }
}

// Sort the dimensions so that dimension 0 has the smallest strides: the inner loop then walks
// memory in order. The first operand whose strides decide the question wins (outputs come
// first), broadcast (stride 0) dimensions decide nothing, and ties keep the original order,
// so a contiguous tensor iterates last dimension fastest.
void TensorIteratorBase::reorder_dimensions() {
  perm_.resize(ndim());
  if (ndim() == 1) {
    perm_[0] = 0;
    return;
  }
  // perm_ starts as n-1, n-2, ..., 0: the last tensor dimension first.
  std::iota(perm_.rbegin(), perm_.rend(), 0);

  // 1 if dim0 should come after dim1, -1 if before, 0 if the strides cannot tell.
  auto should_swap = [&](size_t dim0, size_t dim1) {
    for (int arg = 0; arg < ntensors(); arg++) {
      if (operands_[arg].stride_bytes.empty() || operands_[arg].will_resize) {
        continue;
      }
      const int64_t stride0 = operands_[arg].stride_bytes[dim0];
      const int64_t stride1 = operands_[arg].stride_bytes[dim1];
      if (is_reduction_ && operands_[arg].is_output) {
        // Reduced dimensions (output stride 0) go first: the inner loops run over them.
        if ((stride0 == 0) != (stride1 == 0)) {
          return stride1 == 0 ? 1 : -1;
        }
      }
      if (stride0 == 0 || stride1 == 0) {
        continue;
      }
      if (stride0 < stride1) {
        return -1;
      }
      if (stride0 > stride1) {
        return 1;
      }
      // Equal strides: the smaller dimension goes first.
      if (shape_[dim0] > shape_[dim1]) {
        return 1;
      }
    }
    return 0;
  };

  // Insertion sort that tolerates the "can't tell" answer.
  for (int i = 1; i < ndim(); i++) {
    int dim1 = i;
    for (int dim0 = i - 1; dim0 >= 0; dim0--) {
      const int comparison = should_swap(perm_[dim0], perm_[dim1]);
      if (comparison > 0) {
        std::swap(perm_[dim0], perm_[dim1]);
        dim1 = dim0;
      } else if (comparison < 0) {
        break;
      }
    }
  }
  permute_dimensions(perm_);
}

void TensorIteratorBase::permute_dimensions(IntArrayRef perm) {
  TORCH_INTERNAL_ASSERT(perm.size() == static_cast<size_t>(ndim()));
  auto reorder = [perm](IntArrayRef data) {
    DimVector res(data.size(), 0);
    for (size_t i = 0; i < perm.size(); i++) {
      res[i] = data[perm[i]];
    }
    return res;
  };
  shape_ = reorder(shape_);
  for (auto& op : operands_) {
    if (!op.stride_bytes.empty()) {
      op.stride_bytes = reorder(op.stride_bytes);
    }
  }
}

StrideVector TensorIteratorBase::compatible_stride(int64_t element_size) const {
  StrideVector stride;
  int64_t next_stride = element_size;
  for (int dim = 0; dim < ndim(); dim++) {
    stride.push_back(next_stride);
    next_stride *= shape_[dim];
  }
  return stride;
}

DimVector TensorIteratorBase::invert_perm(IntArrayRef input) const {
  TORCH_INTERNAL_ASSERT(!has_coalesced_dimensions_);
  TORCH_INTERNAL_ASSERT(input.size() == perm_.size());
  DimVector res(input.size());
  for (int dim = 0; dim < ndim(); dim++) {
    res[perm_[dim]] = input[dim];
  }
  return res;
}

// [marker: allocate_or_resize_outputs]
void TensorIteratorBase::allocate_or_resize_outputs() {
  for (int i = 0; i < num_outputs_; i++) {
    auto& op = operands_[i];
    if (!op.tensor.defined() || op.will_resize) {
      const int64_t element_size = static_cast<int64_t>(c10::elementSize(op.target_dtype));
      // Strides dense in the iteration order, i.e. the inputs' memory order.
      op.stride_bytes = compatible_stride(element_size);
      // perm_ = n-1, ..., 0 means the inputs are in plain row-major order: a contiguous output.
      bool inverted = true;
      for (int j = 0; j < ndim(); j++) {
        if (perm_[j] != ndim() - j - 1) {
          inverted = false;
          break;
        }
      }
      auto tensor_shape = invert_perm(shape_);
      auto options = TensorOptions().dtype(op.target_dtype).device(op.device);
      if (inverted) {
        set_output_raw_strided(i, tensor_shape, {}, options);
      } else {
        auto tensor_stride = invert_perm(op.stride_bytes);
        for (int dim = 0; dim < ndim(); dim++) {
          tensor_stride[dim] /= element_size;
        }
        set_output_raw_strided(i, tensor_shape, tensor_stride, options);
      }
      op.current_dtype = op.target_dtype;
    }
  }
}
// [end marker: allocate_or_resize_outputs]

void TensorIteratorBase::set_output_raw_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides,
                                                TensorOptions options) {
  auto& op = operands_[output_idx];
  if (!op.tensor.defined()) {
    if (strides.empty()) {
      op.tensor = at::empty(sizes, options.dtype(), std::nullopt, options.device(), std::nullopt, std::nullopt);
    } else {
      op.tensor = at::empty_strided(sizes, strides, options.dtype(), std::nullopt, options.device(), std::nullopt);
    }
    op.current_dtype = op.target_dtype;
  } else if (op.will_resize) {
    // out= of another shape: resized in place (the caller's tensor object stays the same).
    // If the output is being computed in a temporary of the common dtype, both are resized.
    if (op.original_tensor.defined()) {
      native::resize_output(op.original_tensor, sizes);
    }
    native::resize_output(op.tensor, sizes);
    if (!strides.empty()) {
      native::as_strided_(op.tensor, sizes, strides);
    }
  }
}

// [marker: coalesce_dimensions]
void TensorIteratorBase::coalesce_dimensions() {
  if (ndim() <= 1) {
    return;
  }
  // Two adjacent dimensions merge if either has size 1, or if for every operand stepping the
  // outer one is the same as stepping the inner one shape times: shape[0] * stride[0] == stride[1].
  auto can_coalesce = [&](int dim0, int dim1) {
    const int64_t shape0 = shape_[dim0];
    const int64_t shape1 = shape_[dim1];
    if (shape0 == 1 || shape1 == 1) {
      return true;
    }
    for (int i = 0; i < ntensors(); i++) {
      auto& stride = operands_[i].stride_bytes;
      if (shape0 * stride[dim0] != stride[dim1]) {
        return false;
      }
    }
    return true;
  };
  auto replace_stride = [&](int dim0, int dim1) {
    for (int i = 0; i < ntensors(); i++) {
      auto& stride = operands_[i].stride_bytes;
      stride[dim0] = stride[dim1];
    }
  };

  int prev_dim = 0;
  for (int dim = 1; dim < ndim(); dim++) {
    if (can_coalesce(prev_dim, dim)) {
      if (shape_[prev_dim] == 1) {
        replace_stride(prev_dim, dim);
      }
      shape_[prev_dim] *= shape_[dim];
    } else {
      prev_dim++;
      if (prev_dim != dim) {
        replace_stride(prev_dim, dim);
        shape_[prev_dim] = shape_[dim];
      }
    }
  }
  shape_.resize(prev_dim + 1);
  for (int i = 0; i < ntensors(); i++) {
    operands_[i].stride_bytes.resize(ndim());
  }
  has_coalesced_dimensions_ = true;
}
// [end marker: coalesce_dimensions]

// ---- queries --------------------------------------------------------------------------------

int64_t TensorIteratorBase::numel() const {
  int64_t numel = 1;
  for (int64_t size : shape_) {
    numel *= size;
  }
  return numel;
}

bool TensorIteratorBase::is_contiguous() const {
  if (numel() == 1) {
    return true;
  }
  if (ndim() != 1) {
    return false;
  }
  for (int i = 0; i < ntensors(); i++) {
    if (operands_[i].stride_bytes[0] != static_cast<int64_t>(c10::elementSize(operands_[i].current_dtype))) {
      return false;
    }
  }
  return true;
}

bool TensorIteratorBase::is_scalar(int64_t arg) const {
  const auto& stride = operands_[arg].stride_bytes;
  for (int i = 0; i < ndim(); i++) {
    if (stride[i] != 0 && shape_[i] != 1) {
      return false;
    }
  }
  return true;
}

bool TensorIteratorBase::is_cpu_scalar(int64_t arg) const {
  return is_scalar(arg) && operands_[arg].tensor.is_cpu();
}

StrideVector TensorIteratorBase::get_strides() const {
  const int nt = ntensors();
  StrideVector strides;
  strides.reserve(static_cast<size_t>(nt) * std::max(ndim(), 2));
  for (int dim = 0; dim < ndim(); dim++) {
    for (int arg = 0; arg < nt; arg++) {
      strides.push_back(operands_[arg].stride_bytes[dim]);
    }
  }
  // The loop is 2-D: a 0-d or 1-d iteration gets an outer dimension of stride 0.
  for (int dim = ndim(); dim < 2; dim++) {
    for (int arg = 0; arg < nt; arg++) {
      strides.push_back(0);
    }
  }
  return strides;
}

std::vector<char*> TensorIteratorBase::get_base_ptrs() const {
  std::vector<char*> ptrs(operands_.size());
  for (size_t i = 0; i < operands_.size(); i++) {
    ptrs[i] = static_cast<char*>(operands_[i].data);
  }
  return ptrs;
}

bool TensorIteratorBase::is_dim_reduced(int dim) const {
  for (const auto& op : operands_) {
    if (op.is_output && op.stride_bytes[dim] == 0 && shape_[dim] > 1) {
      return true;
    }
  }
  return false;
}

int64_t TensorIteratorBase::num_output_elements() const {
  int64_t elems = 1;
  for (int dim = 0; dim < ndim(); dim++) {
    if (operands_[0].stride_bytes[dim] != 0 || shape_[dim] == 0) {
      elems *= shape_[dim];
    }
  }
  return elems;
}

// ---- the loop ------------------------------------------------------------------------------

namespace {

// A position in the iteration space, counted in the iterator's dimensions (0 fastest), and
// the 2-D steps that cover a linear range [begin, end) without crossing a row boundary.
struct DimCounter {
  DimCounter(IntArrayRef shape, Range range) : shape(shape), range(range), values(shape.size(), 0), offset(range.begin) {
    int64_t linear_offset = range.begin;
    for (size_t dim = 0; dim < values.size(); dim++) {
      const int64_t size = shape[dim];
      if (size > 0) {
        values[dim] = linear_offset % size;
        linear_offset /= size;
      }
    }
    TORCH_INTERNAL_ASSERT(linear_offset == 0 || shape.empty());
  }

  bool is_done() const { return offset >= range.end; }

  void increment(const std::array<int64_t, 2>& step) {
    offset += step[0] * step[1];
    const size_t ndim = values.size();
    int64_t overflow = step[0];
    size_t i = 0;
    if (step[1] != 1) {
      // A 2-D step always starts at the beginning of a row and covers whole rows.
      TORCH_INTERNAL_ASSERT(step[0] == shape[0] && values[0] == 0);
      i = 1;
      overflow = step[1];
    }
    for (; i < ndim && overflow > 0; i++) {
      const int64_t size = shape[i];
      const int64_t prev = values[i];
      int64_t value = prev + overflow;
      if (value >= size) {
        overflow = 1;
        value -= size;
      } else {
        overflow = 0;
      }
      values[i] = value;
    }
  }

  std::array<int64_t, 2> max_2d_step() const {
    const int64_t step0 = std::min(shape[0] - values[0], range.end - offset);
    int64_t step1 = 1;
    if (step0 == shape[0] && shape.size() >= 2) {
      step1 = std::min(shape[1] - values[1], (range.end - offset) / shape[0]);
    }
    return {step0, step1};
  }

  IntArrayRef shape;
  Range range;
  DimVector values;
  int64_t offset;
};

}  // namespace

void TensorIteratorBase::serial_for_each(const loop2d_t& loop, Range range) const {
  if (range.size() == 0) {
    return;
  }
  const int nt = ntensors();
  const auto strides = get_strides();
  const auto base_ptrs = get_base_ptrs();
  std::vector<char*> ptrs(nt);
  if (ndim() <= 1) {
    // One dimension: a single call covers the range.
    for (int arg = 0; arg < nt; arg++) {
      ptrs[arg] = base_ptrs[arg] + (ndim() == 1 ? range.begin * strides[arg] : 0);
    }
    loop(ptrs.data(), strides.data(), range.size(), 1);
    return;
  }
  DimCounter counter(shape_, range);
  while (!counter.is_done()) {
    // The data pointers at the counter's position: base + sum over dims of index * stride.
    for (int arg = 0; arg < nt; arg++) {
      char* ptr = base_ptrs[arg];
      for (int dim = 0; dim < ndim(); dim++) {
        ptr += counter.values[dim] * strides[dim * nt + arg];
      }
      ptrs[arg] = ptr;
    }
    const auto step = counter.max_2d_step();
    loop(ptrs.data(), strides.data(), step[0], step[1]);
    counter.increment(step);
  }
}

void TensorIteratorBase::for_each(loop2d_t loop, int64_t grain_size) {
  const int64_t numel = this->numel();
  if (numel == 0) {
    return;
  }
  if (numel < grain_size || at::get_num_threads() == 1) {
    serial_for_each(loop, {0, numel});
  } else {
    at::parallel_for(0, numel, grain_size, [&](int64_t begin, int64_t end) { serial_for_each(loop, {begin, end}); });
  }
}

void TensorIteratorBase::cast_outputs() {
  for (auto& op : operands_) {
    if (op.is_output && op.original_tensor.defined() &&
        op.original_tensor.scalar_type() != op.current_dtype) {
      op.original_tensor.copy_(op.tensor);
      op.restore_original_tensor();
    }
  }
}

// ---- the configurations operators use -------------------------------------------------------

TensorIterator TensorIterator::binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .add_owned_output(out)
      .add_owned_const_input(a)
      .add_owned_const_input(b)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .build();
}

TensorIterator TensorIterator::binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .add_owned_output(out)
      .add_owned_const_input(a)
      .add_owned_const_input(b)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .promote_integer_inputs_to_float(true)
      .build();
}

TensorIterator TensorIterator::comparison_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .add_owned_output(out)
      .add_owned_const_input(a)
      .add_owned_const_input(b)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true);
  // a < b is a bool tensor; lt(a, b, out=c) writes c's dtype as it is.
  if (!out.defined()) {
    config.declare_static_dtype(kBool);
  }
  // A bool out= needs no temporary: the kernels write bool directly (PyTorch's
  // "special-case bool outputs"); any other out dtype gets the common dtype cast to it.
  if (out.defined() && out.scalar_type() != kBool) {
    config.cast_common_dtype_to_outputs(true);
  }
  return config.build();
}

TensorIterator TensorIterator::unary_op(const Tensor& out, const Tensor& a) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .add_owned_output(out)
      .add_owned_const_input(a)
      .cast_common_dtype_to_outputs(false)
      .enforce_safe_casting_to_output(false)
      .check_all_same_dtype(true)
      .build();
}

TensorIterator TensorIterator::unary_float_op(const Tensor& out, const Tensor& a) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .add_owned_output(out)
      .add_owned_const_input(a)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .promote_integer_inputs_to_float(true)
      .build();
}

TensorIterator TensorIterator::nullary_op(const Tensor& out) {
  return TensorIteratorConfig().set_check_mem_overlap(true).check_all_same_dtype(false).add_output(out).build();
}

TensorIterator TensorIterator::reduce_op(const Tensor& out, const Tensor& a) {
  TORCH_INTERNAL_ASSERT(out.defined());
  return TensorIteratorConfig()
      .set_check_mem_overlap(false)
      .add_owned_output(out)
      .add_owned_const_input(a)
      .resize_outputs(false)
      .is_reduction(true)
      // Inputs are already converted by make_reduction; this lets the output have another
      // dtype than the input (argmax: float in, int64 out).
      .promote_inputs_to_common_dtype(true)
      .build();
}

TensorIterator TensorIterator::reduce_op(const Tensor& out1, const Tensor& out2, const Tensor& a) {
  TORCH_INTERNAL_ASSERT(out1.defined() && out2.defined());
  TORCH_CHECK(out1.dim() == out2.dim(), "reduce_op(): expected both outputs to have same number of dims, but output1 has ",
              out1.dim(), " and output2 has ", out2.dim());
  TORCH_CHECK(out1.sizes() == out2.sizes(), "reduce_op(): expected both outputs to have same sizes, but output1 has ",
              out1.sizes(), " and output2 has ", out2.sizes());
  return TensorIteratorConfig()
      .set_check_mem_overlap(false)
      .add_owned_output(out1)
      .add_owned_output(out2)
      .add_owned_const_input(a)
      .resize_outputs(false)
      .is_reduction(true)
      .check_all_same_dtype(false)
      .build();
}

TensorIterator TensorIterator::ternary_op(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c) {
  return TensorIteratorConfig()
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .add_owned_output(out)
      .add_owned_const_input(a)
      .add_owned_const_input(b)
      .add_owned_const_input(c)
      .build();
}

}  // namespace at
