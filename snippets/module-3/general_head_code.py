# The code that writes the PyTorch cross-check, shown from the experiment's own source.
from attention_workshop import experiment
from attention_workshop.pages import python_source

print(python_source(experiment.compare_with_torch))
