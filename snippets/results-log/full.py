from attention_workshop.pages import log_page

print(log_page())
