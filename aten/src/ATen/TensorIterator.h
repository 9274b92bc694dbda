// aten/src/ATen/TensorIterator.h - the machinery behind every elementwise operator.
// Mirrors PyTorch's aten/src/ATen/TensorIterator.h. Guide: docs/source/internals/tensor_iterator.rst.
//
// An elementwise kernel such as add wants to say only "out = a + b, for each element".
// Everything else is the same for every such operator, and TensorIterator does it once:
//
//   * broadcasting: the operands' shapes combine to one iteration shape (ExpandUtils.h);
//     a broadcast dimension gets stride 0, so the kernel reads the same element again;
//   * type promotion: the common dtype of the inputs by PyTorch's result_type rules
//     (dim>0 tensors > 0-dim tensors > wrapped numbers; a lower tier only counts if its
//     category - bool < integral < floating < complex - is higher); inputs of another dtype
//     are copied to it (CPU) and an output of another dtype is written through a temporary;
//   * checks: one device, safe casting to out=, outputs never broadcast;
//   * outputs: allocated if undefined - contiguous, or in the inputs' memory order when they
//     are all permuted the same way - or resized if an out= tensor has the wrong shape;
//   * layout: dimensions are reordered so that dimension 0 is the fastest-moving in memory,
//     and adjacent dimensions that are contiguous with each other are merged ("coalesced"),
//     so a contiguous tensor of any shape becomes one flat loop;
//   * the loop: for_each hands the kernel 2-D chunks of raw pointers and byte strides,
//     split across threads with at::parallel_for (Parallel.h).
//
// A kernel sees only char* data and int64_t byte strides; native/cpu/Loops.h turns a lambda
// over scalar_t values into such a loop (cpu_kernel).
//
// Operands are stored outputs first: operands_[0 .. num_outputs_) then the inputs. A
// TensorIterator is built from a TensorIteratorConfig (the builder, below) or by one of the
// static helpers binary_op, unary_op, comparison_op... that make the configs PyTorch uses.
#pragma once

#include <ATen/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <array>
#include <functional>
#include <optional>
#include <vector>

namespace at {

struct TensorIteratorConfig;
struct TensorIterator;

// A linear range of the iteration space: elements [begin, end) in iteration order.
struct TORCH_API Range {
  Range(int64_t begin, int64_t end) : begin(begin), end(end) {}
  int64_t size() const { return end - begin; }
  int64_t begin;
  int64_t end;
};

using DimVector = std::vector<int64_t>;
using StrideVector = std::vector<int64_t>;

// One operand (input or output) of the iteration.
struct TORCH_API OperandInfo {
  OperandInfo() = default;
  explicit OperandInfo(Tensor t) : tensor(std::move(t)) {
    if (tensor.defined()) {
      device = tensor.device();
      target_dtype = tensor.scalar_type();
      current_dtype = target_dtype;
    }
  }

  // Byte strides in the iterator's dimension order (after broadcasting and reordering).
  StrideVector stride_bytes;

  // The tensor the kernel reads or writes. For an input promoted to the common dtype this is
  // the converted copy; for an output computed in another dtype, the temporary.
  Tensor tensor;
  // The caller's output when `tensor` is a temporary of another dtype; cast_outputs()
  // copies the temporary into it after the kernel.
  Tensor original_tensor;

  std::optional<Device> device;
  // The dtype the kernel will see (target) and the dtype the tensor has now (current).
  ScalarType target_dtype = ScalarType::Undefined;
  ScalarType current_dtype = ScalarType::Undefined;

  bool is_type_defined() const { return target_dtype != ScalarType::Undefined; }
  bool is_device_defined() const { return device.has_value(); }

  void* data = nullptr;
  bool is_output = false;
  // An output that will be (re)allocated by the iterator: undefined, or out= of another shape.
  bool will_resize = false;
  // An output that is also an input (self in add_): it is read, so it must not be resized.
  bool is_read_write = false;
  bool is_const = false;

