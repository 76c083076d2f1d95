"""The engine: one hand (:mod:`.hand`, :mod:`.validation`), tiles (:mod:`.tilelevel`), many hands
(:mod:`.batch`), one table's evening (:mod:`.session`)."""
