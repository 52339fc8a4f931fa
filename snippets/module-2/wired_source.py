from attention_workshop.build.render import python_source
from attention_workshop.toy import wired_head

print(python_source(wired_head))