  // Swap in a temporary, keeping the caller's tensor in original_tensor.
  void exchange_tensor(Tensor&& new_tensor);
  void restore_original_tensor();
};

// The loop a kernel supplies: data[i] points at operand i's first element of the chunk;
// strides[0..ntensors) are the inner (dimension 0) byte strides, strides[ntensors..2*ntensors)
// the outer ones; the chunk is size0 x size1 elements. PyTorch passes a c10::function_ref;
// a std::function here (built once per for_each, not per chunk).
using loop2d_t = std::function<void(char** data, const int64_t* strides, int64_t size0, int64_t size1)>;

/// The state and the loop of an elementwise or reduction operation over several tensors
/// (PyTorch's aten/src/ATen/TensorIterator.h).
/// build() computes the common shape, dtype and device, allocates or resizes the outputs, and
/// reorders and coalesces dimensions; for_each() then runs a kernel's 2-D loop over the
/// result. It owns its OperandInfo list, outputs first, then inputs; each holds a Tensor that
/// shares the caller's storage, or a converted copy or temporary of the common dtype.
struct TORCH_API TensorIteratorBase {
  TensorIteratorBase() = default;

  /// Run every step, populate_operands() to coalesce_dimensions(), for a config.
  void build(TensorIteratorConfig& config);

  /// Dimensions of the iteration shape after coalescing (1 for contiguous operands).
  int ndim() const { return static_cast<int>(shape_.size()); }
  /// The iteration shape, dimension 0 fastest-moving in memory.
  IntArrayRef shape() const { return shape_; }
  int64_t numel() const;
  /// Operands in all; the first noutputs() are the outputs.
  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return ntensors() - noutputs(); }

  /// True if the iteration is over one flat, contiguous range of every operand.
  bool is_contiguous() const;
  /// True if operand arg is a 0-dim tensor (its stride is 0 in every dimension).
  bool is_scalar(int64_t arg) const;
  /// A 0-dim CPU operand (its value may be passed to a device kernel as an argument).
  bool is_cpu_scalar(int64_t arg) const;

  /// Byte strides of operand arg, in the iterator's dimension order.
  IntArrayRef strides(int64_t arg) const { return operands_[arg].stride_bytes; }
  void* data_ptr(int64_t arg) const { return operands_[arg].data; }
  /// The dtype operand arg has now; input_dtype() counts inputs only.
  ScalarType dtype(int64_t arg = 0) const { return operands_[arg].current_dtype; }
  ScalarType input_dtype(int64_t arg = 0) const { return operands_[num_outputs_ + arg].current_dtype; }
  /// The dtype type promotion computed (an error if none was).
  ScalarType common_dtype() const {
    TORCH_INTERNAL_ASSERT(common_dtype_ != ScalarType::Undefined,
                          "Queried for invalid common dtype!");
    return common_dtype_;
  }
  Device device(int64_t arg = 0) const { return operands_[arg].device.value(); }
  c10::DeviceType device_type(int64_t arg = 0) const { return device(arg).type(); }

  const Tensor& tensor(int64_t arg) const { return operands_[arg].tensor; }
  /// Output arg, allocated by build() if the caller passed an undefined tensor.
  const Tensor& output(int64_t arg = 0) const {
    TORCH_INTERNAL_ASSERT(arg < num_outputs_);
    return operands_[arg].tensor;
  }
  const Tensor& input(int64_t arg = 0) const {
    TORCH_INTERNAL_ASSERT(arg >= 0 && arg < ntensors() - num_outputs_);
    return operands_[num_outputs_ + arg].tensor;
  }
  /// The value of a 0-dim (CPU) input, read as T.
  template <typename T>
  T scalar_value(int64_t arg) const {
    return *static_cast<const T*>(operands_[arg].data);
  }
  /// Take an input out of the iterator (a CPU scalar whose value a CUDA kernel captures
  /// instead of reading: Loops.cuh's gpu_kernel_with_scalars).
  void remove_operand(int64_t arg) {
    TORCH_INTERNAL_ASSERT(arg >= num_outputs_ && arg < ntensors(), "remove_operand: not an input");
    operands_.erase(operands_.begin() + arg);
  }

  /// Run loop over the whole iteration space: chunks of up to grain_size elements are given to
  /// at::parallel_for; below one grain it runs serially on this thread.
  void for_each(loop2d_t loop, int64_t grain_size = 32768);
  /// Run loop over one linear range on this thread.
  void serial_for_each(const loop2d_t& loop, Range range) const;

