from attention_workshop.lessons import wired_head
from attention_workshop.pages import python_source

print(python_source(wired_head))
