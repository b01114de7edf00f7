"""PostgreSQL (with pgvector) as the shared storage of notes, recall and sessions.

Needs the ``postgres`` extra (``pip install 'silcrow[postgres]'``): psycopg 3,
psycopg_pool and pgvector. See the README's "Many hosts" section.
"""