  /// Strides in the layout the loop receives: for each dimension, one stride per operand.
  StrideVector get_strides() const;
  std::vector<char*> get_base_ptrs() const;

  /// Copy outputs that were computed in a temporary of the common dtype into the caller's
  /// tensors (cpu_kernel calls this after the loop).
  void cast_outputs();

  bool has_coalesced_dimensions() const { return has_coalesced_dimensions_; }

  /// Reductions: dimension d is reduced if output 0 does not move along it (stride 0).
  bool is_reduction() const { return is_reduction_; }
  bool is_dim_reduced(int dim) const;
  int64_t num_output_elements() const;

 protected:
  // The steps of build(), in order. Each is a method so the guide can point at it.
  void populate_operands(TensorIteratorConfig& config);
  void mark_outputs();
  void compute_mem_overlaps(const TensorIteratorConfig& config);
  void compute_shape(const TensorIteratorConfig& config);
  void mark_resize_outputs(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  void report_meta_device_mismatch(const TensorIteratorConfig& config) const;
  ScalarType compute_common_dtype();
  void compute_strides(const TensorIteratorConfig& config);
  void reorder_dimensions();
  void permute_dimensions(IntArrayRef perm);
  void allocate_or_resize_outputs();
  void coalesce_dimensions();

  StrideVector compatible_stride(int64_t element_size) const;
  DimVector invert_perm(IntArrayRef input) const;

  // Give output i its shape: allocate it, or resize an out= tensor (set_output_raw_strided in
  // PyTorch, where structured kernels override it).
  void set_output_raw_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides, TensorOptions options);

  DimVector shape_;
  DimVector perm_;
  bool has_coalesced_dimensions_ = false;
  std::vector<OperandInfo> operands_;
  int num_outputs_ = 0;
  bool all_ops_same_shape_ = false;
  bool all_ops_are_scalars_ = false;
  bool is_reduction_ = false;
  ScalarType common_dtype_ = ScalarType::Undefined;
  Device common_device_ = Device(c10::DeviceType::CPU);
};

/// The iterator operators build (PyTorch's aten/src/ATen/TensorIterator.h): a
/// TensorIteratorBase built from a TensorIteratorConfig, plus static helpers that hold the
/// configuration of each kind of operator (binary_op, unary_op, reduce_op ...).
struct TORCH_API TensorIterator final : public TensorIteratorBase {
  TensorIterator() = default;
  /// Build from a config (what TensorIteratorConfig::build() does).
  explicit TensorIterator(TensorIteratorConfig& config) { build(config); }

  // The configurations PyTorch's operators use (TensorIterator.cpp explains each).
  /// Binary arithmetic: promote inputs, write the common dtype into out (casting), allow
  /// 0-dim CPU tensors with CUDA tensors, refuse e.g. a float result into an int64 out.
  static TensorIterator binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  /// As binary_op, but integer (and bool) inputs compute in the default float dtype (div, atan2).
  static TensorIterator binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b);
  /// Comparisons: the common dtype for the inputs, a bool output unless out= says otherwise.
  static TensorIterator comparison_op(const Tensor& out, const Tensor& a, const Tensor& b);
  /// One input, no promotion: input and output must have the same dtype.
  static TensorIterator unary_op(const Tensor& out, const Tensor& a);
  /// As unary_op, integer inputs computed in the default float dtype (exp, sin, sqrt...).
  static TensorIterator unary_float_op(const Tensor& out, const Tensor& a);
  /// Only an output, which the kernel fills (fill_, random numbers).
  static TensorIterator nullary_op(const Tensor& out);
  /// Three inputs, promoted together (addcmul, addcdiv).
  static TensorIterator ternary_op(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c);
  /// Reductions (native/ReduceOpsUtils.h make_reduction): out has the input's rank with
  /// size 1 (stride 0 once broadcast) in every reduced dimension, so one iteration visits each
  /// input element once and the output element it folds into. Two outputs: values and indices.
  static TensorIterator reduce_op(const Tensor& out, const Tensor& a);
  /// A reduction with two outputs: values and indices (max, min along a dim).
  static TensorIterator reduce_op(const Tensor& out1, const Tensor& out2, const Tensor& a);
};

