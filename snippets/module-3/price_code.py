from attention_workshop import gpt2
from workshop_site.render import python_source

print(python_source(gpt2.attention_params))
