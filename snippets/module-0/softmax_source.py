# The package's softmax, shown from its source.
from attention_workshop import softmax
from attention_workshop.pages import python_source

print(python_source(softmax))
