# The run box's mount point; docs/assets/minilm/run.js adds the sentence box and the Run button.
from attention_workshop.experiment.real_heads_md import run_box_html

print(run_box_html())
