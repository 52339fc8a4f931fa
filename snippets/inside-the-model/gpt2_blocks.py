from workshop_site.render import figure

print(
    figure(
        "gpt2-blocks.svg",
        "Rectangles drawn to one scale: GPT-2's c_attn and c_proj are large blocks; "
        "the toy's two matrices are specks beside them.",
        "One layer's weight matrices, GPT-2's and the toy's, drawn to the same scale.",
    )
)
