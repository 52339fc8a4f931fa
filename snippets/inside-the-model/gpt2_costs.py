# GPT-2's per-token costs and score-grid sizes (computed from attention_workshop.gpt2, checked in inside.py).
from attention_workshop.inside import gpt2_costs_text

print(gpt2_costs_text())
