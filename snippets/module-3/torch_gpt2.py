from attention_workshop import experiment
from attention_workshop.pages import python_source

print(python_source(experiment.torch_gpt2_attention))
