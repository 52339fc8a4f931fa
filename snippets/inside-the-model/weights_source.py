# How the toy input and weights are made: the package's own source, shown rather than retyped.
from attention_workshop import inside
from attention_workshop.build.render import python_source

print(python_source(inside.positions))
