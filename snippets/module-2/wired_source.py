from attention_workshop.toy import wired_head
from attention_workshop.build.render import python_source

print(python_source(wired_head))
