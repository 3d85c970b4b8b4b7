"""A converted article and a request → what a draft on the platform is made of, before and
after it is sent.

``plan`` readies a draft on our side (``images``: fetched, re-encoded, uploaded, each one's
outcome; ``titles``: the title and whether the leading h1 goes; the cover); ``draftbody``
trims the content and draws the digest; ``preview`` writes the draft's fields and a dry
run's answer; ``checks`` collects the warnings every answer carries. It may import
``app.articles.convert``, ``app.articles.wechat``, ``app.articles.threads`` and the lower
rows of ``app``, never ``app.articles.service`` or ``app.articles.newspic``, which build on it.
"""
