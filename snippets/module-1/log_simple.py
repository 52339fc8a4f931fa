from attention_workshop.pages import log_excerpt

print(log_excerpt("simple"))
