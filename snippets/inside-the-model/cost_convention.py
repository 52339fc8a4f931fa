# How the page counts FLOPs, and the bias adds it leaves out (their share is checked in inside.py).
from attention_workshop.inside import cost_convention_text

print(cost_convention_text())
