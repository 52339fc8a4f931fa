from attention_workshop.build.render import log_page

print(log_page())
