from attention_workshop.experiment.real_heads_md import bank_figure, bank_table

print(
    bank_figure(
        "bank's cosine across the bank sentences, going in and after each layer, "
        "beside its cosine with unrelated words."
    )
)
print(bank_table())
