from attention_workshop import simple_attention
from workshop_site.render import python_source

print(python_source(simple_attention))
