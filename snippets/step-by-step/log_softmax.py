from workshop_site.render import log_excerpt

print(log_excerpt("step_softmax"))
