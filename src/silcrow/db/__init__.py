"""The one PostgreSQL layer: a pooled connection per DSN with bounded retries and clear errors
(:mod:`.database`), the migration runner (:mod:`.migrations`) and diacritic folding (:mod:`.fold`).

The domains' PostgreSQL backends sit in their own packages
(:mod:`silcrow.store.postgres`, :mod:`silcrow.recall.local`,
:mod:`silcrow.sessions`) and use this layer; it imports none of them. Needs
the ``postgres`` extra (``pip install 'silcrow[postgres]'``): psycopg 3,
psycopg_pool and pgvector. See the README's "Many hosts" section.
"""
