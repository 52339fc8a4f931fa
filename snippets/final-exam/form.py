from workshop_site import exam_page

print(exam_page.form_html())
