"""The session: one run over a project, owned by one object (``session.run.Session``).

Discovery (``discovery``) -> summaries (through the caller's summarizer: cache, pack, workers) ->
index and analysis (``pipeline``), fully or incrementally (``incremental``, with the state it keeps:
``analysis_state``, ``table_digests``, ``class_graph``, ``stored_sites``) -> the findings made final
(``findings``) -> the re-analysis of a rewrite (``reanalysis``).  ``deadinit.api`` is its public face.
"""
