from attention_workshop.build import exam_page

print(exam_page.form_html())
