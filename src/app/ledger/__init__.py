"""The service database → API keys, credits, retries, rate limits and each process's liveness.

``credits`` holds the keys (``keys``) and their ledger, every balance change one row
(``movements``), and the holds of paid calls, which ``charge`` (``charged(...)``) is the one
place to take; ``idempotency`` keeps a retried request's first answer, ``ratelimit`` counts a
key's calls per minute, and ``owners`` names each process on its holds and frees the holds of
one that died; ``accounts`` keeps the WeChat accounts a key stored by name, their secrets
sealed by ``sealing`` (Fernet, the one door to ``cryptography``). ``database`` opens the
engine (``sqlite`` or ``postgres``, behind the ``Store`` of ``engine``) and ``migrations``
holds its schema. It may import ``app.settings``,
``app.errors`` and ``app.metrics`` (and the other rows below it), never the cards, the articles
or anything above them; every engine detail (sqlite3, psycopg) stays inside it. This door
imports nothing: ``inkcard mcp`` answers ``initialize`` before the database is loaded.
"""
