// docs/source/internals/examples/dispatch_by_hand.cpp - seed 000's "How to dispatch", ways 1 and 2:
// one function per dtype written by hand, then one template instantiated by AT_DISPATCH.
// Run by the doctests of docs/source/internals/dispatch_three_ways.rst.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>

#include <iostream>

// ---- way 1: by hand. Every dtype gets its own copy of the loop. ----
// [marker: by_hand]
void double_in_place_float(float* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) data[i] *= 2;
}
void double_in_place_double(double* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) data[i] *= 2;
}
void double_in_place_long(int64_t* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) data[i] *= 2;
}

void double_in_place_by_hand(const at::Tensor& t) {
  switch (t.scalar_type()) {
    case at::kFloat: return double_in_place_float(t.data_ptr<float>(), t.numel());
    case at::kDouble: return double_in_place_double(t.data_ptr<double>(), t.numel());
    case at::kLong: return double_in_place_long(t.data_ptr<int64_t>(), t.numel());
    default: TORCH_CHECK(false, "double_in_place_by_hand: no version for ", t.scalar_type());
  }
}
// [end marker: by_hand]

// ---- way 2: a template, instantiated once per dtype by AT_DISPATCH ----
// [marker: by_template]
template <typename scalar_t>
void double_in_place(scalar_t* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) data[i] *= 2;
}

void double_in_place_dispatched(const at::Tensor& t) {
  AT_DISPATCH_ALL_TYPES(t.scalar_type(), "double_in_place", [&] {
    double_in_place<scalar_t>(t.data_ptr<scalar_t>(), t.numel());  // scalar_t: float, double, int64_t, ...
  });
}
// [end marker: by_template]

int main() {
  at::Tensor f = at::ones({3}, at::kFloat), l = at::full({3}, 5, at::kLong), b = at::ones({2}, at::kShort);
  double_in_place_by_hand(f);
  double_in_place_dispatched(l);
  double_in_place_dispatched(b);  // int16 works too: the template needs no new code
  std::cout << "float: " << f.data_ptr<float>()[0] << ", long: " << l.data_ptr<int64_t>()[0]
            << ", short: " << b.data_ptr<int16_t>()[1] << std::endl;
  try {
    double_in_place_by_hand(b);
  } catch (const c10::Error& e) {
    std::cout << e.what_without_backtrace() << std::endl;
  }
  try {
    double_in_place_dispatched(at::ones({1}, at::kBool));
  } catch (const c10::Error& e) {
    std::cout << e.what_without_backtrace() << std::endl;
  }
  return 0;
}
