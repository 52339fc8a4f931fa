from attention_workshop.build.render import log_excerpt

print(log_excerpt("simple_limits"))
