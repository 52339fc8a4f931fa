# The package's softmax, shown from its source.
from attention_workshop import softmax
from workshop_site.render import python_source

print(python_source(softmax))
