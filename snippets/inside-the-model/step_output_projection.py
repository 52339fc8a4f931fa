# Step "output-projection" as static tables: its shapes and cost at both scales, then the toy matrices (head 1).
from attention_workshop.experiment.inside_html import static_step

print(static_step("output-projection"))
