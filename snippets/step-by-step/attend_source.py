# The chapter's practice function, shown from the package's source.
from attention_workshop.build.render import python_source
from attention_workshop.handcalc import attend

print(python_source(attend))
