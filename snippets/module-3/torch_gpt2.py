from attention_workshop.build import torch_refs
from attention_workshop.build.render import python_source

print(python_source(torch_refs.torch_gpt2_attention))
