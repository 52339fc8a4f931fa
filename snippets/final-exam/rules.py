from attention_workshop import exam

print(exam.intro_html())
