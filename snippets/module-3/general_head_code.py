# The code that writes the PyTorch cross-check, shown from the experiment's own source.
from attention_workshop.experiment import torch_refs
from workshop_site.render import python_source

print(python_source(torch_refs.compare_with_torch))
