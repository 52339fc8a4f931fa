# How the toy input's position numbers are made: the package's own source, shown rather than retyped.
from attention_workshop.build.render import python_source
from attention_workshop.chapters import inside_the_model

print(python_source(inside_the_model.positions))
