# How the toy input's position numbers are made: the package's own source, shown rather than retyped.
from attention_workshop.chapters import inside_the_model
from workshop_site.render import python_source

print(python_source(inside_the_model.positions))
