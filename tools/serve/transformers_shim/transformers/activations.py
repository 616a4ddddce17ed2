"""transformers.activations.ACT2FN for the activation MiniMind uses."""
from torch import nn

ACT2FN = {"silu": nn.SiLU(), "gelu": nn.GELU(), "relu": nn.ReLU()}
