# The head exactly as the package defines it: shown from the source, never retyped.
from attention_workshop import attention
from workshop_site.render import python_source

print(python_source(attention))
