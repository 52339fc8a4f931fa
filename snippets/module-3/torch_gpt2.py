from attention_workshop.experiment import torch_refs
from workshop_site.render import python_source

print(python_source(torch_refs.torch_gpt2_attention))
