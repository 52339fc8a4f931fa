from attention_workshop import gpt2
from attention_workshop.build.render import python_source

print(python_source(gpt2.attention_params))
