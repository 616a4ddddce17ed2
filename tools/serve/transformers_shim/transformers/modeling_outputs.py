"""transformers.modeling_outputs.MoeCausalLMOutputWithPast as a plain record."""


class MoeCausalLMOutputWithPast:
    def __init__(self, **fields):
        self.__dict__.update(fields)
