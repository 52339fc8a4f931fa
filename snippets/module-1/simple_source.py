from attention_workshop import simple_attention
from attention_workshop.build.render import python_source

print(python_source(simple_attention))
