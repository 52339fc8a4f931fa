from attention_workshop.toy import wired_head
from workshop_site.render import python_source

print(python_source(wired_head))
