# The code that writes the PyTorch cross-check, shown from the experiment's own source.
from attention_workshop.build import torch_refs
from attention_workshop.build.render import python_source

print(python_source(torch_refs.compare_with_torch))