// The builder: name the operands (outputs first), pick the checks and conversions, build().
struct TORCH_API TensorIteratorConfig final {
  TensorIteratorConfig() = default;

  // An undefined output is allocated by build(); a defined one is written (and resized if
  // resize_outputs() allows and its shape differs).
  TensorIteratorConfig& add_output(const Tensor& output);
  TensorIteratorConfig& add_input(const Tensor& input);
  // An input the kernel only reads (the common case; PyTorch distinguishes it for
  // copy-on-write tensors).
  TensorIteratorConfig& add_const_input(const Tensor& input);
  TensorIteratorConfig& add_owned_output(const Tensor& output) { return add_output(output); }
  TensorIteratorConfig& add_owned_input(const Tensor& input) { return add_input(input); }
  TensorIteratorConfig& add_owned_const_input(const Tensor& input) { return add_const_input(input); }

  // Default true: every operand must have the same dtype ("Found dtype Long but expected Float").
  TensorIteratorConfig& check_all_same_dtype(bool v) {
    check_all_same_dtype_ = v;
    return *this;
  }
  // Default true: "Expected all tensors to be on the same device, but found at least two devices, ..."
  TensorIteratorConfig& check_all_same_device(bool v) {
    check_all_same_device_ = v;
    return *this;
  }
  // Compute the common dtype by result_type's rules and convert the inputs to it (implies
  // check_all_same_dtype(false)).
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v) {
    promote_inputs_to_common_dtype_ = v;
    if (v) {
      check_all_same_dtype_ = false;
    }
    return *this;
  }
  // An integral or bool common dtype becomes the default float dtype (true division).
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v) {
    promote_integer_inputs_to_float_ = v;
    TORCH_INTERNAL_ASSERT(!v || promote_inputs_to_common_dtype_);
    return *this;
  }
  // Outputs of another dtype are computed in a temporary and copied back.
  TensorIteratorConfig& cast_common_dtype_to_outputs(bool v) {
    cast_common_dtype_to_outputs_ = v;
    if (v) {
      check_all_same_dtype_ = false;
    }
    return *this;
  }
  // "result type Float can't be cast to the desired output type Long"
  TensorIteratorConfig& enforce_safe_casting_to_output(bool v) {
    enforce_safe_casting_to_output_ = v;
    return *this;
  }
  // 0-dim CPU tensors may join an iteration on another device (a CUDA kernel reads them as
  // kernel arguments).
  TensorIteratorConfig& allow_cpu_scalars(bool v) {
    allow_cpu_scalars_ = v;
    return *this;
  }
  // Default true: out= tensors of the wrong shape are resized (in-place outputs never are).
  TensorIteratorConfig& resize_outputs(bool v) {
    resize_outputs_ = v;
    return *this;
  }
  // Default true: refuse outputs that overlap themselves or part of an input (MemoryOverlap.h).
  TensorIteratorConfig& set_check_mem_overlap(bool v) {
    check_mem_overlap_ = v;
    return *this;
  }
  // The dtype of undefined outputs, whatever the inputs are (comparisons: bool).
  // A reduction: outputs keep size 1 where the input is reduced and are "broadcast" over it
  // (outputs never broadcast otherwise); reduced dimensions are moved to the inner loops.
  TensorIteratorConfig& is_reduction(bool v) {
    is_reduction_ = v;
    return *this;
  }
  TensorIteratorConfig& declare_static_dtype(ScalarType dtype) {
    static_dtype_ = dtype;
    return *this;
  }

  TensorIterator build() {
    return TensorIterator(*this);
  }

 private:
  friend struct TensorIteratorBase;

  std::vector<Tensor> tensors_;
  std::vector<bool> const_;
  int num_outputs_ = 0;
  int num_inputs_ = 0;

  std::optional<ScalarType> static_dtype_;
  bool check_mem_overlap_ = true;
  bool check_all_same_dtype_ = true;
  bool check_all_same_device_ = true;
  bool promote_inputs_to_common_dtype_ = false;
  bool promote_integer_inputs_to_float_ = false;
  bool cast_common_dtype_to_outputs_ = false;
  bool enforce_safe_casting_to_output_ = false;
  bool allow_cpu_scalars_ = false;
  bool resize_outputs_ = true;
  bool is_reduction_ = false;
};

}  // namespace at
