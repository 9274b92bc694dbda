// aten/src/ATen/native/Linear.cpp - tensordot and einsum: contractions as permute + reshape + mm/bmm.
// Mirrors PyTorch's aten/src/ATen/native/Linear.cpp (tensordot, einsum, sumproduct_pair).
// Guide: docs/source/internals/one_call.rst.
//
// einsum("bij,bjk->bik", a, b) lines every operand up on one list of dimensions (output
// labels first, then the labels summed away; a label an operand lacks is a size-1 dim),
// takes diagonals for repeated labels ("ii->i"), then multiplies the operands pairwise: in
// each pair the dims both share and keep become the bmm batch, the dims summed away the
// bmm inner dimension (sumproduct_pair). A label only one operand has is summed right away.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <numeric>
#include <string>

namespace at::native {
namespace {

int64_t prod(const std::vector<int64_t>& dims, const Tensor& t) {
  int64_t p = 1;
  for (auto d : dims) p *= t.size(d);
  return p;
}

// left * right (already broadcast-aligned: same number of dims), summed over sum_dims, the
// summed dims kept with size 1. The dims split three ways: lro (in both, kept: the bmm
// batch), lo / ro (only in left / right, kept: bmm rows / columns) and the summed ones
// (the bmm inner dimension).
Tensor sumproduct_pair(Tensor left, Tensor right, const std::vector<int64_t>& sum_dims_in) {
  const int64_t dim = left.dim();
  std::vector<bool> is_sum(dim, false);
  for (auto d : sum_dims_in) is_sum[d] = true;
  std::vector<int64_t> lro, lo, ro, sum_dims;
  for (int64_t i = 0; i < dim; i++) {
    const bool sl = left.size(i) != 1, sr = right.size(i) != 1;
    if (is_sum[i]) {
      if (sl && sr) {
        TORCH_CHECK(left.size(i) == right.size(i), "non-broadcast dimensions must match");
      } else if (sl) {
        left = left.sum(IntArrayRef{i}, /*keepdim=*/true);
      } else if (sr) {
        right = right.sum(IntArrayRef{i}, /*keepdim=*/true);
      }
      sum_dims.push_back(i);
    } else if (sl && sr) {
      TORCH_CHECK(left.size(i) == right.size(i), "non-broadcast dimensions must match");
      lro.push_back(i);
    } else if (sl) {
      lo.push_back(i);
    } else {
      ro.push_back(i);
    }
  }
  const int64_t lro_size = prod(lro, left), lo_size = prod(lo, left), ro_size = prod(ro, right);
  const int64_t sum_size = prod(sum_dims, left);
  std::vector<int64_t> out_size;
  for (auto d : lro) out_size.push_back(left.size(d));
  for (auto d : lo) out_size.push_back(left.size(d));
  for (size_t i = 0; i < sum_dims.size(); i++) out_size.push_back(1);
  for (auto d : ro) out_size.push_back(right.size(d));

  std::vector<int64_t> lperm(lro), rperm(lro);
  lperm.insert(lperm.end(), lo.begin(), lo.end());
  lperm.insert(lperm.end(), sum_dims.begin(), sum_dims.end());
  lperm.insert(lperm.end(), ro.begin(), ro.end());
  rperm.insert(rperm.end(), sum_dims.begin(), sum_dims.end());
  rperm.insert(rperm.end(), ro.begin(), ro.end());
  rperm.insert(rperm.end(), lo.begin(), lo.end());
  std::vector<int64_t> operm(dim, -1);
  int64_t i = 0;
  for (auto d : lro) operm[d] = i++;
  for (auto d : lo) operm[d] = i++;
  for (auto d : sum_dims) operm[d] = i++;
  for (auto d : ro) operm[d] = i++;

  left = left.permute(lperm).reshape({lro_size, lo_size, sum_size});
  right = right.permute(rperm).reshape({lro_size, sum_size, ro_size});
  return at::bmm(left, right).view(out_size).permute(operm);
}

constexpr int kTotalLabels = 52;  // a-z, A-Z
constexpr int kEllipsis = kTotalLabels;

// Labels in ASCII order (A-Z, then a-z): the order of an implicit output, as in numpy.
int label_to_subscript(char c) {
  return std::isupper(static_cast<unsigned char>(c)) ? c - 'A' : c - 'a' + 26;
}
char subscript_to_label(int s) {
  return static_cast<char>(s < 26 ? 'A' + s : 'a' + s - 26);
}

}  // namespace

// ---- tensordot ----

Tensor tensordot(const Tensor& input1, const Tensor& input2, IntArrayRef dims1, IntArrayRef dims2) {
  TORCH_CHECK(dims1.size() == dims2.size(), "both dimension lists should have same length");
  TORCH_CHECK(input1.scalar_type() == input2.scalar_type(), "both inputs should have same dtype");
  int64_t csize = 1;  // the size of the contracted dimensions, all together
  Tensor t1 = input1, t2 = input2;
  std::vector<int64_t> d1, d2;
  for (size_t i = 0; i < dims1.size(); i++) {
    d1.push_back(c10::maybe_wrap_dim(dims1[i], input1.dim()));
    d2.push_back(c10::maybe_wrap_dim(dims2[i], input2.dim()));
    const int64_t s1 = input1.size(d1.back()), s2 = input2.size(d2.back());
    if (s2 == 1) {  // a broadcast dimension is summed right away
      t1 = t1.sum(IntArrayRef{d1.back()}, /*keepdim=*/true);
    } else if (s1 == 1) {
      t2 = t2.sum(IntArrayRef{d2.back()}, /*keepdim=*/true);
    } else {
      TORCH_CHECK(s1 == s2, "contracted dimensions need to match, but first has size ", s1, " in dim ", dims1[i],
                  " and second has size ", s2, " in dim ", dims2[i]);
      csize *= s1;
    }
  }
  // Permute the kept dims of input1 to the front and its contracted ones to the back (and
  // the reverse for input2): the contraction is then one (size1 x csize) @ (csize x size2).
  std::vector<int64_t> p1, p2, rsizes;
  int64_t size1 = 1, size2 = 1;
  for (int64_t i = 0; i < input1.dim(); i++) {
    if (std::find(d1.begin(), d1.end(), i) == d1.end()) {
      p1.push_back(i);
      size1 *= t1.size(i);
      rsizes.push_back(t1.size(i));
    }
  }
  p1.insert(p1.end(), d1.begin(), d1.end());
  p2.insert(p2.end(), d2.begin(), d2.end());
  for (int64_t i = 0; i < input2.dim(); i++) {
    if (std::find(d2.begin(), d2.end(), i) == d2.end()) {
      p2.push_back(i);
      size2 *= t2.size(i);
      rsizes.push_back(t2.size(i));
    }
  }
  t1 = t1.permute(p1).reshape({size1, csize});
  t2 = t2.permute(p2).reshape({csize, size2});
  return at::mm(t1, t2).view(rsizes);
}

// ---- einsum ----

Tensor einsum(c10::string_view equation_view, TensorList operands, at::OptionalIntArrayRef path) {
  (void)path;  // the contraction order is left to right (PyTorch's default without opt_einsum)
  TORCH_CHECK(!operands.empty(), "einsum(): must provide at least one operand");
  const std::string equation(equation_view.data(), equation_view.size());
  const auto arrow_pos = equation.find("->");
  const std::string lhs = equation.substr(0, arrow_pos);
  const int64_t num_ops = static_cast<int64_t>(operands.size());

  // 1. Parse the subscripts of each operand (kEllipsis marks "...").
  std::vector<std::vector<int>> op_labels(num_ops);
  std::array<int64_t, kTotalLabels> label_count{};
  int64_t ell_num_dim = 0;
  int64_t curr_op = 0;
  bool found_ell = false;
  for (size_t i = 0; i < lhs.size(); i++) {
    const char c = lhs[i];
    if (c == ' ') continue;
    if (c == '.') {
      TORCH_CHECK(!found_ell, "einsum(): found '.' for operand ", curr_op,
                  " for which an ellipsis was already found");
      TORCH_CHECK(i + 2 < lhs.size() && lhs[++i] == '.' && lhs[++i] == '.', "einsum(): found '.' for operand ",
                  curr_op, " that is not part of any ellipsis");
      op_labels[curr_op].push_back(kEllipsis);
      found_ell = true;
    } else if (c == ',') {
      curr_op++;
      TORCH_CHECK(curr_op < num_ops, "einsum(): fewer operands were provided than specified in the equation");
      found_ell = false;
    } else {
      TORCH_CHECK(std::isalpha(static_cast<unsigned char>(c)), "einsum(): invalid subscript given at index ", i,
                  " in the equation string, subscripts must be in [a-zA-Z]");
      const int s = label_to_subscript(c);
      label_count[s]++;
      op_labels[curr_op].push_back(s);
    }
  }
  TORCH_CHECK(curr_op == num_ops - 1, "einsum(): more operands were provided than specified in the equation");
  for (int64_t i = 0; i < num_ops; i++) {
    const auto& labels = op_labels[i];
    const int64_t ndims = operands[i].dim();
    const bool has_ell = std::find(labels.begin(), labels.end(), kEllipsis) != labels.end();
    const int64_t nlabels = static_cast<int64_t>(labels.size()) - (has_ell ? 1 : 0);
    if (has_ell) {
      TORCH_CHECK(nlabels <= ndims, "einsum(): the number of subscripts in the equation (", nlabels,
                  ") is more than the number of dimensions (", ndims, ") for operand ", i);
      ell_num_dim = std::max(ell_num_dim, ndims - nlabels);
    } else {
      TORCH_CHECK(nlabels == ndims, "einsum(): the number of subscripts in the equation (", nlabels,
                  ") does not match the number of dimensions (", ndims, ") for operand ", i,
                  " and no ellipsis was given");
    }
  }

  // 2. The output labels: as written after "->", or (implicit) those seen once, sorted,
  //    after the ellipsis dims. perm_index[label] is the label's dim in the aligned layout.
  std::array<int64_t, kTotalLabels> label_perm_index;
  label_perm_index.fill(-1);
  int64_t perm_index = 0;
  int64_t ell_index = 0;
  bool output_has_ell = false;
  if (arrow_pos == std::string::npos) {
    ell_index = 0;
    perm_index = ell_num_dim;
    output_has_ell = true;
    for (int s = 0; s < kTotalLabels; s++) {
      if (label_count[s] == 1) label_perm_index[s] = perm_index++;
    }
  } else {
    const std::string rhs = equation.substr(arrow_pos + 2);
    for (size_t i = 0; i < rhs.size(); i++) {
      const char c = rhs[i];
      if (c == ' ') continue;
      if (c == '.') {
        TORCH_CHECK(!output_has_ell, "einsum(): found '.' for output but an ellipsis was already found");
        TORCH_CHECK(i + 2 < rhs.size() && rhs[++i] == '.' && rhs[++i] == '.',
                    "einsum(): found '.' for output that is not part of any ellipsis");
        ell_index = perm_index;
        perm_index += ell_num_dim;
        output_has_ell = true;
        continue;
      }
      TORCH_CHECK(std::isalpha(static_cast<unsigned char>(c)), "einsum(): invalid subscript given at index ",
                  lhs.size() + 2 + i, " in the equation string, subscripts must be in [a-zA-Z]");
      const int s = label_to_subscript(c);
      TORCH_CHECK(label_perm_index[s] == -1, "einsum(): output subscript ", c, " appears more than once in the output");
      TORCH_CHECK(label_count[s] > 0, "einsum(): output subscript ", c,
                  " does not appear in the equation for any input operand");
      label_perm_index[s] = perm_index++;
    }
  }
  const int64_t out_num_dim = perm_index;
  if (!output_has_ell) {  // ellipsis dims not in the output are summed away
    ell_index = perm_index;
    perm_index += ell_num_dim;
  }
  for (int s = 0; s < kTotalLabels; s++) {
    if (label_count[s] > 0 && label_perm_index[s] == -1) label_perm_index[s] = perm_index++;
  }
  const int64_t total_dims = perm_index;

  // 3. Align every operand to the layout: diagonals for repeated labels, permute, and a
  //    size-1 dim for each label (or ellipsis dim) the operand lacks.
  std::vector<Tensor> aligned;
  for (int64_t i = 0; i < num_ops; i++) {
    Tensor op = operands[i];
    std::vector<int64_t> perm_shape(total_dims, -1);
    std::vector<int> labels;  // one per dim of op, -1 - k for ellipsis dim k
    for (int s : op_labels[i]) {
      if (s == kEllipsis) {
        const int64_t n_ell = op.dim() - (static_cast<int64_t>(op_labels[i].size()) - 1);
        for (int64_t k = 0; k < n_ell; k++) labels.push_back(-1 - static_cast<int>(ell_num_dim - n_ell + k));
      } else {
        labels.push_back(s);
      }
    }
    // Repeated labels ("ii"): take the diagonal, which goes to the last dim.
    for (bool repeated = true; repeated;) {
      repeated = false;
      for (size_t a = 0; a < labels.size() && !repeated; a++) {
        for (size_t b = a + 1; b < labels.size() && !repeated; b++) {
          if (labels[a] >= 0 && labels[a] == labels[b]) {
            TORCH_CHECK(op.size(a) == op.size(b), "einsum(): subscript ", subscript_to_label(labels[a]),
                        " is repeated for operand ", i, " but the sizes don't match, ", op.size(a), " != ",
                        op.size(b));
            op = op.diagonal(0, a, b);
            const int l = labels[a];
            labels.erase(labels.begin() + b);
            labels.erase(labels.begin() + a);
            labels.push_back(l);
            repeated = true;
          }
        }
      }
    }
    std::vector<int64_t> perm;
    std::vector<int64_t> position(total_dims, -1);
    for (size_t d = 0; d < labels.size(); d++) {
      position[labels[d] >= 0 ? label_perm_index[labels[d]] : ell_index + (-1 - labels[d])] = d;
    }
    // Permute the dims it has into layout order, then unsqueeze the missing ones.
    for (int64_t p = 0; p < total_dims; p++) {
      if (position[p] >= 0) perm.push_back(position[p]);
    }
    op = op.permute(perm);
    for (int64_t p = 0; p < total_dims; p++) {
      if (position[p] < 0) op = op.unsqueeze(p);
    }
    aligned.push_back(op);
  }

  // 4. Multiply left to right; a summed dim is summed as soon as no later operand has it.
  auto has_dim = [&](const Tensor& t, int64_t d) { return t.size(d) != 1; };
  Tensor result = aligned[0];
  for (int64_t i = 1; i <= num_ops; i++) {
    std::vector<int64_t> sum_dims;
    for (int64_t d = out_num_dim; d < total_dims; d++) {
      bool later = false;
      for (int64_t j = i + 1; j < num_ops; j++) later = later || has_dim(aligned[j], d);
      if (!later) sum_dims.push_back(d);
    }
    if (i == num_ops) {
      for (auto d : sum_dims) {
        if (result.size(d) != 1) result = result.sum(IntArrayRef{d}, /*keepdim=*/true);
      }
      break;
    }
    // Broadcast checks for dims both have (sizes differ, neither is 1).
    const Tensor& right = aligned[i];
    for (int64_t d = 0; d < total_dims; d++) {
      TORCH_CHECK(result.size(d) == right.size(d) || result.size(d) == 1 || right.size(d) == 1,
                  "einsum(): operands do not broadcast with remapped shapes (original->remapped): ",
                  operands[i - 1].sizes(), "->", result.sizes(), " ", operands[i].sizes(), "->", right.sizes());
    }
    result = sumproduct_pair(result, right, sum_dims);
  }
  // 5. Drop the summed (now size-1) dims; a plain view when out_num_dim == total_dims.
  std::vector<int64_t> out_shape(result.sizes().begin(), result.sizes().begin() + out_num_dim);
  if (num_ops == 1 && out_num_dim == total_dims && result.is_same(operands[0])) {
    return result;
  }
  return result.as_strided(out_shape,
                           std::vector<int64_t>(result.strides().begin(), result.strides().begin() + out_num_dim),
                           result.storage_offset());
}

// aten::linear: y = x W^T + b. A 2-D input with a bias is one addmm; a contiguous N-D input
// with a 1-D bias is flattened to 2-D for the addmm and viewed back (PyTorch's
// _flatten_nd_linear); everything else is matmul, then the bias added in place.
Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt) {
  const int64_t input_dim = input.dim();
  const int64_t weight_dim = weight.dim();
  TORCH_CHECK(input_dim != 0 && weight_dim != 0, "both arguments to linear need to be at least 1D, but they are ",
              input_dim, "D and ", weight_dim, "D");
  const bool has_bias = bias_opt.has_value() && bias_opt->defined();
  if (input_dim == 2 && has_bias) {
    return at::addmm(*bias_opt, input, weight.t());
  }
  if (has_bias && input.is_contiguous() && (input_dim == 3 || bias_opt->dim() == 1)) {
    int64_t rows = 1;
    for (int64_t i = 0; i < input_dim - 1; i++) rows *= input.size(i);
    const Tensor flat = input.reshape({rows, input.size(-1)});
    const Tensor result = at::addmm(*bias_opt, flat, weight.t());
    std::vector<int64_t> sizes(input.sizes().begin(), input.sizes().end() - 1);
    sizes.push_back(result.size(1));
    return result.view(sizes);
  }
  Tensor output = at::matmul(input, weight.t());
  if (has_bias) {
    output.add_(*bias_opt);
  }
  return output;
}

}  // namespace at::native
