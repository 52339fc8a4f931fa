# Where this copy of the site came from: generated at every build.
from workshop_site.pages import build_info
from workshop_site.render import md_table

info = build_info()
rows = [
    (name, f"`{info[name]}`")
    for name in (
        "commit",
        "python",
        "numpy",
        "torch",
        "matplotlib",
        "mkdocs",
        "mkdocs-material",
        "markdown-exec",
        "os",
    )
]
print(md_table(["built from", "version"], rows, align="ll"))
