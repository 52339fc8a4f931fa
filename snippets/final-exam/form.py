from attention_workshop import exam

print(exam.form_html())
