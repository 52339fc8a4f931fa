# Every sentence's 72 heads as a picture, with the table of their classes (no JavaScript needed).
from attention_workshop.experiment.real_heads_md import grid_parts

for part in grid_parts():
    print(part)
