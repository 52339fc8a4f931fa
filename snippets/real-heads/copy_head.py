from attention_workshop.experiment.real_heads_md import head_figure

print(head_figure("copy", "The duplicate-token head on the repeated phrase."))
