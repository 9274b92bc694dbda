"""torch/nn/modules/__init__.py - every layer class, gathered for torch.nn.

Mirrors PyTorch's torch/nn/modules/__init__.py. Guide: docs/source/internals/python_layer.rst.
"""

from .module import Module
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .linear import Bilinear, Identity, Linear
from .activation import ELU, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Tanh
from .activation import Hardtanh, Mish, MultiheadAttention, ReLU6, Softplus
from .flatten import Flatten, Unflatten
from .dropout import Dropout
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell
from .conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .batchnorm import BatchNorm1d, BatchNorm2d
from .normalization import GroupNorm, LayerNorm
from .sparse import Embedding
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)

__all__ = [
    "Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict",
    "Identity", "Linear", "Bilinear",
    "ReLU", "LeakyReLU", "ELU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
    "Flatten", "Unflatten", "Dropout",
    "L1Loss", "MSELoss", "SmoothL1Loss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss",
    "KLDivLoss",
    "RNNBase", "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell",
    "Conv1d", "Conv2d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "BatchNorm1d", "BatchNorm2d",
    "LayerNorm", "Embedding",
    "Hardtanh", "ReLU6", "Softplus", "Mish", "MultiheadAttention", "ConvTranspose1d", "ConvTranspose2d",
    "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "Upsample", "UpsamplingNearest2d",
    "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle", "Transformer", "TransformerEncoder",
    "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer",
]
