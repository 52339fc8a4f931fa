# The chapter's practice function, shown from the package's source.
from attention_workshop.handcalc import attend
from attention_workshop.pages import python_source

print(python_source(attend))
