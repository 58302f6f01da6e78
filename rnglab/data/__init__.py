"""Data shipped inside the package: the generator catalog (``catalog.toml``) and the batteries (``batteries.toml``).

Read them with :func:`importlib.resources.files`, ``files("rnglab.data") / "catalog.toml"``, so that
they resolve in a checkout, an editable install and an installed wheel alike.
"""
