from attention_workshop.experiment.real_heads_md import head_figure

print(head_figure("it_tired", 'The same head when "it" was too tired…'))
print(head_figure("it_wide", "…and when it was too wide."))
