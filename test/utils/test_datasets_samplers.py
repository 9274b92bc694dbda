"""Datasets, random_split and the samplers: orders, lengths, errors.

Tests torch/utils/data/dataset.py and sampler.py. Guide: docs/source/internals/python_layer.rst
The expected orders were printed by PyTorch 2.x with the same seeds: a seeded generator
gives the same order here.
"""


import pytest
import torch
from torch.utils.data import (BatchSampler, ChainDataset, ConcatDataset, Dataset, IterableDataset,
                              RandomSampler, SequentialSampler, StackDataset, Subset,
                              SubsetRandomSampler, TensorDataset, WeightedRandomSampler, random_split)


def gen(seed):
    g = torch.Generator()
    g.manual_seed(seed)
    return g


class Range(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


# ---- datasets -------------------------------------------------------------------------

def test_tensor_dataset_indexes_every_tensor_along_dim0():
    x, y = torch.arange(6.).view(3, 2), torch.tensor([7, 8, 9])
    ds = TensorDataset(x, y)
    assert len(ds) == 3
    a, b = ds[1]
    assert a.tolist() == [2.0, 3.0] and b.item() == 8


def test_tensor_dataset_size_mismatch_raises():
    with pytest.raises(AssertionError, match="^Size mismatch between tensors$"):
        TensorDataset(torch.zeros(3), torch.zeros(4))


def test_base_dataset_getitem_is_abstract():
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement __getitem__."):
        Dataset()[0]


def test_subset_renumbers_indices():
    sub = Subset(list(range(10, 20)), [3, 0, 7])
    assert len(sub) == 3 and [sub[i] for i in range(3)] == [13, 10, 17]
    assert sub.__getitems__([2, 0]) == [17, 13]


def test_concat_dataset_locates_index_by_running_lengths():
    ds = ConcatDataset([[0, 1, 2], [10, 11], [20]])
    assert ds.cumulative_sizes == [3, 5, 6]
    assert [ds[i] for i in range(len(ds))] == [0, 1, 2, 10, 11, 20]
    assert ds[-1] == 20 and ds[-6] == 0


def test_concat_dataset_errors():
    with pytest.raises(AssertionError, match="datasets should not be an empty iterable"):
        ConcatDataset([])
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        ConcatDataset([Range(2)])
    with pytest.raises(ValueError, match="absolute value of index should not exceed dataset length"):
        ConcatDataset([[1, 2]])[-3]


def test_dataset_add_concatenates_and_iterable_add_chains():
    class L(Dataset):
        def __init__(self, items):
            self.items = items

        def __getitem__(self, i):
            return self.items[i]

        def __len__(self):
            return len(self.items)

    both = L([1, 2]) + L([3])
    assert isinstance(both, ConcatDataset) and [both[i] for i in range(3)] == [1, 2, 3]
    chained = Range(2) + Range(3)
    assert isinstance(chained, ChainDataset) and list(chained) == [0, 1, 0, 1, 2] and len(chained) == 5


def test_stack_dataset_tuple_and_dict_forms():
    assert StackDataset([1, 2], ["a", "b"])[1] == (2, "b")
    assert StackDataset(x=[1, 2], y=["a", "b"])[0] == {"x": 1, "y": "a"}
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset([1, 2], [1])
    with pytest.raises(ValueError, match="At least one dataset should be passed"):
        StackDataset()


# ---- random_split -----------------------------------------------------------------------

def test_random_split_lengths_matches_pytorch_order():
    a, b = random_split(range(10), [3, 7], generator=gen(42))
    assert a.indices == [2, 6, 1] and b.indices == [8, 4, 5, 0, 9, 3, 7]


def test_random_split_fractions_floor_then_round_robin_remainder():
    parts = random_split(range(11), [0.5, 0.3, 0.2], generator=gen(42))
    assert [len(p) for p in parts] == [6, 3, 2]
    assert [p.indices for p in parts] == [[6, 8, 9, 2, 1, 10], [0, 7, 3], [5, 4]]


def test_random_split_uses_default_generator():
    torch.manual_seed(42)
    first = [s.indices for s in random_split(range(10), [5, 5])]
    torch.manual_seed(42)
    assert [s.indices for s in random_split(range(10), [5, 5])] == first


def test_random_split_errors_and_empty_split_warning():
    with pytest.raises(ValueError, match="^Sum of input lengths does not equal the length of the input dataset!$"):
        random_split(range(10), [3, 3])
    with pytest.raises(ValueError, match="^Fraction at index 2 is not between 0 and 1$"):
        random_split(range(10), [0.5, 0.7, -0.2])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0. This might result in an empty dataset."):
        random_split(range(1), [0.5, 0.5], generator=gen(0))


# ---- samplers ---------------------------------------------------------------------------

def test_sequential_sampler():
    s = SequentialSampler(range(4))
    assert list(s) == [0, 1, 2, 3] and len(s) == 4


def test_random_sampler_permutation_matches_pytorch():
    assert list(RandomSampler(range(10), generator=gen(0))) == [4, 1, 7, 5, 3, 9, 0, 8, 6, 2]


def test_random_sampler_with_replacement_matches_pytorch():
    s = RandomSampler(range(10), replacement=True, num_samples=5, generator=gen(1))
    assert list(s) == [5, 9, 4, 8, 3] and len(s) == 5


def test_random_sampler_num_samples_beyond_length_repeats_permutations():
    assert list(RandomSampler(range(4), num_samples=10, generator=gen(2))) == [0, 1, 3, 2, 0, 3, 1, 2, 2, 0]


def test_random_sampler_without_generator_seeds_from_default_generator():
    torch.manual_seed(0)
    assert list(RandomSampler(range(6))) == [0, 1, 2, 3, 5, 4]


def test_random_sampler_errors():
    with pytest.raises(TypeError, match="^replacement should be a boolean value, but got replacement=0$"):
        RandomSampler(range(3), replacement=0)
    with pytest.raises(ValueError, match="^num_samples should be a positive integer value, but got num_samples=0$"):
        RandomSampler(range(0))


def test_subset_random_sampler_matches_pytorch():
    s = SubsetRandomSampler([10, 20, 30, 40], generator=gen(0))
    assert list(s) == [10, 20, 40, 30] and len(s) == 4


def test_weighted_random_sampler_matches_pytorch():
    s = WeightedRandomSampler([0.1, 0.5, 0.2, 0.2], 8, generator=gen(1))
    assert list(s) == [0, 1, 1, 1, 1, 1, 1, 2] and len(s) == 8


def test_weighted_random_sampler_without_replacement_draws_distinct_nonzero_indices():
    drawn = list(WeightedRandomSampler([1.0, 0.0, 3.0, 2.0], 3, replacement=False, generator=gen(0)))
    assert sorted(drawn) == [0, 2, 3]


def test_weighted_random_sampler_errors():
    with pytest.raises(ValueError, match="^num_samples should be a positive integer value, but got num_samples=True$"):
        WeightedRandomSampler([1.0], True)
    with pytest.raises(ValueError, match="^replacement should be a boolean value, but got replacement=1$"):
        WeightedRandomSampler([1.0], 1, replacement=1)
    with pytest.raises(ValueError, match=r"^weights should be a 1d sequence but given weights have shape \(2, 1\)$"):
        WeightedRandomSampler([[1.0], [2.0]], 1)


def test_batch_sampler_keeps_or_drops_the_short_last_batch():
    assert list(BatchSampler(range(7), 3, False)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert len(BatchSampler(range(7), 3, False)) == 3
    assert list(BatchSampler(range(7), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert len(BatchSampler(range(7), 3, True)) == 2


def test_batch_sampler_errors():
    with pytest.raises(ValueError, match="^batch_size should be a positive integer value, but got batch_size=0$"):
        BatchSampler(range(3), 0, False)
    with pytest.raises(ValueError, match="^drop_last should be a boolean value, but got drop_last=None$"):
        BatchSampler(range(3), 2, None)
