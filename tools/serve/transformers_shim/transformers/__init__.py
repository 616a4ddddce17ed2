"""A stand-in for the three names MiniMind's model/model_minimind.py imports from transformers,
so that Debian's python3-torch (which has no transformers package) can load the model file in
tests. Only what that file uses is here: a config that keeps its keyword arguments, a model base
class that is an nn.Module, and an empty GenerationMixin (MiniMind defines its own generate).
"""
from torch import nn


class PretrainedConfig:
    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)


class PreTrainedModel(nn.Module):
    config_class = PretrainedConfig

    def __init__(self, config, *args, **kwargs):
        super().__init__()
        self.config = config

    def post_init(self):
        pass


class GenerationMixin:
    pass
